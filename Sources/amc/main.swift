import AMCExample
import Foundation

// The `amc` command: argument handling and printing only.

let usage = """
    usage: amc demo [FOLDER]
      demo    archive the sample company to FOLDER/company.plist (default: a fresh temporary
              folder), read it back, and check the copy equals the original field by field
    """

/// Prints `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "demo":
    arguments.removeFirst()
    if arguments.first == "--help" || arguments.first == "-h" {
        print(usage)
        exit(0)
    }
    guard arguments.count <= 1 else { fail("amc demo: too many arguments\n\(usage)", status: 2) }
    do {
        let report = try Demo.run(in: arguments.first.map { URL(fileURLWithPath: $0, isDirectory: true) })
        print(report.summary)
        exit(report.differences.isEmpty ? 0 : 1)
    } catch {
        fail("amc demo: \(error)", status: 1)
    }
case "--help", "-h", "help":
    print(usage)
case let command?:
    fail("amc: unknown command '\(command)'\n\(usage)", status: 2)
case nil:
    fail(usage, status: 2)
}
