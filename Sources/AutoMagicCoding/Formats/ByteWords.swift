/// Word-at-a-time tests on text, shared by the readers and writers: eight bytes (read with
/// ``ByteView/word(at:)``) are looked at one by one only where one of them may need it, or, where
/// the first such byte is known exactly, skipped up to it.
///
/// ```swift
/// ByteWords.mayNeedJSONEscape(0x6F6C_6C65_4820_2C69)  // false: "i, Hello", plain ASCII
/// ByteWords.highBits & 0x6F6C_6C65_4820_2C69 == 0     // true: no byte from 0x80 up
/// ```
enum ByteWords {
    /// The high bit of each byte of a word: a word of ASCII has none of them set.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether one of the 8 bytes of `word` may be a control character, `"` or `\` (never false
    /// when one is; the bytes are then looked at one by one).
    @inline(__always)
    static func mayNeedJSONEscape(_ word: UInt64) -> Bool {
        jsonEscapeBits(word) != 0
    }

    /// How many of the 8 bytes of `word`, from the first, are none of a control character, `"`
    /// and `\`: 8 when none is; else the first such byte's offset, exactly.
    ///
    /// ```swift
    /// ByteWords.plainJSONBytes(0x2020_2020_2265_6D61)  // 3: "ame" before the quote
    /// ```
    @inline(__always)
    static func plainJSONBytes(_ word: UInt64) -> Int {
        jsonEscapeBits(word).trailingZeroBitCount >> 3
    }

    /// The high bit of each byte of `word` that may be a control character, `"` or `\`. A byte
    /// flagged wrongly lies above one flagged rightly (a borrow carries only upwards, from a byte
    /// that is one), so the lowest bit set is the first such byte.
    @inline(__always)
    private static func jsonEscapeBits(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        // A byte below 0x20 (bytes from 0x80 up have their high bit set and are masked out), and
        // a zero byte after XOR with `"` or `\` (the classic "has a zero byte" test).
        let control = (word &- ones &* UInt64(ASCII.space)) & ~word & highBits
        let quote = word ^ (ones &* UInt64(ASCII.quote))
        let backslash = word ^ (ones &* UInt64(ASCII.backslash))
        let zero = ((quote &- ones) & ~quote | (backslash &- ones) & ~backslash) & highBits
        return control | zero
    }
}
