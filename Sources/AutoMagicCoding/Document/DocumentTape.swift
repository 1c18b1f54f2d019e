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
            /// As `text`, in ``DocumentTape/unescaped`` (a string that had escapes).
            case unescaped
            /// A dictionary key, or a string of a binary property list: `payload` is its number in
            /// ``DocumentTape/keys``.
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
        case .longNumber: return .longNumber(ByteView.withBytes(of: unescaped) { $0.string(slot.range) })
        case .bool: return .bool(slot.payload != 0)
        case .date: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: slot.payload)))
        case .data: return .data(ByteView.withBytes(of: unescaped) { $0.data(slot.range) })
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

    /// The key of the `key` slot at `index` (a dictionary's entries start with one).
    func key(at index: Int) -> String {
        keys[Int(slots[index].payload)]
    }
}

/// Builds a ``DocumentTape`` as a reader goes: values are appended as they are read, and a
/// container's, once it closes, move side by side into the tape, the reader appending the
/// container's own slot in their place. A reader that knows a container's count as it opens it
/// (a binary property list's) sets aside its run with ``reserve(_:)`` instead, and puts each
/// value in place. What the readers share: slot layout, key numbering and the repeated-key rule.
///
/// ```swift
/// var tape = TapeBuilder(maximumSlots: 4)
/// let start = tape.openCount
/// tape.append(.init(.int, payload: 1))
/// tape.append(tape.close(.array, from: start)!)
/// tape.finish(source: nil)  // .array([.int(1)]), and no strings to point into a document
/// ```
struct TapeBuilder {
    typealias Slot = DocumentTape.Slot

    /// The slots of finished containers' elements, each container's side by side.
    private var slots: [Slot] = []
    /// The slots of the values of the containers still open, innermost last.
    private var pending: [Slot] = []
    /// The UTF-8 of strings that had escapes, and the bytes of data: what `unescaped` and `data`
    /// slots point into.
    var unescaped: [UInt8] = []
    private var keys = KeyTable()
    /// How many values the builder was told the document holds at most (``init(runs:)``).
    private var room = Int.max

    /// A builder for a document of at most `maximumSlots` values: room for them all is set
    /// aside up front (up to 2^27), in the tape and among the values of open containers, which
    /// spares the copies of a growing array (and the memory of both while it copies); pages never
    /// written are never taken from the system.
    init(maximumSlots: Int) {
        slots.reserveCapacity(min(maximumSlots, 1 << 27))
        pending.reserveCapacity(min(maximumSlots, 1 << 27))
    }

    /// A builder for a reader that sets aside each container's run as it opens (a binary property
    /// list's, whose containers' counts are in their headers; see ``reserve(_:)``): the tape takes
    /// room for `tapeSlots` values, how many the containers' counts add up to, and the values
    /// of open containers only the root's.
    init(runs tapeSlots: Int) {
        slots.reserveCapacity(min(tapeSlots, 1 << 27))
        pending.reserveCapacity(1)
        room = tapeSlots
    }

    /// Whether the values held, the open containers' included, are within the room the builder
    /// was given (an array that outgrows its room is copied).
    var isWithinRoom: Bool { valueCount <= room }

    /// How many values the tape and the open containers hold.
    var valueCount: Int { slots.count + pending.count }

    /// Where the values of a container opened now will start: what ``close(_:from:)`` takes.
    var openCount: Int { pending.count }

    mutating func append(_ slot: Slot) {
        pending.append(slot)
    }

    /// Closes the container whose values were appended since `start`: moves them into the tape
    /// and returns the container's slot, for the reader to append where the container belongs;
    /// nil when the tape cannot number so many values (``overflow`` says so).
    mutating func close(_ kind: Slot.Kind, from start: Int) -> Slot? {
        let values = pending.count - start
        guard slots.count + values < Int(UInt32.max) else { return nil }
        let container = Self.container(kind, first: slots.count, values: values)
        if start == 0, slots.isEmpty {
            // The first container to close, and nothing before it: its values are all there is,
            // already in order (a wide array of numbers would otherwise be held twice).
            swap(&slots, &pending)
        } else if values >= Self.handOverMinimum, values > slots.count + start {
            // Its values outnumber all the others held: the array they wait in becomes the tape,
            // and the others move instead (JSON's or XML's `[[], [1,1,…]]` otherwise held the
            // long array twice; the binary reader sets runs aside instead, see `reserve(_:)`).
            let open = Array(pending[..<start])
            swap(&slots, &pending)
            slots.replaceSubrange(0..<start, with: pending)
            pending.removeAll(keepingCapacity: true)
            pending.append(contentsOf: open)
        } else {
            // One by one: a slice of `pending` takes a retain and a release of its storage per
            // container.
            for index in start..<pending.count { slots.append(pending[index]) }
            pending.removeLast(values)
        }
        return container
    }

