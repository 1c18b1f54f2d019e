import Foundation

/// A parsed document in one flat store, what the JSON reader builds: every value is a 16-byte
/// ``Slot`` in one array, a container's elements (a dictionary's keys and values, alternating)
/// are side by side in it, and a string stays the document's own bytes until the decoder asks for
/// it. So reading a document allocates a few arrays instead of one per container and string,
/// frees them at once, and the decoder walks memory in order.
///
/// The values the decoder reads are ``ArchiveValue``s made on access: a string slot becomes
/// `.string`, a container slot an ``ArchiveArray`` or ``ArchiveDictionary`` view of its slots.
///
/// ```swift
/// let document = try JSONReader.parse(Data(#"{"name":"Ada"}"#.utf8)).value
/// document.dictionary?["name"]  // .string("Ada")
/// ```
final class DocumentTape {
    /// One value: a scalar, a string's bytes, or a container's run of slots.
    struct Slot {
        enum Kind: UInt8 {
            /// `payload` is the offset of the string's UTF-8 in the document, `count` its length.
            case text
            /// As `text`, in ``DocumentTape/unescaped`` (a string that had escapes).
            case unescaped
            /// A dictionary key: `payload` is its number in ``DocumentTape/keys``.
            case key
            /// `payload` is the bit pattern of the value.
            case int, uint, double
            /// `payload` is 0 or 1.
            case bool
            case null
            /// `payload` is the index of the first element's slot, `count` the element count.
            case array
            /// `payload` is the index of the first key's slot, `count` the entry count; each key's
            /// slot is followed by its value's.
            case dictionary
        }

        var payload: UInt64
        var count: UInt32
        var kind: Kind

        init(_ kind: Kind, payload: UInt64 = 0, count: UInt32 = 0) {
            self.kind = kind
            self.payload = payload
            self.count = count
        }

        /// Where a string slot's bytes are.
        var range: Range<Int> { Int(payload)..<(Int(payload) + Int(count)) }
    }

    /// The document's bytes, which `text` slots point into: a copy, since reading `Data`'s bytes
    /// costs an exclusivity check each time.
    let source: [UInt8]
    /// The UTF-8 of strings that had escapes, which `unescaped` slots point into.
    let unescaped: [UInt8]
    /// The document's distinct keys, each made once: a document repeats the same few keys in
    /// every object, and a key compared as a `String` of up to 15 bytes costs one comparison of
    /// two words.
    let keys: [String]
    let slots: [Slot]

    init(source: [UInt8], unescaped: [UInt8], keys: [String], slots: [Slot]) {
        self.source = source
        self.unescaped = unescaped
        self.keys = keys
        self.slots = slots
    }

    /// The value of the slot at `index`.
    func value(at index: Int) -> ArchiveValue {
        let slot = slots[index]
        switch slot.kind {
        case .text, .unescaped, .key: return .string(string(slot))
        case .int: return .int(Int64(bitPattern: slot.payload))
        case .uint: return .uint(slot.payload)
        case .double: return .double(Double(bitPattern: slot.payload))
        case .bool: return .bool(slot.payload != 0)
        case .null: return .null
        case .array: return .array(ArchiveArray(tape: self, first: Int(slot.payload), count: Int(slot.count)))
        case .dictionary: return .dictionary(ArchiveDictionary(tape: self, first: Int(slot.payload), count: Int(slot.count)))
        }
    }

    /// The string of a `text`, `unescaped` or `key` slot.
    func string(_ slot: Slot) -> String {
        switch slot.kind {
        case .key: return keys[Int(slot.payload)]
        case .unescaped: return ByteView.withBytes(of: unescaped) { $0.string(slot.range) }
        default: return ByteView.withBytes(of: source) { $0.string(slot.range) }
        }
    }

    /// The number of the entry whose key is `key`, among the `count` entries from slot `first`:
    /// looked for from entry `hint` on, then from the start (see
    /// ``ArchiveDictionary/value(forKey:hint:)``).
    func entry(withKey key: String, first: Int, count: Int, hint: Int) -> Int? {
        var entry = hint < count ? hint : 0
        for _ in 0..<count {
            if keys[Int(slots[first + 2 * entry].payload)] == key { return entry }
            entry += 1
            if entry == count { entry = 0 }
        }
        return nil
    }
}

/// An array in a parsed document: its elements, or a run of slots in a ``DocumentTape`` made
/// into values as they are read.
///
/// ```swift
/// let numbers = ArchiveArray([.int(1), .int(2)])
/// numbers.map(\.number)  // [.int(1), .int(2)]
/// ```
struct ArchiveArray: RandomAccessCollection, ExpressibleByArrayLiteral {
    private enum Storage {
        case values([ArchiveValue])
        case tape(DocumentTape, first: UInt32, count: UInt32)
    }

    private let storage: Storage

    init(_ values: [ArchiveValue] = []) {
        storage = .values(values)
    }

    init(arrayLiteral values: ArchiveValue...) {
        storage = .values(values)
    }

    /// The `count` slots from `first` in `tape`; both fit 32 bits (the reader checks).
    init(tape: DocumentTape, first: Int, count: Int) {
        storage = .tape(tape, first: UInt32(first), count: UInt32(count))
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case let .values(values): return values.count
        case let .tape(_, _, count): return Int(count)
        }
    }

    subscript(index: Int) -> ArchiveValue {
        switch storage {
        case let .values(values): return values[index]
        case let .tape(tape, first, count):
            precondition(index >= 0 && index < Int(count), "element \(index) of an array of \(count)")
            return tape.value(at: Int(first) + index)
        }
    }
}
