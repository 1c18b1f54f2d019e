import Foundation

// How error messages, problems and `amc` show a document's values: every text made of a value
// is made here, and each is total (NaN, infinities, far dates and long strings all print).

extension ArchiveValue {
    /// `string` as messages show it: up to 60 characters, longer ones cut to 57 and `...`.
    ///
    /// ```swift
    /// ArchiveValue.shortened(String(repeating: "a", count: 100))   // 57 a's and "..."
    /// ```
    static func shortened(_ string: String) -> Substring {
        string.count > 60 ? string.prefix(57) + "..." : Substring(string)
    }

    /// What was found, in a sentence: `the string "abc"`, `the number 300`,
    /// `a dictionary of class "Person"`.
    ///
    /// ```swift
    /// ArchiveValue.string("abc").summary   // the string "abc"
    /// ```
    var summary: String {
        switch self {
        case let .dictionary(dictionary):
            if case let .string(name)? = dictionary["class"] { return "a dictionary of class \"\(name)\"" }
            return "a dictionary"
        case .array:
            return "an array"
        case let .string(string):
            return "the string \"\(Self.shortened(string))\""
        case let .bool(bool):
            return "the bool \(bool)"
        case .date:
            return "a date"
        case let .data(data):
            return "data of \(data.count) bytes"
        case .null:
            return "null"
        case .int, .uint, .double, .longNumber:
            return "the number \(number!)"
        case let .foreign(box):
            return "a value of type \(AMC.unqualifiedName(of: Swift.type(of: box.value)))"
        }
    }

    /// The ``summary``, with a dictionary's first keys (what an enum's case is told by):
    /// `a dictionary with the key "exploded"`.
    ///
    /// ```swift
    /// ArchiveValue.summaryWithKeys(value)   // a dictionary with the keys "x", "y"
    /// ```
    static func summaryWithKeys(_ value: ArchiveValue) -> String {
        guard case let .dictionary(dictionary) = value, !dictionary.isEmpty else { return value.summary }
        let keys = dictionary.entries.prefix(4).map { "\"\($0.key)\"" }.joined(separator: ", ")
        let more = dictionary.count > 4 ? ", …" : ""
        return "a dictionary with the key\(dictionary.count == 1 ? "" : "s") \(keys)\(more)"
    }

    /// Its type's name, as `plutil -type` says it: `bool`, `integer`, `float`, `string`, `date`,
    /// `data`, `dictionary`, `array`; `null` for JSON's.
    ///
    /// ```swift
    /// ArchiveValue.longNumber("1e400").typeName   // float
    /// ```
    var typeName: String {
        switch self {
        case .bool: "bool"
        case .int, .uint: "integer"
        case .double: "float"
        case let .longNumber(text): ScalarStrings.isInteger(text) ? "integer" : "float"
        case .string: "string"
        case .date: "date"
        case .data: "data"
        case .dictionary: "dictionary"
        case .array: "array"
        case .null: "null"
        case .foreign: "foreign"
        }
    }

    /// The kind alone, for a sentence: `a string`, `an integer`, `data`, `null`.
    ///
    /// ```swift
    /// ArchiveValue.int(3).kindPhrase   // an integer
    /// ```
    var kindPhrase: String {
        switch self {
        case .data, .null: typeName
        case .foreign: "a foreign value"
        default: (typeName.first.map { "aeiou".contains($0) } == true ? "an " : "a ") + typeName
        }
    }

    /// A value of a dictionary (a config's, a stylesheet's, a problem's) as it was written:
    /// `"wide"`, `42`, `true`, `a dictionary of class "Note"`, `{"$ref": "#/notes/0"}`.
    ///
    /// ```swift
    /// ArchiveValue.literal(["a", "b"])   // an array of 2
    /// ```
    static func literal(_ raw: Any) -> String {
        switch raw {
        case let string as String: return "\"\(shortened(string))\""
        case let dictionary as [String: Any]:
            if dictionary.count == 1, let pointer = dictionary[ObjectReference.key] as? String {
                return "{\"$ref\": \"\(pointer)\"}"
            }
            if let className = dictionary["class"] as? String { return "a dictionary of class \"\(className)\"" }
            return "a dictionary"
        case let array as [Any]: return "an array of \(array.count)"
        case is NSNull: return "null"
        case let date as Date: return ISODate.described(date)
        case let data as Data: return "\(data.count) bytes"
        default: return "\(raw)"
        }
    }
}