    /// The fewest values a closing container hands its array over for (see ``close(_:from:)``):
    /// below it, moving them costs less than moving the others.
    static let handOverMinimum = 1 << 12

    // MARK: - Runs set aside

    /// Sets aside `count` slots side by side in the tape for the values of a container whose
    /// count is known as it opens (a binary property list's): the reader puts each value in its
    /// place with ``set(_:at:)``, and nothing moves when the container is done. Returns where the
    /// run starts; nil when the tape cannot number so many values (``overflow`` says so). The
    /// reader bounds what all runs together take (claims that overlap are not values the file
    /// holds).
    mutating func reserve(_ count: Int) -> Int? {
        guard slots.count + count < Int(UInt32.max) else { return nil }
        let first = slots.count
        slots.append(contentsOf: repeatElement(Slot(.null), count: count))
        return first
    }

    /// Puts `slot` at `index` of a run set aside by ``reserve(_:)``.
    mutating func set(_ slot: Slot, at index: Int) {
        slots[index] = slot
    }

    /// The slot of a container of `kind` whose values are the run of `values` slots set aside at
    /// `first`, for the reader to put where the container belongs.
    static func container(_ kind: Slot.Kind, first: Int, values: Int) -> Slot {
        Slot(kind, payload: UInt64(first), count: UInt32(kind == .dictionary ? values / 2 : values))
    }

    /// A `text`, `unescaped` or `data` slot for the bytes of `range`; nil when they are more than
    /// a slot can count (4 GiB).
    static func slot(_ kind: Slot.Kind, _ range: Range<Int>) -> Slot? {
        guard range.count <= Int(UInt32.max) else { return nil }
        return Slot(kind, payload: UInt64(range.lowerBound), count: UInt32(range.count))
    }

    /// Appends `bytes` to ``unescaped`` and returns their slot of `kind`; nil as
    /// ``slot(_:_:)``.
    mutating func appendUnescaped(_ kind: Slot.Kind, _ bytes: some Collection<UInt8>) -> Slot? {
        let start = unescaped.count
        unescaped.append(contentsOf: bytes)
        return Self.slot(kind, start..<unescaped.count)
    }

    /// Why ``close(_:from:)`` returned nil.
    static let overflow = "the document has more than \(UInt32.max) values"

    /// Why ``slot(_:_:)`` or ``appendUnescaped(_:_:)`` returned nil for a slot of `kind`.
    static func tooLong(_ kind: Slot.Kind) -> String {
        kind == .data ? "data of more than \(UInt32.max) bytes" : "a string longer than \(UInt32.max) bytes"
    }

    /// The root value, the one value appended outside any container, once every container is
    /// closed; `source` is the document, which `text` slots point into (none when nil).
    mutating func finish(source: ByteView?) -> ArchiveValue {
        precondition(pending.count == 1, "a document of \(pending.count) values at its root")
        // Taken out of the builder first, so that the append does not copy a shared array.
        var finished: [Slot] = []
        swap(&finished, &slots)
        finished.append(pending[0])
        let tape = DocumentTape(source: source?.copied ?? [], unescaped: unescaped, keys: keys.keys, slots: finished)
        return tape.value(at: finished.count - 1)
    }

    // MARK: - Keys

    /// The `key` slot for a string slot read as a key (`text` slots are `bytes`' own).
    mutating func key(_ string: Slot, in bytes: ByteView) -> Slot {
        let number =
            string.kind == .text
            ? keys.number(of: string.range, in: bytes)
            : keys.number(of: ByteView.withBytes(of: unescaped) { $0.string(string.range) })
        return Slot(.key, payload: UInt64(number))
    }

