import Foundation

/// Turning values found in a configuration or a style (native plist/JSON values or strings in any
/// string-coding form) into a property's type, and filling objects from nested dictionaries.
enum ConfigValues {
    /// `raw` as a value of `type`: a string through string coding, a nested dictionary into an
    /// ``AMCCodable`` type (a new instance, filled), a number into any numeric type it fits, or
    /// `raw` itself when it already is one. Throws ``AMCError`` naming the type and the value.
    static func convert(_ raw: Any, to type: Any.Type) throws -> Any {
        if let string = raw as? String { return try StringValues.parse(string, as: type) }
        if let dictionary = raw as? [String: Any], let codable = unwrappedType(type) as? any AMCCodable.Type {
            var object = codable.init()
            try fill(&object, prefix: [], find: { keys in lookup(keys, in: dictionary) })
            return object
        }
        if unwrappedType(type) == Bool.self, let number = raw as? Int, number == 0 || number == 1 {
            return number == 1  // a plist <integer> or JSON number for a flag
        }
        do {
            return try KeyValueCoding.convert(.value(raw), to: type)
        } catch let error as AMCError {
            if case .valueOutOfRange = error.kind { throw error }
            throw AMCError(.typeMismatch(expected: AMC.withArticle(AMC.unqualifiedName(of: type)), found: describe(raw)))
        }
    }

    /// Sets each writable field of `root` that `find` has a value for, under the field's
    /// ``AMCCodable/amcKey(forProperty:)`` after `prefix`; a nested dictionary fills the object or
    /// struct already there (or a new one). Fields without a value keep theirs.
    static func fill<Root>(_ root: inout Root, prefix: [String], find: ([String]) -> Any?) throws {
        for field in TypePlan.of(Swift.type(of: root as Any)).fields where field.isWritable {
            let keys = prefix + [field.key]
            guard let raw = find(keys), !(raw is NSNull) else { continue }
            let value: Any
            if raw is [String: Any], let codable = unwrappedType(field.type) as? any AMCCodable.Type {
                func filled<Child>(_ child: Child) throws -> Any {
                    var child = child
                    try fill(&child, prefix: keys, find: find)  // errors name the whole key path
                    return child
                }
                value = try _openExistential(unwrappedValue(field.value(in: root)) ?? codable.init(), do: filled)
            } else {
                do {
                    value = try convert(raw, to: field.type)
                } catch let error as AMCError {
                    throw error.under(keys.joined(separator: "."))
                }
            }
            _ = field.store(value, in: &root)
        }
    }

    /// The value under the key path `keys` in nested dictionaries.
    static func lookup(_ keys: [String], in dictionary: [String: Any]) -> Any? {
        var current: Any = dictionary
        for key in keys {
            guard let level = current as? [String: Any], let next = level[key] else { return nil }
            current = next
        }
        return current
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
