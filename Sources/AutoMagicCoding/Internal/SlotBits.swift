/// A bit per slot of an open-addressing table, set while the slot is taken: a probe for a key
/// new to the table whose first slot is free ends here, without a look at the table itself
/// (which a graph of tens of thousands of objects or distinct numbers makes larger than the
/// caches). ``PlaceTable`` and ``NumberTable`` keep one beside their slots; a document's
/// references mark in one the object table's entries they name (``ObjectReference/Targets``).
///
/// ```swift
/// var taken = SlotBits(count: 256)
/// taken[3] = true
/// taken[3]  // true; taken[4] is false
/// ```
struct SlotBits {
    private var words: [UInt64]

    /// Bits for `count` slots, all free.
    init(count: Int) {
        words = [UInt64](repeating: 0, count: (count + 63) / 64)
    }

    /// Bits for `count` slots, all free, in the room these took when it is enough.
    mutating func reset(count: Int) {
        words.removeAllKeepingRoom()
        words.append(contentsOf: repeatElement(0, count: (count + 63) / 64))
    }

    /// Whether slot `slot` is taken. (Inlined: a call each probe cost as much as the bits save.)
    subscript(slot: Int) -> Bool {
        @inline(__always) get { words[slot >> 6] & (1 << (slot & 63)) != 0 }
        @inline(__always) set {
            if newValue {
                words[slot >> 6] |= 1 << (slot & 63)
            } else {
                words[slot >> 6] &= ~(1 << (slot & 63))
            }
        }
    }
}
