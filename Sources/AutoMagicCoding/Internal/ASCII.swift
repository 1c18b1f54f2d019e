/// The bytes the readers, writers and value parsers name: control characters and the
/// punctuation that text formats escape.
///
/// ```swift
/// if byte < ASCII.space { /* a control character */ }
/// let lower = byte | ASCII.lowercaseBit   // "A" → "a" for letters
/// ```
enum ASCII {
    static let backspace: UInt8 = 0x08
    static let tab: UInt8 = 0x09
    static let lineFeed: UInt8 = 0x0A
    static let formFeed: UInt8 = 0x0C
    static let carriageReturn: UInt8 = 0x0D
    /// The first printable byte; those below are control characters.
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let ampersand: UInt8 = 0x26
    static let lessThan: UInt8 = 0x3C
    static let greaterThan: UInt8 = 0x3E
    static let backslash: UInt8 = 0x5C
    /// The last byte of ASCII, a control character.
    static let delete: UInt8 = 0x7F
    /// Set in a lowercase letter, clear in its uppercase one.
    static let lowercaseBit: UInt8 = 0x20
}
