/// The trimming and case folding string coding does on every value, without Foundation's
/// `CharacterSet` machinery: a value string is short and nearly always ASCII, and parsing one
/// must take well under a microsecond.
enum TextTrimming {
    /// `text` without white space and newlines at either end (Unicode's `White_Space`, which is
    /// what Foundation's `.whitespacesAndNewlines` holds).
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
        return String(unsafeUninitializedCapacity: utf8.count) { buffer in
            var count = 0
            for byte in utf8 {
                buffer[count] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
                count += 1
            }
            return count
        }
    }

    static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x80
            ? scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value)
            : scalar.properties.isWhitespace
    }
}
