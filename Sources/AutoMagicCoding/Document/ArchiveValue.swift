import Foundation

/// A parsed document the decoder reads from: what the file readers build straight from bytes, and
/// what a `[String: Any]` dictionary representation is converted to. Cheaper than Foundation's
/// containers: a dictionary is one array of key-value entries in document order, looked up with a
/// moving hint.
enum ArchiveValue {
    case string(String)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    /// A JSON number with more digits than `Int64`, `UInt64` and `Double` hold (an integer beyond
    /// 64 bits, a decimal of more than 17 significant digits), as written: exact types read its
    /// digits, the others its nearest value.
    case longNumber(String)
    case bool(Bool)
    case date(Date)
    case data(Data)
    /// JSON's `null`, or `NSNull` in a dictionary representation.
    case null
    case array(ArchiveArray)
    case dictionary(ArchiveDictionary)
    /// A value in a dictionary representation that has no document form (a `CGPoint`, a `URL`),
    /// accepted where a property of exactly its type expects it.
    case foreign(ForeignValue)

    /// The document value for a number.
    init(_ number: NumberValue) {
        switch number {
        case let .int(value): self = .int(value)
        case let .uint(value): self = .uint(value)
        case let .double(value): self = .double(value)
        case let .long(text): self = .longNumber(text)
        }
    }

    /// Checks that a walk may go a level deeper than `depth`: within ``AMC/maximumDepth`` and the
    /// thread's stack (see ``StackRoom``); `readBack`: the writer, when the walk writes a document.
    static func enter(_ depth: Int, path: KeyPathTracker, readBack: StackRoom.Writer?) throws {
        if let refusal = NestingDepth.refusal(atDepth: depth, limit: AMC.maximumDepth, readBack: readBack) {
            throw path.error(refusal)
        }
    }

    /// The number this value holds; nil for anything but a number.
    var number: NumberValue? {
        switch self {
        case let .int(value): return .int(value)
        case let .uint(value): return .uint(value)
        case let .double(value): return .double(value)
        case let .longNumber(text): return .long(text)
        default: return nil
        }
    }

    /// Whether this is an array or a dictionary.
    var isContainer: Bool {
        switch self {
        case .array, .dictionary: return true
        default: return false
        }
    }

    /// Whether `other` holds the same data: equal scalars (numbers of one kind, doubles bit for
    /// bit), arrays element by element, dictionaries key by key in any order; never a foreign value.
    func isSame(as other: ArchiveValue) -> Bool {
        switch (self, other) {
        case let (.string(one), .string(two)): return one == two
        case let (.int(one), .int(two)): return one == two
        case let (.uint(one), .uint(two)): return one == two
        case let (.double(one), .double(two)): return one.bitPattern == two.bitPattern
        case let (.longNumber(one), .longNumber(two)): return one == two
        case let (.bool(one), .bool(two)): return one == two
        case let (.date(one), .date(two)): return one == two
        case let (.data(one), .data(two)): return one == two
        case (.null, .null): return true
        case let (.array(one), .array(two)):
            return one.count == two.count && zip(one, two).allSatisfy { $0.isSame(as: $1) }
        case let (.dictionary(one), .dictionary(two)):
            return one.count == two.count && one.entries.allSatisfy { entry in two[entry.key].map(entry.value.isSame) ?? false }
        default: return false
        }
    }

    /// The class name under `"class"`, when this is a dictionary with a string there.
    var className: String? {
        guard case let .dictionary(dictionary) = self, case let .string(name)? = dictionary["class"] else { return nil }
        return name
    }
}

/// Boxes a foreign value so that ``ArchiveValue`` stays small.
final class ForeignValue {
    let value: Any
    init(_ value: Any) { self.value = value }
}

/// A dictionary in document order: its entries, or a run of slots in a ``DocumentTape`` (keys
/// and values alternating) made into values as they are read.
struct ArchiveDictionary {
    private enum Storage {
        /// Keys beside their values, one allocation per dictionary.
        case entries([Entry])
        case tape(DocumentTape, first: UInt32, count: UInt32)
    }

    private var storage: Storage

    struct Entry {
        let key: String
        let value: ArchiveValue
    }

    init() {
        storage = .entries([])
    }

