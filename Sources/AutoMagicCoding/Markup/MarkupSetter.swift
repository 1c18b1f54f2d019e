/// Sets one attribute of the objects of one class from the values a document gives it, keeping
/// what the last few values (by their numbers, see ``MarkupAttribute``) made of the field: a
/// document repeats its sizes, fonts and colours, and a value kept is not converted again. What
/// is kept is read back from the field the full way set, so a value that comes again stores
/// exactly what it stored the first time.
///
/// Only for fields that hold values sharing nothing between their copies (see
/// ``make(for:)``), set on objects of exactly the class the plan was made for.
final class MarkupSetter {
    /// How many values are kept: an attribute of one type takes a few, over and over.
    private static let keptValues = 8

    private let offset: Int
    /// Reads the field at `offset` of an object into a ``KeptField``.
    private let keep: (AnyObject, Int) -> KeptField
    // Unchecked: a setter is used by one build, and these are never accessed overlapping.
    @exclusivity(unchecked) private var numbers: [Int] = []
    @exclusivity(unchecked) private var values: [KeptField] = []
    private var next = 0

    private init(offset: Int, keep: @escaping (AnyObject, Int) -> KeptField) {
        self.offset = offset
        self.keep = keep
    }

    /// A setter for `plan`'s field, or nil: when the plan does not end at the root object, or its
    /// field holds something a copy of which may share a class instance (an object, an app's
    /// struct string, a collection).
    static func make(for plan: KeyPathPlan) -> MarkupSetter? {
        guard plan.endsAtRoot, plan.field.isWritable else { return nil }
        switch plan.field.kind {
        case let .scalar(codec), let .optional(_, .scalar(codec)):
            guard !codec.isStructString || plan.holdsOwnStructString else { return nil }
        default:
            return nil
        }
        func make<Value>(_: Value.Type) -> MarkupSetter {
            MarkupSetter(offset: plan.field.offset) { KeptFieldValue(RuntimeAccess.read(Value.self, at: $1, of: $0)) }
        }
        return make(plan.field.type)
    }

    /// Where what the value numbered `number` made is kept; nil when it is not.
    func kept(_ number: Int) -> Int? {
        numbers.firstIndex(of: number)
    }

    /// Writes what is kept at `index` (see ``kept(_:)``) into `object`'s field.
    func write(_ index: Int, in object: AnyObject) {
        values[index].write(at: offset, of: object)
    }

    /// Keeps what `object`'s field holds as what the value numbered `number` makes, the full
    /// way having just set it.
    func remember(_ number: Int, from object: AnyObject) {
        let value = keep(object, offset)
        if numbers.count < Self.keptValues {
            numbers.append(number)
            values.append(value)
        } else {
            numbers[next] = number
            values[next] = value
            next = (next + 1) % Self.keptValues
        }
    }
}

/// A field's value, kept to be written again. (A class whose subclass knows the value's type:
/// code that is not specialised for it then works out no generic metadata to write it.)
private class KeptField {
    func write(at offset: Int, of object: AnyObject) {}
}

private final class KeptFieldValue<Value>: KeptField {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }

    override func write(at offset: Int, of object: AnyObject) {
        RuntimeAccess.write(value, at: offset, of: object)
    }
}
