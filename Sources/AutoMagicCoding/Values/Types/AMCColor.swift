import Foundation

/// A colour with `red`, `green`, `blue` and `alpha` components from 0 to 1: platform-neutral,
/// settable from the strings StringCoding and BSConfig accept.
///
/// Strings (case-insensitive): UIKit's named colours (`black`, `darkGray`, `lightGray`, `white`,
/// `gray`, `red`, `green`, `blue`, `cyan`, `yellow`, `magenta`, `orange`, `purple`, `brown`,
/// `clear`, with or without a `Color` suffix, with UIKit's values), then the CSS named colours;
/// `rgb(r,g,b)`, `rgba(r,g,b,a)`, `"r, g, b"` and `"r, g, b, a"` with 0–255 channels and alpha
/// 0–1; `#rgb`, `#rrggbb`, `#rrggbbaa`, with or without `#`; CSS's `color(srgb r g b / a)`.
///
/// ```swift
/// let color = try AMC.value(AMCColor.self, from: "#ff000080")   // red at alpha 128/255
/// color.amcStringValue                                          // "#ff000080"
/// ```
public struct AMCColor: Hashable, Sendable, AMCStructCodable {
    /// The red component, from 0 to 1.
    public var red: Double
    /// The green component, from 0 to 1.
    public var green: Double
    /// The blue component, from 0 to 1.
    public var blue: Double
    /// The opacity, from 0 (transparent) to 1 (opaque).
    public var alpha: Double

