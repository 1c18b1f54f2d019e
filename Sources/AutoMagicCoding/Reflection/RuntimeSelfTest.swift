import Foundation

/// Checks, once, before the first type plan is built, that the Swift runtime reports fields as
/// ``RuntimeAccess`` reads them: on canary types compiled into the library, what it reports
/// (names, offsets, metadata kinds, `var`/`let`, `weak`/`unowned` ownership) is compared with
/// what the canaries declare, with `MemoryLayout.offset(of:)` and Swift's layout rule for an
/// object's fields, and with values set and read through the language. (Not with `Mirror`: its
/// labels come from the runtime functions ``RuntimeAccess`` calls, and asking it costs a first
/// call more than the rest of the check.) Every reflection-based mapper before this one broke with some Swift
/// release by reading wrong offsets silently; on any disagreement this one fails closed: every
/// plan refuses with ``AMCError/Kind/runtimeUnsupported(reason:)`` and no raw read or write runs.
enum RuntimeSelfTest {
    /// What disagreed, in a phrase; nil when everything agreed. Computed once per process.
    static let failure: String? = check(fields: RuntimeAccess.fields(of:))

    /// A disagreement to report instead of the self-test's result: the seam through which tests
    /// see the fail-closed path (plans built while it is set refuse, for types planned then).
    @TaskLocal static var simulatedFailure: String?

    /// What disagreed, as plans and ``AMC/checkRuntime()`` see it.
    static var currentFailure: String? { simulatedFailure ?? failure }

    /// Compares what `fields` reports for the canaries with the independent sources; the first
    /// disagreement, or nil.
    static func check(fields: (Any.Type) -> [RuntimeField]) -> String? {
        if let kind = unexpectedShape() { return kind }
        if let problem = compare(
            fields(CanaryValue.self), expected: CanaryValue.expected, of: "CanaryValue",
            offsets: CanaryValue.offsets, size: MemoryLayout<CanaryValue>.size)
        {
            return problem
        }
        if let problem = compare(
            fields(CanaryGeneric<String>.self), expected: CanaryGeneric<String>.expected, of: "CanaryGeneric<String>",
            offsets: CanaryGeneric<String>.offsets, size: MemoryLayout<CanaryGeneric<String>>.size)
        {
            return problem
        }
        let objectFields = fields(CanaryObject.self)
        if let problem = compare(
            objectFields, expected: CanaryObject.expected, of: "CanaryObject", offsets: sequentialOffsets(of: objectFields),
            size: nil)
        {
            return problem
        }
        return readsAndWrites(CanaryObject(), objectFields)
    }

    // MARK: - Canaries

    /// A struct with padding between fields of every alignment, a `let`, and an optional.
    struct CanaryValue {
        var flag: UInt8 = 1
        var count: Int64 = 2
        var name = "three"
        let ratio = 4.5
        var short: Int16 = 5
        var list: [Int]? = [6]

        static let expected: [(String, Bool, ReferenceOwnership)] = [
            ("flag", true, .strong), ("count", true, .strong), ("name", true, .strong), ("ratio", false, .strong),
            ("short", true, .strong), ("list", true, .strong),
        ]
        static let offsets: [Int?] = [
            MemoryLayout<Self>.offset(of: \.flag), MemoryLayout<Self>.offset(of: \.count),
            MemoryLayout<Self>.offset(of: \.name), MemoryLayout<Self>.offset(of: \.ratio),
            MemoryLayout<Self>.offset(of: \.short), MemoryLayout<Self>.offset(of: \.list),
        ]
    }

    /// A generic struct, whose layout the runtime works out at run time.
    struct CanaryGeneric<Item> {
        var tag: UInt8 = 7
        var item: Item
        var number = 8

        static var expected: [(String, Bool, ReferenceOwnership)] {
            [("tag", true, .strong), ("item", true, .strong), ("number", true, .strong)]
        }
        static var offsets: [Int?] {
            [
                MemoryLayout<Self>.offset(of: \.tag), MemoryLayout<Self>.offset(of: \.item),
                MemoryLayout<Self>.offset(of: \.number),
            ]
        }
    }

    /// (Sendable for ``CanaryObject/anchor``, which nothing changes.)
    class CanaryBase: @unchecked Sendable {
        var id: Int32 = 9
        init() {}
    }

    /// A subclass (superclass fields first) with every reference ownership and a struct field.
    final class CanaryObject: CanaryBase, @unchecked Sendable {
        var flag = true
        weak var peer: CanaryObject?
        unowned var owner: CanaryBase
        unowned(unsafe) var bare: CanaryBase
        var value = CanaryValue()
        let constant: Int16 = 10

        override init() {
            owner = Self.anchor
            bare = Self.anchor
            super.init()
        }

        static let anchor = CanaryBase()

