import Foundation

/// Finding values in a configuration's nested dictionaries, and showing them in errors.
enum ConfigValues {
    /// The value under the key path `keys` in nested dictionaries.
    static func lookup(_ keys: [String], in dictionary: [String: Any]) -> Any? {
        var current: Any = dictionary
        for key in keys {
            guard let level = current as? [String: Any], let next = level[key] else { return nil }
            current = next
        }
        return current
    }

    /// `layers` as one dictionary: at every key path the first layer that has a value wins, and
    /// dictionaries present in several layers are merged the same way.
    static func merged(_ layers: [[String: Any]]) -> [String: Any] {
        layers.reversed().reduce(into: [:]) { merged, layer in
            merged.merge(layer) { later, earlier in
                guard let later = later as? [String: Any], let earlier = earlier as? [String: Any] else { return earlier }
                return Self.merged([earlier, later])
            }
        }
    }

    /// `raw` as a document for the decoder, every dictionary entry whose value is JSON's `null`
    /// left out: in a configuration a null counts as missing.
    static func document(_ raw: Any) throws -> ArchiveValue {
        var path = KeyPathTracker()
        return withoutNulls(try ArchiveValue.converting(raw, path: &path))
    }

    private static func withoutNulls(_ value: ArchiveValue) -> ArchiveValue {
        switch value {
        case let .dictionary(dictionary):
            var kept = ArchiveDictionary(minimumCapacity: dictionary.count)
            for entry in dictionary.entries {
                if case .null = entry.value { continue }
                kept.append(entry.key, withoutNulls(entry.value))
            }
            return .dictionary(kept)
        case let .array(elements):
            return .array(elements.map(withoutNulls))
        default:
            return value
        }
    }

    /// A value as an error message shows it: `"wide"`, `42`, `true`, `a dictionary`.
    static func describe(_ raw: Any) -> String {
        switch raw {
        case let string as String: return "\"\(string)\""
        case is [String: Any]: return "a dictionary"
        case let array as [Any]: return "an array of \(array.count)"
        case is NSNull: return "null"
        default: return "\(raw)"
        }
    }
}
