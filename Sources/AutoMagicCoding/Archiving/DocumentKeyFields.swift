/// Which field of a type each key of a document names, found once per key and type: a reader
/// gives each distinct key of a document a number (see ``DocumentTape/keys``), so the decoder
/// finds a field from an entry's key number with one array look-up, instead of comparing the
/// field's key with the entry's as strings (a retain and a release of the key's text, and a
/// comparison, per field of every object).
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
    /// The document the maps are for; another one empties them.
    private var tape: DocumentTape?
    /// By type, most recent last: for each key number, its field's position in the plan's
    /// ``TypePlan/fields``, ``noField``, or ``unknown`` before it is looked up.
    private var maps: [(plan: TypePlan, fields: [Int32])] = []
    private static let capacity = 4
    private static let noField: Int32 = -1
    private static let unknown: Int32 = -2

    /// The map of `plan`'s type for `tape`, taken out so that the caller holds its only
    /// reference; empty when the type is new to the document.
    mutating func take(for plan: TypePlan, in tape: DocumentTape) -> [Int32] {
        if self.tape !== tape {
            self.tape = tape
            maps.removeAll()
        }
        guard let index = maps.lastIndex(where: { $0.plan === plan }) else { return [] }
        let fields = maps[index].fields
        maps.remove(at: index)
        return fields
    }

    /// Keeps `fields`, the map ``take(for:in:)`` gave and the caller filled, for `plan`'s type.
    mutating func putBack(_ fields: [Int32], for plan: TypePlan) {
        if maps.count == Self.capacity { maps.removeFirst() }
        maps.append((plan, fields))
    }

    /// The position in `plan`'s fields of the field key number `number` of `tape` names, looked
    /// up once and kept in `map`; nil for `"class"` and keys no field is read from.
    @inline(__always)
    static func field(ofKey number: Int, in tape: DocumentTape, plan: TypePlan, map: inout [Int32]) -> Int? {
        if number >= map.count { map.append(contentsOf: repeatElement(unknown, count: number + 1 - map.count)) }
        if map[number] == unknown { map[number] = lookUp(tape.keys[number], in: plan) }
        return map[number] == noField ? nil : Int(map[number])
    }

    private static func lookUp(_ key: String, in plan: TypePlan) -> Int32 {
        plan.fields.firstIndex { $0.key == key }.map { Int32($0) } ?? noField
    }
}
