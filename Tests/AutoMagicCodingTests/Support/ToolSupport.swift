import Foundation
import Testing

/// The built `amc` executable, next to the test bundle.
enum AMCBinary {
    static let url = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("amc")

    /// Runs `amc` with `arguments` (in `folder`, when given, with `input` on its standard input):
    /// exit status, standard output, standard error.
    static func run(_ arguments: [String], in folder: URL? = nil, input: Data? = nil) throws -> (Int32, String, String) {
        let (status, output, error) = try runForData(arguments, in: folder, input: input)
        return (status, String(decoding: output, as: UTF8.self), error)
    }

    /// As ``run(_:in:input:)``, with standard output as bytes (a binary property list, say).
    static func runForData(_ arguments: [String], in folder: URL? = nil, input: Data? = nil) throws -> (Int32, Data, String) {
        let process = try start(arguments, in: folder, input: input != nil)
        if let input, let pipe = process.standardInput as? Pipe {
            // Written from another thread: a large input would fill the pipe while amc writes.
            let writer = Thread {
                pipe.fileHandleForWriting.write(input)
                try? pipe.fileHandleForWriting.close()
            }
            writer.start()
        }
        let out = (process.standardOutput as! Pipe).fileHandleForReading.readDataToEndOfFile()
        let err = (process.standardError as! Pipe).fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    static func start(_ arguments: [String], in folder: URL? = nil, input: Bool = false) throws -> Process {
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "build amc first: swift build")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.currentDirectoryURL = folder
        if input { process.standardInput = Pipe() }
        process.standardOutput = Pipe()
        process.standardError = Pipe()
        try process.run()
        return process
    }
}

/// Golden files for the `amc` tool: one file per run holding the command, its exit status, and
/// what it printed to standard output and standard error, compared verbatim. Run the tests with
/// `RECORD_SNAPSHOTS=1` to write them anew (then read the diff before committing).
enum Snapshot {
    static let folder = FixtureFiles.packageRoot.appendingPathComponent("Tests/Snapshots/amc")

    /// What the golden file `name` records the command printing to standard output.
    static func output(of name: String) throws -> String {
        let text = try String(contentsOf: folder.appendingPathComponent(name + ".txt"), encoding: .utf8)
        let start = try #require(text.range(of: "--- stdout\n")).upperBound
        let end = try #require(text.range(of: "--- stderr\n", range: start..<text.endIndex)).lowerBound
        return String(text[start..<end])
    }

    static func check(
        _ name: String, _ arguments: [String], in directory: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let (status, output, error) = try AMCBinary.run(arguments, in: directory)
        let text = "$ amc \(arguments.joined(separator: " "))\nstatus: \(status)\n--- stdout\n\(output)--- stderr\n\(error)"
        let file = folder.appendingPathComponent(name + ".txt")
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
            return
        }
        let expected = try String(contentsOf: file, encoding: .utf8)
        #expect(
            text == expected, "\(name): differs from \(file.path); RECORD_SNAPSHOTS=1 writes it anew",
            sourceLocation: sourceLocation)
    }
}
