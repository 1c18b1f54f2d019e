import Foundation

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
    /// A sink that holds nothing and made no storage, to take a finished sink's place when the
    /// encoder hands it back (moved out: a copy took a retain and a release of each table).
    static var vacant: Self { get }
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
    static var vacant: NullSink { NullSink() }
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

    static var vacant: DictionaryBuilder { DictionaryBuilder() }

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
