/// Strict UTF-8 checking for the readers: invalid bytes in a file are an error, never silently
/// replaced.
enum UTF8Validation {
    /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence (no
    /// overlong forms, no surrogates, nothing above U+10FFFF); nil when all of it is valid.
    static func firstInvalidOffset(in bytes: ByteView) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80, upper: UInt8 = 0xBF  // the range of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            guard index + length <= count, (lower...upper).contains(bytes[index + 1]) else { return index }
            for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
                return index
            }
            index += length
        }
        return nil
    }
}
