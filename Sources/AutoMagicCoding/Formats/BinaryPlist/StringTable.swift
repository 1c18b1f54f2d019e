/// The strings a binary property list writer shares instead of writing again.
///
/// The keys of string-keyed dictionaries, a small set every such dictionary repeats, go in an
/// exact table: each is written once, always. (Model keys and class names do not: the writer
/// finds them by their ``InternedKey`` number.) Other strings go through a cache of the ones met
/// lately (one slot per cheap hash of the length and first, middle and last bytes), which catches
/// a value repeated across many objects without the cost of remembering every one-off string.
///
/// Strings match when their UTF-8 bytes match, not when Swift calls them equal: `"é"` and
/// `"e\u{301}"` are canonically equivalent, yet each must come back as it was written.
struct StringTable {
    private var entries: [(text: String, hash: UInt64, object: Int)] = []
    /// For each bucket: the top 32 bits of the hash, and entry number + 1 below (0: empty).
    /// Open addressing with linear probing; the table doubles at half full. Made at the first key
    /// added: most documents have no string-keyed dictionary.
    private var buckets: [UInt64] = []
    private static let startingBuckets = 64
    /// The cache of strings met lately: made at the first lookup with a few slots, so that a
    /// small document does not pay for making and freeing a large cache. It grows when two of
    /// its strings would share a slot, and to ``largeRecentBits`` once it has met as many
    /// strings as its slots hold. A table kept for the next write keeps it at the size it grew to.
    private var recent: [RecentSlot] = []
    /// The slots strings were put in since the cache was emptied, while fewer than its slots:
    /// emptying a small document's cache looks at those alone.
    private var filledSlots: [Int] = []
    /// A slot of the cache: its string, that string's object (-1: empty) and its print
    /// (``KeyTable/print(of:in:)``; 0 when empty), by which a string met for the first time, as
    /// most values are, is told apart from the one in its slot without a look at that string.
    private struct RecentSlot {
        var text = ""
        var object = -1
        var print: UInt64 = 0
    }
    /// The bits of a slot number of the cache, and how many strings it has been asked for.
    private(set) var recentBits = 0
    private var recentLookups = 0
    static let smallRecentBits = 5, largeRecentBits = 10

    /// Where a lookup got to, for ``add(_:at:object:)`` when the string is new.
    struct Lookup {
        /// The string's object number, if it is shared.
        var object: Int?
        fileprivate var place: Place
    }

    fileprivate enum Place {
        case exact(hash: UInt64)
        case recent(slot: Int, print: UInt64)
    }

    /// The object number of the dictionary key whose UTF-8 is `bytes`, written before, else
    /// where to add it. (`mutating`, as ``lookupRecent(_:)``, though neither changes the table:
    /// the writer calls them inside a closure over itself, where calling a method that is not
    /// copied the table first, a retain and a release of each of its arrays.)
    mutating func lookupExact(_ bytes: ByteView) -> Lookup {
        let hash = Self.hash(of: bytes)
        return Lookup(object: object(for: bytes, hash: hash), place: .exact(hash: hash))
    }

    /// The object number of the value whose UTF-8 is `bytes`, met lately, else where to add it.
    mutating func lookupRecent(_ bytes: ByteView) -> Lookup {
        recentLookups += 1
        if recentBits < Self.largeRecentBits, recentLookups > recent.count {
            resizeRecent(bits: recentBits == 0 ? Self.smallRecentBits : Self.largeRecentBits)
        }
        var slot = Self.recentSlot(of: bytes, bits: recentBits)
        let print = KeyTable.print(of: 0..<bytes.count, in: bytes)
        func holds(_ slot: Int) -> Bool { recent[slot].print == print && Self.same(bytes, recent[slot].text) }
        // A string that would push another out of a smaller cache grows it first, to the size at
        // which the two part: only the large cache forgets, so a value every object repeats is
        // not written again for the cache's small start, and a small document's few strings do
        // not make the large cache. Two that meet at every size (the same length and sampled
        // bytes) would meet in the large cache too: the newer takes the slot, as it would there.
        if recentBits < Self.largeRecentBits, recent[slot].object >= 0, !holds(slot) {
            let held = recent[slot].text
            let parting = (recentBits + 1...Self.largeRecentBits).first { bits in
                Self.recentSlot(of: bytes, bits: bits) != ByteView.withBytes(of: held) { Self.recentSlot(of: $0, bits: bits) }
            }
            if let parting {
                resizeRecent(bits: parting)
                slot = Self.recentSlot(of: bytes, bits: recentBits)
            }
        }
        if holds(slot) { return Lookup(object: recent[slot].object, place: .recent(slot: slot, print: print)) }
        return Lookup(object: nil, place: .recent(slot: slot, print: print))
    }

