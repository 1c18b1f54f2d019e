import Foundation
import Testing

@testable import AutoMagicCoding

/// The files under `Fixtures/` at the package root.
enum FixtureFiles {
    /// The package's root: the nearest folder above this file that holds `Package.swift`.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path),
            folder.pathComponents.count > 1
        {
            folder.deleteLastPathComponent()
        }
        return folder
    }()
    static let folder = packageRoot.appendingPathComponent("Fixtures")

    static func url(_ name: String) -> URL { folder.appendingPathComponent(name) }
    static func data(_ name: String) throws -> Data { try Data(contentsOf: url(name)) }
}

/// A fresh folder for a test's files, removed by `cleanUp()`.
struct TemporaryFolder {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("amc-tests-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Writes `text` to the file `name` in the folder; its URL.
    func write(_ name: String, _ text: String) throws -> URL {
        let file = file(name)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Every name in the folder, temporary files included.
    var contents: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    func cleanUp() { try? FileManager.default.removeItem(at: url) }
}

/// A property-list or JSON value in one canonical text, so that values read by Foundation and by
/// AutoMagicCoding compare equal exactly when they hold the same data. Numbers compare by value,
/// as `NSNumber` does (`5` equals `5.0`, and JSONSerialization reads `Int64.min` as a Double), but
/// -0.0 stays apart from 0; a value a `Float` holds compares by the Float's shortest digits (what
/// the text formats write for it). Dictionaries with sorted keys.
enum Canonical {
    static func text(_ value: Any) -> String {
        if Swift.type(of: value) == Bool.self, let bool = value as? Bool { return "bool(\(bool))" }
        if Swift.type(of: value) is NSNumber.Type, let number = value as? NSNumber {
            let code = Character(Unicode.Scalar(UInt8(bitPattern: number.objCType.pointee)))
            switch code {
            case "c", "B": return "bool(\(number.boolValue))"
            case "d", "f": return double(number.doubleValue)
            case "Q", "L": return integer(number.uint64Value)
            default: return integer(number.int64Value)
            }
        }
        switch value {
        case let string as String: return "string(\(string.debugDescription))"
        case let int as Int: return integer(int)
        case let int as Int64: return integer(int)
        case let uint as UInt64: return integer(uint)
        case let double as Double: return self.double(double)
        case let float as Float: return self.double(Double(float))
        case let date as Date: return "date(\(date.timeIntervalSinceReferenceDate))"
        case let data as Data: return "data(\(data.base64EncodedString()))"
        case let array as [Any]: return "[" + array.map(text).joined(separator: ", ") + "]"
        case let dictionary as [String: Any]:
            return "{"
                + dictionary.keys.sorted().map { "\($0.debugDescription): \(text(dictionary[$0]!))" }
                .joined(separator: ", ") + "}"
        case is NSNull: return "null"
        default: return "other(\(Swift.type(of: value)): \(value))"
        }
    }

    private static func integer<I: BinaryInteger>(_ value: I) -> String { "int(\(value))" }
    private static func double(_ value: Double) -> String {
        if value == value.rounded(), value.sign == .plus || value != 0, let integer = Int64(exactly: value) {
            return self.integer(integer)
        }
        if let float = Float(exactly: value), let shortest = Double(float.description) {
            return "real(\(shortest.bitPattern))"
        }
        return "real(\(value.bitPattern))"
    }
}

/// What Foundation reads from `data`.
func foundationValue(_ data: Data, json: Bool) throws -> Any {
    json
        ? try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        : try PropertyListSerialization.propertyList(from: data, format: nil)
}
