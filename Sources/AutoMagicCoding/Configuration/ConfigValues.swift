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

    /// Sets `value` at the key path `keys` in nested dictionaries, making the dictionaries on the
    /// way (and replacing what is there that is not one).
    static func set(_ value: Any, at keys: [String], in dictionary: inout [String: Any]) {
        guard let key = keys.first else { return }
        guard keys.count > 1 else {
            dictionary[key] = value
            return
        }
        var level = dictionary[key] as? [String: Any] ?? [:]
        set(value, at: Array(keys.dropFirst()), in: &level)
        dictionary[key] = level
    }

    /// The key paths of the values (everything but dictionaries) in nested dictionaries.
    static func leafPaths(of dictionary: [String: Any], under prefix: [String] = []) -> Set<[String]> {
        var paths = Set<[String]>()
        for (key, value) in dictionary {
            if let level = value as? [String: Any], prefix.count < 32 {
                paths.formUnion(leafPaths(of: level, under: prefix + [key]))
            } else {
                paths.insert(prefix + [key])
            }
        }
        return paths
    }

    /// The key paths of the values a `type` read from a configuration may have: each stored
    /// property's key, and below the properties holding ``AMCCodable`` objects, theirs (to a
    /// depth of 8, each type once on a path).
    static func keyPaths(
        of type: Any.Type, naming: AMCKeyNaming, under prefix: [String] = [],
        visiting: Set<ObjectIdentifier> = []
    ) -> Set<[String]> {
        var kind = ValueKind.of(type)
        while case let .optional(_, wrapped) = kind { kind = wrapped }
        guard case let .object(objectType) = kind, prefix.count < 8,
            !visiting.contains(ObjectIdentifier(objectType))
        else { return [] }
        var paths = Set<[String]>()
        for field in TypePlan.of(objectType, naming: naming).fields {
            let path = prefix + [field.key]
            let below = keyPaths(
                of: field.type, naming: naming, under: path, visiting: visiting.union([ObjectIdentifier(objectType)]))
            if below.isEmpty { paths.insert(path) } else { paths.formUnion(below) }
        }
        return paths
    }

    /// The name of the environment variable for a key path, after the prefix: its keys' words
    /// in upper case joined by `_` (`["server", "maxRetries"]` → `SERVER_MAX_RETRIES`).
    static func variableName(_ keys: [String]) -> String {
        keys.flatMap(AMCKeyNaming.words).joined(separator: "_").uppercased()
    }

    /// The variable names of `keys` and each of its prefixes, shortest first (`["server",
    /// "maxRetries"]` → `SERVER`, `SERVER_MAX_RETRIES`), each key's words found once.
    static func variableNames(ofPrefixesOf keys: [String]) -> [String] {
        var name = ""
        return keys.map { key in
            let part = variableName([key])
            name = name.isEmpty || part.isEmpty ? name + part : name + "_" + part
            return name
        }
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
    /// left out (in a configuration a null counts as missing), and the entries in order of their
    /// keys, so that problems come in the same order every time.
    static func document(_ raw: Any) throws -> ArchiveValue {
        var path = KeyPathTracker()
        return withoutNulls(try ArchiveValue.converting(raw, path: &path))
    }

    private static func withoutNulls(_ value: ArchiveValue) -> ArchiveValue {
        switch value {
        case let .dictionary(dictionary):
            var kept = ArchiveDictionary(minimumCapacity: dictionary.count)
            for entry in dictionary.entries.sorted(by: { $0.key < $1.key }) {
                if case .null = entry.value { continue }
                kept.append(entry.key, withoutNulls(entry.value))
            }
            return .dictionary(kept)
        case let .array(elements):
            return .array(ArchiveArray(elements.map(withoutNulls)))
        default:
            return value
        }
    }
}
