import Foundation

/// One scalar the encoder emits: the writing direction's value, as ``ArchiveValue`` is the
/// reading one's (a writer never holds a whole document).
enum ArchiveScalar {
    case string(String)
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case float(Float)
    case double(Double)
    case date(Date)
    case data(Data)
    /// JSON's `null`: written when converting a document that has one, and for a nil where a new
    /// instance has a value (see ``TypePlan/nilMarkedFields(of:)``).
    case null
    /// A long number a document had (see ``ArchiveValue/longNumber(_:)``), written again as it was:
    /// its digits in JSON and in an XML property list's `<real>`; a binary property list, whose
    /// numbers have 64 bits, refuses it.
    case longNumber(String)
}

extension ArchiveScalar {
    /// An order for scalars of one type, the same in every run: numbers by value, strings by
    /// their characters, the rest by ``keyText``; nil (a value of another type) first.
    static func ascending(_ left: ArchiveScalar?, _ right: ArchiveScalar?) -> Bool {
        switch (left, right) {
        case let (.int(a)?, .int(b)?): return a < b
        case let (.uint(a)?, .uint(b)?): return a < b
        case let (.int(a)?, .uint(b)?): return a < 0 || UInt64(a) < b
        case let (.uint(a)?, .int(b)?): return b >= 0 && a < UInt64(b)
        case let (.double(a)?, .double(b)?): return a < b || (a.isNaN && !b.isNaN)
        case let (.float(a)?, .float(b)?): return a < b || (a.isNaN && !b.isNaN)
        case let (.date(a)?, .date(b)?): return a < b
        case let (.string(a)?, .string(b)?): return a < b
        case (nil, _?): return true
        case let (left?, right?):
            // Numbers of one type written as different cases (a `Decimal`'s 2, 15.5 and the
            // string of its long digits): by value, then by text, so that the order stays one.
            if let a = left.approximateNumber, let b = right.approximateNumber {
                if a.isNaN || b.isNaN { return a.isNaN && !b.isNaN }  // NaN first
                if a != b { return a < b }
            }
            return (left.keyText ?? "") < (right.keyText ?? "")
        default: return false
        }
    }

    /// A number's value, as near as a double holds it (a string's too, where it is one); nil for
    /// what is no number.
    private var approximateNumber: Double? {
        switch self {
        case let .string(text): Double(text)
        case let .int(value): Double(value)
        case let .uint(value): Double(value)
        case let .double(value): value
        case let .float(value): Double(value)
        case let .longNumber(text): DecimalText.double(text.utf8) ?? Double(text) ?? .nan
        default: nil
        }
    }

    /// The scalar as a dictionary key: the text its type reads back exactly (see
    /// ``ScalarValue/init(converting:context:)``); nil for `null`, and for what string coding
    /// does not read: infinity, NaN and dates with no ISO 8601 form.
    var keyText: String? {
        switch self {
        case let .string(string): return string
        case let .bool(bool): return bool ? "true" : "false"
        case let .int(int): return String(int)
        case let .uint(uint): return String(uint)
        case let .float(float): return float.isFinite ? "\(float)" : nil
        case let .double(double): return double.isFinite ? "\(double)" : nil
        case let .longNumber(text): return text
        case let .date(date): return ISODate.string(from: date)
        case let .data(data): return data.base64EncodedString()
        case .null: return nil
        }
    }
}
