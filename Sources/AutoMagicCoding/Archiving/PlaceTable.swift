/// Where the encoder wrote each object in full, so that a later occurrence can refer to it: one
/// entry per object, holding only the few key path components between it and the object it is
/// inside, so recording a place copies no path. The whole path is put together only when a
/// reference needs it.
///
/// Graph mode records every object it writes, so the table is most of what a write holds beyond
/// its output. A place takes 20 bytes: its identity, and a 12-byte link to the object it is inside
/// (the key, as a number among the keys met, and the index after it). The identities are found
/// through an open-addressing table of 64-bit slots kept at most half full (Swift's `Dictionary`
/// took twice that, and a tenth of the time of writing small objects).
struct PlaceTable {
    private typealias Component = KeyPathTracker.Component

    /// How a place hangs from the object it is inside: that object's place (-1 for the root), and
    /// the components between the two in their usual shapes, a key and an optional index
    /// (`children[3]`); other shapes are in `unusual`.
    private struct Link {
        let parent: Int32
        /// The index after the key, or -1 for none.
        let index: Int32
        /// The key's number in `keys`, or `Link.noKey` when the components are in `unusual`.
        let key: UInt32

        static let noKey = UInt32.max
    }

    /// Each place's object, by place.
    private var identities: [ObjectIdentifier] = []
    private var links: [Link] = []
    /// The keys places hang from, each once; `keyNumbers` finds them, `lastKeys` first (a write
    /// records most objects under the same few keys, and an identical `String` compares at once).
    private var keys: [String] = []
    private var keyNumbers: [String: UInt32] = [:]
    private var lastKeys: [(key: String, number: UInt32)] = []
    /// The components of places whose path from their parent is not a key and an optional index.
    private var unusual: [Int: [Component]] = [:]
    /// Open addressing with linear probing: each slot holds 32 bits of its identity's hash (so
    /// that a probe rarely has to look at the place itself) above its place + 1; 0 when empty.
    private var slots: [UInt64] = []
    /// Which slots are taken (see ``SlotBits``); only ``setSlot(_:to:)`` changes a slot.
    private var taken = SlotBits(count: 0)
    /// Whether an identity's first slot comes from all of its address's bits, rather than from
    /// where it is in memory (see ``hash(of:in:spread:)``): once objects packed close made the
    /// searches for free slots long.
    private(set) var spreadsAddresses = false
    /// The steps past their first slot that the entries took when put in the slots as they are
    /// (forgetting places leaves it as it was).
    private var steps = 0
    /// Pointers already put together, for objects referred to again and again.
    private var pointers: [Int: String] = [:]

    /// How many places are recorded: a mark to ``forget(since:)`` back to.
    var count: Int { identities.count }

    /// The place of `identity`, if it was written.
    func place(of identity: ObjectIdentifier) -> Int? {
        guard !slots.isEmpty else { return nil }
        let (start, fingerprint) = Self.hash(of: identity, in: slots.count, spread: spreadsAddresses)
        guard taken[start] else { return nil }
        var slot = start
        while slots[slot] != 0 {
            if slots[slot] >> 32 == fingerprint {
                let place = Int(slots[slot] & 0xFFFF_FFFF) - 1
                if identities[place] == identity { return place }
            }
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
        precondition(identities.count < Int(Int32.max), "more objects than a place table holds")
        let place = identities.count
        var key = Link.noKey
        var index: Int32 = -1
        var used = start
        if used < components.count, case let .key(first) = components[used] {
            key = number(ofKey: first)
            used += 1
            if used < components.count, case let .index(second) = components[used], let small = Int32(exactly: second) {
                index = small
                used += 1
            }
        }
        if used < components.count || key == Link.noKey {
            key = Link.noKey
            index = -1
            if start < components.count { unusual[place] = Array(components[start...]) }
        }
        if (place + 1) * 2 > slots.count { rebuildSlots(count: max(16, slots.count * 2)) }
        identities.append(identity)
        links.append(Link(parent: Int32(parent), index: index, key: key))
        insertSlot(of: place)
        // More than two steps an entry on average: objects packed closer than a slot each.
        if !spreadsAddresses, steps > 2 * identities.count + 64 {
            spreadsAddresses = true
            rebuildSlots(count: slots.count)
        }
        return place
    }

    /// The number of `key` in `keys`, given on first use.
    private mutating func number(ofKey key: String) -> UInt32 {
        if let known = lastKeys.first(where: { $0.key == key }) { return known.number }
        let number: UInt32
        if let known = keyNumbers[key] {
            number = known
        } else {
            number = UInt32(keys.count)
            keys.append(key)
            keyNumbers[key] = number
        }
        if lastKeys.count == 4 { lastKeys.removeFirst() }
        lastKeys.append((key, number))
        return number
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
            let link = links[current]
            if link.key != Link.noKey {
                if link.index >= 0 { chain.append(.index(Int(link.index))) }
                chain.append(.key(keys[Int(link.key)]))
            } else if let all = unusual[current] {
                chain.append(contentsOf: all.reversed())
            }
            current = Int(link.parent)
        }
        return chain.reversed()
    }

