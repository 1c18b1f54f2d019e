import AutoMagicCoding
import Foundation

/// `amc demo`: archive the sample company to a property list, read it back, and compare.
///
/// ```swift
/// let report = try Demo.run(in: nil)     // a fresh temporary folder
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

        /// A few lines for a person.
        public var summary: String {
            var lines = [
                "wrote \(file.path) (\(bytes) bytes, \(objects) objects)",
                "read it back: \(differences.isEmpty ? "the copy equals the original, field by field" : "DIFFERENCES")",
            ]
            lines += differences.map { "  differs at \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// Runs the demo, writing `company.plist` under `folder` (a fresh temporary folder when nil).
    public static func run(in folder: URL?) throws -> Report {
        Company.registerModel()
        let folder = folder ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("amc-demo-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("company.plist")

        let company = Company.sample()
        let dictionary = try company.dictionaryRepresentation()
        let data = try PropertyListSerialization.data(fromPropertyList: dictionary, format: .xml, options: 0)
        try data.write(to: file, options: .atomic)

        let read = try PropertyListSerialization.propertyList(from: Data(contentsOf: file), format: nil)
        guard let readDictionary = read as? [String: Any],
              let copy = try AMC.object(from: readDictionary) as? Company else {
            throw AMCError(.typeMismatch(expected: "a Company property list", found: "\(type(of: read))"))
        }
        return Report(
            file: file,
            bytes: data.count,
            objects: countObjects(in: dictionary),
            differences: company.differences(from: copy)
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
