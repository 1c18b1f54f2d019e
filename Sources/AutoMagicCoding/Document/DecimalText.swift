/// Decimal numbers read straight from UTF-8 bytes: the readers' and the string parsers' one
/// number scanner. Short numbers (up to 15 significant digits and a power of ten up to 22, which
/// covers what people and the writers produce) are computed exactly with one multiplication or
/// division, which IEEE 754 rounds correctly; longer ones go to the C library's `strtod`.
enum DecimalText {
    /// The value of `[+-]digits[.digits][(e|E)[+-]digits]` filling all of `bytes`; nil for
    /// anything else (no `inf`, `nan` or hexadecimal).
    /// How many significant digits the decimal number `bytes` spells (up to its exponent): a
    /// double tells apart numbers of up to 17, so more is a number only its text holds exactly.
    static func significantDigits<Bytes: Collection>(_ bytes: Bytes) -> Int where Bytes.Element == UInt8 {
        var count = 0
        for byte in bytes {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { continue }
            if count > 0 || byte != UInt8(ascii: "0") { count += 1 }
        }
        return count
    }

    /// Whether `text` is a number as JSON writes one (`-12.5e3`; no `+`, no leading zeros, digits
    /// on both sides of a point): what a long number's text must be to be written as it is.
    static func isJSONNumber(_ text: String) -> Bool {
        var rest = Substring(text).utf8[...]
        func digits() -> Int {
            let count = rest.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
            rest = rest.dropFirst(count)
            return count
        }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
        let leading = rest.first
        let integer = digits()
        guard integer > 0, integer == 1 || leading != UInt8(ascii: "0") else { return false }
        if rest.first == UInt8(ascii: ".") {
            rest = rest.dropFirst()
            guard digits() > 0 else { return false }
        }
        if rest.first == UInt8(ascii: "e") || rest.first == UInt8(ascii: "E") {
            rest = rest.dropFirst()
            if rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-") { rest = rest.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return rest.isEmpty
    }

    /// The most significant digits a double tells apart (see ``significantDigits(_:)``).
    static let doubleDigits = 17

    static func double<Bytes: Collection>(_ bytes: Bytes) -> Double? where Bytes.Element == UInt8 {
        var index = bytes.startIndex
        let end = bytes.endIndex
        var negative = false
        if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            bytes.formIndex(after: &index)
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var digits = 0
        var exponent = 0
        var exact = true
        func addDigit(_ digit: UInt8, fraction: Bool) {
            digits += 1
            if significantDigits == 0 && digit == 0 {
                if fraction { exponent -= 1 }
                return
            }
            if significantDigits < 19 {
                mantissa = mantissa * 10 + UInt64(digit)
                significantDigits += 1
                if fraction { exponent -= 1 }
            } else {
                exact = false
                if !fraction { exponent += 1 }
            }
        }
        while index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
            addDigit(digit, fraction: false)
            bytes.formIndex(after: &index)
        }
        if index < end, bytes[index] == UInt8(ascii: ".") {
            bytes.formIndex(after: &index)
            while index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
                addDigit(digit, fraction: true)
                bytes.formIndex(after: &index)
            }
        }
        guard digits > 0 else { return nil }
        if index < end, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            bytes.formIndex(after: &index)
            var exponentNegative = false
            if index < end, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                bytes.formIndex(after: &index)
            }
            var written = 0
            var exponentDigits = 0
            while index < end, case let digit = bytes[index] &- 0x30, digit < 10 {
                if written < 100_000 { written = written * 10 + Int(digit) }
                exponentDigits += 1
                bytes.formIndex(after: &index)
            }
            guard exponentDigits > 0 else { return nil }
            exponent += exponentNegative ? -written : written
        }
        guard index == end else { return nil }
        if exact, significantDigits <= 15, (-22...22).contains(exponent) {
            let magnitude = exponent < 0 ? Double(mantissa) / powersOfTen[-exponent] : Double(mantissa) * powersOfTen[exponent]
            return negative ? -magnitude : magnitude
        }
        return Double(String(decoding: bytes, as: UTF8.self))
    }

    private static let powersOfTen: [Double] = (0...22).map { power in
        (0..<power).reduce(1.0) { value, _ in value * 10 }
    }
}
