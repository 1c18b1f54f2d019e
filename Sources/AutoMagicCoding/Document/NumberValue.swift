import Foundation

/// A number read from archived data, whatever Swift or Foundation type carried it, converted to a
/// property's numeric type only when it fits.
enum NumberValue: Equatable, CustomStringConvertible {
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// A number's text, where none of the others holds it exactly (see
    /// ``ArchiveValue/longNumber(_:)``), or beyond a double's range (a string's `"1e400"`).
    case long(String)

    /// The number carried by a Swift numeric value or an `NSNumber`; nil for anything else,
    /// `Bool` included.
    init?(_ raw: Any) {
        // A `Decimal` (Foundation's JSON reader gives one for a long number), as exactly as a
        // number of the document can hold it.
        if Swift.type(of: raw) == Decimal.self, let decimal = raw as? Decimal {
            guard let number = Self(exactly: decimal) else { return nil }
            self = number
            return
        }
        if Swift.type(of: raw) is NSDecimalNumber.Type, let number = raw as? NSDecimalNumber {
            guard let exact = Self(exactly: number.decimalValue) else { return nil }
            self = exact
            return
        }
        if let number = Self.foundationNumber(raw) {
            switch Self.typeCode(of: number) {
            case "d", "f": self = .double(number.doubleValue)
            case "Q", "L": self = Self.integer(number.uint64Value)
            default: self = .int(number.int64Value)
            }
            return
        }
        switch raw {
        case let value as Int: self = .int(Int64(value))
        case let value as Double: self = .double(value)
        case let value as Float: self = .double(Double(value))
        case let value as CGFloat: self = .double(Double(value))
        case let value as any FixedWidthInteger & SignedInteger:
            if let int = Int64(exactly: value) {
                self = .int(int)
            } else if let uint = UInt64(exactly: value) {
                self = .uint(uint)
            } else {
                return nil  // beyond 64 bits (Int128)
            }
        case let value as any FixedWidthInteger & UnsignedInteger:
            guard let uint = UInt64(exactly: value) else { return nil }
            self = Self.integer(uint)
        default: return nil
        }
    }

    /// `decimal` as an integer or a double when one holds it exactly, as its digits otherwise;
    /// nil for NaN.
    init?(exactly decimal: Decimal) {
        guard !decimal.isNaN else { return nil }
        let text = decimal.description
        if let int = Int64(text) {
            self = .int(int)
        } else if let uint = UInt64(text) {
            self = .uint(uint)
        } else if let double = Double(text), Decimal(string: "\(double)") == decimal {
            self = .double(double)
        } else {
            self = .long(text)
        }
    }

    private static func integer(_ value: UInt64) -> NumberValue {
        value <= UInt64(Int64.max) ? .int(Int64(value)) : .uint(value)
    }

    /// `raw` as an `NSNumber` when it is one. Checked on the metatype: `raw as? NSNumber` would
    /// first bridge a Swift dictionary or array to Foundation, deeply, on every call.
    static func foundationNumber(_ raw: Any) -> NSNumber? {
        Swift.type(of: raw) is NSNumber.Type ? raw as? NSNumber : nil
    }

    /// Whether `raw` is `NSNull` (a JSON null), checked without bridging.
    static func isNull(_ raw: Any) -> Bool {
        Swift.type(of: raw) is NSNull.Type
    }

    /// The `NSNumber` type encoding (`"c"` for a bool or `char`, `"d"` for a double, ...).
    static func typeCode(of number: NSNumber) -> Character {
        Character(Unicode.Scalar(UInt8(truncatingIfNeeded: number.objCType.pointee)))
    }

    /// The value as `I`, only when it is exactly representable (300 into `UInt8` or 1.5 into
    /// `Int` give nil).
    func exactly<I: FixedWidthInteger>(_: I.Type) -> I? {
        switch self {
        case let .int(value): return I(exactly: value)
        case let .uint(value): return I(exactly: value)
        case let .double(value): return I(exactly: value)
        case let .long(text): return I(text)  // an integer written in full; nil for an exponent
        }
    }

    /// The nearest `F`; nil when a finite value overflows `F`'s range.
    func nearest<F: BinaryFloatingPoint>(_: F.Type) -> F? {
        let result: F
        switch self {
        case let .int(value): result = F(value)
        case let .uint(value): result = F(value)
        case let .double(value):
            result = F(value)
            if value.isInfinite || value.isNaN { return result }
        case let .long(text):
            guard let value = DecimalText.double(text.utf8) else { return nil }
            result = F(value)
        }
        return result.isFinite ? result : nil
    }

    /// The plain Swift value: `Int`, `UInt64` (above `Int.max`), `Double`, or a long number's
    /// `Decimal` (as Foundation's JSON reader gives it).
    var swiftValue: Any {
        switch self {
        case let .int(value): return Int(value)
        case let .uint(value): return value
        case let .double(value): return value
        case let .long(text): return Decimal(string: text) ?? DecimalText.double(text.utf8) ?? Double.nan
        }
    }

    /// The number as written: a long number's own digits, not `1e+20`.
    var description: String {
        switch self {
        case let .int(value): return String(value)
        case let .uint(value): return String(value)
        case let .double(value): return String(value)
        case let .long(text): return text
        }
    }
}
