/// Where the encoder wrote each object in full, so that a later occurrence can refer to it: one
/// entry per object, holding only the few key path components between it and the object it is
/// inside, so recording a place copies no path. The whole path is put together only when a
/// reference needs it.
///
/// Graph mode records every object it writes, so the table is most of what a write holds beyond
/// its output. A place takes 16 bytes: its identity, and an 8-byte link to the object it is inside
/// (the key, as a number among the keys met, and the index after it), each in chunks that never
/// move (``ChunkedArray``: arrays that doubled left their old storage behind, as much again). The
/// identities are found through an open-addressing table of slots kept at most three quarters
/// full (Swift's `Dictionary` took twice the room, and a tenth of the time of writing small
/// objects); a slot holds the identity itself beside its place, so that finding an object met
/// before reads one slot, not a slot and then its entry (in a large graph whose objects refer to
/// each other at random, each is a cache miss).
struct PlaceTable {
    private typealias Component = KeyPathTracker.Component

    /// How a place hangs from the object it is inside, in 8 bytes (a write of small objects holds
    /// one per object): that object's place (-1 for the root), and the components between the
    /// two in their usual shape, a key and an optional index (`children[3]`), the key as its
    /// number in `keys`. Other shapes, a key numbered 255 or more and an index of 2²⁴ − 1 or more
    /// are in `unusual`.
    ///
    /// The bits: the parent's place + 1 (32), the key's number (8, 255 for none), the index + 1
    /// (24, 0 for none).
    private struct Link {
        private let bits: UInt64

        /// The numbers of keys a link holds are below this.
        static let keyLimit = 255
        /// The indexes a link holds are below this.
        static let indexLimit = 1 << 24 - 1

        /// A link to `parent` through the key numbered `key` (nil: the components are in
        /// `unusual`) and `index`, which must be below the limits.
        init(parent: Int, key: Int?, index: Int?) {
            let keyBits = UInt64(key ?? Self.keyLimit)
            let indexBits = UInt64(index.map { $0 + 1 } ?? 0)
            bits = UInt64(UInt32(parent + 1)) | keyBits << 32 | indexBits << 40
        }

        var parent: Int { Int(bits & 0xFFFF_FFFF) - 1 }
        var key: Int? {
            let key = Int(bits >> 32 & 0xFF)
            return key == Self.keyLimit ? nil : key
        }
        var index: Int? {
            let index = Int(bits >> 40)
            return index == 0 ? nil : index - 1
        }
    }

    /// A place: its object, and how it hangs from the one it is inside.
    private struct Entry {
        let identity: ObjectIdentifier
        let link: Link
    }

    /// Each place's entry, by place.
    private var entries = ChunkedArray<Entry>()
    /// The keys places hang from, each once, numbered by their position; `lastKeys` first (a write
    /// records most objects under the same few keys, and an identical `String` compares at once).
    private var keys = StringNumbers()
    private var lastKeys: [(key: String, number: Int)] = []
    /// The components of places whose path from their parent is not a key and an optional index.
    private var unusual: [Int: [Component]] = [:]
    /// Open addressing with linear probing; none while there are at most ``scannedPlaces``
    /// places, which are found by a look at each (a small document's objects need no table).
    private var slots: [Slot] = []
    private static let scannedPlaces = 8
    /// Which slots are taken (see ``SlotBits``); only ``setSlot(_:to:)`` changes a slot.
    private var taken = SlotBits(count: 0)
    /// Whether an identity's first slot comes from all of its address's bits, rather than from
    /// where it is in memory (see ``hash(of:in:spread:)``): once objects packed close made the
    /// searches for free slots long.
    private(set) var spreadsAddresses = false
    /// The steps past their first slot that the entries took when put in the slots as they are
    /// (forgetting places leaves it as it was).
    private var steps = 0
    /// Pointers already put together, for objects referred to again and again, by place. (An
    /// array: the first dictionary keyed by `Int` in a process costs the runtime a search of every
    /// conformance, for `Int: Hashable`.)
    private var pointers: [String?] = []
    /// The places a pointer is put together from (kept for its room).
    private var chain: [Int] = []

