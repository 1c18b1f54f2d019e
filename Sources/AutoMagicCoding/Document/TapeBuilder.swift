import Foundation

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
    private var keys: KeyTable
    /// How many values the builder was told the document holds at most (``init(runs:)``).
    private var room = Int.max

    /// A builder for a document of at most `maximumSlots` values: room for them all is set
    /// aside up front (up to 2^27), in the tape and among the values of open containers, which
    /// spares the copies of a growing array (and the memory of both while it copies); pages never
    /// written are never taken from the system. `keys` numbers the keys (a kept table, see
    /// ``KeyTable/reused()``, for a reader that reads every key from its bytes).
    init(maximumSlots: Int, keys: KeyTable = KeyTable()) {
        self.keys = keys
        slots.reserveCapacity(min(maximumSlots, 1 << 27))
        pending.reserveCapacity(min(maximumSlots, 1 << 27))
    }

    /// A builder for a reader that sets aside each container's run as it opens (a binary property
    /// list's, whose containers' counts are in their headers; see ``reserve(_:)``): the tape takes
    /// room for `tapeSlots` values, how many the containers' counts add up to, and the values
    /// of open containers only the root's.
    init(runs tapeSlots: Int) {
        keys = .reused()
        slots.reserveCapacity(min(tapeSlots, 1 << 27))
        pending.reserveCapacity(1)
        room = tapeSlots
    }

    /// A builder that holds nothing, to stand in the place of the one a reader makes once it
    /// knows how much room to set aside (its table of keys is a new one: no kept table is taken
    /// for it).
    static let unstarted = TapeBuilder(maximumSlots: 0)

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
            pending.removeAllKeepingRoom()
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
        // Copied at once where they lie side by side (an append from a collection of its own
        // takes them one by one).
        if bytes.withContiguousStorageIfAvailable({ unescaped.append(contentsOf: $0) }) == nil {
            unescaped.append(contentsOf: bytes)
        }
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
        let tape = DocumentTape(
            source: source?.copied ?? [], unescaped: unescaped, keys: keys.keys, vocabulary: keys.vocabulary, slots: finished)
        keys.recycle()
        return tape.value(at: finished.count - 1)
    }

    // MARK: - Keys

    /// The `key` slot for a string slot read as a key (`text` slots are `bytes`' own, `unescaped`
    /// ones in ``unescaped``): a key met before is found by its bytes, without making its string.
    mutating func key(_ string: Slot, in bytes: ByteView) -> Slot {
        let number =
            string.kind == .text
            ? keys.number(of: string.range, in: bytes)
            : ByteView.withBytes(of: unescaped) { keys.number(of: string.range, in: $0) }
        return Slot(.key, payload: UInt64(number))
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
        pending.count - start == 2 && KeyTable.Reserved.reference.numbers(pending[start])
    }

    /// As ``isReference(from:)``, for a dictionary whose run was set aside at `first`, of
    /// `count` entries.
    func isReference(inRun first: Int, count: Int) -> Bool {
        count == 1 && KeyTable.Reserved.reference.numbers(slots[first])
    }
}
