import Foundation

/// A program run to its end in a process of its own, with the most memory it held: the way to
/// measure what reading a file costs, apart from what the measuring process holds. It runs
/// through the `PeakMemory` executable, found beside the program it measures (`swift build`
/// builds both) or in the folder given (to measure a program of the system, such as `plutil`).
///
/// ```swift
/// let run = try MeasuredRun(executable: ".build/release/amc", arguments: ["lint", "company.json"])
/// print(run.status, run.output, run.peakBytes)  // 0 company.json: OK 21893120
/// ```
public struct MeasuredRun: Sendable {
    /// The exit status, or 128 + the signal that ended it.
    public let status: Int32
    /// What it wrote to standard output.
    public let output: String
    /// Its peak resident set size, in bytes.
    public let peakBytes: Int

    /// Runs `executable` with `arguments` and waits for it; standard error is left out. The
    /// `PeakMemory` program is looked for in `tools`, the folder of `executable` by default.
    public init(executable: String, arguments: [String], tools: String? = nil) throws {
        let folder = tools.map { URL(fileURLWithPath: $0) } ?? URL(fileURLWithPath: executable).deletingLastPathComponent()
        let peakMemory = folder.appendingPathComponent("PeakMemory")
        guard FileManager.default.isExecutableFile(atPath: peakMemory.path) else {
            throw CocoaError(
                .executableNotLoadable,
                userInfo: [
                    NSLocalizedDescriptionKey: "no PeakMemory beside \(executable): build it, swift build [-c release]"
                ])
        }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("amc-peak-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = peakMemory
        process.arguments = [report.path, executable] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let fields = ((try? String(contentsOf: report, encoding: .utf8)) ?? "").split(separator: " ")
        guard process.terminationStatus == 0, fields.count == 2, let status = Int32(fields[0]),
            let peak = Int(fields[1].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "PeakMemory could not run \(executable)"])
        }
        self.status = status
        self.peakBytes = peak
        self.output = String(decoding: printed, as: UTF8.self)
    }
}
