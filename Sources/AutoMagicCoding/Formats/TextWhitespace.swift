/// The white space of JSON (RFC 8259) and of XML (`S` in XML 1.0), the same four bytes: space,
/// tab, line feed and carriage return. The readers, the format detection and the document editor
/// all ask here, so the formats agree on what separates tokens.
///
/// ```swift
/// TextWhitespace.contains(UInt8(ascii: "\t"))   // true
/// TextWhitespace.contains(0xA0)                  // false: a no-break space is content
/// ```
enum TextWhitespace {
    @inline(__always)
    static func contains(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): true
        default: false
        }
    }
}