    /// A `key` slot for a string made already (a binary property list's string object), with a
    /// number of its own; `ascii` the bytes it was made of when they are ASCII (see
    /// ``KeyTable/print(of:in:)``).
    mutating func key(_ string: String, ascii: (range: Range<Int>, bytes: ByteView)?) -> Slot {
        Slot(
            .key, payload: UInt64(keys.adding(string, print: ascii.map { KeyTable.print(of: $0.range, in: $0.bytes) } ?? 0)))
    }

    /// The string of a `key` slot.
    func string(_ key: Slot) -> String {
        keys.keys[Int(key.payload)]
    }

    /// Whether `key` is one of the keys of the dictionary whose values started at `start`; past
    /// 16 entries, a set of them is kept in `seen`. Keys are the same as `String`s are; two whose
    /// ASCII prints differ are not (see ``KeyTable/mayBeSame(_:_:)``), and only the others' strings
    /// are compared.
    func isRepeated(_ key: Slot, from start: Int, seen: inout Set<String>?) -> Bool {
        isRepeated(key, among: pending, start..<pending.count, seen: &seen)
    }

    /// As ``isRepeated(_:from:seen:)``, for a dictionary whose run was set aside: `entries` are
    /// the slots of its entries set so far.
    func isRepeated(_ key: Slot, inRun entries: Range<Int>, seen: inout Set<String>?) -> Bool {
        isRepeated(key, among: slots, entries, seen: &seen)
    }

    private func isRepeated(_ key: Slot, among values: [Slot], _ entries: Range<Int>, seen: inout Set<String>?) -> Bool {
        let string = string(key)
        if seen == nil {
            guard entries.count / 2 >= 16 else {
                return stride(from: entries.lowerBound, to: entries.upperBound, by: 2).contains {
                    let other = values[$0].payload
                    return other == key.payload
                        || keys.mayBeSame(Int(other), Int(key.payload)) && self.string(values[$0]) == string
                }
            }
            seen = Set(stride(from: entries.lowerBound, to: entries.upperBound, by: 2).map { self.string(values[$0]) })
        }
        return seen?.insert(string).inserted == false
    }

    /// Whether the dictionary whose values started at `start` may be a reference (one `"$ref"`
    /// entry; see ``ObjectReference``).
    func isReference(from start: Int) -> Bool {
        pending.count - start == 2 && string(pending[start]) == ObjectReference.key
    }

