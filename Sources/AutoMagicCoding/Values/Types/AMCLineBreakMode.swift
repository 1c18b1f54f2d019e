import Foundation

/// How text that does not fit is wrapped or cut: a platform-neutral `NSLineBreakMode`. Reads its
/// case names and Apple's constant names (`"NSLineBreakByTruncatingTail"`), in any case.
///
/// ```swift
/// let mode = try AMC.value(AMCLineBreakMode.self, from: "truncateTail")   // .truncateTail
/// ```
public enum AMCLineBreakMode: String, CaseIterable, Sendable, AMCCaseAliases, AMCStructCodable {
    /// Wraps at word boundaries (`NSLineBreakByWordWrapping`).
    case wordWrap
    /// Wraps at any character (`NSLineBreakByCharWrapping`).
    case charWrap
    /// Cuts the text off at the edge (`NSLineBreakByClipping`).
    case clip
    /// An ellipsis at the start (`NSLineBreakByTruncatingHead`).
    case truncateHead
    /// An ellipsis at the end (`NSLineBreakByTruncatingTail`).
    case truncateTail
    /// An ellipsis in the middle (`NSLineBreakByTruncatingMiddle`).
    case truncateMiddle

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
        self = try Self.names.value(from: string)
    }

    private static let names = NamedValues.enumTable(Self.self)
}
