import Foundation

/// A type the package reads and writes as one scalar of a document: the one value vocabulary.
/// Archive decoding, `AMC.value(_:from:)`, Key-Value Coding, configs and styles all read a value
/// through its conformance (wrapped in a ``ScalarCodec``), so a string or a number converts the
/// same way wherever it appears.
///
/// Types that come in families (every ``AMCStructCodable`` type, enums, option sets) have a
/// ``ScalarCodec`` factory instead; ``ValueKind`` picks the one that serves a type.
protocol ScalarValue {
    /// What an error says was expected: `a number of type Int`.
    static var expectation: String { get }
    /// How the value is written.
    var archiveScalar: ArchiveScalar { get }
    /// The value when `raw` is exactly one, with nothing to convert or judge: the decoder's fast
    /// path. Where a format has no such value, the exact text our writers give it counts (an ISO
    /// 8601 string for a date in JSON, a UUID's string). Nil sends `raw` to
    /// ``init(converting:context:)``.
    init?(exactValue raw: ArchiveValue)
    /// The value that `raw` converts to: a number of another width, 0 or 1 for a `Bool`, a
    /// string in one of the type's string forms. Throws ``AMCError`` (without key path) naming
    /// what was expected and what was found.
    init(converting raw: ArchiveValue, context: ValueContext) throws
    /// Whether some values are written as a dictionary of scalars instead (``archiveEntries``).
    static var hasEntries: Bool { get }
    /// The dictionary of scalars this value is written as, in key order, when it has no scalar
    /// form of its own; nil when it is written as ``archiveScalar``.
    var archiveEntries: [(key: String, value: ArchiveScalar)]? { get }
}

extension ScalarValue {
    static var hasEntries: Bool { false }
    var archiveEntries: [(key: String, value: ArchiveScalar)]? { nil }
}

/// What converting a value may depend on besides the value: the settings of the archiver at work.
struct ValueContext {
    /// The archiver's own base URL, if it has one (nil: it follows ``AMC/baseURL``).
    var baseURLSetting: URL??

    /// The base of relative URL strings: the archiver's, or ``AMC/baseURL``, read only when a
    /// relative URL needs it.
    var baseURL: URL? { baseURLSetting ?? AMC.baseURL }

    /// Whether a Boolean reads as a number (1 or 0) and a number as a Boolean, as configurations,
    /// styles and Key-Value Coding allow; archives refuse both, as `Codable` does. Strings go
    /// through string coding either way (`"1"` is a number, `"yes"` a Boolean).
    var forgiving = false
}

extension ScalarValue {
    /// The error for a value that is not one of these.
    static func mismatch(_ raw: ArchiveValue) -> AMCError {
        AMCError(.typeMismatch(expected: expectation, found: raw.summary))
    }
}

extension ArchiveValue {
    /// The number a numeric value holds, or that a string (`"42"`, `"0x1F"`, `"yes"`) or, where
    /// `context` is forgiving, a `Bool` (1 or 0) stands for: what numeric properties accept.
    func convertedNumber(in context: ValueContext) -> NumberValue? {
        switch self {
        case .int, .uint, .double, .longNumber: return number
        case let .bool(bool): return context.forgiving ? .int(bool ? 1 : 0) : nil
        case let .string(string): return ScalarStrings.number(string) ?? ScalarStrings.bool(string).map { .int($0 ? 1 : 0) }
        default: return nil
        }
    }

    /// The string this value holds; nil for anything else.
    var string: String? {
        guard case let .string(string) = self else { return nil }
        return string
    }
}

// MARK: - String

extension String: ScalarValue {
    static var expectation: String { "a string" }
    var archiveScalar: ArchiveScalar { .string(self) }
    init?(exactValue raw: ArchiveValue) {
        guard let string = raw.string else { return nil }
        self = string
    }
    init(converting raw: ArchiveValue, context: ValueContext) throws { throw Self.mismatch(raw) }
}

// MARK: - Character

extension Character: ScalarValue {
    static var expectation: String { "a one-character string" }
    var archiveScalar: ArchiveScalar { .string(String(self)) }
    init?(exactValue raw: ArchiveValue) {
        guard let string = raw.string, string.count == 1, let character = string.first else { return nil }
        self = character
    }
    init(converting raw: ArchiveValue, context: ValueContext) throws { throw Self.mismatch(raw) }
}

// MARK: - Bool