    init(minimumCapacity: Int) {
        var entries: [Entry] = []
        entries.reserveCapacity(minimumCapacity)
        storage = .entries(entries)
    }

    /// The `count` entries from slot `first` in `tape`; both fit 32 bits (the reader checks).
    init(tape: DocumentTape, first: Int, count: Int) {
        storage = .tape(tape, first: UInt32(first), count: UInt32(count))
    }

    /// The entries in document order.
    var entries: Entries { Entries(dictionary: self) }

    /// The values in document order, without making their keys.
    var values: LazyMapSequence<Range<Int>, ArchiveValue> {
        (0..<count).lazy.map { self.value(ofEntry: $0) }
    }

    /// Calls `body` with each value that is a dictionary or an array, in document order; the
    /// other values are not made.
    func forEachContainerValue(_ body: (ArchiveValue) -> Void) {
        switch storage {
        case let .entries(entries):
            for entry in entries where entry.value.isContainer { body(entry.value) }
        case let .tape(tape, first, count):
            for index in 0..<Int(count) where tape.holdsContainer(at: Int(first) + 2 * index + 1) {
                body(tape.value(at: Int(first) + 2 * index + 1))
            }
        }
    }

    var count: Int {
        switch storage {
        case let .entries(entries): return entries.count
        case let .tape(_, _, count): return Int(count)
        }
    }

    var isEmpty: Bool { count == 0 }

    /// The tape a reader built this dictionary in, and its first key's slot (each key slot is
    /// followed by its value's); nil for a dictionary built entry by entry.
    var tapeRun: (tape: DocumentTape, first: Int)? {
        guard case let .tape(tape, first, _) = storage else { return nil }
        return (tape, Int(first))
    }

    /// Adds an entry; a repeated key keeps its first value when looked up.
    mutating func append(_ key: String, _ value: ArchiveValue) {
        if case var .entries(entries) = storage {
            storage = .entries([])  // leaves `entries` the only reference, appended to in place
            entries.append(Entry(key: key, value: value))
            storage = .entries(entries)
        } else {
            storage = .entries(Array(entries) + [Entry(key: key, value: value)])
        }
    }

    subscript(key: String) -> ArchiveValue? {
        var hint = 0
        return value(forKey: key, hint: &hint)
    }

    /// The value of a key the archive format gives a meaning of its own: in a tape, found by its
    /// number (the same in every key table), not by comparing strings.
    subscript(reserved reserved: KeyTable.Reserved) -> ArchiveValue? {
        guard case let .tape(tape, first, count) = storage else { return self[reserved.key] }
        for index in 0..<Int(count) {
            let keySlot = Int(first) + 2 * index
            if tape.holdsKey(reserved, at: keySlot) { return tape.value(at: keySlot + 1) }
        }
        return nil
    }

    /// Looks `key` up starting at `hint`, the position after the previous hit, and moves the hint
    /// past this one: reading an object's keys in the order they were written costs one comparison
    /// each.
    func value(forKey key: String, hint: inout Int) -> ArchiveValue? {
        let found: Int?
        switch storage {
        case let .entries(entries):
            found = Self.entry(among: entries.count, from: hint) { entries[$0].key == key }
        case let .tape(tape, first, count):
            found = Self.entry(among: Int(count), from: hint) { tape.key(at: Int(first) + 2 * $0) == key }
        }
        guard let found else { return nil }
        hint = found + 1
        return value(ofEntry: found)
    }

    /// The first of `count` entries, looked at from `hint` on and then from the start, that
    /// `matches`.
    @inline(__always)
    private static func entry(among count: Int, from hint: Int, where matches: (Int) -> Bool) -> Int? {
        var index = hint < count ? hint : 0
        for _ in 0..<count {
            if matches(index) { return index }
            index += 1
            if index == count { index = 0 }
        }
        return nil
    }

    /// The value of entry `index`.
    fileprivate func value(ofEntry index: Int) -> ArchiveValue {
        switch storage {
        case let .entries(entries): return entries[index].value
        case let .tape(tape, first, _): return tape.value(at: Int(first) + 2 * index + 1)
        }
    }

