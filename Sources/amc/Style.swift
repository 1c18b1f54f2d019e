import AutoMagicCoding
import Foundation

let styleCommand = Command(
    name: "style",
    usage: """
        amc style FILE --check
          Check a stylesheet (JSON or property list): its syntax, its "styles" and each
          "extends". Prints the named styles resolved, with what they extend merged in, or the
          error. Exit status 1 if the stylesheet is bad.
        """,
    run: style)

func style(_ arguments: [String]) -> Never {
    let files = arguments.filter { $0 != "--check" }
    if let option = files.first(where: { $0.hasPrefix("-") }) { usageError("style", "unknown option '\(option)'") }
    guard arguments.contains("--check") else { usageError("style", "--check is required") }
    guard files.count == 1, let path = files.first else { usageError("style", files.isEmpty ? "no file" : "one file at a time") }
    do {
        let sheet = try AMCStylesheet(contentsOf: URL(fileURLWithPath: path))
        print("\(path): OK, \(sheet.entries.count) key-path entries, \(sheet.styles.count) named styles")
        if !sheet.styles.isEmpty { print(sheet.printedStyles) }
        exit(0)
    } catch {
        fail("amc style: \(error)", status: 1)
    }
}
