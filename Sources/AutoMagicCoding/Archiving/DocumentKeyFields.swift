/// Which field of a type each key of a document names, found once per key and type: a reader
/// gives each distinct key of a document a number (see ``DocumentTape/keys``), so the decoder
/// finds a field from an entry's key number with one look-up, instead of comparing the field's
/// key with the entry's as strings (a retain and a release of the key's text, and a comparison,
/// per field of every object).
///
/// Keys match fields as ``TypePlan/entry(for:in:hint:)`` matches them: the first time a number is
/// met for a type, its key is compared with the fields' keys as `String`s (so `"K"` and the Kelvin
/// sign name the same field).
///
/// ```swift
/// var maps = DocumentKeyFields()
/// var fields = maps.take(for: plan, in: tape)      // unique: filled in place
/// let index = DocumentKeyFields.field(ofKey: 3, in: tape, plan: plan, map: &fields)  // nil: no field
/// maps.putBack(fields, for: plan)
/// ```
struct DocumentKeyFields {
    /// The numbering of keys the maps are for (documents read with one kept key table share
    /// it, see ``KeyTable/reused()``); another one empties them.
    private var vocabulary: KeyTable.Vocabulary?
    /// By type, most recent last.
    private var maps: [(plan: TypePlan, fields: KeyFieldMap)] = []
    private static let capacity = 4

    /// The map of `plan`'s type for `tape`, taken out so that the caller holds its only
    /// reference; empty when the type is new to the document's numbering of keys or was not
    /// met lately.
    mutating func take(for plan: TypePlan, in tape: DocumentTape) -> KeyFieldMap {
        if vocabulary !== tape.vocabulary {
            vocabulary = tape.vocabulary
            maps.removeAll()
        }
        guard let index = maps.lastIndex(where: { $0.plan === plan }) else { return KeyFieldMap() }
        let fields = maps[index].fields
        maps.remove(at: index)
        return fields
    }

    /// Whether the maps are few keys' (worth keeping for the next document).
    var isSmall: Bool { maps.allSatisfy { $0.fields.capacity <= 64 } }

    /// Keeps `fields`, the map ``take(for:in:)`` gave and the caller filled, for `plan`'s type.
    mutating func putBack(_ fields: KeyFieldMap, for plan: TypePlan) {
        if maps.count == Self.capacity { maps.removeFirst() }
        maps.append((plan, fields))
    }

    /// The position in `plan`'s fields of the field key number `number` of `tape` names, looked
    /// up once and kept in `map`; nil for `"class"` and keys no field is read from.
    @inline(__always)
    static func field(ofKey number: Int, in tape: DocumentTape, plan: TypePlan, map: inout KeyFieldMap) -> Int? {
        let field = map.field(ofKey: number) { number in
            plan.fields.firstIndex { $0.key == tape.keys[number] }.map { Int32($0) } ?? KeyFieldMap.noField
        }
        return field == KeyFieldMap.noField ? nil : Int(field)
    }
}

/// One type's fields by a document's key numbers: open addressing over the numbers its objects'
/// keys had, so that its size follows those keys, not how many keys the document has. (An array
/// indexed by the number made a map new to a type cost the document's count of keys: with more
/// types than ``DocumentKeyFields`` keeps maps for, reading grew with the square of the document.)
///
/// ```swift
/// var map = KeyFieldMap()
/// map.field(ofKey: 1_000_000) { _ in 2 }  // 2, found by the closure once
/// map.field(ofKey: 1_000_000) { _ in 5 }  // 2
/// ```
struct KeyFieldMap {
    /// What ``field(ofKey:resolve:)`` answers for a key no field is read from.
    static let noField: Int32 = -1

    /// Each entry: the key number + 1 in the high 32 bits, the field (or ``noField``) in the low
    /// ones; 0 when empty. Kept at most half full.
    private var entries = [UInt64](repeating: 0, count: 16)
    private var count = 0

    /// How many entries the map has room for: twice the keys it holds, or more.
    var capacity: Int { entries.count }

    /// The field of key `number` (below 2³²), found by `resolve` the first time.
    @inline(__always)
    mutating func field(ofKey number: Int, resolve: (Int) -> Int32) -> Int32 {
        let tag = UInt64(truncatingIfNeeded: number + 1) << 32
        let mask = entries.count - 1
        var slot = Self.slot(of: number, mask: mask)
        while entries[slot] != 0 {
            if entries[slot] & 0xFFFF_FFFF_0000_0000 == tag { return Int32(truncatingIfNeeded: entries[slot]) }
            slot = (slot + 1) & mask
        }
        let field = resolve(number)
        if (count + 1) * 2 > entries.count {
            grow()
            return self.field(ofKey: number) { _ in field }
        }
        entries[slot] = tag | UInt64(UInt32(bitPattern: field))
        count += 1
        return field
    }

    private static func slot(of number: Int, mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    private mutating func grow() {
        let old = entries
        entries = [UInt64](repeating: 0, count: old.count * 2)
        let mask = entries.count - 1
        for entry in old where entry != 0 {
            var slot = Self.slot(of: Int(entry >> 32) - 1, mask: mask)
            while entries[slot] != 0 { slot = (slot + 1) & mask }
            entries[slot] = entry
        }
    }
}
