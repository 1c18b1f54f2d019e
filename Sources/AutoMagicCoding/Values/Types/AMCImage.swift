import Foundation

/// An image by name, with optional cap insets for stretching: platform-neutral, as BSConfig's
/// image strings describe it.
///
/// Strings: `"image.png"`, `"image.png 5, 10"` (stretch caps: top 5, left 10, the same at the
/// bottom and right), `"image.png 5, 10, 3, 7"` (cap insets top, left, bottom, right). The name is
/// a file name, path or URL and may hold spaces (`"night sky.png"`,
/// `"/Library/Desktop Pictures/Beach.jpg 5, 10"`): it is everything before the trailing caps,
/// which are the part after the first white space that holds only numbers and their separators.
///
/// ```swift
/// let image = try AMC.value(AMCImage.self, from: "button.png 5, 10")
/// image.capInsets   // AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10)
/// ```
public struct AMCImage: Hashable, Sendable, AMCStructCodable {
    /// The image's name, path or URL.
    public var name: String
    /// The insets that stay fixed when the image stretches; nil for a plain image.
    public var capInsets: AMCEdgeInsets?

    /// An image named `name`.
    ///
    /// ```swift
    /// let icon = AMCImage(name: "icon.png")
    /// ```
    public init(name: String, capInsets: AMCEdgeInsets? = nil) {
        self.name = name
        self.capInsets = capInsets
    }

    /// The name, then the four cap insets when there are any.
    ///
    /// ```swift
    /// AMCImage(name: "a.png", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 3, right: 7)).amcStringValue
    /// // "a.png 5, 10, 3, 7"
    /// ```
    public var amcStringValue: String {
        guard let caps = capInsets else { return name }
        return name + " " + [caps.top, caps.left, caps.bottom, caps.right].map(LayoutStrings.number).joined(separator: ", ")
    }

    /// Parses an image string (see ``AMCImage``).
    ///
    /// ```swift
    /// let image = try AMCImage(amcStringValue: "colosseum.jpg 5 ; 10 ; 3 ; 7")
    /// ```
    public init(amcStringValue string: String) throws {
        let text = TextTrimming.trimmed(string)
        let form = "an AMCImage string like \"image.png\", \"image.png 5, 10\" or \"image.png 5, 10, 3, 7\""
        guard !text.isEmpty else { throw StringValues.mismatch(form, string) }
        guard let capsStart = Self.capsStart(in: text) else {
            self.init(name: String(text))
            return
        }
        let caps = String(text[capsStart...])
        let insets: AMCEdgeInsets
        if let two = GeometryStrings.numbers(in: caps, count: 2) {
            insets = AMCEdgeInsets(top: Double(two[0]), left: Double(two[1]), bottom: Double(two[0]), right: Double(two[1]))
        } else if let four = GeometryStrings.numbers(in: caps, count: 4) {
            insets = AMCEdgeInsets(top: Double(four[0]), left: Double(four[1]), bottom: Double(four[2]), right: Double(four[3]))
        } else {
            throw StringValues.mismatch(form, string)
        }
        self.init(name: String(TextTrimming.trimmed(String(text[..<capsStart]))), capInsets: insets)
    }

    /// Where the trailing caps start: after the first white space from which the rest holds
    /// only digits, signs, points, separators, braces and white space (with at least one digit);
    /// nil when the whole string is the name (`"night sky.png"`).
    private static func capsStart(in text: Substring) -> Substring.Index? {
        let utf8 = text.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let length = TextTrimming.spaceLength(in: utf8, at: index)
            guard length > 0 else {
                utf8.formIndex(after: &index)
                continue
            }
            let start = utf8.index(index, offsetBy: length)
            if isCaps(utf8[start...]) { return start }
            index = start
        }
        return nil
    }

    /// Whether `bytes` hold only what cap numbers are written with, and a digit: an exponent's
    /// `e` between a digit or a point and a digit or a signed one (`1e+16`, as the string form
    /// writes large insets).
    private static func isCaps(_ bytes: Substring.UTF8View.SubSequence) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        var sawDigit = false
        var previous: UInt8 = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let space = TextTrimming.spaceLength(in: bytes, at: index)
            if space > 0 {
                index = bytes.index(index, offsetBy: space)
                previous = 0
                continue
            }
            let byte = bytes[index]
            if digits.contains(byte) {
                sawDigit = true
            } else if byte | ASCII.lowercaseBit == UInt8(ascii: "e") {
                // An exponent: after a digit or a point, before a digit or a signed one (`sprite 2e` is a name).
                let next = bytes.index(after: index)
                var exponent = next
                if exponent < bytes.endIndex, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") {
                    exponent = bytes.index(after: exponent)
                }
                guard digits.contains(previous) || previous == UInt8(ascii: "."), exponent < bytes.endIndex,
                    digits.contains(bytes[exponent])
                else { return false }
            } else if !Array("+-.,;{}".utf8).contains(byte) {
                return false
            }
            previous = byte
            bytes.formIndex(after: &index)
        }
        return sawDigit
    }
}