    /// A colour from components between 0 and 1.
    ///
    /// ```swift
    /// let teal = AMCColor(red: 0, green: 0.5, blue: 0.5)
    /// ```
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// A grey of brightness `white`, as `UIColor(white:alpha:)`.
    ///
    /// ```swift
    /// let darkGray = AMCColor(white: 1.0 / 3)
    /// ```
    public init(white: Double, alpha: Double = 1) {
        self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// `#rrggbb` (or `#rrggbbaa` when not opaque) when every component is a whole number of
    /// 255ths; otherwise CSS's `color(srgb r g b / a)` with the exact components, so that it
    /// reads back to this very colour.
    ///
    /// ```swift
    /// AMCColor(red: 1, green: 0, blue: 0).amcStringValue                // "#ff0000"
    /// AMCColor(red: 1, green: 0.5, blue: 0, alpha: 0.4).amcStringValue // "color(srgb 1 0.5 0 / 0.4)"
    /// ```
    public var amcStringValue: String {
        let components = [red, green, blue, alpha]
        let bytes = components.map { ($0 * 255).rounded() }
        if zip(components, bytes).allSatisfy({ $1 >= 0 && $1 <= 255 && $1 / 255 == $0 }) {
            let digits = bytes.prefix(alpha == 1 ? 3 : 4).map { Self.hexByte(Int($0)) }.joined()
            return "#" + digits
        }
        let rgb = [red, green, blue].map(LayoutStrings.number).joined(separator: " ")
        return alpha == 1 ? "color(srgb \(rgb))" : "color(srgb \(rgb) / \(LayoutStrings.number(alpha)))"
    }

    /// Parses any colour string (see ``AMCColor``).
    ///
    /// ```swift
    /// let sky = try AMCColor(amcStringValue: "rgba(100,200,250,0.5)")
    /// ```
    public init(amcStringValue string: String) throws {
        guard let color = ByteView.withBytes(of: String(TextTrimming.trimmed(string)), { Self.color(in: $0[...]) }) else {
            throw StringValues.mismatch(
                "an AMCColor: a colour name, #rgb, #rrggbb, #rrggbbaa, rgb(r,g,b), rgba(r,g,b,a) or \"r, g, b[, a]\"", string)
        }
        self = color
    }

    // MARK: - Parsing

    /// The bytes of a trimmed colour string, or of part of one.
    private typealias Bytes = Slice<ByteView>

    private static func color(in text: Bytes) -> AMCColor? {
        if let color = hex(text) { return color }
        if text.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercased($0)) }) {
            return named(TextTrimming.lowercased(String(decoding: text, as: UTF8.self)))
        }
        return channels(text)
    }

    /// A UIKit name (with or without `color`) or a CSS name, lower-cased.
    private static func named(_ name: String) -> AMCColor? {
        let bare = name.hasSuffix("color") ? String(name.dropLast(5)) : name
        if let color = uiKitColors[bare] { return color }
        return cssColors[bare].flatMap { digits in ByteView.withBytes(of: digits) { hex($0[...]) } }
    }

    /// `#rgb`, `#rrggbb`, `#rrggbbaa`, with or without `#`, digits in either case.
    private static func hex(_ text: Bytes) -> AMCColor? {
        var digits = text
        if digits.first == UInt8(ascii: "#") { digits = digits.dropFirst() }
        guard [3, 6, 8].contains(digits.count) else { return nil }
        var value: UInt32 = 0
        for byte in digits {
            guard let digit = ScalarStrings.hexDigitValue(byte) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        func channel(_ shift: UInt32, _ mask: UInt32, _ scale: Double) -> Double { Double((value >> shift) & mask) / scale }
        switch digits.count {
        case 3: return AMCColor(red: channel(8, 0xF, 15), green: channel(4, 0xF, 15), blue: channel(0, 0xF, 15))
        case 6: return AMCColor(red: channel(16, 0xFF, 255), green: channel(8, 0xFF, 255), blue: channel(0, 0xFF, 255))
        default:
            return AMCColor(
                red: channel(24, 0xFF, 255), green: channel(16, 0xFF, 255),
                blue: channel(8, 0xFF, 255), alpha: channel(0, 0xFF, 255))
        }
    }

    /// `rgb(r,g,b)`, `rgba(r,g,b,a)`, `"r, g, b"`, `"r, g, b, a"`: channels 0–255, alpha 0–1;
    /// or `color(srgb r g b[ / a])` with every component 0–1.
    private static func channels(_ text: Bytes) -> AMCColor? {
        if let inner = inside(text, after: "color(srgb") {
            let words = TextTrimming.words(inner, separators: [UInt8(ascii: "/")])
            let parts = words.compactMap { DecimalText.double($0) }
            guard parts.count == words.count, [3, 4].contains(parts.count), parts.allSatisfy((0...1).contains) else { return nil }
            return AMCColor(red: parts[0], green: parts[1], blue: parts[2], alpha: parts.count == 4 ? parts[3] : 1)
        }
        if let inner = inside(text, after: "rgba(") { return components(inner, counts: 4...4) }
        if let inner = inside(text, after: "rgb(") { return components(inner, counts: 3...3) }
        return components(text, counts: 3...4)
    }

    /// `byte`, with ASCII capitals made small.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | ASCII.lowercaseBit : byte
    }

    /// What lies between `prefix` (in any case) and a closing `)` that ends `text`.
    private static func inside(_ text: Bytes, after prefix: StaticString) -> Bytes? {
        let count = prefix.utf8CodeUnitCount
        guard text.count > count, text.last == UInt8(ascii: ")") else { return nil }
        let matches = ByteView.withBytes(of: prefix) { expected in
            (0..<count).allSatisfy { lowercased(text[text.startIndex + $0]) == expected[$0] }
        }
        guard matches else { return nil }
        return text[(text.startIndex + count)..<(text.endIndex - 1)]
    }

    /// Three or four comma-separated numbers, white space around each allowed.
    private static func components(_ text: Bytes, counts: ClosedRange<Int>) -> AMCColor? {
        var values = SIMD4<Double>(0, 0, 0, 1)
        var count = 0
        var start = text.startIndex
        while true {
            var end = start
            while end < text.endIndex, text[end] != UInt8(ascii: ",") { end += 1 }
            let part = TextTrimming.trimmed(bytes: text[start..<end])
            guard count < 4, let value = DecimalText.double(part) else { return nil }
            values[count] = value
            count += 1
            guard end < text.endIndex else { break }
            start = end + 1
        }
        guard counts.contains(count), (0...255).contains(values[0]), (0...255).contains(values[1]),
            (0...255).contains(values[2]), (0...1).contains(values[3])
        else { return nil }
        return AMCColor(red: values[0] / 255, green: values[1] / 255, blue: values[2] / 255, alpha: values[3])
    }

    // MARK: - Writing

    private static func hexByte(_ value: Int) -> String {
        let digits = Array("0123456789abcdef")
        return String([digits[value >> 4], digits[value & 0xF]])
    }

    // MARK: - Names

    /// UIKit's named colours, with UIKit's component values.
    private static let uiKitColors: [String: AMCColor] = [
        "black": AMCColor(white: 0), "darkgray": AMCColor(white: 1.0 / 3), "lightgray": AMCColor(white: 2.0 / 3),
        "white": AMCColor(white: 1), "gray": AMCColor(white: 0.5),
        "red": AMCColor(red: 1, green: 0, blue: 0), "green": AMCColor(red: 0, green: 1, blue: 0),
        "blue": AMCColor(red: 0, green: 0, blue: 1), "cyan": AMCColor(red: 0, green: 1, blue: 1),
        "yellow": AMCColor(red: 1, green: 1, blue: 0), "magenta": AMCColor(red: 1, green: 0, blue: 1),
        "orange": AMCColor(red: 1, green: 0.5, blue: 0), "purple": AMCColor(red: 0.5, green: 0, blue: 0.5),
        "brown": AMCColor(red: 0.6, green: 0.4, blue: 0.2), "clear": AMCColor(white: 0, alpha: 0),
    ]

    /// The CSS named colours (CSS Color Module Level 4), for the names UIKit lacks.
    private static let cssColors: [String: String] = {
        // Name and hex digits, pairs apart by two spaces.
        let table = """
            aliceblue f0f8ff  antiquewhite faebd7  aqua 00ffff  aquamarine 7fffd4  azure f0ffff
            beige f5f5dc  bisque ffe4c4  blanchedalmond ffebcd  blueviolet 8a2be2  burlywood deb887
            cadetblue 5f9ea0  chartreuse 7fff00  chocolate d2691e  coral ff7f50
            cornflowerblue 6495ed  cornsilk fff8dc  crimson dc143c  darkblue 00008b  darkcyan 008b8b
            darkgoldenrod b8860b  darkgreen 006400  darkgrey a9a9a9  darkkhaki bdb76b
            darkmagenta 8b008b  darkolivegreen 556b2f  darkorange ff8c00  darkorchid 9932cc
            darkred 8b0000  darksalmon e9967a  darkseagreen 8fbc8f  darkslateblue 483d8b
            darkslategray 2f4f4f  darkslategrey 2f4f4f  darkturquoise 00ced1  darkviolet 9400d3
            deeppink ff1493  deepskyblue 00bfff  dimgray 696969  dimgrey 696969  dodgerblue 1e90ff
            firebrick b22222  floralwhite fffaf0  forestgreen 228b22  fuchsia ff00ff
            gainsboro dcdcdc  ghostwhite f8f8ff  gold ffd700  goldenrod daa520  grey 808080
            greenyellow adff2f  honeydew f0fff0  hotpink ff69b4  indianred cd5c5c  indigo 4b0082
            ivory fffff0  khaki f0e68c  lavender e6e6fa  lavenderblush fff0f5  lawngreen 7cfc00
            lemonchiffon fffacd  lightblue add8e6  lightcoral f08080  lightcyan e0ffff
            lightgoldenrodyellow fafad2  lightgreen 90ee90  lightgrey d3d3d3  lightpink ffb6c1
            lightsalmon ffa07a  lightseagreen 20b2aa  lightskyblue 87cefa  lightslategray 778899
            lightslategrey 778899  lightsteelblue b0c4de  lightyellow ffffe0  lime 00ff00
            limegreen 32cd32  linen faf0e6  maroon 800000  mediumaquamarine 66cdaa  mediumblue 0000cd
            mediumorchid ba55d3  mediumpurple 9370db  mediumseagreen 3cb371  mediumslateblue 7b68ee
            mediumspringgreen 00fa9a  mediumturquoise 48d1cc  mediumvioletred c71585
            midnightblue 191970  mintcream f5fffa  mistyrose ffe4e1  moccasin ffe4b5
            navajowhite ffdead  navy 000080  oldlace fdf5e6  olive 808000  olivedrab 6b8e23
            orangered ff4500  orchid da70d6  palegoldenrod eee8aa  palegreen 98fb98
            paleturquoise afeeee  palevioletred db7093  papayawhip ffefd5  peachpuff ffdab9
            peru cd853f  pink ffc0cb  plum dda0dd  powderblue b0e0e6  rebeccapurple 663399
            rosybrown bc8f8f  royalblue 4169e1  saddlebrown 8b4513  salmon fa8072  sandybrown f4a460
            seagreen 2e8b57  seashell fff5ee  sienna a0522d  silver c0c0c0  skyblue 87ceeb
            slateblue 6a5acd  slategray 708090  slategrey 708090  snow fffafa  springgreen 00ff7f
            steelblue 4682b4  tan d2b48c  teal 008080  thistle d8bfd8  tomato ff6347
            turquoise 40e0d0  violet ee82ee  wheat f5deb3  whitesmoke f5f5f5  yellowgreen 9acd32
            """
        let words = table.split(whereSeparator: \.isWhitespace).map(String.init)
        return Dictionary(uniqueKeysWithValues: stride(from: 0, to: words.count, by: 2).map { (words[$0], words[$0 + 1]) })
    }()
}
