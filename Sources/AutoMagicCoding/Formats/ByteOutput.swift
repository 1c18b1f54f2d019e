/// Where the format writers put bytes: an array, or room set aside for a run of them
/// (``ByteRoom``), so that one routine writes a marker or a number into either.
///
/// ```swift
/// func appendPair(_ value: UInt64, to bytes: inout some ByteOutput) {
///     bytes.append(0x11)
///     bytes.appendBigEndian(value, width: 2)
/// }
/// ```
protocol ByteOutput {
    mutating func append(_ byte: UInt8)
    mutating func appendBigEndian(_ value: UInt64, width: Int)
}

extension [UInt8]: ByteOutput {}

extension ByteRoom: ByteOutput {}

/// The byte-level helpers the format writers share.
extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes. The writers' tags and punctuation are a few bytes each,
    /// appended a byte at a time: the general copy's set-up cost more than the bytes.
    @inline(__always)
    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes in
            guard bytes.count <= 8 else { return append(contentsOf: bytes) }
            for byte in bytes { append(byte) }
        }
    }

    /// Appends `value` in decimal.
    mutating func appendDecimal(_ value: Int64) {
        if value < 0 {
            append("-")
            appendDecimal(value.magnitude)
        } else {
            appendDecimal(UInt64(value))
        }
    }

    /// Appends `value`'s `description` (`15.0`, `1.25`, `1e+16`): a whole number below 2⁵³,
    /// which `description` writes as its digits and `.0`, and a number of a few decimals (see
    /// ``ShortestDecimal``), without making the text.
    mutating func appendShortest(_ value: Double) {
        guard value.magnitude < 0x1p53, value != 0 || value.sign == .plus else {
            return append(contentsOf: value.description.utf8)
        }
        if value.rounded(.towardZero) == value {
            appendDecimal(Int64(value))
            return append(".0")
        }
        // `description` writes numbers below 10⁻⁴ with an exponent.
        guard value.magnitude >= 0.001, let decimal = ShortestDecimal(value.magnitude) else {
            return append(contentsOf: value.description.utf8)
        }
        if value < 0 { append("-") }
        appendDecimal(decimal.whole)
        decimal.appendFraction(to: &self)
    }

    /// Appends `value` in decimal.
    mutating func appendDecimal(_ value: UInt64) {
        if value < 10 {
            append(UInt8(truncatingIfNeeded: value) &+ 0x30)
            return
        }
        var digits = 0
        var rest = value
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = count
        append(contentsOf: repeatElement(0, count: digits))
        rest = value
        var index = start + digits - 1
        while rest > 0 {
            self[index] = UInt8(truncatingIfNeeded: rest % 10) &+ 0x30
            rest /= 10
            index -= 1
        }
    }

    /// Appends `count` copies of `byte`: indentation (spaces, tabs) and zeros are copied from
    /// ready-made runs, a block at a time, rather than generated a byte at a time.
    mutating func append(_ byte: UInt8, times count: Int) {
        let run: [UInt8]
        switch byte {
        case ASCII.space: run = ByteRuns.spaces
        case ASCII.tab: run = ByteRuns.tabs
        case 0x00: run = ByteRuns.zeros
        default: return append(contentsOf: repeatElement(byte, count: count))
        }
        var left = count
        while left > 0 {
            let block = Swift.min(left, run.count)
            append(contentsOf: run[..<block])
            left -= block
        }
    }

    /// Appends the big-endian bytes of the low `width` bytes (at most 8) of `value`, a byte at a
    /// time: the widths of references and offsets (3 bytes is common) are too short for a copy's
    /// set-up to pay. The usual widths of references, offsets and UTF-16 units, 1 to 3, are
    /// spelled out: a loop over the width's bytes cost more than the bytes.
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        precondition((0...8).contains(width), "a big-endian field of \(width) bytes")
        switch width {
        case 1:
            append(UInt8(truncatingIfNeeded: value))
            return
        case 2:
            append(UInt8(truncatingIfNeeded: value >> 8))
            append(UInt8(truncatingIfNeeded: value))
            return
        case 3:
            append(UInt8(truncatingIfNeeded: value >> 16))
            append(UInt8(truncatingIfNeeded: value >> 8))
            append(UInt8(truncatingIfNeeded: value))
            return
        default:
            break
        }
        var shift = 8 * width
        while shift > 0 {
            shift -= 8
            append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
        }
    }
}

/// Runs of the bytes writers repeat most.
private enum ByteRuns {
    static let spaces = [UInt8](repeating: ASCII.space, count: 256)
    static let tabs = [UInt8](repeating: ASCII.tab, count: 256)
    static let zeros = [UInt8](repeating: 0x00, count: 256)
}

/// A positive number that is not whole as the shortest decimal that reads back as it, when that
/// has at most 9 decimals and fits 50 bits without its point: `1.25` is 1, then 25 in 2
/// decimals. Its digits are those of `description`, found without making the text.
///
/// ```swift
/// let decimal = ShortestDecimal(1.25)!   // whole 1, fraction 25, digits 2
/// var bytes: [UInt8] = []
/// bytes.appendDecimal(decimal.whole)
/// decimal.appendFraction(to: &bytes)     // "1.25"
/// ```
struct ShortestDecimal {
    let whole: UInt64
    let fraction: UInt64
    let digits: Int

    /// Nil when `magnitude` needs more decimals, or is too large for them.
    init?(_ magnitude: Double) {
        var scale = 1.0
        for digits in 1...9 {
            scale *= 10
            let scaled = magnitude * scale
            guard scaled < 0x1p50 else { return nil }
            let candidate = scaled.rounded()
            // Exact: the candidate and the scale are whole numbers a double holds, and division
            // rounds to the nearest double, as reading the decimal does. Below 2⁵⁰ the numbers
            // that read back as `magnitude` span less than a quarter of the last decimal, so one
            // decimal of these digits at most does, the nearest, which `description` writes.
            guard candidate / scale == magnitude else { continue }
            let (number, power) = (UInt64(candidate), UInt64(scale))
            (whole, fraction, self.digits) = (number / power, number % power, digits)
            return
        }
        return nil
    }

    /// Appends `.` and the fraction's digits, with the zeros it starts with.
    func appendFraction(to bytes: inout [UInt8]) {
        bytes.append(".")
        var power: UInt64 = 1
        for _ in 1..<digits { power *= 10 }
        var rest = fraction
        while power > 0 {
            bytes.append(UInt8(truncatingIfNeeded: rest / power) &+ 0x30)
            rest %= power
            power /= 10
        }
    }
}

/// Up to 24 bytes held in three words, the first byte lowest: a short run put together in
/// registers, then appended in one go, with one check of the array's room (a byte appended alone
/// checks the array's uniqueness and room each time).
///
/// ```swift
/// bytes.append(contentsOf: PackedBytes(0x3231, count: 2))   // "12"
/// ```
struct PackedBytes: RandomAccessCollection {
    private let words: (UInt64, UInt64, UInt64)
    let count: Int

    init(_ first: UInt64, _ second: UInt64 = 0, _ third: UInt64 = 0, count: Int) {
        precondition((0...24).contains(count), "\(count) packed bytes")
        (words, self.count) = ((first, second, third), count)
    }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(position: Int) -> UInt8 {
        let word = position < 8 ? words.0 : position < 16 ? words.1 : words.2
        return UInt8(truncatingIfNeeded: word >> (8 * UInt64(position % 8)))
    }
}
