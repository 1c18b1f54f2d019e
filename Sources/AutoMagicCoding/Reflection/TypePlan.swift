/// One stored field of an ``AMCCodable`` type, with everything the archiver needs to read and
/// write it.
struct FieldPlan: @unchecked Sendable {
    let field: RuntimeField
    let kind: ValueKind

    var name: String { field.name }
    var type: Any.Type { field.type }
    var offset: Int { field.offset }
    var isStrong: Bool { field.isStrong }
    /// A `var` holding a strong reference or a value: the only fields decoding writes.
    var isWritable: Bool { field.isVar && field.isStrong }

    /// The field's current value in `instance` (a class instance or a struct value of the
    /// concrete type `Root`).
    func value<Root>(in instance: Root) -> Any {
        guard isStrong else { return mirrorValue(in: instance) }
        return RuntimeAccess.withFieldBase(of: instance) { RuntimeAccess.load(type, at: offset, from: $0) }
    }

    /// Writes `value` into the field; false when `value` is not of the field's type.
    func store<Root>(_ value: Any, in instance: inout Root) -> Bool {
        RuntimeAccess.store(value, as: type, at: offset, in: &instance)
    }

    /// `weak` and `unowned` storage is not a plain value: read it the safe way, through `Mirror`.
    private func mirrorValue(in instance: Any) -> Any {
        var mirror: Mirror? = Mirror(reflecting: instance)
        while let current = mirror {
            if let child = current.children.first(where: { $0.label == name }) { return child.value }
            mirror = current.superclassMirror
        }
        return (type as? any OptionalContainer.Type)?.noneValue ?? ()
    }
}

/// The stored fields of one ``AMCCodable`` type, built once from runtime metadata and cached.
final class TypePlan: @unchecked Sendable {
    let fields: [FieldPlan]
    let fieldsByName: [String: FieldPlan]
    /// The default ``AMCCodable/amcKeys``: every stored field but `lazy` storage, in order.
    let defaultKeys: [String]
    /// The default keys and `"class"`, in ascending order.
    private let sortedDefaultKeys: [String]

    private init(type: Any.Type) {
        let fields = RuntimeAccess.fields(of: type)
            .filter { !$0.name.hasPrefix("$__lazy_storage_$_") }
            .map { FieldPlan(field: $0, kind: ValueKind.of($0.type)) }
        self.fields = fields
        self.fieldsByName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.defaultKeys = fields.map(\.name)
        self.sortedDefaultKeys = (defaultKeys + ["class"]).sorted()
    }

    /// `keys` and `"class"` in ascending order; cached for the default keys.
    func sortedKeys(_ keys: [String]) -> [String] {
        keys == defaultKeys ? sortedDefaultKeys : (keys + ["class"]).sorted()
    }

    /// The plan for `type`, built on first use.
    static func of(_ type: Any.Type) -> TypePlan {
        let key = ObjectIdentifier(type)
        if let plan = cache.withLock({ $0[key] }) { return plan }
        let plan = TypePlan(type: type)
        return cache.withLock { cache in
            if let existing = cache[key] { return existing }
            cache[key] = plan
            return plan
        }
    }

    private static let cache = Locked<[ObjectIdentifier: TypePlan]>([:])
}