extension Bool: ScalarValue {
    static var expectation: String { "a Bool (true or false, or a string yes/no, true/false, on/off, 1/0)" }
    var archiveScalar: ArchiveScalar { .bool(self) }
    init?(exactValue raw: ArchiveValue) {
        guard case let .bool(bool) = raw else { return nil }
        self = bool
    }
    /// From `yes`/`no`, `true`/`false`, `on`/`off`, `1`/`0` in any case, or, where the context
    /// is forgiving, the number 1 or 0.
    init(converting raw: ArchiveValue, context: ValueContext) throws {
        if let string = raw.string, let bool = ScalarStrings.bool(string) {
            self = bool
        } else if context.forgiving, let number = raw.number {
            switch number.exactly(UInt8.self) {
            case 0: self = false
            case 1: self = true
            default: throw AMCError(.valueOutOfRange(value: number.description, typeName: "Bool"))
            }
        } else {
            throw Self.mismatch(raw)
        }
    }
}

// MARK: - Integers

/// Integers of every width: written as signed when they fit `Int64`; read from any number or
/// numeric string only when the value fits exactly (300 into `UInt8` or 1.5 into `Int` throw).
extension ScalarValue where Self: FixedWidthInteger {
    static var expectation: String { "a number of type \(Self.self)" }

    var archiveScalar: ArchiveScalar {
        if let signed = Int64(exactly: self) { return .int(signed) }
        return .uint(UInt64(truncatingIfNeeded: self))
    }

    init?(exactValue raw: ArchiveValue) {
        switch raw {
        case let .int(int): self.init(exactly: int)
        case let .uint(uint): self.init(exactly: uint)
        default: return nil
        }
    }

    init(converting raw: ArchiveValue, context: ValueContext) throws {
        self = try Self.exactInteger(converting: raw, context: context)
    }

    /// The number `raw` holds or its string names, when it fits exactly.
    fileprivate static func exactInteger(converting raw: ArchiveValue, context: ValueContext) throws -> Self {
        guard let number = raw.convertedNumber(in: context) else { throw Self.mismatch(raw) }
        guard let value = number.exactly(Self.self) else {
            throw AMCError(.valueOutOfRange(value: number.description, typeName: "\(Self.self)"))
        }
        return value
    }
}

extension Int: ScalarValue {}
extension Int8: ScalarValue {}
extension Int16: ScalarValue {}
extension Int32: ScalarValue {}
extension Int64: ScalarValue {}
extension UInt: ScalarValue {}
extension UInt8: ScalarValue {}
extension UInt16: ScalarValue {}
extension UInt32: ScalarValue {}
extension UInt64: ScalarValue {}

/// 128-bit integers: a number while they fit 64 bits (what property lists and JSON readers
/// hold), their decimal string beyond, so every value comes back exactly.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension Int128: ScalarValue {
    var archiveScalar: ArchiveScalar { wideArchiveScalar }
    init(converting raw: ArchiveValue, context: ValueContext) throws { self = try Self.wide(converting: raw, context: context) }
}

@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
extension UInt128: ScalarValue {
    var archiveScalar: ArchiveScalar { wideArchiveScalar }
    init(converting raw: ArchiveValue, context: ValueContext) throws { self = try Self.wide(converting: raw, context: context) }
}

extension FixedWidthInteger where Self: ScalarValue {
    /// A number when it fits 64 bits, its decimal string when not.
    fileprivate var wideArchiveScalar: ArchiveScalar {
        if let signed = Int64(exactly: self) { return .int(signed) }
        if let unsigned = UInt64(exactly: self) { return .uint(unsigned) }
        return .string(String(self))
    }

    /// From a number that fits, or from a string of decimal digits, exactly.
    fileprivate static func wide(converting raw: ArchiveValue, context: ValueContext) throws -> Self {
        if let string = raw.string {
            let trimmed = String(TextTrimming.trimmed(string))
            guard let value = Self(trimmed) else {
                if trimmed.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }), !trimmed.isEmpty {
                    throw AMCError(.valueOutOfRange(value: trimmed, typeName: "\(Self.self)"))
                }
                throw mismatch(raw)
            }
            return value
        }
        return try exactInteger(converting: raw, context: context)
    }
}

// MARK: - Floating point

/// Floating-point numbers take the nearest value of any number or numeric string; a finite value
/// beyond the type's range throws.
extension ScalarValue where Self: BinaryFloatingPoint {
    static var expectation: String { "a number of type \(Self.self)" }