        static let expected: [(String, Bool, ReferenceOwnership)] = [
            ("id", true, .strong), ("flag", true, .strong), ("peer", true, .weak), ("owner", true, .unowned),
            ("bare", true, .unmanaged), ("value", true, .strong), ("constant", false, .strong),
        ]
    }

    enum CanaryEnum {
        case one
        case two(Int)
    }

    // MARK: - Comparisons

    /// The metadata kinds of one type of each kind, when one is not what the library knows it as.
    private static func unexpectedShape() -> String? {
        let known: [(Any.Type, RuntimeTypeShape)] = [
            (CanaryValue.self, .struct), (CanaryObject.self, .class), (CanaryEnum.self, .enum), (Int?.self, .optional),
            ((Int, Int).self, .tuple), (((Int) -> Int).self, .function), ((any Sendable).self, .existential),
            (Int.Type.self, .metatype), (NSObject.self, .class),
        ]
        for (type, shape) in known where RuntimeAccess.shape(of: type) != shape {
            return "the metadata kind of \(type) reads as \(RuntimeAccess.shape(of: type)), not \(shape)"
        }
        return nil
    }

    /// The size and alignment of a value of `type`.
    private static func layout(of type: Any.Type) -> (size: Int, alignment: Int) {
        func layout<T>(_: T.Type) -> (size: Int, alignment: Int) { (MemoryLayout<T>.size, MemoryLayout<T>.alignment) }
        return layout(type)
    }

    /// Whether `fields` agree with what the canary declares, and their offsets with `offsets`
    /// (structs) or with the rules any layout keeps: aligned, in order, not overlapping, inside
    /// the value (`size`) or past an object's header.
    private static func compare(
        _ fields: [RuntimeField], expected: [(String, Bool, ReferenceOwnership)], of typeName: String, offsets: [Int?]?,
        size: Int?
    ) -> String? {
        let names = fields.map(\.name)
        guard names == expected.map(\.0) else {
            return "\(typeName)'s fields read as \(names), declared as \(expected.map(\.0))"
        }
        var end = size == nil ? 2 * MemoryLayout<Int>.size : 0  // an object's header: its class and reference counts
        for (field, declared) in zip(fields, expected) {
            guard field.isVar == declared.1, field.ownership == declared.2, field.isStrong == (declared.2 == .strong) else {
                return "\(typeName).\(field.name) reads as \(field.isVar ? "var" : "let"), \(String(describing: field.ownership))"
            }
            let (fieldSize, alignment) = layout(of: field.type)
            guard field.offset >= end, field.offset % alignment == 0 else {
                return "\(typeName).\(field.name) reads at offset \(field.offset), overlapping or misaligned"
            }
            end = field.offset + fieldSize
        }
        if let size, end > size { return "\(typeName)'s fields read as ending at \(end), past its size \(size)" }
        if let offsets, fields.map(\.offset) != offsets.map({ $0 ?? -1 }) {
            return "\(typeName)'s offsets read as \(fields.map(\.offset)), MemoryLayout says \(offsets.map { $0 ?? -1 })"
        }
        return nil
    }

    /// The offsets Swift's layout gives fields of these types in this order in an object: after
    /// its header (a class pointer and reference counts), each at the next multiple of its
    /// alignment (superclass fields first, with no padding between the classes) — so that
    /// nothing is read past the object before its values are compared.
    private static func sequentialOffsets(of fields: [RuntimeField]) -> [Int?] {
        var end = 2 * MemoryLayout<Int>.size
        return fields.map { field in
            let (size, alignment) = layout(of: field.type)
            let offset = (end + alignment - 1) / alignment * alignment
            end = offset + size
            return offset
        }
    }

    /// Whether values set through the language read back through ``RuntimeAccess`` at the
    /// reported offsets, and values written through it read back through the language. Only
    /// plain integers are read (anything holding a reference, read at a wrong offset, would be
    /// retained as garbage), and nothing is written until they read back right.
    private static func readsAndWrites(_ object: CanaryObject, _ fields: [RuntimeField]) -> String? {
        func offset(_ name: String) -> Int { fields.first { $0.name == name }?.offset ?? 0 }
        object.id = 0x1234_5678
        object.flag = true
        let read = RuntimeAccess.withFieldBase(of: object) { base in
            (
                RuntimeAccess.read(Int32.self, at: offset("id"), from: base),
                RuntimeAccess.read(UInt8.self, at: offset("flag"), from: base)
            )
        }
        guard read == (object.id, 1) else {
            return "CanaryObject's fields read back other values than the language set"
        }
        var target = object
        guard RuntimeAccess.store(false, as: Bool.self, at: offset("flag"), in: &target), !object.flag,
            RuntimeAccess.store(Int32(-7), as: Int32.self, at: offset("id"), in: &target), object.id == -7
        else {
            return "values written to CanaryObject's fields read back otherwise through the language"
        }
        return nil
    }
}
