import Foundation

/// The one place that reads numbers and bools from strings, as Key-Value Coding does when a string
/// is set into a numeric or `Bool` property (`"10"` → 10, `"yes"` → true).
enum ScalarStrings {
    /// A decimal integer, a `0x` hexadecimal integer (with an optional sign), or a decimal or
    /// exponent floating-point number; surrounding white space is ignored.
    static func number(_ string: String) -> NumberValue? {
        let text = string.trimmingCharacters(in: .whitespacesAndNewlines)
        if let value = Int64(text) { return .int(value) }
        if let value = UInt64(text) { return .uint(value) }
        if let hex = hexadecimal(text) { return hex }
        guard let value = Double(text), text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else {
            return nil
        }
        return .double(value)
    }

    /// `yes`/`no`, `true`/`false`, `on`/`off`, `1`/`0`, in any case.
    static func bool(_ string: String) -> Bool? {
        switch string.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
        case "yes", "true", "on", "1": return true
        case "no", "false", "off", "0": return false
        default: return nil
        }
    }

    private static func hexadecimal(_ text: String) -> NumberValue? {
        var digits = Substring(text)
        let negative = digits.first == "-"
        if negative || digits.first == "+" { digits = digits.dropFirst() }
        guard digits.lowercased().hasPrefix("0x"), let magnitude = UInt64(digits.dropFirst(2), radix: 16) else {
            return nil
        }
        guard negative else {
            return magnitude <= UInt64(Int64.max) ? .int(Int64(magnitude)) : .uint(magnitude)
        }
        guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
        return .int(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
    }
}