    /// Remembers `text`, which `lookup` did not find, as object `object`.
    mutating func add(_ text: String, at lookup: Lookup, object: Int) {
        switch lookup.place {
        case let .recent(slot, print):
            recent[slot] = RecentSlot(text: text, object: object, print: print)
            if filledSlots.count < recent.count { filledSlots.append(slot) }
        case let .exact(hash):
            if entries.isEmpty { entries.reserveCapacity(16) }  // a document's keys, not grown from one
            if (entries.count + 1) * 2 > buckets.count { rebuild(bucketCount: max(Self.startingBuckets, buckets.count * 2)) }
            entries.append((text, hash, object))
            place(entry: entries.count - 1)
        }
    }

    /// Forgets every string, as a new table, keeping the room the table took (a writer kept for
    /// the next write, see ``Recycler``).
    mutating func removeAll() {
        // Without entries every bucket is empty: most documents' strings are all values.
        if !entries.isEmpty {
            entries.removeAllKeepingRoom()
            if buckets.count == Self.startingBuckets {
                for bucket in buckets.indices { buckets[bucket] = 0 }
            } else {
                buckets = []  // a grown table's room is not kept
            }
        }
        recentLookups = 0
        // The cache stays made, emptied in place: the next document would make it again, and
        // grow it again for the same strings.
        if filledSlots.count < recent.count {
            for slot in filledSlots { recent[slot] = RecentSlot() }
        } else {
            for slot in recent.indices where recent[slot].object >= 0 { recent[slot] = RecentSlot() }
        }
        filledSlots.removeAllKeepingRoom()
    }

    /// Forgets the strings whose object number is `objectCount` or more (the writer rewound).
    mutating func removeObjects(from objectCount: Int) {
        for slot in recent.indices where recent[slot].object >= objectCount { recent[slot] = RecentSlot() }
        guard entries.contains(where: { $0.object >= objectCount }) else { return }
        entries.removeAll { $0.object >= objectCount }
        rebuild(bucketCount: buckets.count)
    }

    private func object(for bytes: ByteView, hash: UInt64) -> Int? {
        guard !buckets.isEmpty else { return nil }
        let mask = buckets.count - 1
        let tag = hash & 0xFFFF_FFFF_0000_0000
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 {
            if buckets[bucket] & 0xFFFF_FFFF_0000_0000 == tag {
                let entry = Int(truncatingIfNeeded: buckets[bucket] & 0xFFFF_FFFF) - 1
                if Self.same(bytes, entries[entry].text) { return entries[entry].object }
            }
            bucket = (bucket + 1) & mask
        }
        return nil
    }

    /// The cache with `bits` bits of slot numbers, holding what it held.
    private mutating func resizeRecent(bits: Int) {
        // Oldest first, so that of two that meet in one slot the later stays, as it would have.
        let held = recent.filter { $0.object >= 0 }.sorted { $0.object < $1.object }
        recentBits = bits
        recent.removeAllKeepingRoom()
        recent.append(contentsOf: repeatElement(RecentSlot(), count: 1 << bits))
        filledSlots.removeAllKeepingRoom()
        for slot in held {
            let place = ByteView.withBytes(of: slot.text) { Self.recentSlot(of: $0, bits: bits) }
            recent[place] = slot
            filledSlots.append(place)
        }
    }

    private mutating func rebuild(bucketCount: Int) {
        buckets = [UInt64](repeating: 0, count: bucketCount)
        for entry in entries.indices { place(entry: entry) }
    }

    private mutating func place(entry: Int) {
        let hash = entries[entry].hash
        let mask = buckets.count - 1
        var bucket = Int(truncatingIfNeeded: hash) & mask
        while buckets[bucket] != 0 { bucket = (bucket + 1) & mask }
        buckets[bucket] = hash & 0xFFFF_FFFF_0000_0000 | UInt64(entry + 1)
    }

