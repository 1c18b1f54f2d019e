import AMCExample
import Foundation

// The `amc` command: argument handling and printing only.

let usage = """
    usage: amc demo [FOLDER]
      demo    archive the sample company to FOLDER/company.plist (default: a fresh temporary
              folder), read it back, and check the copy equals the original field by field
    """

var arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "demo":
    arguments.removeFirst()
    if arguments.first == "--help" || arguments.first == "-h" {
        print(usage)
        exit(0)
    }
    guard arguments.count <= 1 else {
        FileHandle.standardError.write(Data("amc demo: too many arguments\n\(usage)\n".utf8))
        exit(2)
    }
    do {
        let report = try Demo.run(in: arguments.first.map { URL(fileURLWithPath: $0, isDirectory: true) })
        print(report.summary)
        exit(report.differences.isEmpty ? 0 : 1)
    } catch {
        FileHandle.standardError.write(Data("amc demo: \(error)\n".utf8))
        exit(1)
    }
case "--help", "-h", "help":
    print(usage)
case let command?:
    FileHandle.standardError.write(Data("amc: unknown command '\(command)'\n\(usage)\n".utf8))
    exit(2)
case nil:
    FileHandle.standardError.write(Data("\(usage)\n".utf8))
    exit(2)
}
