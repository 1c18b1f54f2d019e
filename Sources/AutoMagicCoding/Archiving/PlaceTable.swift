/// Where the encoder wrote each object in full, so that a later occurrence can refer to it: one
/// entry per object, holding only the few key path components between it and the object it is
/// inside, so recording a place copies no path. The whole path is put together only when a
/// reference needs it.
///
/// Graph mode records every object it writes, so the table is most of what a write holds beyond
/// its output: an entry takes 32 bytes, and the identities are found through an open-addressing
/// table of 64-bit slots kept at most half full (Swift's `Dictionary` took twice that, and a tenth
/// of the time of writing small objects).
struct PlaceTable {
    private typealias Component = KeyPathTracker.Component

    /// A place: its object, the place of the object it is inside (-1 for the root), and the
    /// components between the two in their usual shapes, a key and an optional index
    /// (`children[3]`); other shapes are in `unusual`.
    private struct Place {
        let identity: ObjectIdentifier
        let parent: Int32
        /// The index after `key`, or -1 for none.
        let index: Int32
        let key: String?
    }

    private var places: [Place] = []
    /// The components of places whose path from their parent is not a key and an optional index.
    private var unusual: [Int: [Component]] = [:]
    /// Open addressing with linear probing: each slot holds 32 bits of its identity's hash (so
    /// that a probe rarely has to look at the place itself) above its place + 1; 0 when empty.
    private var slots: [UInt64] = []
    /// Pointers already put together, for objects referred to again and again.
    private var pointers: [Int: String] = [:]

    /// How many places are recorded: a mark to ``forget(since:)`` back to.
    var count: Int { places.count }

    /// The place of `identity`, if it was written.
    func place(of identity: ObjectIdentifier) -> Int? {
        guard !slots.isEmpty else { return nil }
        let (start, fingerprint) = Self.hash(of: identity, in: slots.count)
        var slot = start
        while slots[slot] != 0 {
            if slots[slot] >> 32 == fingerprint {
                let place = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if places[place].identity == identity { return place }
            }
            slot = (slot + 1) & (slots.count - 1)
        }
        return nil
    }

    /// Records that `identity` is written in full where `components` (the path from its parent's
    /// place) lead from `parent`; returns its place.
    mutating func record<Components: Collection>(_ identity: ObjectIdentifier, parent: Int, components: Components) -> Int
    where Components.Element == KeyPathTracker.Component {
        precondition(places.count < Int(Int32.max), "more objects than a place table holds")
        let place = places.count
        var key: String?
        var index: Int32 = -1
        var rest = components[...]
        if case let .key(first)? = rest.first {
            key = first
            rest = rest.dropFirst()
            if case let .index(second)? = rest.first, let small = Int32(exactly: second) {
                index = small
                rest = rest.dropFirst()
            }
        }
        if !rest.isEmpty {
            key = nil
            index = -1
            unusual[place] = Array(components)
        }
        if (place + 1) * 2 > slots.count { growSlots() }
        places.append(Place(identity: identity, parent: Int32(parent), index: index, key: key))
        insertSlot(of: place)
        return place
    }

    /// The JSON Pointer of `place` (see ``ObjectReference``), put together once.
    mutating func pointer(of place: Int) -> String {
        if let known = pointers[place] { return known }
        let pointer = ObjectReference.pointer(of: components(of: place))
        pointers[place] = pointer
        return pointer
    }

    /// The key path components from the root to `place`.
    func components(of place: Int) -> [KeyPathTracker.Component] {
        var chain: [Component] = []
        var current = place
        while current >= 0 {
            let entry = places[current]
            if let all = unusual[current] {
                chain.append(contentsOf: all.reversed())
            } else if let key = entry.key {
                if entry.index >= 0 { chain.append(.index(Int(entry.index))) }
                chain.append(.key(key))
            }
            current = Int(entry.parent)
        }
        return chain.reversed()
    }

    /// Forgets the places recorded since `mark` (their writing was undone).
    mutating func forget(since mark: Int) {
        guard places.count > mark else { return }
        for place in (mark..<places.count).reversed() {
            removeSlot(of: place)
            unusual[place] = nil
            pointers[place] = nil
        }
        places.removeSubrange(mark...)
    }

    // MARK: - Slots

    /// Where the search for `identity` starts among `count` slots (a power of two), and the
    /// fingerprint its slot holds: the address multiplied by a large odd constant, whose high bits
    /// mix all of the address's.
    private static func hash(of identity: ObjectIdentifier, in count: Int) -> (slot: Int, fingerprint: UInt64) {
        let mixed = UInt64(UInt(bitPattern: identity)) &* 0x9E37_79B9_7F4A_7C15
        return (Int(truncatingIfNeeded: mixed >> UInt64(64 - count.trailingZeroBitCount)), mixed & 0xFFFF_FFFF)
    }

    /// The slot content of `place`.
    private func entry(of place: Int) -> UInt64 {
        Self.hash(of: places[place].identity, in: slots.count).fingerprint << 32 | UInt64(place + 1)
    }

    /// Puts `place` in the first empty slot from its identity's.
    private mutating func insertSlot(of place: Int) {
        var slot = Self.hash(of: places[place].identity, in: slots.count).slot
        while slots[slot] != 0 { slot = (slot + 1) & (slots.count - 1) }
        slots[slot] = entry(of: place)
    }

    /// Twice the slots, every place put back.
    private mutating func growSlots() {
        slots = [UInt64](repeating: 0, count: max(16, slots.count * 2))
        for place in places.indices { insertSlot(of: place) }
    }

    /// Empties the slot of `place` and moves back the entries after it that would no longer be
    /// found (linear probing's deletion, which leaves no tombstones).
    private mutating func removeSlot(of place: Int) {
        let mask = slots.count - 1
        var hole = Self.hash(of: places[place].identity, in: slots.count).slot
        let content = entry(of: place)
        while slots[hole] != content { hole = (hole + 1) & mask }
        slots[hole] = 0
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = Self.hash(of: places[Int(slots[next] & 0xFFFF_FFFF) - 1].identity, in: slots.count).slot
            // The entry at `next` may fill the hole when its home is not in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                slots[next] = 0
                hole = next
            }
            next = (next + 1) & mask
        }
    }
}
