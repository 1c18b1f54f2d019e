import Foundation

extension AMC {
    /// Parses `string` as a value of `type`: any type string coding supports (numbers, bools,
    /// `Character`, `Date`, `URL`, `UUID`, `Data`, geometry, colours, fonts, images, enums,
    /// option sets, any ``AMCStructCodable`` type, and optionals of these). Throws ``AMCError``
    /// naming the type and the string when it cannot become one.
    ///
    /// ```swift
    /// let color = try AMC.value(AMCColor.self, from: "rgba(100,200,250,0.5)")
    /// let size  = try AMC.value(CGSize.self, from: "100 , 300")
    /// let count = try AMC.value(UInt8.self, from: "0x20")      // 32; "0x100" throws: out of range
    /// ```
    public static func value<T>(_ type: T.Type, from string: String) throws -> T {
        let value = try StringValues.parse(string, as: T.self)
        guard let typed = value as? T else {
            throw AMCError(.typeMismatch(expected: withArticle(unqualifiedName(of: T.self)), found: "\"\(string)\""))
        }
        return typed
    }

    /// The base of relative URLs that string coding reads (`"images/logo.png"`); by default the
    /// main bundle's resource folder, as in StringCoding. Absolute paths and URLs with a scheme
    /// ignore it.
    ///
    /// ```swift
    /// AMC.baseURL = URL(fileURLWithPath: "/srv/app/assets", isDirectory: true)
    /// ```
    public static var baseURL: URL? {
        get { baseURLSetting.withLock { $0 } }
        set { baseURLSetting.withLock { $0 = newValue } }
    }

    private static let baseURLSetting = Locked<URL?>(Bundle.main.resourceURL)
}

extension String {
    /// Whether the string reads as a number: a decimal or `0x` hexadecimal integer, or a decimal
    /// floating-point number (the forms string coding accepts for numeric properties).
    ///
    /// ```swift
    /// "-12.5e3".isNumeric   // true
    /// "0x1F".isNumeric      // true
    /// "12 apples".isNumeric // false
    /// ```
    public var isNumeric: Bool { ScalarStrings.number(self) != nil }
}

/// The one place that turns strings into values of a type known at run time: string coding
/// (`setValue(string:forKey:)`, `AMC.value(_:from:)`) and, for numbers and bools, the archiver's
/// decoder (through ``ScalarStrings``) use it, so the two never disagree.
///
/// What a type is (optional, ``AMCStructCodable``, integer, enum…) is worked out once per type:
/// the answer is a parser closure kept in a cache, so a parse costs one lookup and the parse
/// itself, not a series of dynamic casts.
enum StringValues {
    /// Turns a string into a value of one type, or throws ``AMCError``.
    typealias Parser = (String) throws -> Any

    private static let parsers = TypeCache<Parser>()

    static func parse(_ string: String, as type: Any.Type) throws -> Any {
        try parser(for: type)(string)
    }

    /// The cached parser for `type`, made on first use.
    static func parser(for type: Any.Type) -> Parser {
        parsers.value(for: type) { makeParser(for: type) }
    }

    private static func makeParser(for type: Any.Type) -> Parser {
        if type == String.self { return { $0 } }
        let typeName = AMC.unqualifiedName(of: type)
        if let optional = type as? any OptionalContainer.Type {
            let wrapped = parser(for: optional.wrappedType)
            guard optional.wrappedType != String.self else { return wrapped }
            let none = optional.noneValue
            // An empty string is nil for optionals of anything but text.
            return { string in TextTrimming.isBlank(string) ? none : try wrapped(string) }
        }
        if let codable = type as? any AMCStructCodable.Type {
            return { string in
                do {
                    return try codable.init(amcStringValue: string)
                } catch let error as AMCError {
                    throw error
                } catch {
                    throw AMCError(.typeMismatch(expected: "\(AMC.withArticle(typeName)) string (\(error))", found: "\"\(string)\""))
                }
            }
        }
        if type == Bool.self {
            return { try expect(ScalarStrings.bool($0), "a Bool (yes/no, true/false, on/off, 1/0)", $0) }
        }
        if let integer = type as? any FixedWidthInteger.Type { return integerParser(integer, typeName) }
        if let floating = type as? any BinaryFloatingPoint.Type { return floatingPointParser(floating, typeName) }
        if type == Character.self {
            return { string in
                guard string.count == 1, let character = string.first else {
                    throw mismatch("exactly one Character", string)
                }
                return character
            }
        }
        if type == Date.self {
            return { try expect(ISODate.date(from: String(TextTrimming.trimmed($0))), "an ISO 8601 date", $0) }
        }
        if type == URL.self { return { try url(from: $0) } }
        if type == UUID.self { return { try expect(UUID(uuidString: $0), "a UUID", $0) } }
        if type == Data.self { return { try expect(Data(base64Encoded: $0), "base64 data", $0) } }
        if let options = type as? any AMCNamedOptions.Type { return NamedValues.optionsParser(options) }
        if let enumeration = type as? any CaseIterable.Type { return NamedValues.enumParser(enumeration) }
        if let raw = type as? any RawRepresentable.Type { return rawValueParser(raw) }
        return { _ in
            throw AMCError(.unsupportedType(typeName: typeName, reason: "it has no string form; conform it to AMCStructCodable"))
        }
    }

    static func mismatch(_ expected: String, _ string: String) -> AMCError {
        AMCError(.typeMismatch(expected: expected, found: "\"\(string)\""))
    }

    private static func expect<T>(_ value: T?, _ expected: @autoclosure () -> String, _ string: String) throws -> T {
        guard let value else { throw mismatch(expected(), string) }
        return value
    }

    /// Reads a number and makes it a value of the property's type with `convert` (nil: it does
    /// not fit).
    private static func numberParser(_ typeName: String, _ convert: @escaping (NumberValue) -> Any?) -> Parser {
        { string in
            let number = try expect(ScalarStrings.number(string), "a number of type \(typeName)", string)
            guard let value = convert(number) else {
                throw AMCError(.valueOutOfRange(value: number.description, typeName: typeName))
            }
            return value
        }
    }

    private static func integerParser(_ type: any FixedWidthInteger.Type, _ typeName: String) -> Parser {
        func make<I: FixedWidthInteger>(_: I.Type) -> Parser { numberParser(typeName) { $0.exactly(I.self) } }
        return make(type)
    }

    private static func floatingPointParser(_ type: any BinaryFloatingPoint.Type, _ typeName: String) -> Parser {
        func make<F: BinaryFloatingPoint>(_: F.Type) -> Parser { numberParser(typeName) { $0.nearest(F.self) } }
        return make(type)
    }

    /// An absolute file path as a file URL; a URL with a scheme as it is; anything else relative
    /// to ``AMC/baseURL``.
    static func url(from string: String) throws -> URL {
        let text = String(TextTrimming.trimmed(string))
        guard !text.isEmpty else { throw mismatch("a URL or a file path", string) }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        if let url = URL(string: text), url.scheme != nil { return url }
        return try expect(URL(string: text, relativeTo: AMC.baseURL), "a URL or a file path", string)
    }

    private static func rawValueParser(_ type: any RawRepresentable.Type) -> Parser {
        func make<R: RawRepresentable>(_: R.Type) -> Parser {
            let rawParser = parser(for: R.RawValue.self)
            return { string in
                guard let rawValue = try rawParser(string) as? R.RawValue, let value = R(rawValue: rawValue) else {
                    throw mismatch("a raw value of \(AMC.unqualifiedName(of: R.self))", string)
                }
                return value
            }
        }
        return make(type)
    }
}
