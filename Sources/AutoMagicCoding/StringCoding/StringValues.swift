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
            throw AMCError(.typeMismatch(expected: "a \(unqualifiedName(of: T.self))", found: "\"\(string)\""))
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
enum StringValues {
    static func parse(_ string: String, as type: Any.Type) throws -> Any {
        if type == String.self { return string }
        let typeName = AMC.unqualifiedName(of: type)
        if let optional = type as? any OptionalContainer.Type {
            // An empty string is nil for optionals of anything but text.
            if optional.wrappedType != String.self, string.trimmingCharacters(in: .whitespaces).isEmpty {
                return optional.noneValue
            }
            return try parse(string, as: optional.wrappedType)
        }
        if let codable = type as? any AMCStructCodable.Type {
            do {
                return try codable.init(amcStringValue: string)
            } catch let error as AMCError {
                throw error
            } catch {
                throw AMCError(.typeMismatch(expected: "a \(typeName) string (\(error))", found: "\"\(string)\""))
            }
        }
        if type == Bool.self {
            return try expect(ScalarStrings.bool(string), "a Bool (yes/no, true/false, on/off, 1/0)", string)
        }
        if let integer = type as? any FixedWidthInteger.Type {
            let number = try expect(ScalarStrings.number(string), "a number of type \(typeName)", string)
            return try expect(number.converted(to: integer), number, typeName)
        }
        if let floating = type as? any BinaryFloatingPoint.Type {
            let number = try expect(ScalarStrings.number(string), "a number of type \(typeName)", string)
            return try expect(number.converted(to: floating), number, typeName)
        }
        if type == Character.self {
            guard string.count == 1, let character = string.first else {
                throw mismatch("exactly one Character", string)
            }
            return character
        }
        if type == Date.self {
            return try expect(ISODate.date(from: string.trimmingCharacters(in: .whitespaces)), "an ISO 8601 date", string)
        }
        if type == URL.self { return try url(from: string) }
        if type == UUID.self { return try expect(UUID(uuidString: string), "a UUID", string) }
        if type == Data.self { return try expect(Data(base64Encoded: string), "base64 data", string) }
        if let options = type as? any AMCNamedOptions.Type { return try NamedValues.options(options, from: string) }
        if let enumeration = type as? any CaseIterable.Type { return try NamedValues.anyEnumCase(enumeration, from: string) }
        if let raw = type as? any RawRepresentable.Type { return try rawValue(raw, from: string) }
        throw AMCError(.unsupportedType(
            typeName: typeName, reason: "it has no string form; conform it to AMCStructCodable"))
    }

    static func mismatch(_ expected: String, _ string: String) -> AMCError {
        AMCError(.typeMismatch(expected: expected, found: "\"\(string)\""))
    }

    private static func expect<T>(_ value: T?, _ expected: String, _ string: String) throws -> T {
        guard let value else { throw mismatch(expected, string) }
        return value
    }

    /// A number that does not fit the property's type.
    private static func expect(_ value: Any?, _ number: NumberValue, _ typeName: String) throws -> Any {
        guard let value else { throw AMCError(.valueOutOfRange(value: number.description, typeName: typeName)) }
        return value
    }

    /// An absolute file path as a file URL; a URL with a scheme as it is; anything else relative
    /// to ``AMC/baseURL``.
    static func url(from string: String) throws -> URL {
        let text = string.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { throw mismatch("a URL or a file path", string) }
        if text.hasPrefix("/") { return URL(fileURLWithPath: text) }
        if let url = URL(string: text), url.scheme != nil { return url }
        return try expect(URL(string: text, relativeTo: AMC.baseURL), "a URL or a file path", string)
    }

    private static func rawValue(_ type: any RawRepresentable.Type, from string: String) throws -> Any {
        func make<R: RawRepresentable>(_: R.Type) throws -> Any {
            let raw = try parse(string, as: R.RawValue.self)
            guard let rawValue = raw as? R.RawValue, let value = R(rawValue: rawValue) else {
                throw mismatch("a raw value of \(AMC.unqualifiedName(of: R.self))", string)
            }
            return value
        }
        return try make(type)
    }
}
