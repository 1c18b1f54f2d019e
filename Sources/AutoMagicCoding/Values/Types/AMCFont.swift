import Foundation

/// A font by name and size, platform-neutral: `name` nil is the system font.
///
/// Strings: a font name and/or the words `bold` and `italic`, and an optional size (default 17):
/// `"helvetica 17"`, `"bold 15"`, `"italic"`, `"System-Bold 16"`, `"times"`.
///
/// ```swift
/// let font = try AMC.value(AMCFont.self, from: "bold 15")   // system font, bold, 15 points
/// ```
public struct AMCFont: Hashable, Sendable, AMCStructCodable {
    /// The font's name; nil for the system font.
    public var name: String?
    /// The point size.
    public var size: Double
    /// Whether the font is bold.
    public var isBold: Bool
    /// Whether the font is italic.
    public var isItalic: Bool

    /// The size fonts get when a string names none (iOS's system font size).
    public static let defaultSize = 17.0

    /// A font; by default the system font at ``defaultSize``.
    ///
    /// ```swift
    /// let title = AMCFont(name: "Avenir", size: 20, isBold: true)
    /// ```
    public init(name: String? = nil, size: Double = AMCFont.defaultSize, isBold: Bool = false, isItalic: Bool = false) {
        (self.name, self.size, self.isBold, self.isItalic) = (name, size, isBold, isItalic)
    }

    /// The name (`System` for the system font), the words `bold`/`italic` when set, and the size.
    ///
    /// ```swift
    /// AMCFont(size: 16, isBold: true).amcStringValue   // "System bold 16"
    /// ```
    public var amcStringValue: String {
        var words = [name ?? "System"]
        if isBold { words.append("bold") }
        if isItalic { words.append("italic") }
        words.append(LayoutStrings.number(size))
        return words.joined(separator: " ")
    }

    /// Parses a font string (see ``AMCFont``); `System` names the system font, and a name's
    /// `-Bold`, `-Italic` or `-BoldItalic` suffix sets those traits (`Helvetica-Bold 14` is
    /// Helvetica, bold, as `System-Bold 14` is the system font, bold).
    ///
    /// ```swift
    /// let font = try AMCFont(amcStringValue: "helvetica 17")   // name "helvetica", size 17
    /// ```
    public init(amcStringValue string: String) throws {
        var words = LayoutStrings.words(string)
        guard !words.isEmpty else {
            throw StringValues.mismatch("an AMCFont string like \"helvetica 17\" or \"bold 15\"", string)
        }
        var font = AMCFont()
        // What a size of infinity or NaN prints as is no size, and no family name either.
        if let last = words.last, ["inf", "-inf", "nan", "-nan"].contains(TextTrimming.lowercased(last)) {
            throw AMCError(.valueOutOfRange(value: String(last), typeName: "AMCFont size"))
        }
        if let last = words.last, let size = DecimalText.double(last.utf8) {
            guard size > 0, size.isFinite else { throw AMCError(.valueOutOfRange(value: String(last), typeName: "AMCFont size")) }
            font.size = size
            words.removeLast()
        }
        var nameWords: [Substring] = []
        for word in words {
            switch TextTrimming.lowercased(word) {
            case "bold": font.isBold = true
            case "italic": font.isItalic = true
            case "system": break
            default:
                // A `-Bold`, `-Italic` or `-BoldItalic` suffix means what it says, whatever the
                // family: `Helvetica-Bold` is Helvetica, bold, as `System-Bold` is the system font.
                let (family, bold, italic) = Self.traits(of: word)
                font.isBold = font.isBold || bold
                font.isItalic = font.isItalic || italic
                if TextTrimming.lowercased(family) != "system" { nameWords.append(family) }
            }
        }
        font.name = nameWords.isEmpty ? nil : nameWords.joined(separator: " ")
        self = font
    }
}

extension AMCFont {
    /// `word` without a `-Bold`, `-Italic` or `-BoldItalic` suffix (any case), and the traits
    /// the suffix names.
    fileprivate static func traits(of word: Substring) -> (family: Substring, bold: Bool, italic: Bool) {
        guard let dash = word.lastIndex(of: "-"), dash != word.startIndex else { return (word, false, false) }
        switch TextTrimming.lowercased(word[word.index(after: dash)...]) {
        case "bold": return (word[..<dash], true, false)
        case "italic": return (word[..<dash], false, true)
        case "bolditalic": return (word[..<dash], true, true)
        default: return (word, false, false)
        }
    }

    /// The platform's font for this one (UIKit's or AppKit's, see `uiFont` and `nsFont`): the
    /// named font, or the system font when there is no name or no such font, at the size, then
    /// `styled` with the bold and italic traits (the unstyled font where the family has none).
    func platformFont<Font>(
        named: (String, CGFloat) -> Font?, system: (CGFloat) -> Font, styled: (Font) -> Font?
    ) -> Font {
        let base = name.flatMap { named($0, CGFloat(size)) } ?? system(CGFloat(size))
        return styled(base) ?? base
    }
}
