/// The first pass of filling an object: every field whose value in the document is exactly of
/// its type goes in through one field base, without the decoder. What is left (objects,
/// collections, conversions, errors) comes back as a ``FieldSet`` for the decoder's pass.
///
/// ```swift
/// var keyFields = DocumentKeyFields()
/// let pending = FastFill.fill(&settings, from: dictionary, known: known, writable: plan.writable,
///                             slots: plan.slots(for: nil, sorted: false), keyFields: &keyFields)
/// pending.contains(3)   // true: field 3 needs the decoder
/// ```
enum FastFill {
    /// Stores each field of `instance` whose value `source` holds exactly of its type; returns
    /// the fields it holds that are left for the decoder. A field the type cannot set (not
    /// `writable`) is neither stored nor returned.
    static func fill<T>(
        _ instance: inout T, from source: ArchiveDictionary, known: RecentPlans.Known, writable: [Bool],
        slots: [TypePlan.Slot], keyFields: inout DocumentKeyFields
    ) -> FieldSet {
        let plan = known.plan
        let fields = plan.fields
        var pending = FieldSet()
        func store(_ index: Int, _ raw: ArchiveValue, _ base: UnsafeMutableFieldBase) {
            guard writable[index] else { return }
            if known.plain[index], fields[index].fast?.decode(base, raw) == true { return }
            pending.insert(index)
        }
        if let (tape, first) = source.tapeRun, known.usesDefaultKeys, !plan.hasAlternateKeys {
            // A document's dictionary, every field read under its key: the entries in document
            // order, each key's field found by its number (see ``DocumentKeyFields``).
            var map = keyFields.take(for: plan, in: tape)
            RuntimeAccess.withMutableFieldBase(of: &instance) { base in
                for keyAt in stride(from: first, to: first + 2 * source.count, by: 2) {
                    let number = Int(tape.slots[keyAt].payload)
                    guard let index = DocumentKeyFields.field(ofKey: number, in: tape, plan: plan, map: &map) else { continue }
                    store(index, tape.value(at: keyAt + 1), base)
                }
            }
            keyFields.putBack(map, for: plan)
        } else {
            var hint = 0
            RuntimeAccess.withMutableFieldBase(of: &instance) { base in
                for slot in slots {
                    // Unknown keys, and keys the data lacks, are left alone.
                    guard case let .field(index) = slot, let raw = plan.value(for: fields[index], in: source, hint: &hint) else {
                        continue
                    }
                    store(index, raw, base)
                }
            }
        }
        return pending
    }
}

/// A set of field positions: the first 64 in one word, with no allocation; more in words added
/// as needed.
///
/// ```swift
/// var set = FieldSet()
/// set.insert(3); set.insert(70)
/// set.contains(70)   // true
/// set.contains(4)    // false
/// ```
struct FieldSet {
    private var low: UInt64 = 0
    private var high: [UInt64] = []

    mutating func insert(_ index: Int) {
        if index < 64 {
            low |= 1 << index
            return
        }
        let word = index / 64 - 1
        if word >= high.count { high.append(contentsOf: repeatElement(0, count: word + 1 - high.count)) }
        high[word] |= 1 << (index % 64)
    }

    func contains(_ index: Int) -> Bool {
        if index < 64 { return low & (1 << index) != 0 }
        let word = index / 64 - 1
        return word < high.count && high[word] & (1 << (index % 64)) != 0
    }
}
