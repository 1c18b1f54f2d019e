import AutoMagicCoding
import Foundation

// What the commands share: failing with a message, reading inputs, writing outputs.

/// Prints `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

/// A wrong argument: one line saying what, then the command's usage; exit status 2.
func usageError(_ command: String, _ message: String) -> Never {
    fail("amc \(command): \(message)\nusage: \(usages[command]!)", status: 2)
}

/// The bytes of `path`, or of standard input for `-`; nil when the file cannot be read.
func contents(of path: String) -> Data? {
    path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try? Data(contentsOf: URL(fileURLWithPath: path))
}

/// Why the file at `path` cannot be read, for a message: no such file, a folder, no permission.
func whyUnreadable(_ path: String) -> String {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
    if isFolder.boolValue { return "it is a folder" }
    return FileManager.default.isReadableFile(atPath: path) ? "reading failed" : "permission denied"
}

/// Format names `amc` takes: its own, and `plutil`'s.
let formatNames: [String: AMCFormat] = [
    "json": .json, "xml": .xmlPropertyList, "binary": .binaryPropertyList,
    "xml1": .xmlPropertyList, "binary1": .binaryPropertyList,
]

/// The bytes of `path`, or of standard input for `-`.
func readInput(_ path: String, _ command: String) -> Data {
    guard let data = contents(of: path) else { fail("amc \(command): cannot read \(path): \(whyUnreadable(path))", status: 1) }
    return data
}

/// Prints `message` to standard error.
func report(_ message: String) {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
}

/// The options of the commands that read one document: its path, and what is left.
struct DocumentArguments {
    var file: String?
    var output: String?
    var silent = false
    var noNewline = false
    var append = false
    var textForDatesAndData = false
    var expect: String?
    var type: String?
    /// The arguments that are not options, in order.
    var positional: [String] = []

    init(_ command: String, _ arguments: [String], options: Set<String>) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--":
                positional.append(contentsOf: rest)  // the rest are values and files, even those starting with -
                rest = []
            case "-o" where options.contains("-o"):
                guard let path = rest.popFirst() else { usageError(command, "-o needs a file name (- for standard output)") }
                output = path
            case "--expect" where options.contains("--expect"):
                guard let name = rest.popFirst() else { usageError(command, "--expect needs a type") }
                expect = name
            case "--type" where options.contains("--type"):
                guard let name = rest.popFirst() else { usageError(command, "--type needs a type") }
                type = name
            case "-s" where options.contains("-s"): silent = true
            case "-n" where options.contains("-n"): noNewline = true
            case "--append" where options.contains("--append"): append = true
            case "--dates-and-data-as-text" where options.contains("--dates-and-data-as-text"): textForDatesAndData = true
            case _ where argument.hasPrefix("-") && argument != "-" && !(argument.dropFirst().first?.isNumber ?? false):
                usageError(command, "unknown option '\(argument)'")
            default:
                positional.append(argument)
            }
        }
    }
}

/// The document at `path` (`-`: standard input), or the error and exit status 1.
func readDocument(_ path: String, _ command: String) -> AMCDocument {
    do {
        return try AMCDocument(data: readInput(path, command))
    } catch {
        fail("amc \(command): \(path == "-" ? "standard input" : path): \(explained(error))", status: 1)
    }
}

/// Writes `data` to `target` (`-`: standard output), atomically; says so unless `silent`.
func writeOutput(_ data: Data, to target: String, format: AMCFormat, silent: Bool) throws {
    if target == "-" {
        FileHandle.standardOutput.write(data)
    } else {
        try AMC.write(data: data, to: URL(fileURLWithPath: target))
        if !silent { print("wrote \(target) (\(format), \(data.count) bytes)") }
    }
}
