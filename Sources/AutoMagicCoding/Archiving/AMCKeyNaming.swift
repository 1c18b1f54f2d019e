/// A rule for all of a type's keys: how property names become the keys of archives, configs and
/// styles. Declared once per type (``AMCCodable/amcKeyNaming``) or as an archiver's default
/// (``AMCArchiver/keyNaming``); ``AMCCodable/amcKey(forProperty:)`` still overrides single
/// properties. Decoding under a rule also accepts the property's own name.
///
/// ```swift
/// final class ServerConfig: AMCCodable {
///     static var amcKeyNaming: AMCKeyNaming { .snakeCase }   // maxRetries ↔ "max_retries"
///     var maxRetries = 3
///     var baseURL = ""                                       // "base_url"
///     required init() {}
/// }
/// ```
public enum AMCKeyNaming: Hashable, Sendable {
    /// A type's default: the archiver's ``AMCArchiver/keyNaming`` decides. As an archiver's
    /// setting, the same as ``propertyNames``.
    case archiverDefault
    /// Keys are the property names as declared: `maxRetries`.
    case propertyNames
    /// Words in lower case joined by `_`: `maxRetries` → `max_retries`, `baseURL` → `base_url`.
    case snakeCase
    /// Words in lower case joined by `-`: `maxRetries` → `max-retries`.
    case kebabCase
    /// The property name after a prefix, as BSConfig's `keyForPropertyName:` example does:
    /// `.prefix("BS")` makes `tintColor` → `BStintColor`.
    case prefix(String)

    /// The key for the property `name` under this rule.
    ///
    /// ```swift
    /// AMCKeyNaming.snakeCase.key(forProperty: "baseURL")   // "base_url"
    /// ```
    public func key(forProperty name: String) -> String {
        switch self {
        case .archiverDefault, .propertyNames: return name
        case .snakeCase: return Self.words(of: name).joined(separator: "_")
        case .kebabCase: return Self.words(of: name).joined(separator: "-")
        case let .prefix(prefix): return prefix + name
        }
    }

    /// The rule a type follows under an archiver whose default is `archiverRule`.
    func resolved(under archiverRule: AMCKeyNaming) -> AMCKeyNaming {
        self == .archiverDefault ? (archiverRule == .archiverDefault ? .propertyNames : archiverRule) : self
    }

    /// The lower-case words of a name: a new word starts at an upper-case letter after a
    /// lower-case letter or digit, at the last capital of a run followed by lower case (`URLPath`
    /// → `url`, `path`), and at `_`, `-`, `.` and spaces (which are dropped).
    static func words(of name: String) -> [String] {
        var words: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
                continue
            }
            let upper = Letter(character) == .upper
            if upper, !current.isEmpty, index > 0 {
                let previous = Letter(characters[index - 1])
                let next = index + 1 < characters.count ? Letter(characters[index + 1]) : nil
                if previous == .lower || previous == .number || (previous == .upper && next == .lower) {
                    words.append(current)
                    current = ""
                }
            }
            if upper, let ascii = character.asciiValue {
                current.unicodeScalars.append(Unicode.Scalar(ascii + 32))
            } else {
                current += character.lowercased()
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// What a character is to the word rule; ASCII told without Unicode's property tables,
    /// since nearly every key is ASCII and names are split per configuration read.
    private enum Letter {
        case upper, lower, number, other

        init(_ character: Character) {
            if let ascii = character.asciiValue {
                switch ascii {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): self = .upper
                case UInt8(ascii: "a")...UInt8(ascii: "z"): self = .lower
                case UInt8(ascii: "0")...UInt8(ascii: "9"): self = .number
                default: self = .other
                }
            } else {
                self = character.isUppercase ? .upper : character.isLowercase ? .lower : character.isNumber ? .number : .other
            }
        }
    }
}