    /// The entries of a dictionary in document order, each key and value made as it is read.
    struct Entries: RandomAccessCollection {
        fileprivate let dictionary: ArchiveDictionary

        var startIndex: Int { 0 }
        var endIndex: Int { dictionary.count }

        subscript(index: Int) -> Entry {
            switch dictionary.storage {
            case let .entries(entries): return entries[index]
            case let .tape(tape, first, count):
                precondition(index >= 0 && index < Int(count), "entry \(index) of a dictionary of \(count)")
                let keyIndex = Int(first) + 2 * index
                return Entry(key: tape.string(tape.slots[keyIndex]), value: tape.value(at: keyIndex + 1))
            }
        }
    }
}

// MARK: - From and to Swift values

extension ArchiveValue {
    /// Converts a dictionary representation value (Swift or Foundation types) to a document value.
    /// Deeper than ``AMC/maximumDepth`` containers throw, before anything deeper is visited.
    static func converting(_ raw: Any, path: inout KeyPathTracker, depth: Int = 0) throws -> ArchiveValue {
        // The types a dictionary representation is made of, told by their metatype: each cast is
        // then of the exact type, with no search of conformances or bridging.
        let type = Swift.type(of: raw)
        if type == String.self, let string = raw as? String { return .string(string) }
        if type == Int.self, let int = raw as? Int { return .int(Int64(int)) }
        if type == Double.self, let double = raw as? Double { return .double(double) }
        if type == Bool.self, let bool = raw as? Bool { return .bool(bool) }
        if type == [String: Any].self, let dictionary = raw as? [String: Any] {
            return try converting(dictionary, path: &path, depth: depth)
        }
        if type == [Any].self, let array = raw as? [Any] { return try converting(array, path: &path, depth: depth) }
        if type == Date.self, let date = raw as? Date { return .date(date) }
        if let string = raw as? String { return .string(string) }
        if NumberValue.isNull(raw) { return .null }
        if let number = NumberValue.foundationNumber(raw) {
            if "cB".contains(NumberValue.typeCode(of: number)) { return .bool(number.boolValue) }
        }
        if let number = NumberValue(raw) { return ArchiveValue(number) }
        switch raw {
        case let date as Date: return .date(date)
        case let data as Data: return .data(data)
        case let dictionary as [String: Any]: return try converting(dictionary, path: &path, depth: depth)
        case let array as [Any]: return try converting(array, path: &path, depth: depth)
        default: return .foreign(ForeignValue(raw))
        }
    }

    private static func converting(_ dictionary: [String: Any], path: inout KeyPathTracker, depth: Int) throws -> ArchiveValue {
        try enter(depth, path: path, readBack: nil)
        var converted = ArchiveDictionary(minimumCapacity: dictionary.count)
        for (key, value) in dictionary {
            path.push(key: key)
            defer { path.pop() }
            converted.append(key, try converting(value, path: &path, depth: depth + 1))
        }
        return .dictionary(converted)
    }

    private static func converting(_ array: [Any], path: inout KeyPathTracker, depth: Int) throws -> ArchiveValue {
        try enter(depth, path: path, readBack: nil)
        var converted: [ArchiveValue] = []
        converted.reserveCapacity(array.count)
        for (index, element) in array.enumerated() {
            path.push(index: index)
            defer { path.pop() }
            converted.append(try converting(element, path: &path, depth: depth + 1))
        }
        return .array(ArchiveArray(converted))
    }

    /// The Swift value for this document value: `String`, `Int` (or `UInt64` above `Int.max`),
    /// `Double`, `Bool`, `Date`, `Data`, `NSNull`, `[Any]` and `[String: Any]`.
    var swiftValue: Any {
        switch self {
        case let .string(value): return value
        case .int, .uint, .double, .longNumber: return number!.swiftValue
        case let .bool(value): return value
        case let .date(value): return value
        case let .data(value): return value
        case .null: return NSNull()
        case let .array(elements): return elements.map(\.swiftValue)
        case let .dictionary(dictionary):
            var result: [String: Any] = [:]
            result.reserveCapacity(dictionary.count)
            for entry in dictionary.entries where result[entry.key] == nil { result[entry.key] = entry.value.swiftValue }
            return result
        case let .foreign(box): return box.value
        }
    }
}
