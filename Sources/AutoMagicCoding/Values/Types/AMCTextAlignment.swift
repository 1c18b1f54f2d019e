import Foundation

/// How text lines up: a platform-neutral `NSTextAlignment`. Reads its case names and Apple's
/// constant names (`"NSTextAlignmentCenter"`), in any case.
///
/// ```swift
/// let alignment = try AMC.value(AMCTextAlignment.self, from: "NSTextAlignmentCenter")   // .center
/// ```
public enum AMCTextAlignment: String, CaseIterable, Sendable, AMCCaseAliases, AMCStructCodable {
    /// Along the left edge (`NSTextAlignmentLeft`).
    case left
    /// Centered (`NSTextAlignmentCenter`).
    case center
    /// Along the right edge (`NSTextAlignmentRight`).
    case right
    /// Spread to both edges (`NSTextAlignmentJustified`).
    case justified
    /// The script's own direction (`NSTextAlignmentNatural`).
    case natural

    /// Apple's constant names: `NSTextAlignmentLeft`, `UITextAlignmentLeft`, …
    public static var amcAliases: [String: AMCTextAlignment] {
        var aliases: [String: AMCTextAlignment] = [:]
        for value in allCases {
            aliases["NSTextAlignment" + value.rawValue] = value
            aliases["UITextAlignment" + value.rawValue] = value
        }
        return aliases
    }

    /// The case name.
    ///
    /// ```swift
    /// AMCTextAlignment.center.amcStringValue   // "center"
    /// ```
    public var amcStringValue: String { rawValue }

    /// Parses a case name or one of ``amcAliases``.
    ///
    /// ```swift
    /// let alignment = try AMCTextAlignment(amcStringValue: "Justified")
    /// ```
    public init(amcStringValue string: String) throws {
        self = try Self.names.value(from: string)
    }

    private static let names = NamedValues.enumTable(Self.self)
}
