import Foundation

/// Insets from the edges of a rectangle: a platform-neutral `UIEdgeInsets`.
///
/// ```swift
/// let insets = try AMC.value(AMCEdgeInsets.self, from: "3, 6, 4, 2")   // top, left, bottom, right
/// insets.amcStringValue                                               // "{3, 6, 4, 2}"
/// ```
public struct AMCEdgeInsets: Hashable, Sendable, AMCStructCodable {
    public var top: Double, left: Double, bottom: Double, right: Double

    /// Insets with the given edges.
    ///
    /// ```swift
    /// let padding = AMCEdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
    /// ```
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    /// `"{top, left, bottom, right}"`, as `NSStringFromUIEdgeInsets` prints it.
    ///
    /// ```swift
    /// AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4).amcStringValue   // "{1, 2, 3, 4}"
    /// ```
    public var amcStringValue: String { LayoutStrings.braced([top, left, bottom, right]) }

    /// Parses `"{top, left, bottom, right}"` or the four numbers separated by white space, `,`,
    /// `;` or `x`.
    ///
    /// ```swift
    /// let insets = try AMCEdgeInsets(amcStringValue: "3 ; 6 ; 4 ; 2")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try LayoutStrings.numbers(string, count: 4, typeName: "AMCEdgeInsets", form: "top, left, bottom, right")
        self.init(top: n[0], left: n[1], bottom: n[2], right: n[3])
    }
}

/// A horizontal and vertical offset: a platform-neutral `UIOffset`.
///
/// ```swift
/// let shadow = try AMC.value(AMCOffset.self, from: "10, 5")   // horizontal 10, vertical 5
/// ```
public struct AMCOffset: Hashable, Sendable, AMCStructCodable {
    public var horizontal: Double, vertical: Double

    /// An offset by `horizontal` and `vertical`.
    ///
    /// ```swift
    /// let offset = AMCOffset(horizontal: 0, vertical: -1)
    /// ```
    public init(horizontal: Double = 0, vertical: Double = 0) {
        (self.horizontal, self.vertical) = (horizontal, vertical)
    }

    /// `"{horizontal, vertical}"`, as `NSStringFromUIOffset` prints it.
    ///
    /// ```swift
    /// AMCOffset(horizontal: 10, vertical: 5).amcStringValue   // "{10, 5}"
    /// ```
    public var amcStringValue: String { LayoutStrings.braced([horizontal, vertical]) }

    /// Parses `"{horizontal, vertical}"` or the two numbers separated by white space, `,`, `;` or
    /// `x`.
    ///
    /// ```swift
    /// let offset = try AMCOffset(amcStringValue: "10 5")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try LayoutStrings.numbers(string, count: 2, typeName: "AMCOffset", form: "horizontal, vertical")
        self.init(horizontal: n[0], vertical: n[1])
    }
}

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
    public var size: Double
    public var isBold: Bool
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

    /// Parses a font string (see ``AMCFont``); `System`, `System-Bold`, `System-Italic` and
    /// `System-BoldItalic` name the system font.
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
            case "system-bold": font.isBold = true
            case "system-italic": font.isItalic = true
            case "system-bolditalic": (font.isBold, font.isItalic) = (true, true)
            default: nameWords.append(word)
            }
        }
        font.name = nameWords.isEmpty ? nil : nameWords.joined(separator: " ")
        self = font
    }
}

