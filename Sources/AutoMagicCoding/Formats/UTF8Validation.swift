import Foundation

/// Strict UTF-8 checking for the readers: invalid bytes in a file are an error, never silently
/// replaced.
enum UTF8Validation {
    /// The offset of the first byte of `bytes` that does not start a valid UTF-8 sequence (no
    /// overlong forms, no surrogates, nothing above U+10FFFF); nil when all of it is valid.
    static func firstInvalidOffset(in bytes: ByteView) -> Int? {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes at a time (most text), then sequence by sequence.
            if index + 8 <= count, bytes.word(at: index) & ByteWords.highBits == 0 {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF  // the range of the second byte
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                upper = 0x9F
            case 0xF0:
                length = 4
                lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                upper = 0x8F
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

/// UTF-16 text with a byte-order mark, which XML 1.0 requires every reader to accept: told from
/// its first bytes, and transcoded to UTF-8 for the XML reader.
enum UTF16Text {
    /// Whether `bytes` start with a UTF-16 byte-order mark: true for big-endian (`FE FF`), false
    /// for little-endian (`FF FE`), nil when there is none.
    static func isBigEndian<Bytes: Collection>(_ bytes: Bytes) -> Bool? where Bytes.Element == UInt8 {
        if bytes.starts(with: [0xFE, 0xFF]) { return true }
        if bytes.starts(with: [0xFF, 0xFE]) { return false }
        return nil
    }

    /// The first character of `bytes` after the byte-order mark and any white space, as a UTF-16
    /// code unit; nil when `bytes` are not UTF-16 with a byte-order mark or hold nothing else.
    static func firstCharacter<Bytes: Collection>(_ bytes: Bytes) -> UInt16? where Bytes.Element == UInt8 {
        guard let bigEndian = isBigEndian(bytes) else { return nil }
        var index = bytes.index(bytes.startIndex, offsetBy: 2)
        while index != bytes.endIndex {
            let next = bytes.index(after: index)
            guard next != bytes.endIndex else { return nil }
            let unit = UInt16(self.unit(bytes[index], bytes[next], bigEndian: bigEndian))
            guard unit < 0x80, TextWhitespace.contains(UInt8(unit)) else { return unit }
            index = bytes.index(after: next)
        }
        return nil
    }

    /// The code unit of two bytes in the given order.
    private static func unit(_ first: UInt8, _ second: UInt8, bigEndian: Bool) -> UInt32 {
        bigEndian ? UInt32(first) << 8 | UInt32(second) : UInt32(second) << 8 | UInt32(first)
    }

    /// The UTF-8 of `data`, UTF-16 after its byte-order mark (which is left out). Throws the
    /// byte offset and reason of an unpaired surrogate or an odd last byte.
    static func utf8(from data: Data, bigEndian: Bool) throws(Failure) -> [UInt8] {
        guard data.count % 2 == 0 else { throw Failure(offset: data.count - 1, reason: "UTF-16 text of an odd number of bytes") }
        var utf8: [UInt8] = []
        utf8.reserveCapacity(3 * (data.count / 2))  // at most 3 bytes a unit (4 a surrogate pair)
        let unpaired = ByteView.withBytes(of: data) { bytes -> Int? in
            do throws(UnpairedSurrogate) {
                try transcode(
                    units: bytes.count / 2 - 1, { unit(bytes[2 + 2 * $0], bytes[3 + 2 * $0], bigEndian: bigEndian) },
                    ascii: { _ in nil }, to: { utf8.append($0) }, putFour: { _ in })
                return nil
            } catch {
                return error.index
            }
        }
        if let unpaired { throw Failure(offset: 2 + 2 * unpaired, reason: "invalid UTF-16 (an unpaired surrogate)") }
        return utf8
    }

    /// Hands `put` the UTF-8 of `count` UTF-16 code units, `unit(i)` the i-th, byte by byte: the
    /// one transcoder of the XML reader (UTF-16 files) and the binary reader (UTF-16 strings).
    /// `ascii(i)` gives the four bytes of units i to i + 3 when all four are ASCII (their UTF-8,
    /// lowest first), which go to `putFour` at once; nil, they go unit by unit. Throws the index
    /// of a surrogate that is not half of a pair, high then low. At most 3 bytes a unit come out
    /// (4 a surrogate pair).
    @inline(__always)
    static func transcode(
        units count: Int, _ unit: (Int) -> UInt32, ascii: (Int) -> UInt32?,
        to put: (UInt8) -> Void, putFour: (UInt32) -> Void
    ) throws(UnpairedSurrogate) {
        var index = 0
        while index < count {
            if index + 4 <= count, let four = ascii(index) {
                putFour(four)
                index += 4
                continue
            }
            var scalar = unit(index)
            index += 1
            if scalar < 0x80 {
                put(UInt8(truncatingIfNeeded: scalar))
                continue
            }
            if (0xD800...0xDFFF).contains(scalar) {
                guard scalar <= 0xDBFF, index < count, case let low = unit(index), (0xDC00...0xDFFF).contains(low) else {
                    throw UnpairedSurrogate(index: index - 1)
                }
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                index += 1
            }
            func continuation(_ shift: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: 0x80 | (scalar >> shift) & 0x3F) }
            if scalar < 0x800 {
                put(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
            } else if scalar < 0x10000 {
                put(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
                put(continuation(6))
            } else {
                put(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
                put(continuation(12))
                put(continuation(6))
            }
            put(continuation(0))
        }
    }

    /// The string of the `units.count / 2` UTF-16 code units of `units`, big-endian (a binary
    /// property list's), its UTF-8 written straight into the string's storage, four ASCII
    /// characters at a time. Throws as ``transcode(units:_:ascii:to:putFour:)``.
    static func string(bigEndian units: ByteView) throws(UnpairedSurrogate) -> String {
        let count = units.count / 2
        func unit(_ index: Int) -> UInt32 { UInt32(units[2 * index]) << 8 | UInt32(units[2 * index + 1]) }
        // Units i to i + 3 as one word, read little-endian: all four are ASCII when every
        // even byte (a high byte) is 0 and every odd one below 0x80; then the odd bytes are
        // the UTF-8, gathered into the low four bytes.
        func ascii(_ index: Int) -> UInt32? {
            let word = units.word(at: 2 * index)
            guard word & 0x80FF_80FF_80FF_80FF == 0 else { return nil }
            var bytes = word >> 8
            bytes = (bytes | bytes >> 8) & 0x0000_FFFF_0000_FFFF
            return UInt32(truncatingIfNeeded: bytes | bytes >> 16)
        }
        // The UTF-8 length first, so the string is made at its size: the bytes `transcode` writes
        // for each unit, counted here on their own (keep the two in step; counting through
        // `transcode` itself slows every string read).
        var length = 0
        var index = 0
        while index < count {
            if index + 4 <= count, ascii(index) != nil {
                length += 4
                index += 4
                continue
            }
            let scalar = unit(index)
            length += scalar < 0x80 ? 1 : scalar < 0x800 || (0xD800...0xDFFF).contains(scalar) ? 2 : 3
            index += 1
        }
        var failure: UnpairedSurrogate?
        let string = ByteView.makeString(capacity: length) { room in
            do throws(UnpairedSurrogate) {
                try transcode(units: count, unit, ascii: ascii, to: { room.append($0) }, putFour: { room.append(four: $0) })
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return string
    }

    /// The index of a code unit that is half of a surrogate pair without its other half.
    struct UnpairedSurrogate: Error {
        /// The code unit's index among those transcoded.
        var index: Int
    }

    /// Where and why UTF-16 text could not be read.
    struct Failure: Error {
        var offset: Int
        var reason: String
    }
}
