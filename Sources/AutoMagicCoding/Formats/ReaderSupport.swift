/// What the three document readers share: where an offset is in a text, how a byte is shown in a
/// message, and the nesting limit.

/// Line and column (from 1, columns in bytes) of a byte offset in a text document.
enum TextLocation {
    // Out of line: it is called on error paths of recursive readers, whose frames it must not grow.
    @inline(never)
    static func of(_ offset: Int, in bytes: ByteView) -> AMCError.Location {
        let (lineFeeds, lineStart) = bytes.lineFeeds(in: 0..<min(offset, bytes.count))
        return .line(lineFeeds + 1, column: offset - (lineStart ?? 0) + 1)
    }
}

/// Bytes in messages.
enum ByteText {
    /// Two upper-case hexadecimal digits: `0A`.
    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}

/// Every reader refuses a repeated key, since keeping either value would silently drop the other
/// (and readers disagree on which to keep); ``TapeBuilder/isRepeated(_:from:seen:)`` finds them.
enum RepeatedKeys {
    /// The reason a reader gives.
    static func reason(_ key: String) -> String {
        "the key \"\(ArchiveValue.shortened(key))\" appears twice in one dictionary"
    }
}

/// How much text a document read from bytes may become when converted or printed: shared objects
/// in a binary property list, and the indentation of deep nesting, can multiply a small file far
/// beyond what its values suggest. 64 times the input, and at least 64 MiB.
enum OutputBudget {
    static func limit(forInput count: Int) -> Int {
        max(64 << 20, count.multipliedReportingOverflow(by: 64).overflow ? .max : count * 64)
    }
}
