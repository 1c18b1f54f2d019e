import Foundation

extension AMC {
    /// Parses `string` as a value of `type`, exactly as a property of that type reads it in an
    /// archive, through Key-Value Coding, a config or a style: any type string coding supports
    /// (numbers, bools, `Character`, `Date`, `URL`, `UUID`, `Data`, geometry, colours, fonts,
    /// images, enums, option sets, any ``AMCStructCodable`` type, and optionals of these). Throws
    /// ``AMCError`` naming the type and the string when it cannot become one.
    ///
    /// ```swift
    /// let color = try AMC.value(AMCColor.self, from: "rgba(100,200,250,0.5)")
    /// let size  = try AMC.value(CGSize.self, from: "100 , 300")
    /// let count = try AMC.value(UInt8.self, from: "0x20")      // 32; "0x100" throws: out of range
    /// ```
    public static func value<T>(_ type: T.Type, from string: String) throws -> T {
        try AMCArchiver().value(T.self, from: string)
    }
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
    var isNumeric: Bool { ScalarStrings.number(self) != nil }
}

/// Helpers for the value types' parsers.
enum StringValues {
    /// The error for a string that is not `expected`.
    static func mismatch(_ expected: String, _ string: String) -> AMCError {
        AMCError(.typeMismatch(expected: expected, found: ArchiveValue.string(string).summary))
    }

    /// A URL as string coding reads one (see ``URL``'s conversion), relative to ``AMC/baseURL``.
    static func url(from string: String) throws -> URL {
        try URL(converting: .string(string), context: ValueContext())
    }
}