    init(converting raw: ArchiveValue, context: ValueContext) throws {
        guard let number = raw.convertedNumber(in: context) else { throw Self.mismatch(raw) }
        guard let value = number.nearest(Self.self) else {
            throw AMCError(.valueOutOfRange(value: number.description, typeName: "\(Self.self)"))
        }
        self = value
    }
}

extension Double: ScalarValue {
    var archiveScalar: ArchiveScalar { .double(self) }
    init?(exactValue raw: ArchiveValue) {
        switch raw {
        case let .double(double): self = double
        case let .int(int): self.init(exactly: int)
        default: return nil
        }
    }
}

extension Float: ScalarValue {
    var archiveScalar: ArchiveScalar { .float(self) }
    init?(exactValue raw: ArchiveValue) {
        guard case let .double(double) = raw else { return nil }
        self.init(double)
        guard isFinite || !double.isFinite else { return nil }  // overflow: converting reports it
    }
}

extension CGFloat: ScalarValue {
    var archiveScalar: ArchiveScalar { .double(Double(self)) }
    init?(exactValue raw: ArchiveValue) {
        guard let double = Double(exactValue: raw) else { return nil }
        self.init(double)
    }
}

// MARK: - Date

/// A property-list date, or an ISO 8601 string (what JSON holds).
extension Date: ScalarValue {
    static var expectation: String { "a date or an ISO 8601 date string" }
    var archiveScalar: ArchiveScalar { .date(self) }
    init?(exactValue raw: ArchiveValue) {
        if case let .date(date) = raw {
            self = date
        } else if let string = raw.string, let date = ISODate.date(from: string) {
            self = date
        } else {
            return nil
        }
    }
    init(converting raw: ArchiveValue, context: ValueContext) throws {
        guard let string = raw.string, let date = ISODate.date(from: String(TextTrimming.trimmed(string))) else {
            throw Self.mismatch(raw)
        }
        self = date
    }
}

// MARK: - Data

/// Property-list data, or a base64 string (what JSON holds).
extension Data: ScalarValue {
    static var expectation: String { "data or a base64 string" }
    var archiveScalar: ArchiveScalar { .data(self) }
    init?(exactValue raw: ArchiveValue) {
        if case let .data(data) = raw {
            self = data
        } else if let string = raw.string, let data = Data(base64Encoded: string) {
            self = data
        } else {
            return nil
        }
    }
    init(converting raw: ArchiveValue, context: ValueContext) throws {
        guard let string = raw.string, let data = Data(base64Encoded: string) else { throw Self.mismatch(raw) }
        self = data
    }
}

// MARK: - URL

/// Written as `absoluteString`; a URL relative to a base as `{"base": …, "relative": …}` (the keys
/// of Foundation's own `Codable` form), so that it reads back relative to the same base. Read from
/// that dictionary, an absolute path (a file URL), a URL with a scheme, or a relative path,
/// resolved against the context's base URL (``AMC/baseURL``; kept relative when there is none).
extension URL: ScalarValue {
    static var expectation: String { "a URL or a file path" }
    var archiveScalar: ArchiveScalar { .string(absoluteString) }
    static var hasEntries: Bool { true }
    var archiveEntries: [(key: String, value: ArchiveScalar)]? {
        baseURL.map { [("base", .string($0.absoluteString)), ("relative", .string(relativeString))] }
    }
    init?(exactValue raw: ArchiveValue) { nil }
    init(converting raw: ArchiveValue, context: ValueContext) throws {
        if case let .dictionary(entries) = raw, case let .string(relative)? = entries["relative"] {
            let base = entries["base"]
            let baseURL = base?.string.flatMap { URL(string: $0) }
            guard entries.count == (base == nil ? 1 : 2), base == nil || baseURL != nil,
                let url = URL(string: relative, relativeTo: baseURL)
            else { throw Self.mismatch(raw) }
            self = url
            return
        }
        guard let string = raw.string else { throw Self.mismatch(raw) }
        let text = String(TextTrimming.trimmed(string))
        if text.hasPrefix("/") {
            self = URL(fileURLWithPath: text)
        } else if let url = URL(string: text), url.scheme != nil {
            self = url
        } else if !text.isEmpty, let url = URL(string: text, relativeTo: context.baseURL) {
            self = url
        } else {
            throw Self.mismatch(raw)
        }
    }
}

// MARK: - UUID

