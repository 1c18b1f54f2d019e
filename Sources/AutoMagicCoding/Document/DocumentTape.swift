import Foundation

/// A parsed document in one flat store, what every reader builds: every value is a 16-byte
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
/// if case let .dictionary(object) = document { object["name"] }  // .string("Ada")
/// ```
final class DocumentTape {
    /// One value: a scalar, a string's bytes, or a container's run of slots.
    struct Slot {
        enum Kind: UInt8 {
            /// `payload` is the offset of the string's UTF-8 in the document, `count` its length.
            case text
            /// As `text`, in ``DocumentTape/unescaped`` (a string that had escapes, or a binary
            /// property list's).
            case unescaped
            /// A dictionary key, or a string a binary property list repeats: `payload` is its
            /// number in ``DocumentTape/keys``.
            case key
            /// `payload` is the bit pattern of the value.
            case int, uint, double
            /// As `unescaped`, the text of a number no other kind holds exactly (see
            /// ``ArchiveValue/longNumber(_:)``).
            case longNumber
            /// `payload` is 0 or 1.
            case bool
            /// `payload` is the bit pattern of the seconds since 2001.
            case date
            /// As `unescaped`, the bytes of data (decoded from base64).
            case data
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
    /// costs an exclusivity check each time, which holding the reader's `Data` would pay per byte.
    let source: [UInt8]
    /// The UTF-8 of strings that had escapes, which `unescaped` slots point into.
    let unescaped: [UInt8]
    /// The document's distinct keys, each made once: a document repeats the same few keys in
    /// every object, and a key compared as a `String` of up to 15 bytes costs one comparison of
    /// two words. A binary property list's strings are here too: each string object is made
    /// once, however many containers refer to it.
    let keys: [String]
    /// The numbering `keys` follow: documents read with one kept key table share it, and a key's
    /// number means the same key in each of them (see ``KeyTable/reused()``).
    let vocabulary: KeyTable.Vocabulary
    let slots: [Slot]

    init(source: [UInt8], unescaped: [UInt8], keys: [String], vocabulary: KeyTable.Vocabulary, slots: [Slot]) {
        self.source = source
        self.unescaped = unescaped
        self.keys = keys
        self.vocabulary = vocabulary
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
        case .longNumber: return .longNumber(ByteView.withBytes(of: unescaped) { $0.string(slot.range) })
        case .bool: return .bool(slot.payload != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: slot.payload)))
        case .data: return .data(ByteView.withBytes(of: unescaped) { $0.data(slot.range) })
        case .null: return .null
        case .array: return .array(ArchiveArray(tape: self, first: Int(slot.payload), count: Int(slot.count)))
        case .dictionary: return .dictionary(ArchiveDictionary(tape: self, first: Int(slot.payload), count: Int(slot.count)))
        }
    }

    /// Whether the value at `index` is a dictionary or an array: asked by walks over a
    /// document's structure, which need not make its strings.
    func holdsContainer(at index: Int) -> Bool {
        let kind = slots[index].kind
        return kind == .dictionary || kind == .array
    }

    /// Whether the dictionary of `count` entries from slot `first` is the document's root, the
    /// tape's last slot (two empty dictionaries may start at one slot: the count tells them
    /// apart from a root that holds anything).
    func isRoot(dictionaryAt first: Int, count: Int) -> Bool {
        guard let root = slots.last else { return false }
        return root.kind == .dictionary && Int(root.payload) == first && Int(root.count) == count
    }

    /// Calls `body` with the value of each dictionary whose one entry is keyed `key`, in the
    /// order of the slots: the whole document looked through without walking it.
    func forEachValue(ofLoneKey key: KeyTable.Reserved, _ body: (ArchiveValue) -> Void) {
        for slot in slots where slot.kind == .dictionary && slot.count == 1 {
            let first = Int(slot.payload)
            guard holdsKey(key, at: first) else { continue }
            body(value(at: first + 1))
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

    /// Whether the key slot at `index` is `reserved`: its number, when it is a `key` slot (see
    /// ``KeyTable/Reserved``), else its string.
    func holdsKey(_ reserved: KeyTable.Reserved, at index: Int) -> Bool {
        let slot = slots[index]
        return slot.kind == .key ? reserved.numbers(slot) : string(slot) == reserved.key
    }

    /// The key of the `key` slot at `index` (a dictionary's entries start with one).
    func key(at index: Int) -> String {
        keys[Int(slots[index].payload)]
    }
}