    /// As ``isReference(from:)``, for a dictionary whose run was set aside at `first`, of
    /// `count` entries.
    func isReference(inRun first: Int, count: Int) -> Bool {
        count == 1 && string(slots[first]) == ObjectReference.key
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

/// Numbers each distinct key of a document (see ``DocumentTape/keys``), making its `String`
/// once. A key met again is found by its length and first and last 8 bytes in a small table of
/// recent keys, without hashing its bytes or making a string.
struct KeyTable {
    private(set) var keys: [String] = []
    /// Each key's ASCII print (``print(of:in:)``); 0 when it is not ASCII or was made
    /// without one.
    private var prints: [UInt64] = []
    private var numbers: [String: Int] = [:]
    /// The keys met lately, by a hash of their bytes: made at the first key read from bytes (a
    /// binary property list's keys come as strings), a few slots in a small document (which
    /// then does not pay for a large table), 256 from the first key missed in a larger one.
    private var recent: [Recent] = []
    private var recentShift: UInt64 = 59
    /// How many keys were looked up: past ``smallDocumentKeys``, the document is not small.
    private var lookups = 0
    private static let smallDocumentKeys = 64

    private struct Recent {
        var count = -1
        var first: UInt64 = 0
        var last: UInt64 = 0
        var number = 0
    }

    /// The number of the key whose UTF-8 is `range` of `bytes`.
    mutating func number(of range: Range<Int>, in bytes: ByteView) -> Int {
        lookups += 1
        if recent.isEmpty { recent = [Recent](repeating: Recent(), count: 32) }
        let (count, first, last) = Self.words(of: range, in: bytes)
        let hash = Self.hash(count: count, first: first, last: last)
        // Two slots of the table for each hash, so that two keys of one object that share a slot
        // (a note's "color" and "lang") do not push each other out at every object.
        let slot = Int(truncatingIfNeeded: hash >> recentShift)
        for probe in [slot, slot ^ 1] {
            let seen = recent[probe]
            if seen.count == count, seen.first == first, seen.last == last,
                count <= 16 || ByteView.withBytes(of: keys[seen.number], { bytes.bytes(range, equal: $0) })
            {
                return seen.number
            }
        }
        let number = self.number(of: bytes.string(range), print: bytes.isASCII(range) ? hash | 1 : 0)
        stringsMade += 1
        if recentShift > 56, lookups > Self.smallDocumentKeys || keys.count > Self.scannedKeys {
            recent = [Recent](repeating: Recent(), count: 256)
            recentShift = 56
            return number
        }
        // Into a free one of the two; else the one in the key's own slot moves to the other. (Moved
        // there whatever it held, a key whose own slot is the other one was pushed out each time:
        // two keys that alternate in every object never stayed.)
        let new = Recent(count: count, first: first, last: last, number: number)
        if recent[slot].count < 0 {
            recent[slot] = new
        } else if recent[slot ^ 1].count < 0 {
            recent[slot ^ 1] = new
        } else {
            recent[slot ^ 1] = recent[slot]
            recent[slot] = new
        }
        return number
    }

    /// How many times ``number(of:in:)`` made a key's `String` (and hashed it): once for each
    /// distinct key, unless more keys than the table of recent ones holds alternate.
    private(set) var stringsMade = 0

    /// A new number for `string`, whatever other keys there are; `print` its ASCII print, or 0.
    mutating func adding(_ string: String, print: UInt64) -> Int {
        if keys.isEmpty {  // room for a small document's keys at once, not grown from one by doubling
            keys.reserveCapacity(Self.scannedKeys)
            prints.reserveCapacity(Self.scannedKeys)
        }
        keys.append(string)
        prints.append(print)
        return keys.count - 1
    }

    /// The number of `key`, a new one unless a key of the same bytes has one; `print` its ASCII
    /// print, or 0.
    mutating func number(of key: String, print: UInt64 = 0) -> Int {
        guard keys.count > Self.scannedKeys else {
            // A few keys are found by a look at each, cheaper than hashing the key.
            for number in keys.indices where (print == 0 || prints[number] == 0 || prints[number] == print) {
                if keys[number].utf8.count == key.utf8.count, keys[number].utf8.elementsEqual(key.utf8) { return number }
            }
            let number = adding(key, print: print)
            if keys.count > Self.scannedKeys {
                for (number, known) in keys.enumerated() where numbers[known] == nil { numbers[known] = number }
            }
            return number
        }
        if let number = numbers[key], keys[number].utf8.elementsEqual(key.utf8) { return number }
        let number = adding(key, print: print)
        if numbers[key] == nil { numbers[key] = number }
        return number
    }

    /// How many keys ``number(of:print:)`` finds by looking at each before it hashes them.
    private static let scannedKeys = 16

    /// Whether keys `a` and `b` may be the same `String`: false when both are ASCII and their
    /// prints differ, so their bytes do; an ASCII key and another may still be the same (`"K"`
    /// and the Kelvin sign are), and so may two ASCII keys of different numbers (a binary
    /// property list's key object read twice).
    func mayBeSame(_ a: Int, _ b: Int) -> Bool {
        let (printA, printB) = (prints[a], prints[b])
        return printA == 0 || printB == 0 || printA == printB
    }

    /// A print of bytes (their length and first and last 8 bytes, mixed), never 0: the same for
    /// the same bytes, so that bytes whose prints differ are different. A key keeps one when it is
    /// ASCII (see ``mayBeSame(_:_:)``); the binary writer's cache of recent strings keeps one for
    /// every string.
    static func print(of range: Range<Int>, in bytes: ByteView) -> UInt64 {
        let (count, first, last) = words(of: range, in: bytes)
        return hash(count: count, first: first, last: last) | 1
    }

    /// The length of `range` and its first and last 8 bytes (the last 0 when they are the first).
    private static func words(of range: Range<Int>, in bytes: ByteView) -> (count: Int, first: UInt64, last: UInt64) {
        let count = range.count
        return (
            count, bytes.word(at: range.lowerBound, count: min(count, 8)), count > 8 ? bytes.word(at: range.upperBound - 8) : 0
        )
    }

    private static func hash(count: Int, first: UInt64, last: UInt64) -> UInt64 {
        (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
    }
}
