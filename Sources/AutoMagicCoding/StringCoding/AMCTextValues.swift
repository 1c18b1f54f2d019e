import Foundation

/// How text lines up: a platform-neutral `NSTextAlignment`. Reads its case names and Apple's
/// constant names (`"NSTextAlignmentCenter"`), in any case.
///
/// ```swift
/// let alignment = try AMC.value(AMCTextAlignment.self, from: "NSTextAlignmentCenter")   // .center
/// ```
public enum AMCTextAlignment: String, CaseIterable, Sendable, AMCCaseAliases, AMCStructCodable {
    case left, center, right, justified, natural

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
        self = try NamedValues.enumCase(Self.self, from: string)
    }
}

/// How text that does not fit is wrapped or cut: a platform-neutral `NSLineBreakMode`. Reads its
/// case names and Apple's constant names (`"NSLineBreakByTruncatingTail"`), in any case.
///
/// ```swift
/// let mode = try AMC.value(AMCLineBreakMode.self, from: "truncateTail")   // .truncateTail
/// ```
public enum AMCLineBreakMode: String, CaseIterable, Sendable, AMCCaseAliases, AMCStructCodable {
    case wordWrap, charWrap, clip, truncateHead, truncateTail, truncateMiddle

    /// Apple's constant names: `NSLineBreakByWordWrapping`, `NSLineBreakByTruncatingTail`, …
    public static var amcAliases: [String: AMCLineBreakMode] {
        let apple: [(String, AMCLineBreakMode)] = [
            ("WordWrapping", .wordWrap), ("CharWrapping", .charWrap), ("Clipping", .clip),
            ("TruncatingHead", .truncateHead), ("TruncatingTail", .truncateTail), ("TruncatingMiddle", .truncateMiddle),
        ]
        var aliases: [String: AMCLineBreakMode] = [:]
        for (suffix, value) in apple {
            aliases["NSLineBreakBy" + suffix] = value
            aliases["UILineBreakModeBy" + suffix] = value
        }
        return aliases
    }

    /// The case name.
    ///
    /// ```swift
    /// AMCLineBreakMode.clip.amcStringValue   // "clip"
    /// ```
    public var amcStringValue: String { rawValue }

    /// Parses a case name or one of ``amcAliases``.
    ///
    /// ```swift
    /// let mode = try AMCLineBreakMode(amcStringValue: "NSLineBreakByClipping")   // .clip
    /// ```
    public init(amcStringValue string: String) throws {
        self = try NamedValues.enumCase(Self.self, from: string)
    }
}