    /// Forgets the places recorded since `mark` (their writing was undone).
    mutating func forget(since mark: Int) {
        guard identities.count > mark else { return }
        for place in (mark..<identities.count).reversed() {
            removeSlot(of: place)
            unusual[place] = nil
            pointers[place] = nil
        }
        identities.removeSubrange(mark...)
        links.removeSubrange(mark...)
    }

    // MARK: - Slots

    /// Where the search for `identity` starts among `count` slots (a power of two), and the
    /// fingerprint its slot holds (the address multiplied by a large odd constant).
    ///
    /// Unless `spread`, objects close in memory get slots close together: the address's 4 KB
    /// page picks a run of 32 slots anywhere in the table, and its 128 bytes within the page the
    /// slot in the run. A graph made or read in one go lies in memory about in the order it is
    /// written, so a table larger than the caches is then filled and searched a few objects per
    /// cache line, not with a miss per object (a fifth of writing 200,000 small objects). With
    /// `spread`, the product's high bits, which mix all of the address's, pick the slot.
    private static func hash(of identity: ObjectIdentifier, in count: Int, spread: Bool) -> (slot: Int, fingerprint: UInt64) {
        let address = UInt64(UInt(bitPattern: identity))
        let mixed = address &* 0x9E37_79B9_7F4A_7C15
        let shift = UInt64(64 - count.trailingZeroBitCount)
        guard !spread else { return (Int(truncatingIfNeeded: mixed >> shift), mixed & 0xFFFF_FFFF) }
        let run = Int(truncatingIfNeeded: ((address >> 12) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        return ((run + Int(truncatingIfNeeded: address >> 7 & 31)) & (count - 1), mixed & 0xFFFF_FFFF)
    }

    /// The first slot to search for `place`, and its slot content.
    private func hash(of place: Int) -> (slot: Int, entry: UInt64) {
        let (slot, fingerprint) = Self.hash(of: identities[place], in: slots.count, spread: spreadsAddresses)
        return (slot, fingerprint << 32 | UInt64(place + 1))
    }

    /// Puts `place` in the first empty slot from its identity's.
    private mutating func insertSlot(of place: Int) {
        let (start, entry) = hash(of: place)
        var slot = start
        while taken[slot] { slot = (slot + 1) & (slots.count - 1) }  // no look at `slots`
        steps += (slot - start) & (slots.count - 1)
        setSlot(slot, to: entry)
    }

    /// Sets the slot `slot` and its bit in ``taken``.
    private mutating func setSlot(_ slot: Int, to content: UInt64) {
        slots[slot] = content
        taken[slot] = content != 0
    }

    /// `count` slots, every place put back.
    private mutating func rebuildSlots(count: Int) {
        slots = [UInt64](repeating: 0, count: count)
        taken = SlotBits(count: count)
        steps = 0
        for place in identities.indices { insertSlot(of: place) }
    }

    /// Empties the slot of `place` and moves back the entries after it that would no longer be
    /// found (linear probing's deletion, which leaves no tombstones).
    private mutating func removeSlot(of place: Int) {
        let mask = slots.count - 1
        let (start, content) = hash(of: place)
        var hole = start
        while slots[hole] != content { hole = (hole + 1) & mask }
        setSlot(hole, to: 0)
        var next = (hole + 1) & mask
        while slots[next] != 0 {
            let home = hash(of: Int(slots[next] & 0xFFFF_FFFF) - 1).slot
            // The entry at `next` may fill the hole when its home is not in (hole, next].
            if (next - home) & mask >= (next - hole) & mask {
                setSlot(hole, to: slots[next])
                setSlot(next, to: 0)
                hole = next
            }
            next = (next + 1) & mask
        }
    }
}
