/// An array that grows a chunk at a time and never moves what it holds: for the tables a write
/// keeps an entry per object in, to the end.
///
/// An `Array` that grows doubles its storage and copies into it. The storage it leaves behind is
/// the size of what it then held, and the allocator keeps it for a while (below its `mmap`
/// threshold, or once the threshold has risen): a table that grew to `n` entries has taken the
/// room of `2n`. Chunks of 1,024 entries take the room of `n` and one chunk at most, and an append
/// never copies, except while the first chunk is small: it starts with room for 16 entries and
/// doubles, so that a small document's tables do not take a whole chunk each.
///
/// ```swift
/// var places = ChunkedArray<UInt64>()
/// places.append(7)
/// places[0]            // 7
/// places[0] = 8
/// places.removeLast(1) // empty again
/// ```
struct ChunkedArray<Element>: RandomAccessCollection, MutableCollection {
    /// The full chunks, `chunkSize` entries each.
    private var full: [[Element]] = []
    /// The chunk being filled, after the full ones: where appends go, at a plain array's cost
    /// (reads in order go through ``Iterator``, a chunk at a time).
    private var last: [Element] = []
    /// How many entries the full chunks hold.
    private var fullCount = 0

    private static var chunkShift: Int { 10 }
    /// Entries a chunk holds.
    static var chunkSize: Int { 1 << chunkShift }

    /// An empty array.
    init() {}

    var count: Int { fullCount + last.count }
    var startIndex: Int { 0 }
    var endIndex: Int { count }

    /// Appends `element`, in a new chunk when the last is full.
    @inline(__always) mutating func append(_ element: Element) {
        if last.count & (Self.chunkSize - 1) == 0 { makeRoom() }  // full, or empty
        last.append(element)
    }

    /// Reads the entries in order a chunk at a time, as `for entry in array` does: reading them
    /// by index looks for each one's chunk, and takes a retain and a release of it.
    ///
    /// ```swift
    /// var entries = places.makeIterator()
    /// while let entry = entries.next() { print(entry) }
    /// ```
    struct Iterator: IteratorProtocol {
        private let full: [[Element]]
        private let last: [Element]
        /// The chunk being read: `full[chunkNumber]`, or `last` once `chunkNumber` is `full.count`.
        private var chunk: [Element]
        private var chunkNumber = 0
        private var position = 0

        fileprivate init(full: [[Element]], last: [Element]) {
            self.full = full
            self.last = last
            chunk = full.first ?? last
        }

        mutating func next() -> Element? {
            if position == chunk.count {
                guard chunkNumber < full.count else { return nil }
                chunkNumber += 1
                chunk = chunkNumber < full.count ? full[chunkNumber] : last
                position = 0
                guard !chunk.isEmpty else { return nil }  // only the last chunk can be empty
            }
            position += 1
            return chunk[position - 1]
        }
    }

    func makeIterator() -> Iterator { Iterator(full: full, last: last) }

    /// Moves a full last chunk to the full ones, and gives the last room for a chunk (from the
    /// first entry on: a chunk grown by doubling would leave its smaller storage behind).
    private mutating func makeRoom() {
        if last.count == Self.chunkSize {
            full.append(last)
            fullCount += Self.chunkSize
            last = []
        }
        last.reserveCapacity(full.isEmpty ? Self.firstRoom : Self.chunkSize)
    }

    /// The room the first chunk starts with.
    private static var firstRoom: Int { 16 }

    /// The entry at `index`, which must be below ``count``.
    subscript(index: Int) -> Element {
        @inline(__always) get {
            index >= fullCount ? last[index - fullCount] : full[index >> Self.chunkShift][index & (Self.chunkSize - 1)]
        }
        @inline(__always) set {
            if index >= fullCount {
                last[index - fullCount] = newValue
            } else {
                full[index >> Self.chunkShift][index & (Self.chunkSize - 1)] = newValue
            }
        }
    }

    /// Removes every entry, keeping the room of the first chunk when it is the only one.
    mutating func removeAll() {
        guard full.isEmpty else {
            self = ChunkedArray()
            return
        }
        last.removeAllKeepingRoom()
    }

    /// Removes the last `removed` entries, and the chunks they leave empty.
    mutating func removeLast(_ removed: Int) {
        precondition((0...count).contains(removed), "removing \(removed) of \(count) entries")
        var left = removed
        while left > last.count {
            left -= last.count
            last = full.removeLast()
            fullCount -= Self.chunkSize
        }
        last.removeLast(left)
    }
}

extension Array {
    /// Removes every element and keeps the room, when there is any element: emptying an empty
    /// array this way still cost a generic call, and a kept writer or encoder empties a dozen
    /// tables after each small document, most of them empty by then. A few elements are removed
    /// one by one from the end: `removeAll(keepingCapacity:)` replaces the whole range through
    /// the general path, which costs more than a small table's elements.
    ///
    /// ```swift
    /// var open: [Int] = []
    /// open.removeAllKeepingRoom()   // nothing to do
    /// ```
    @inline(__always)
    mutating func removeAllKeepingRoom() {
        if !isEmpty { removeEveryElementKeepingRoom() }
    }

    /// ``removeAllKeepingRoom()``'s work, out of line: inlined, it made the many functions that
    /// empty a table larger than the optimiser inlines into their callers.
    @inline(never)
    private mutating func removeEveryElementKeepingRoom() {
        guard count <= Self.removedOneByOne else { return removeAll(keepingCapacity: true) }
        let room = capacity
        repeat { removeLast() } while !isEmpty
        // Storage shared with another array is copied by the first removal, with room for what
        // was left only.
        if capacity < room { reserveCapacity(room) }
    }

    /// The most elements ``removeAllKeepingRoom()`` removes one by one.
    private static var removedOneByOne: Int { 8 }
}
