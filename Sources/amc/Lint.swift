import AutoMagicCoding
import Foundation

let lintCommand = Command(
    name: "lint",
    usage: """
        amc lint FILE...
          Check that each file is well-formed JSON or property list and that every reference in
          it names an object: prints FILE: OK, or the error with its line and column (or byte
          offset), or each reference that names no object with its key path. Exit status 1 if any
          file fails. FILE - is standard input.
        """,
    run: lint)

func lint(_ arguments: [String]) -> Never {
    guard !arguments.isEmpty else { usageError("lint", "no files") }
    if let option = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
        usageError("lint", "unknown option '\(option)'")
    }
    if arguments.filter({ $0 == "-" }).count > 1 { usageError("lint", "standard input (-) can be read once") }
    var failed = false
    for path in arguments {
        let name = path == "-" ? "<stdin>" : path
        guard let data = contents(of: path) else {
            print("\(path): cannot read the file: \(whyUnreadable(path))")
            failed = true
            continue
        }
        do {
            try AMC.lint(data)
            print("\(name): OK")
        } catch {
            print("\(name): \(error)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