/// An image by name, with optional cap insets for stretching: platform-neutral, as BSConfig's
/// image strings describe it.
///
/// Strings: `"image.png"`, `"image.png 5, 10"` (stretch caps: top 5, left 10, the same at the
/// bottom and right), `"image.png 5, 10, 3, 7"` (cap insets top, left, bottom, right).
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
        guard let nameEnd = text.utf8.firstIndex(where: LayoutStrings.isSpace) else {
            guard !text.isEmpty else { throw StringValues.mismatch("an AMCImage string like \"image.png 5, 10\"", string) }
            self.init(name: String(text))
            return
        }
        let caps = String(text[nameEnd...])
        let insets: AMCEdgeInsets
        if let two = GeometryStrings.numbers(in: caps, count: 2) {
            insets = AMCEdgeInsets(top: Double(two[0]), left: Double(two[1]), bottom: Double(two[0]), right: Double(two[1]))
        } else if let four = GeometryStrings.numbers(in: caps, count: 4) {
            insets = AMCEdgeInsets(top: Double(four[0]), left: Double(four[1]), bottom: Double(four[2]), right: Double(four[3]))
        } else {
            throw StringValues.mismatch("an AMCImage string like \"image.png\", \"image.png 5, 10\" or \"image.png 5, 10, 3, 7\"", string)
        }
        self.init(name: String(text[..<nameEnd]), capInsets: insets)
    }
}

/// A URL with the HTTP method to request it with: StringCoding's `NSURLRequestValue`, from
/// `"POST https://example.com/items"` or just a URL (`GET`).
///
/// ```swift
/// let request = try AMC.value(AMCURLRequest.self, from: "POST https://example.com/items")
/// request.method   // "POST"
/// ```
public struct AMCURLRequest: Hashable, Sendable, AMCStructCodable {
    /// `GET`, `POST`, `PUT`, `DELETE`, `HEAD`, `OPTIONS` or `PATCH`.
    public var method: String
    public var url: URL

    /// The methods a request string may start with.
    public static let methods: Set<String> = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]

    /// A request for `url` with `method`.
    ///
    /// ```swift
    /// let request = AMCURLRequest(method: "DELETE", url: URL(string: "https://example.com/items/1")!)
    /// ```
    public init(method: String = "GET", url: URL) {
        self.method = method
        self.url = url
    }

    /// `"METHOD url"`.
    ///
    /// ```swift
    /// AMCURLRequest(url: URL(string: "https://example.com")!).amcStringValue   // "GET https://example.com"
    /// ```
    public var amcStringValue: String { "\(method) \(url.absoluteString)" }

    /// Parses `"[METHOD ]url"`; the method in any case, the URL as string coding reads URLs.
    ///
    /// ```swift
    /// let request = try AMCURLRequest(amcStringValue: "post https://example.com/items")
    /// ```
    public init(amcStringValue string: String) throws {
        let text = TextTrimming.trimmed(string)
        if let space = text.utf8.firstIndex(where: LayoutStrings.isSpace), Self.methods.contains(text[..<space].uppercased()) {
            self.init(method: text[..<space].uppercased(), url: try StringValues.url(from: String(text[space...])))
        } else {
            self.init(url: try StringValues.url(from: String(text)))
        }
    }
}

/// Helpers for the value types' strings.
enum LayoutStrings {
    static func number(_ value: Double) -> String { GeometryStrings.number(CGFloat(value)) }

    /// The words of `string` between runs of spaces and tabs.
    static func words(_ string: String) -> [Substring] {
        var words: [Substring] = []
        words.reserveCapacity(4)
        let utf8 = string.utf8
        var index = utf8.startIndex
        while index < utf8.endIndex {
            let start = index
            while index < utf8.endIndex, !isSpace(utf8[index]) { utf8.formIndex(after: &index) }
            if start < index { words.append(string[start..<index]) }
            while index < utf8.endIndex, isSpace(utf8[index]) { utf8.formIndex(after: &index) }
        }
        return words
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    static func braced(_ values: [Double]) -> String {
        "{" + values.map(number).joined(separator: ", ") + "}"
    }

    static func numbers(_ string: String, count: Int, typeName: String, form: String) throws -> [Double] {
        guard let numbers = GeometryStrings.numbers(in: string, count: count) else {
            throw StringValues.mismatch("\(AMC.withArticle(typeName)) string like \"{\(form)}\" or \"\(form)\"", string)
        }
        return numbers.map { Double($0) }
    }
}
