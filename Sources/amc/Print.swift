import AutoMagicCoding
import Foundation

let printCommand = Command(
    name: "print",
    usage: """
        amc print FILE
          Print a file as a readable tree of class names, keys and values, like plutil -p.
          FILE - is standard input.
        """,
    run: printTree)

func printTree(_ arguments: [String]) -> Never {
    guard arguments.count == 1, let path = arguments.first else {
        usageError("print", arguments.isEmpty ? "no file" : "one file at a time")
    }
    if path.hasPrefix("-"), path != "-" { usageError("print", "unknown option '\(path)'") }
    do {
        print(try AMC.printedTree(of: readInput(path, "print")), terminator: "")
        exit(0)
    } catch {
        fail("amc print: \(path): \(error)", status: 1)
    }
}
