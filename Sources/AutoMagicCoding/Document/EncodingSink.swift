import Foundation

/// One scalar the encoder emits.
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
        case (nil, _?): return true
        default: return (left?.keyText ?? "") < (right?.keyText ?? "")
        }
    }

    /// The scalar as a dictionary key: the text its type reads back exactly (see
    /// ``ScalarValue/init(converting:context:)``); nil for `null`.
    var keyText: String? {
        switch self {
        case let .string(string): return string
        case let .bool(bool): return bool ? "true" : "false"
        case let .int(int): return String(int)
        case let .uint(uint): return String(uint)
        case let .float(float): return "\(float)"
        case let .double(double): return "\(double)"
        case let .longNumber(text): return text
        case let .date(date): return ISODate.string(from: date) ?? "\(date.timeIntervalSinceReferenceDate)"
        case let .data(data): return data.base64EncodedString()
        case .null: return nil
        }
    }
}

/// What the encoder's walk over an object graph writes to: the dictionary representation
/// (``DictionaryBuilder``), or the bytes of a file format (the JSON, XML and binary writers), with
/// the same walk. Events arrive in document order; a dictionary's
/// entries are `key(_:)` followed by one value.
protocol EncodingSink {
    associatedtype Mark
    mutating func beginDictionary()
    mutating func endDictionary()
    mutating func beginArray()
    mutating func endArray()
    mutating func key(_ key: String)
    /// A key of the model (a field's key), which a writer may remember by its number.
    mutating func key(_ key: InternedKey)
    /// Writes an object's `"class"` entry: the key, then `name`.
    mutating func className(_ name: InternedKey) throws
    /// Writes a value; throws an ``AMCError`` (without key path) for one the format cannot hold.
    mutating func scalar(_ value: ArchiveScalar) throws
    /// Writes `{"$ref": "#/$objects/N"}`, a reference to the object table's entry `entry` (see
    /// ``ObjectTable``): a graph written with the table has one for each reference, which a
    /// writer may write without making its pointer's text, or share.
    mutating func entryReference(_ entry: Int) throws
    /// A point to come back to, so that no-throw mode can drop an entry that failed half-way.
    mutating func mark() -> Mark
    mutating func rewind(to mark: Mark)
    /// Whether the sink writes ``ArchiveScalar/null`` (JSON): a property list cannot, and a
    /// dictionary representation is one.
    var holdsNull: Bool { get }
}

extension EncodingSink {
    var holdsNull: Bool { false }

    mutating func key(_ key: InternedKey) { self.key(key.text) }

    mutating func className(_ name: InternedKey) throws {
        key(InternedKey.classKey)
        try scalar(.string(name.text))
    }

    mutating func entryReference(_ entry: Int) throws {
        beginDictionary()
        key(ObjectReference.key)
        try scalar(.string(ObjectTable.pointer(ofEntry: entry)))
        endDictionary()
    }
}

/// Writes nothing: for the encoder's first pass, which only finds where objects go.
struct NullSink: EncodingSink {
    mutating func beginDictionary() {}
    mutating func endDictionary() {}
    mutating func beginArray() {}
    mutating func endArray() {}
    mutating func key(_ key: String) {}
    mutating func scalar(_ value: ArchiveScalar) {}
    mutating func entryReference(_ entry: Int) {}
    mutating func mark() -> Int { 0 }
    mutating func rewind(to mark: Int) {}
}

/// Builds the `[String: Any]` dictionary representation.
struct DictionaryBuilder: EncodingSink {
    private final class Frame {
        var dictionary: [String: Any]?
        var array: [Any]?
        var pendingKey: String?
        init(dictionary: [String: Any]? = nil, array: [Any]? = nil) {
            self.dictionary = dictionary
            self.array = array
        }
    }

    private var stack: [Frame] = []
    /// The finished value once the outermost container has ended.
    private(set) var result: Any?

    mutating func beginDictionary() { stack.append(Frame(dictionary: [:])) }
    mutating func beginArray() { stack.append(Frame(array: [])) }

    mutating func endDictionary() {
        let frame = stack.removeLast()
        add(frame.dictionary ?? [:])
    }

    mutating func endArray() {
        let frame = stack.removeLast()
        add(frame.array ?? [])
    }

    mutating func key(_ key: String) { stack.last?.pendingKey = key }

    mutating func scalar(_ value: ArchiveScalar) {
        switch value {
        case let .string(string): add(string)
        case let .bool(bool): add(bool)
        case let .int(int): add(Int(int))
        case let .uint(uint): add(uint)
        case let .float(float): add(float)
        case let .double(double): add(double)
        case let .date(date): add(date)
        case let .data(data): add(data)
        case .null: add(NSNull())
        case let .longNumber(text): add(NumberValue.long(text).swiftValue)
        }
    }

    mutating func mark() -> Int { stack.count }

    mutating func rewind(to mark: Int) {
        stack.removeLast(stack.count - mark)
        stack.last?.pendingKey = nil
    }

    private mutating func add(_ value: Any) {
        guard let frame = stack.last else {
            result = value
            return
        }
        if let key = frame.pendingKey {
            frame.dictionary?[key] = value
            frame.pendingKey = nil
        } else {
            frame.array?.append(value)
        }
    }
}