    /// How many places are recorded: a mark to ``forget(since:)`` back to.
    var count: Int { entries.count }

    /// A slot: an identity's address (0: empty) and its place.
    private struct Slot {
        let address: UInt
        let place: Int

        static let empty = Slot(address: 0, place: 0)

        init(address: UInt, place: Int) {
            (self.address, self.place) = (address, place)
        }

        init(_ identity: ObjectIdentifier, place: Int) {
            self.init(address: UInt(bitPattern: identity), place: place)
        }
    }

    /// The place of `identity`, if it was written.
    func place(of identity: ObjectIdentifier) -> Int? {
        guard !slots.isEmpty else {
            // A few places are found by a look at each (see ``scannedPlaces``).
            for place in 0..<entries.count where entries[place].identity == identity { return place }
            return nil
        }
        let start = Self.slot(of: identity, in: slots.count, spread: spreadsAddresses)
        guard taken[start] else { return nil }
        let address = UInt(bitPattern: identity)
        var slot = start
        while slots[slot].address != 0 {
            if slots[slot].address == address { return slots[slot].place }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Records that `identity` is written in full where the components of `components` from
    /// `start` (the path from its parent's place) lead from `parent`; returns its place. (The
    /// whole path and where to start, not a slice of it: a slice took a retain and a release of
    /// the path's storage per object.)
    mutating func record(_ identity: ObjectIdentifier, parent: Int, components: [KeyPathTracker.Component], from start: Int = 0)
        -> Int
    {
        precondition(entries.count < Int(Int32.max), "more objects than a place table holds")
        let place = entries.count
        var key: Int?
        var index: Int?
        var used = start
        if used < components.count, case let .key(first) = components[used],
            case let number = number(ofKey: first), number < Link.keyLimit
        {
            key = number
            used += 1
            if used < components.count, case let .index(second) = components[used], (0..<Link.indexLimit).contains(second) {
                index = second
                used += 1
            }
        }
        if used < components.count || key == nil {
            key = nil
            index = nil
            if start < components.count { unusual[place] = Array(components[start...]) }
        }
        let scanned = slots.isEmpty && place < Self.scannedPlaces
        if !scanned, (place + 1) * 4 > slots.count * 3 { rebuildSlots(count: max(16, slots.count * 2)) }
        entries.append(Entry(identity: identity, link: Link(parent: parent, key: key, index: index)))
        guard !scanned else { return place }
        insertSlot(of: place, identity: identity)
        // More than two steps an entry on average: objects packed closer than a slot each.
        if !spreadsAddresses, steps > 2 * entries.count + 64 {
            spreadsAddresses = true
            rebuildSlots(count: slots.count)
        }
        return place
    }

    /// The number of `key` in `keys`, given on first use.
    private mutating func number(ofKey key: String) -> Int {
        if let known = lastKeys.first(where: { $0.key == key }) { return known.number }
        let number = keys.positionalNumber(of: key)
        if lastKeys.count == 4 { lastKeys.removeFirst() }
        lastKeys.append((key, number))
        return number
    }

    /// The JSON Pointer of `place` (see ``ObjectReference``), put together once.
    mutating func pointer(of place: Int) -> String {
        if place < pointers.count, let known = pointers[place] { return known }
        // The places from `place` up to the root, then each one's steps from the root down.
        chain.removeAllKeepingRoom()
        var current = place
        while current >= 0 {
            chain.append(current)
            current = entries[current].link.parent
        }
        var pointer = ObjectReference.rootPointer
        for current in chain.reversed() {
            let link = entries[current].link
            if let key = link.key {
                ObjectReference.append(.key(keys.string(at: key)), to: &pointer)
                if let index = link.index { ObjectReference.append(.index(index), to: &pointer) }
            } else if let all = unusual[current] {
                for component in all { ObjectReference.append(component, to: &pointer) }
            }
        }
        if pointers.count <= place { pointers.append(contentsOf: repeatElement(nil, count: place + 1 - pointers.count)) }
        pointers[place] = pointer
        return pointer
    }

    /// Whether the table finds its places by a look at each, without slots (see
    /// ``scannedPlaces``).
    var isSmall: Bool { slots.isEmpty }

    /// Forgets every place, as a new table, keeping the room of its entries and keys.
    mutating func removeAll() {
        entries.removeAll()
        keys.removeAll()
        lastKeys.removeAllKeepingRoom()
        unusual.removeAll()
        (slots, taken, spreadsAddresses, steps) = ([], SlotBits(count: 0), false, 0)
        pointers.removeAllKeepingRoom()
    }

    /// Forgets the places recorded since `mark` (their writing was undone).
    mutating func forget(since mark: Int) {
        guard entries.count > mark else { return }
        for place in (mark..<entries.count).reversed() {
            removeSlot(of: place)
            unusual[place] = nil
        }
        if pointers.count > mark { pointers.removeLast(pointers.count - mark) }
        entries.removeLast(entries.count - mark)
    }

    // MARK: - Slots

    /// Where the search for `identity` starts among `count` slots (a power of two).
    ///
    /// Unless `spread`, objects close in memory get slots close together: the address's 4 KB
    /// page picks a run of 32 slots anywhere in the table, and its 128 bytes within the page the
    /// slot in the run. A graph made or read in one go lies in memory about in the order it is
    /// written, so a table larger than the caches is then filled and searched a few objects per
    /// cache line, not with a miss per object (a fifth of writing 200,000 small objects). With
    /// `spread`, the product's high bits, which mix all of the address's, pick the slot.
    private static func slot(of identity: ObjectIdentifier, in count: Int, spread: Bool) -> Int {
        let address = UInt64(UInt(bitPattern: identity))
        let shift = UInt64(64 - count.trailingZeroBitCount)
        guard !spread else { return Int(truncatingIfNeeded: (address &* 0x9E37_79B9_7F4A_7C15) >> shift) }
        let run = Int(truncatingIfNeeded: ((address >> 12) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        return (run + Int(truncatingIfNeeded: address >> 7 & 31)) & (count - 1)
    }

    /// The first slot to search for `identity` in this table.
    private func slot(of identity: ObjectIdentifier) -> Int {
        Self.slot(of: identity, in: slots.count, spread: spreadsAddresses)
    }

    /// Puts `place`, whose object is `identity`, in the first empty slot from its identity's.
    private mutating func insertSlot(of place: Int, identity: ObjectIdentifier) {
        let start = slot(of: identity)
        var slot = start
        while taken[slot] { slot = (slot + 1) & (slots.count - 1) }  // no look at `slots`
        steps += (slot - start) & (slots.count - 1)
        setSlot(slot, to: Slot(identity, place: place))
    }

    /// Sets the slot `slot` and its bit in ``taken``.
    private mutating func setSlot(_ slot: Int, to content: Slot) {
        slots[slot] = content
        taken[slot] = content.address != 0
    }

    /// `count` slots, every place put back from `entries`. The old slots go first: held while
    /// the new ones were made, they added half the new ones' room to the write at each doubling.
    private mutating func rebuildSlots(count: Int) {
        slots = []
        taken = SlotBits(count: 0)
        slots = [Slot](repeating: .empty, count: count)
        taken = SlotBits(count: count)
        steps = 0
        for place in 0..<entries.count { insertSlot(of: place, identity: entries[place].identity) }
    }

    /// Empties the slot of `place` and moves back the entries after it that would no longer be
    /// found (linear probing's deletion, which leaves no tombstones).
    private mutating func removeSlot(of place: Int) {
        guard !slots.isEmpty else { return }  // scanned, not in slots
        let mask = slots.count - 1
        let identity = entries[place].identity
        var hole = slot(of: identity)
        while slots[hole].address != UInt(bitPattern: identity) { hole = (hole + 1) & mask }
        setSlot(hole, to: .empty)
        var next = (hole + 1) & mask
        while slots[next].address != 0 {
            let home = slot(of: entries[slots[next].place].identity)
            // The entry at `next` may fill the hole when its home is not in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                setSlot(hole, to: slots[next])
                setSlot(next, to: .empty)
                hole = next
            }
            next = (next + 1) & mask
        }
    }
}
