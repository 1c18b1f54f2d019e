import AutoMagicCoding
import Foundation

/// `amc demo`: archive the sample company to an XML property list file, read it back, and compare.
///
/// ```swift
/// let report = try Demo.run(in: nil)     // a fresh temporary folder, removed afterwards
/// print(report.summary)
/// ```
public enum Demo {
    /// What one run did.
    public struct Report: Sendable {
        /// The file written.
        public let file: URL
        /// Its size in bytes.
        public let bytes: Int
        /// Objects (class instances) in the graph.
        public let objects: Int
        /// Where the copy read back differs from the original; empty on success.
        public let differences: [String]
        /// Whether the file is still there: written to a folder given, not a temporary one.
        public let kept: Bool

        /// A few lines for a person.
        public var summary: String {
            var lines = [
                "wrote \(file.path) (\(bytes) bytes, \(objects) objects)",
                "read it back: \(differences.isEmpty ? "the copy equals the original, field by field" : "DIFFERENCES")",
            ]
            lines += differences.map { "  differs at \($0)" }
            if !kept { lines.append("removed the temporary folder (amc demo FOLDER keeps the file)") }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs the demo, writing `company.plist` under `folder`, or under a fresh temporary folder
    /// that is removed once the copy is checked when `folder` is nil.
    public static func run(in folder: URL?) throws -> Report {
        Company.registerModel()
        let temporary =
            folder == nil
            ? FileManager.default.temporaryDirectory.appendingPathComponent("amc-demo-\(UUID().uuidString)", isDirectory: true)
            : nil
        let folder = folder ?? temporary!
        defer { if let temporary { try? FileManager.default.removeItem(at: temporary) } }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("company.plist")

        let company = Company.sample()
        try AMC.write(company, to: file)
        guard let copy = try AMC.read(from: file) as? Company else {
            throw AMCError(.typeMismatch(expected: "a Company in \(file.lastPathComponent)", found: "another class"))
        }
        let bytes = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
        return Report(
            file: file,
            bytes: bytes,
            objects: countObjects(in: try company.dictionaryRepresentation()),
            differences: company.differences(from: copy),
            kept: temporary == nil
        )
    }

    private static func countObjects(in value: Any) -> Int {
        switch value {
        case let dictionary as [String: Any]:
            return (dictionary["class"] is String ? 1 : 0) + dictionary.values.reduce(0) { $0 + countObjects(in: $1) }
        case let array as [Any]:
            return array.reduce(0) { $0 + countObjects(in: $1) }
        default:
            return 0
        }
    }
}