    /// A 64-bit hash of every byte (FNV-1a, then a final mix so that the low bits, which pick
    /// the bucket, depend on every byte).
    private static func hash(of bytes: ByteView) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        hash ^= hash >> 29
        return hash &* 0xBF58_476D_1CE4_E5B9
    }

    /// A slot of the cache (`bits` bits) from the length and the first, middle and last bytes.
    static func recentSlot(of bytes: ByteView, bits: Int) -> Int {
        var mixed = UInt64(bytes.count)
        if let first = bytes.first, let last = bytes.last {
            mixed |= UInt64(first) << 16 | UInt64(bytes[bytes.count / 2]) << 24 | UInt64(last) << 32
        }
        return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// Whether `text`'s UTF-8 is exactly `bytes`.
    private static func same(_ bytes: ByteView, _ text: String) -> Bool {
        guard text.utf8.count == bytes.count else { return false }
        return ByteView.withBytes(of: text) { $0.bytes(0..<$0.count, equal: bytes) }  // memcmp, not byte by byte
    }
}

/// The numbers and dates a binary property list writer shares, as the format intends and
/// Foundation's writers do: a value met again is not written again (unless the table started
/// again in between, below). Values match by kind and bit pattern, so `0.0` and `-0.0` stay
/// apart, as do the integer 1, the `Float` 1 and the `Double` 1.
///
/// Each value remembers whether it was met again. When the table holds ``startingLimit`` values,
/// or a larger limit it grew to, it looks at what it holds: if one value in eight or more was met
/// again, the numbers repeat (counts, codes, prices, readings), and it grows on, twice as large,
/// so that every repeat is shared however far apart; otherwise it starts again empty. Numbers that
/// do not repeat (dates, sizes, ids) would fill a table as large as the output, for no sharing.
///
/// ```swift
/// var numbers = NumberTable()
/// let (found, slot) = numbers.lookup(kind: 0x10, bits: 42)   // found: nil
/// numbers.add(kind: 0x10, bits: 42, object: 7, slot: slot)
/// numbers.lookup(kind: 0x10, bits: 42).object                 // 7, and 42 was met again
/// ```
struct NumberTable {
    /// The values the table holds before it first looks at what it holds: 8,192 slots of 12 bytes.
    static let startingLimit = 4_096

    /// A value written, by its bits, and its object number + 1 above a bit set once it was met
    /// again and its kind's code in the low 3 bits (0: an empty slot). One slot is one look at
    /// memory (three parallel arrays took three: a tenth of writing small objects), and 12 bytes.
    private struct Slot {
        var high: UInt32 = 0
        var low: UInt32 = 0
        var tagged: UInt32 = 0

        var bits: UInt64 { UInt64(high) << 32 | UInt64(low) }
        var object: Int { Int(tagged >> 4) - 1 }
        var code: UInt32 { tagged & 7 }
        var wasMetAgain: Bool { tagged & 8 != 0 }
    }

    /// Open addressing with linear probing; the table doubles at half full. Made with 16 slots
    /// at the first value added: a document without numbers or dates does not pay for it.
    private var slots: [Slot] = []
    /// Which slots are taken (see ``SlotBits``).
    private var taken = SlotBits(count: 0)
    private var count = 0
    /// How many values the table holds before it looks at them again (see above).
    private var limit = Self.startingLimit

    /// The object number of the value of `kind` (its marker byte) and `bits` written before, or
    /// nil and the slot to give ``add(kind:bits:object:slot:)``.
    mutating func lookup(kind: UInt8, bits: UInt64) -> (object: Int?, slot: Int) {
        guard !slots.isEmpty else { return (nil, 0) }
        let mask = slots.count - 1
        let code = Self.code(of: kind)
        var slot = Self.slot(kind: kind, bits: bits, mask: mask)
        guard taken[slot] else { return (nil, slot) }
        while slots[slot].tagged != 0 {
            if slots[slot].code == code, slots[slot].bits == bits {
                slots[slot].tagged |= 8
                return (slots[slot].object, slot)
            }
            slot = (slot + 1) & mask
        }
        return (nil, slot)
    }

