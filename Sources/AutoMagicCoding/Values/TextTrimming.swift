/// White space in value strings, and the trimming and case folding string coding does on every
/// value, without Foundation's `CharacterSet` machinery: a value string is short and nearly always
/// ASCII, and parsing one must take well under a microsecond.
///
/// **White space**, wherever a value string is read (trimmed ends, separators between numbers,
/// words of a font or an option set, colour components, the gap before an image's caps), is one
/// thing: Unicode's `White_Space` property, which is what Foundation's `.whitespacesAndNewlines`
/// holds: space, tab, line feed, vertical tab, form feed, carriage return, U+0085, U+00A0,
/// U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F and U+3000. (Document syntax is another
/// matter: JSON and XML readers follow their specifications.)
enum TextTrimming {
    /// `text` without white space at either end.
    ///
    /// ```swift
    /// TextTrimming.trimmed("  10 20\n")   // "10 20"
    /// ```
    static func trimmed(_ text: String) -> Substring {
        let scalars = text.unicodeScalars
        var start = scalars.startIndex
        var end = scalars.endIndex
        while start < end, isSpace(scalars[start]) { start = scalars.index(after: start) }
        while start < end {
            let last = scalars.index(before: end)
            guard isSpace(scalars[last]) else { break }
            end = last
        }
        return text[start..<end]
    }

    /// Whether `text` is empty or only white space.
    static func isBlank(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy(isSpace)
    }

    /// `text` in lower case; ASCII is folded byte by byte, anything else by `lowercased()`.
    ///
    /// ```swift
    /// TextTrimming.lowercased("DarkGray")   // "darkgray"
    /// ```
    static func lowercased<Text: StringProtocol>(_ text: Text) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return String(
            decoding: utf8.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | ASCII.lowercaseBit : $0 },
            as: UTF8.self)
    }

    /// Whether `scalar` is white space (see ``TextTrimming``).
    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80 ? isASCIISpace(UInt8(scalar.value)) : scalar.properties.isWhitespace
    }

    /// The number of UTF-8 bytes of the white-space character that starts at `index` of
    /// `bytes`; 0 when none does. For scanners that read value strings byte by byte.
    ///
    /// ```swift
    /// TextTrimming.spaceLength(in: Array("\u{A0}5".utf8), at: 0)   // 2
    /// ```
    static func spaceLength<Bytes: Collection>(in bytes: Bytes, at index: Bytes.Index) -> Int
    where Bytes.Element == UInt8 {
        let first = bytes[index]
        if first < 0x80 { return isASCIISpace(first) ? 1 : 0 }
        // Every non-ASCII white space is 2 or 3 bytes long (U+0085 … U+3000).
        var scalar: UInt32
        let length: Int
        switch first {
        case 0xC2: (scalar, length) = (UInt32(first & 0x1F), 2)
        case 0xE1, 0xE2, 0xE3: (scalar, length) = (UInt32(first & 0x0F), 3)
        default: return 0
        }
        var position = bytes.index(after: index)
        for _ in 1..<length {
            guard position < bytes.endIndex, bytes[position] & 0xC0 == 0x80 else { return 0 }
            scalar = scalar << 6 | UInt32(bytes[position] & 0x3F)
            position = bytes.index(after: position)
        }
        guard let unicode = Unicode.Scalar(scalar), unicode.properties.isWhitespace else { return 0 }
        return length
    }

    /// The index past any white space from `index` on.
    static func skipSpaces<Bytes: Collection>(in bytes: Bytes, from index: Bytes.Index) -> Bytes.Index
    where Bytes.Element == UInt8 {
        var index = index
        while index < bytes.endIndex {
            let length = spaceLength(in: bytes, at: index)
            guard length > 0 else { break }
            index = bytes.index(index, offsetBy: length)
        }
        return index
    }

    /// `bytes` without white space at either end.
    static func trimmed<Bytes: Collection>(bytes: Bytes) -> Bytes.SubSequence where Bytes.Element == UInt8 {
        let start = skipSpaces(in: bytes, from: bytes.startIndex)
        var end = start
        var index = start
        while index < bytes.endIndex {
            let length = spaceLength(in: bytes, at: index)
            if length > 0 {
                index = bytes.index(index, offsetBy: length)
            } else {
                bytes.formIndex(after: &index)
                end = index
            }
        }
        return bytes[start..<end]
    }

    /// The parts of `bytes` between runs of white space (and of `separators`), none empty.
    static func words<Bytes: Collection>(_ bytes: Bytes, separators: [UInt8] = []) -> [Bytes.SubSequence]
    where Bytes.Element == UInt8 {
        var words: [Bytes.SubSequence] = []
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let start = index
            while index < bytes.endIndex, spaceLength(in: bytes, at: index) == 0, !separators.contains(bytes[index]) {
                bytes.formIndex(after: &index)
            }
            if start < index { words.append(bytes[start..<index]) }
            while index < bytes.endIndex {
                let length = spaceLength(in: bytes, at: index)
                if length > 0 {
                    index = bytes.index(index, offsetBy: length)
                } else if separators.contains(bytes[index]) {
                    bytes.formIndex(after: &index)
                } else {
                    break
                }
            }
        }
        return words
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == ASCII.space || (ASCII.tab...ASCII.carriageReturn).contains(byte)
    }
}
