import AutoMagicCoding
import Foundation

let markupCommand = Command(
    name: "markup",
    usage: """
        amc markup check FILE... | amc markup print FILE
          check: read each markup file with what it includes: its XML, its includes, its <?if?>
          blocks and its limits. Prints OK with the element count, or the error, for each file.
          Exit status 1 if any file is bad. (Which types and properties the elements name is
          checked by AMCMarkup.check in the app, where the types are.)
          print: the element tree after includes, one element a line.
        """,
    run: markup)

func markup(_ arguments: [String]) -> Never {
    guard let subcommand = arguments.first, ["check", "print"].contains(subcommand) else {
        usageError("markup", arguments.first.map { "unknown subcommand '\($0)'" } ?? "no subcommand: check or print")
    }
    let files = Array(arguments.dropFirst())
    if let option = files.first(where: { $0.hasPrefix("-") }) { usageError("markup", "unknown option '\(option)'") }
    guard !files.isEmpty else { usageError("markup", "no file") }
    if subcommand == "print" {
        guard files.count == 1 else { usageError("markup", "print takes one file") }
        do {
            print(try AMCMarkup(contentsOf: URL(fileURLWithPath: files[0])).printedTree)
            exit(0)
        } catch {
            fail("amc markup: \(error)", status: 1)
        }
    }
    var failed = false
    for path in files {
        do {
            let markup = try AMCMarkup(contentsOf: URL(fileURLWithPath: path))
            print("\(path): OK, \(markup.elementCount) elements")
        } catch {
            print("\(path): \(error)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
