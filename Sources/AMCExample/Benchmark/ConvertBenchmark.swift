import AutoMagicCoding
import Foundation

/// `amc bench --plutil`: `amc convert` against Foundation's `plutil -convert` on one large
/// generated XML property list, each a whole process (start, read, convert, write), alternating,
/// with the peak memory of each.
///
/// ```swift
/// print(try ConvertBenchmark.run(amc: ".build/release/amc", plutil: "/opt/swift/usr/bin/plutil"))
/// ```
public enum ConvertBenchmark {
    /// Records in the generated file: about 32 MB of XML.
    public static let defaultRecords = 60_000

    /// Where `plutil` is: on the `PATH`, or beside the toolchain's `swift`; nil without one.
    public static var plutil: String? {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
        return (folders + ["/opt/swift/usr/bin", "/usr/bin"]).map { $0 + "/plutil" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// The generated document: `records` dictionaries of strings, numbers, a date, a flag, tags
    /// and a nested dictionary, as an XML property list.
    public static func document(records: Int) throws -> Data {
        var entries: [[String: Any]] = []
        entries.reserveCapacity(records)
        for index in 0..<records {
            entries.append([
                "id": index, "name": "Record \(index)", "email": "user\(index)@example.com",
                "score": Double(index % 1_000) / 7, "active": index % 3 != 0,
                "created": Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 60),
                "tags": ["tag\(index % 10)", "group\(index % 7)"],
                "address": ["city": "City \(index % 50)", "zip": String(format: "%05d", index % 99_999)],
            ])
        }
        return try PropertyListSerialization.data(fromPropertyList: ["records": entries], format: .xml, options: 0)
    }

    /// The table: median time and peak memory of each tool converting the file to a binary
    /// property list, and the ratios, over `repetitions` runs of each, alternating.
    public static func run(amc: String, plutil: String, records: Int = defaultRecords, repetitions: Int = 5) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-convert-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("records.plist")
        try document(records: records).write(to: input)
        let size = try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int ?? 0
        let tools: [(name: String, executable: String, arguments: [String])] = [
            (
                "plutil -convert binary1", plutil,
                ["-convert", "binary1", "-o", folder.appendingPathComponent("plutil.plist").path, input.path]
            ),
            (
                "amc convert --to binary", amc,
                ["convert", input.path, "--to", "binary", "-s", "-o", folder.appendingPathComponent("amc.plist").path]
            ),
        ]
        var times: [[Double]] = [[], []]
        var peaks: [[Int]] = [[], []]
        for _ in 0..<repetitions {
            for (index, tool) in tools.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                let run = try MeasuredRun(
                    executable: tool.executable, arguments: tool.arguments,
                    tools: URL(fileURLWithPath: amc).deletingLastPathComponent().path)
                times[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                guard run.status == 0 else {
                    throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "\(tool.name) exited \(run.status)"])
                }
                peaks[index].append(run.peakBytes)
            }
        }
        // Both wrote the same document.
        let ours = try AMCDocument(data: try Data(contentsOf: folder.appendingPathComponent("amc.plist")))
        let theirs = try AMCDocument(data: try Data(contentsOf: folder.appendingPathComponent("plutil.plist")))
        guard try ours.rootValue() == theirs.rootValue() else {
            throw CocoaError(
                .fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "amc and plutil wrote different documents"])
        }
        func median<T: Comparable>(_ values: [T]) -> T { values.sorted()[values.count / 2] }
        let megabytes = Double(size) / 1_048_576
        var lines = [
            String(format: "%d records, an XML property list of %.1f MB, to a binary property list;", records, megabytes),
            "whole process each (start, read, convert, write), median of \(repetitions) runs, alternating",
            "tool".padding(toLength: 26, withPad: " ", startingAt: 0) + "   median ms   peak MB",
        ]
        for (index, tool) in tools.enumerated() {
            lines.append(
                tool.name.padding(toLength: 26, withPad: " ", startingAt: 0)
                    + String(format: "%12.0f %9.1f", median(times[index]), Double(median(peaks[index])) / 1_048_576))
        }
        lines.append(
            String(
                format: "amc ÷ plutil: time %.3f, peak memory %.2f", median(times[1]) / median(times[0]),
                Double(median(peaks[1])) / Double(median(peaks[0]))))
        return lines.joined(separator: "\n")
    }
}
