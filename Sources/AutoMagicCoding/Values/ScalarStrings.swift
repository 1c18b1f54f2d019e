import Foundation

/// The one place that reads numbers and bools from strings, as Key-Value Coding does when a string
/// is set into a numeric or `Bool` property (`"10"` → 10, `"yes"` → true).
enum ScalarStrings {
    /// A decimal integer, a `0x` hexadecimal integer (with an optional sign), or a decimal or
    /// exponent floating-point number; surrounding white space is ignored. A decimal number
    /// beyond a double's range (`1e400`) is kept as written, so that converting it reports it.
    static func number(_ string: String) -> NumberValue? {
        let text = TextTrimming.trimmed(string)
        if let value = Int64(text) { return .int(value) }
        if let value = UInt64(text) { return .uint(value) }
        if let hex = hexadecimal(text) { return hex }
        // Only digits, signs, points and exponents: `Double` would also take "nan", "inf" and hex.
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || Self.decimalMarks.contains($0) }),
            let value = DecimalText.double(text.utf8) ?? Double(text)
        else { return nil }
        return value.isFinite ? .double(value) : .long(String(text))
    }

    private static let decimalMarks = Array("+-.eE".utf8)

    /// `yes`/`no`, `true`/`false`, `on`/`off`, `1`/`0`, in any case.
    static func bool(_ string: String) -> Bool? {
        switch TextTrimming.lowercased(TextTrimming.trimmed(string)) {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: return nil
        }
    }

    /// `digits` as a number in `radix` (10 or 16): ASCII digits only, without a sign or white
    /// space, which `UInt64(_:radix:)` alone would take ("0x+a", "&#x+41;"); nil when empty or
    /// too large.
    ///
    /// ```swift
    /// ScalarStrings.unsigned("ff", radix: 16)  // 255
    /// ScalarStrings.unsigned("+1", radix: 10)  // nil
    /// ```
    static func unsigned(_ digits: Substring, radix: Int) -> UInt64? {
        guard digits.utf8.allSatisfy({ (hexDigitValue($0) ?? 16) < radix }) else { return nil }
        return UInt64(digits, radix: radix)
    }

    /// Whether `text` is written as an integer, whatever its size: decimal digits, or `0x` and hex
    /// digits, after an optional sign; what ``number(_:)`` reads when the value fits 64 bits.
    static func isInteger(_ text: String) -> Bool {
        var body = TextTrimming.trimmed(text)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let hex = body.utf8.starts(with: "0x".utf8) || body.utf8.starts(with: "0X".utf8)
        let digits = hex ? body.dropFirst(2) : body
        return !digits.isEmpty && digits.utf8.allSatisfy { (hexDigitValue($0) ?? 16) < (hex ? 16 : 10) }
    }

    /// The value of an ASCII hex digit (`0`–`9`, `a`–`f` in either case); nil for any other byte.
    static func hexDigitValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"):
            (byte | ASCII.lowercaseBit) - UInt8(ascii: "a") + 10
        default: nil
        }
    }

    private static func hexadecimal(_ text: Substring) -> NumberValue? {
        var digits = text
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        guard digits.utf8.starts(with: "0x".utf8) || digits.utf8.starts(with: "0X".utf8),
            let magnitude = unsigned(digits.dropFirst(2), radix: 16)
        else { return nil }
        guard negative else {
            return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
}