    /// Remembers the value as object `object`, at the `slot` its lookup gave. (A number beyond
    /// the 268 millionth object is not shared: written again, it reads the same.)
    mutating func add(kind: UInt8, bits: UInt64, object: Int, slot: Int) {
        guard object < Int(UInt32.max >> 4) else { return }
        if count == limit {
            if slots.count(where: \.wasMetAgain) * 8 >= count {
                limit *= 2
            } else {
                startAgain()
            }
            return add(kind: kind, bits: bits, object: object, slot: lookup(kind: kind, bits: bits).slot)
        }
        guard (count + 1) * 2 <= slots.count else {
            rebuild(capacity: max(16, slots.count * 2))
            return add(kind: kind, bits: bits, object: object, slot: lookup(kind: kind, bits: bits).slot)
        }
        let tagged = UInt32(object + 1) << 4 | Self.code(of: kind)
        put(Slot(high: UInt32(truncatingIfNeeded: bits >> 32), low: UInt32(truncatingIfNeeded: bits), tagged: tagged), at: slot)
    }

    /// Forgets every value, as a new table, keeping the room the table took (a writer kept for
    /// the next write, see ``Recycler``).
    mutating func removeAll() {
        if slots.count <= Self.keptSlots {
            // A small table stays made, emptied in place: the next document would make it again.
            if count > 0 {
                for slot in slots.indices { slots[slot] = Slot() }
                taken.reset(count: slots.count)
            }
        } else {
            slots.removeAllKeepingRoom()
            taken.reset(count: 0)
        }
        (count, limit) = (0, Self.startingLimit)
    }

    /// The most slots a table emptied for the next write keeps made.
    private static let keptSlots = 64

    /// Forgets the values whose object number is `objectCount` or more (the writer rewound).
    mutating func removeObjects(from objectCount: Int) {
        guard slots.contains(where: { $0.tagged != 0 && $0.object >= objectCount }) else { return }
        rebuild(capacity: slots.count, keeping: { $0 < objectCount })
    }

    /// Forgets every value, keeping the slots (a table this full stays full).
    private mutating func startAgain() {
        for slot in slots.indices { slots[slot] = Slot() }
        taken = SlotBits(count: slots.count)
        count = 0
    }

    /// The same values (those `keep` keeps, by object number) in `capacity` slots, each with
    /// whether it was met again.
    private mutating func rebuild(capacity: Int, keeping keep: (Int) -> Bool = { _ in true }) {
        // An empty table's slots are made again in the room they took.
        let old = count == 0 ? [] : slots
        if count == 0 {
            slots.removeAllKeepingRoom()
            slots.append(contentsOf: repeatElement(Slot(), count: capacity))
        } else {
            slots = [Slot](repeating: Slot(), count: capacity)
        }
        taken.reset(count: capacity)
        count = 0
        for entry in old where entry.tagged != 0 && keep(entry.object) {
            var slot = Self.slot(kind: Self.kinds[Int(entry.code)], bits: entry.bits, mask: capacity - 1)
            while slots[slot].tagged != 0 { slot = (slot + 1) & (capacity - 1) }
            put(entry, at: slot)
        }
    }

    /// Puts `entry` in the empty slot `slot`, and counts it.
    private mutating func put(_ entry: Slot, at slot: Int) {
        slots[slot] = entry
        taken[slot] = true
        count += 1
    }

    /// The marker bytes of the kinds of values shared, by their code in a slot (0: none).
    private static let kinds: [UInt8] = [0, 0x10, 0x14, 0x22, 0x23, 0x33]

    /// A kind's code in a slot: 1 to 5, from its marker byte (`0x10` an integer, `0x14` a 16-byte
    /// integer, `0x22` a `Float`, `0x23` a `Double`, `0x33` a date).
    private static func code(of kind: UInt8) -> UInt32 {
        switch kind {
        case 0x10: 1
        case 0x14: 2
        case 0x22: 3
        case 0x23: 4
        case 0x33: 5
        default: preconditionFailure("no number kind \(kind)")
        }
    }

    /// The first slot to probe: every bit of the value and its kind counts (MurmurHash3's 64-bit
    /// finalizer), so that values differing only in high bits, such as the round numbers `m·2^e`
    /// of measured data, spread over the table instead of piling into a few slots.
    static func slot(kind: UInt8, bits: UInt64, mask: Int) -> Int {
        var mixed = bits ^ UInt64(kind) << 56
        mixed ^= mixed >> 33
        mixed &*= 0xFF51_AFD7_ED55_8CCD
        mixed ^= mixed >> 33
        mixed &*= 0xC4CE_B9FE_1A85_EC53
        mixed ^= mixed >> 33
        return Int(truncatingIfNeeded: mixed) & mask
    }
}