extension UUID: ScalarValue {
    static var expectation: String { "a UUID string" }
    var archiveScalar: ArchiveScalar { .string(UUIDText.string(of: self)) }
    init?(exactValue raw: ArchiveValue) {
        guard let string = raw.string, let uuid = UUIDText.uuid(from: string[...]) else { return nil }
        self = uuid
    }
    init(converting raw: ArchiveValue, context: ValueContext) throws {
        guard let string = raw.string, let uuid = UUIDText.uuid(from: TextTrimming.trimmed(string)) else {
            throw Self.mismatch(raw)
        }
        self = uuid
    }
}

/// `UUID`'s text, `uuidString`'s form (`E621E1F8-C36C-495A-93FC-0C247A3E6E5F`), written and read
/// without Foundation's `snprintf` and `sscanf`, which are slow enough to show in every write of
/// string-heavy records.
enum UUIDText {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)
    /// The 36 characters of `uuid`, upper-case hex, as `uuidString` writes them.
    static func string(of uuid: UUID) -> String {
        let u = uuid.uuid
        let bytes = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { text.append(UInt8(ascii: "-")) }
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The UUID `text` spells, in either case, as `UUID(uuidString:)` reads it, but hex digits and
    /// dashes only (its `sscanf` on Linux also takes a sign, a space or `0x` before a group, and
    /// anything after a NUL); nil for anything else.
    static func uuid(from text: Substring) -> UUID? {
        // The 32 digits, as two 64-bit halves, read from the text's bytes: no array, no hashing
        // per character, no walk of a `Substring`'s indices (a third of reading a UUID field).
        let halves = ByteView.withBytes(of: text) { bytes -> (high: UInt64, low: UInt64)? in
            guard bytes.count == 36 else { return nil }
            var halves: (high: UInt64, low: UInt64) = (0, 0)
            var digits = 0
            for index in 0..<36 {
                let character = bytes[index]
                if index == 8 || index == 13 || index == 18 || index == 23 {
                    guard character == UInt8(ascii: "-") else { return nil }
                    continue
                }
                guard let digit = ScalarStrings.hexDigitValue(character) else { return nil }
                if digits < 16 {
                    halves.high = halves.high << 4 | UInt64(digit)
                } else {
                    halves.low = halves.low << 4 | UInt64(digit)
                }
                digits += 1
            }
            return halves
        }
        guard let (high, low) = halves else { return nil }
        func byte(_ half: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: half >> (56 - 8 * index)) }
        return UUID(
            uuid: (
                byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5),
                byte(high, 6), byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3),
                byte(low, 4), byte(low, 5), byte(low, 6), byte(low, 7)
            ))
    }
}

// MARK: - Decimal

/// A number when a `Double` holds it exactly (what JSON and property lists read back without
/// loss: `12.5`, `1000`), its decimal string beyond (`"3.14159265358979323846"`), so every value
/// comes back exactly. Read from any number, or from a string of a decimal number.
extension Decimal: ScalarValue {
    static var expectation: String { "a decimal number" }

    var archiveScalar: ArchiveScalar {
        if isNaN { return .string("NaN") }
        let text = description
        if let int = Int64(text) { return .int(int) }
        if let double = Double(text), Decimal(string: "\(double)") == self { return .double(double) }
        return .string(text)
    }

    init?(exactValue raw: ArchiveValue) {
        switch raw {
        case let .int(int): self.init(int)
        case let .uint(uint): self.init(uint)
        case let .double(double) where double.isFinite:
            // The double's shortest text is what was written for the decimal it stands for.
            guard let decimal = Decimal(string: "\(double)") else { return nil }
            self = decimal
        case let .longNumber(text):
            // Its digits, while a `Decimal` holds them all (38); beyond, converting says so.
            guard DecimalText.significantDigits(text.utf8) <= Self.digits, let decimal = Decimal(string: text) else { return nil }
            self = decimal
        default: return nil
        }
    }

    /// The most significant digits a `Decimal` holds.
    static let digits = 38

    init(converting raw: ArchiveValue, context: ValueContext) throws {
        if case let .longNumber(text) = raw { throw AMCError(.valueOutOfRange(value: text, typeName: "Decimal")) }
        guard let string = raw.string else { throw Self.mismatch(raw) }
        let text = String(TextTrimming.trimmed(string))
        if text == "NaN" {
            self = .nan
            return
        }
        // `Decimal(string:)` takes the longest number at the start ("12abc" is 12): only a whole
        // decimal number is one.
        guard DecimalText.double(text.utf8) != nil, let decimal = Decimal(string: text), !decimal.isNaN else {
            throw Self.mismatch(raw)
        }
        self = decimal
    }
}
