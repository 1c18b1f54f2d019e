import Foundation

/// One stored field of an ``AMCCodable`` type, with everything the archiver needs to read and
/// write it.
final class FieldPlan: @unchecked Sendable {
    let field: RuntimeField
    let kind: ValueKind
    /// Typed access for scalar fields (not for `weak`/`unowned` ones).
    let fast: FastField?
    /// Typed access for fields of objects and arrays (not for `weak`/`unowned` ones).
    let graph: GraphField?
    /// The key the field is written and read under (``AMCCodable/amcKey(forProperty:)``), with
    /// its number for writers.
    let internedKey: InternedKey
    var key: String { internedKey.text }
    /// Keys read, in order, when ``key`` is absent: the property's own name when a naming rule
    /// made the key, then its former keys (``AMCCodable/amcFormerKeys``).
    let alternateKeys: [String]

    init(field: RuntimeField, key: String, alternateKeys: [String] = []) {
        self.field = field
        self.internedKey = InternedKey(key)
        self.alternateKeys = alternateKeys
        self.kind = ValueKind.of(field.type)
        self.fast = field.isStrong ? FastField.make(for: field.type, kind: kind, at: field.offset) : nil
        self.graph = field.isStrong && fast == nil ? GraphField.make(for: field.type, kind: kind, at: field.offset) : nil
    }

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
        return RuntimeAccess.withFieldBase(of: instance) { value(at: $0, of: instance) }
    }

    /// ``value(in:)`` for a caller that has `instance`'s field base already (see
    /// `RuntimeAccess.withFieldBase`): strong fields are read from `base`, `weak` and `unowned`
    /// ones through `Mirror` of `instance`, which may be an existential.
    func value(at base: UnsafeFieldBase, of instance: Any) -> Any {
        isStrong ? RuntimeAccess.load(type, at: offset, from: base) : mirrorValue(in: instance)
    }

    /// The object a `weak` or `unowned` field refers to, for a caller that has `instance`'s
    /// field base (nil for none, and for a strong field): read from `base` where the field's
    /// ownership is known, through `Mirror` of `instance` where it is not.
    func referencedObject(at base: UnsafeFieldBase, of instance: Any) -> AnyObject? {
        guard !isStrong else { return nil }
        if let ownership = field.ownership { return RuntimeAccess.loadReference(ownership: ownership, at: offset, from: base) }
        guard let target = unwrappedValue(mirrorValue(in: instance)), RuntimeAccess.shape(of: Swift.type(of: target)) == .class
        else { return nil }
        return target as AnyObject
    }

    /// Writes `value` into the field; false when `value` is not of the field's type.
    func store<Root>(_ value: Any, in instance: inout Root) -> Bool {
        RuntimeAccess.store(value, as: type, at: offset, in: &instance)
    }

    /// Points the `weak` or `unowned` field at `object`; false when the field is not one, or
    /// `object` is not of its type.
    func storeReference<Root>(_ object: AnyObject, in instance: inout Root) -> Bool {
        guard let ownership = field.ownership else { return false }
        return RuntimeAccess.storeReference(object, as: type, ownership: ownership, at: offset, in: &instance)
    }

    /// Sets the `weak` field to nil; false when the field is not `weak`.
    func clearWeakReference<Root>(in instance: inout Root) -> Bool {
        guard field.ownership == .weak else { return false }
        RuntimeAccess.clearWeakReference(at: offset, in: &instance)
        return true
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
    /// Positions in ``fields`` by name.
    let indexByName: [String: Int]
    /// Fields by the key they are written under.
    let fieldsByKey: [String: FieldPlan]
    /// The fields written under a key the archiver writes of its own (``reservedKeys``: `"class"`,
    /// `"$ref"`, …): such a type cannot be archived until each gets another key.
    let reservedKeyFields: [FieldPlan]

    /// ``AMCError/Kind/runtimeUnsupported(reason:)`` when the runtime failed the self-test (see
    /// ``RuntimeSelfTest``): the plan has no fields, and every walk that uses it throws this.
    let runtimeRefusal: AMCError.Kind?
    /// Keys that more than one field would be written under, with those fields' names.
    let sharedKeys: [(key: String, names: [String])]

    /// The error for an instance whose ``AMCCodable/amcKeys`` are `keys` (asked only when the
    /// type has such fields), when they name the field written under `"class"`, or two fields
    /// written under one key, or when the runtime failed the self-test; nil otherwise. Nil `keys`: the default keys, as for
    /// ``slots(for:sorted:)``.
    func keyError(keys: @autoclosure () -> [String]?) -> AMCError.Kind? {
        if let runtimeRefusal { return runtimeRefusal }
        guard !reservedKeyFields.isEmpty || !sharedKeys.isEmpty else { return nil }
        let keys = keys() ?? defaultKeys
        for reserved in reservedKeyFields where keys.contains(reserved.name) {
            return .reservedKey(key: reserved.key, typeName: typeName)
        }
        for shared in sharedKeys {
            let named = shared.names.filter(keys.contains)
            if named.count > 1 { return .sharedKey(key: shared.key, typeName: typeName, properties: named) }
        }
        return nil
    }
    /// Positions of the strong `let` fields (see ``writability(of:)``).
    let lets: [Int]
    /// ``FieldPlan/isWritable`` of each field, for types without `let` fields.
    let writable: [Bool]
    /// The `weak` and `unowned` fields, which decoding points at objects decoded elsewhere.
    let conditionalFields: [FieldPlan]

    /// The field a Key-Value Coding key or style key names: a property name, the key the
    /// property is written under, or one of its alternate keys.
    func field(named key: String) -> FieldPlan? { fieldsByName[key] ?? fieldsByKey[key] ?? fieldsByAlternateKey[key] }
    /// Fields by their ``FieldPlan/alternateKeys``.
    let fieldsByAlternateKey: [String: FieldPlan]
    /// Whether some field has ``FieldPlan/alternateKeys``.
    let hasAlternateKeys: Bool
    /// The keys an object's dictionary may hold: `"class"`, every field's key and alternate keys.
    let knownKeys: Set<String>
    /// ``AMCCodable/amcVersion``: 0 for types without versions.
    let version: Int
    /// The type's keys follow the archiver's rule (``AMCKeyNaming/archiverDefault``).
    let followsArchiverRule: Bool
    /// ``AMCCodable/amcSpecialKeys``.
    let specialKeys: Set<String>
    /// The type's unqualified name, for messages.
    let typeName: String
    /// The default ``AMCCodable/amcKeys``: every stored field but `lazy` storage, in order.
    let defaultKeys: [String]
    private var defaultSlots: [Slot] = []
    private var sortedDefaultSlots: [Slot] = []
    /// The ``AMCCodable/amcClassName`` of the type (static, so asked once).
    let className: String
    /// ``className`` with its number for writers.
    let classNameKey: InternedKey
    /// Some field is written under a key like `$ref`: an object of the type keeps its `"class"`
    /// key in files, so that it never reads as a reference (see ``AMCClassNames``).
    let hasReferenceLikeKey: Bool

    private init(type: Any.Type, archiverRule: AMCKeyNaming) {
        let codable = type as? any AMCCodable.Type
        let rule = (codable?.amcKeyNaming ?? .propertyNames).resolved(under: archiverRule)
        let former = codable?.amcFormerKeys ?? [:]
        // Fails closed: when the runtime's reflection disagreed with the self-test, no field is
        // planned (so none is read or written) and every use of the plan refuses.
        self.runtimeRefusal = RuntimeSelfTest.currentFailure.map { .runtimeUnsupported(reason: $0) }
        let fields = (runtimeRefusal != nil ? [] : Self.modelFields(of: type)).map { field in
            let name = field.name
            let custom = codable?.amcKey(forProperty: name) ?? name
            let key = custom != name ? custom : rule.key(forProperty: name)
            let alternates = ((custom == name && key != name) ? [name] : []) + (former[name] ?? [])
            var seen: Set = [key, "class"]
            return FieldPlan(field: field, key: key, alternateKeys: alternates.filter { seen.insert($0).inserted })
        }
        self.fields = fields
        self.hasReferenceLikeKey = fields.contains { ObjectReference.isEscapable($0.key, minimumDollars: 1) }
        self.fieldsByAlternateKey = Dictionary(
            fields.flatMap { field in field.alternateKeys.map { ($0, field) } },
            uniquingKeysWith: { first, _ in first })
        self.hasAlternateKeys = !fieldsByAlternateKey.isEmpty
        self.knownKeys = Set(fields.flatMap { [$0.key] + $0.alternateKeys }).union(["class"])
        self.version = codable?.amcVersion ?? 0
        self.followsArchiverRule = codable?.amcKeyNaming == .archiverDefault
        self.specialKeys = codable?.amcSpecialKeys ?? []
        self.typeName = AMC.unqualifiedName(of: type)
        self.conditionalFields = fields.filter { !$0.isStrong }
        self.lets = fields.indices.filter { !fields[$0].field.isVar && fields[$0].isStrong }
        self.writable = fields.map(\.isWritable)
        self.reservedKeyFields = fields.filter { Self.reservedKeys.contains($0.key) }
        self.sharedKeys = Dictionary(grouping: fields, by: \.key).filter { $0.value.count > 1 }
            .map { (key: $0.key, names: $0.value.map(\.name)) }.sorted { $0.key < $1.key }
        self.fieldsByName = Dictionary(fields.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.fieldsByKey = Dictionary(fields.map { ($0.key, $0) }, uniquingKeysWith: { _, last in last })
        self.indexByName = Dictionary(fields.indices.map { (fields[$0].name, $0) }, uniquingKeysWith: { _, last in last })
        self.defaultKeys = fields.map(\.name)
        self.className = codable?.amcClassName ?? AMC.unqualifiedName(of: type)
        self.classNameKey = InternedKey(className)
        self.defaultSlots = slots(defaultKeys, sorted: false)
        self.sortedDefaultSlots = slots(defaultKeys, sorted: true)
    }

    /// The stored fields of `type` as its declaration names them, not as the compiler stores
    /// them:
    /// - `lazy var x`'s storage (`$__lazy_storage_$_x`) is left out;
    /// - an `@Observable` class's tracked properties (`_title`, next to `_$observationRegistrar`)
    ///   are `title`, and the registrar is left out;
    /// - a property wrapper's storage (`_volume` of type `Clamped<Int>`) whose struct has exactly
    ///   one stored property is that property, named `volume`: the wrapped value is archived and
    ///   written back into the wrapper's storage directly, as decoding writes every field;
    /// - a `Codable` wrapper's storage of more properties is named `volume` and archived through
    ///   its conformance, as `Codable`'s synthesized conformance does.
    static func modelFields(of type: Any.Type) -> [RuntimeField] {
        let fields = RuntimeAccess.fields(of: type).filter { !$0.name.hasPrefix("$__lazy_storage_$_") }
        let isObservable = fields.contains { $0.name == observationRegistrar }
        let names = Set(fields.map(\.name))
        return fields.compactMap { field in
            guard field.name.hasPrefix("_"), field.isStrong else { return field }
            if field.name == observationRegistrar { return nil }
            let name = String(field.name.dropFirst())
            guard !name.isEmpty, !names.contains(name) else { return field }
            if isObservable { return field.renamed(name) }
            guard isWrapperStorage(field.type) else { return field }
            let storage = RuntimeAccess.fields(of: field.type)
            guard storage.count == 1, storage[0].isStrong else {
                // A Codable wrapper of more: through its conformance, under the property's name.
                if case .codable = ValueKind.of(field.type) { return field.renamed(name) }
                return field
            }
            return RuntimeField(
                name: name, type: storage[0].type, offset: field.offset + storage[0].offset,
                isVar: field.isVar && storage[0].isVar, isStrong: true, ownership: .strong)
        }
    }

    private static let observationRegistrar = "_$observationRegistrar"

    /// A struct the archiver has no other way to write: what a property wrapper's storage is.
    private static func isWrapperStorage(_ type: Any.Type) -> Bool {
        guard RuntimeAccess.shape(of: type) == .struct else { return false }
        switch ValueKind.of(type) {
        case .opaqueStruct, .codable: return true
        default: return false
        }
    }

    /// One entry of an encoded object, in the order written.
    enum Slot {
        case className
        case field(Int)
        case unknown(String)
    }

    /// The entries to write for an instance whose ``AMCCodable/amcKeys`` are `keys`: `"class"`
    /// first, or everything in ascending key order when `sorted`. Cached for the default keys
    /// (nil `keys`, or the same keys).
    func slots(for keys: [String]?, sorted: Bool) -> [Slot] {
        guard let keys, keys != defaultKeys else { return sorted ? sortedDefaultSlots : defaultSlots }
        return slots(keys, sorted: sorted)
    }

    private func slots(_ keys: [String], sorted: Bool) -> [Slot] {
        let slots = [Slot.className] + keys.map { indexByName[$0].map(Slot.field) ?? .unknown($0) }
        return sorted ? slots.sorted { writtenKey($0) < writtenKey($1) } : slots
    }

    private func writtenKey(_ slot: Slot) -> String {
        switch slot {
        case .className: return "class"
        case let .field(index): return fields[index].key
        case let .unknown(name): return name
        }
    }

    /// Whether `keys`, what an instance's ``AMCCodable/amcKeys`` returned, came from the default
    /// implementation: the very array it hands out (``defaultKeys``), not one equal to it. The
    /// implementation is the type's for all its instances, and a type that declares `amcKeys`
    /// cannot reach the default one, so once this is true for one object, ``defaultKeys`` are the
    /// keys of every object of the type.
    func isDefault(keys: [String]) -> Bool {
        RuntimeAccess.sharesStorage(keys, defaultKeys)
    }

    /// Whether each field (by position in ``fields``) has the field type its Swift type implies,
    /// so that its value is archived the plain way: what ``AMCCodable/amcFieldType(forKey:)`` of
    /// `type` answers, asked once.
    func plainFields(of type: any AMCCodable.Type) -> [Bool] {
        if let cached = plain.withLock({ $0 }) { return cached }
        let answers = fields.map { type.amcFieldType(forKey: $0.name) == $0.kind.fieldType }
        plain.withLock { $0 = answers }
        return answers
    }

    private let plain = Locked<[Bool]?>(nil)

    /// Which fields decoding writes, by position in ``fields``: every strong `var`, and each
    /// strong `let` whose value two new instances disagree on (an id, a creation date, an
    /// object: made per instance, so the optimizer cannot have built it into the code). A `let`
    /// every new instance agrees on (`let kind = 1`, or `let x: Int` set to 0 in `init()`) may be
    /// folded into the code in release builds, so it is never written; `constants` holds its
    /// value's ``fingerprint(_:)``, to tell an archive holding another value.
    struct Writability {
        let writable: [Bool]
        let constants: [Int: String]
    }

    /// The ``Writability`` of `T`'s fields, decided on first use from two new instances of `T`.
    func writability<T: AMCCodable>(of _: T.Type) -> Writability {
        if let cached = writabilityCache.withLock({ $0 }) { return cached }
        var writable = self.writable
        guard !lets.isEmpty else { return Writability(writable: writable, constants: [:]) }
        var constants: [Int: String] = [:]
        do {
            let first = T()
            let second = T()
            for index in lets {
                let value = fields[index].value(in: first)
                let fingerprint = Self.fingerprint(value, kind: fields[index].kind)
                if fingerprint == Self.fingerprint(fields[index].value(in: second), kind: fields[index].kind) {
                    constants[index] = fingerprint
                } else {
                    writable[index] = true
                }
            }
        }
        let answer = Writability(writable: writable, constants: constants)
        writabilityCache.withLock { $0 = answer }
        return answer
    }

    /// The optional `var` fields whose value in a new instance is not nil, by position in
    /// ``fields``: a nil in one of them is written as such (JSON's `null`, the ``nilKey`` list in
    /// property lists and dictionaries), where a left-out key would read back as the initial value.
    /// Decided on first use from a new instance of `T`; other nils are left out, as they always were.
    func nilMarkedFields<T: AMCCodable>(of type: T.Type) -> [Int] {
        if let cached = nilMarkedCache.withLock({ $0 }) { return cached }
        let optionals = fields.indices.filter { index in
            guard fields[index].isWritable, case .optional = fields[index].kind else { return false }
            return true
        }
        var answer: [Int] = []
        if !optionals.isEmpty {
            let fresh = type.init()  // the type itself, which may be a subclass of `T`
            answer = optionals.filter { unwrappedValue(fields[$0].value(in: fresh)) != nil }
        }
        nilMarkedCache.withLock { $0 = answer }
        return answer
    }

    private let nilMarkedCache = Locked<[Int]?>(nil)

    /// The key under which an object's dictionary in a property list (or a dictionary
    /// representation) lists the keys of its fields that are nil where a new instance's are not
    /// (see ``nilMarkedFields(of:)``): property lists have no null.
    static let nilKey = "$nil"

    /// The keys the archiver writes of its own, which no property may be written under, with
    /// what each is for (the errors say).
    static let reservedKeyMeanings: [String: String] = [
        "class": "the key that names an object's class",
        ObjectReference.key: "the key of a reference to an object",
        nilKey: "the key that lists an object's nil properties",
        DocumentVersions.key: "the key of the versions a document records",
        ObjectTable.key: "the key of a document's object table",
    ]

    static var reservedKeys: Dictionary<String, String>.Keys { reservedKeyMeanings.keys }

    /// A value's identity for ``writability(of:)``: an object's identity; a scalar's exact
    /// value; anything else its parts', through `Mirror` (a date's description traps on NaN, and
    /// a document may hold one).
    static func fingerprint(_ value: Any, kind: ValueKind) -> String {
        guard let value = unwrappedValue(value) else { return "nil" }
        if RuntimeAccess.shape(of: Swift.type(of: value)) == .class { return "object \(ObjectIdentifier(value as AnyObject))" }
        var kind = kind
        while case let .optional(_, wrapped) = kind { kind = wrapped }
        if case let .scalar(codec) = kind, let scalar = codec.encode(value) {
            if case let .date(date) = scalar { return "date \(date.timeIntervalSinceReferenceDate)" }
            return String(reflecting: scalar)
        }
        return partsFingerprint(value)
    }

    private static func partsFingerprint(_ value: Any) -> String {
        if let date = value as? Date { return "date \(date.timeIntervalSinceReferenceDate)" }
        let children = Mirror(reflecting: value).children
        guard !children.isEmpty else { return String(reflecting: value) }
        return "\(Swift.type(of: value))("
            + children.map { "\($0.label ?? ""): \(partsFingerprint($0.value))" }.joined(separator: ", ") + ")"
    }

    private let writabilityCache = Locked<Writability?>(nil)

    /// The plan for `type` with its own keys (its ``AMCCodable/amcKeyNaming``, property names
    /// when it follows the archiver's), built on first use.
    static func of(_ type: Any.Type) -> TypePlan {
        cache.value(for: type) { TypePlan(type: type, archiverRule: .propertyNames) }
    }

    /// ``of(_:)`` for a walk about to read or write the fields of a `type` (Key-Value Coding,
    /// styles): throws, at `keyPath`, when the runtime failed the self-test.
    static func usable(_ type: Any.Type, at keyPath: String) throws -> TypePlan {
        let plan = of(type)
        if let runtimeRefusal = plan.runtimeRefusal { throw AMCError(runtimeRefusal, keyPath: keyPath) }
        return plan
    }

    /// The plan for `type` under an archiver whose ``AMCArchiver/keyNaming`` is `archiverRule`.
    static func of(_ type: Any.Type, naming archiverRule: AMCKeyNaming) -> TypePlan {
        let plan = of(type)
        guard plan.followsArchiverRule, archiverRule != .propertyNames, archiverRule != .archiverDefault else { return plan }
        let cache = namedCaches.withLock { caches in
            if let known = caches[archiverRule] { return known }
            let made = TypeCache<TypePlan>()
            caches[archiverRule] = made
            return made
        }
        return cache.value(for: type) { TypePlan(type: type, archiverRule: archiverRule) }
    }

    /// The value `dictionary` holds for `field`, with the key it is under: the field's key, or
    /// else the first of its alternate keys present (see ``FieldPlan/alternateKeys``).
    func entry(for field: FieldPlan, in dictionary: ArchiveDictionary, hint: inout Int) -> (key: String, value: ArchiveValue)? {
        if let value = dictionary.value(forKey: field.key, hint: &hint) { return (field.key, value) }
        guard hasAlternateKeys else { return nil }
        for key in field.alternateKeys {
            if let value = dictionary[key] { return (key, value) }
        }
        return nil
    }

    /// The value of ``entry(for:in:hint:)`` alone: what the decoder's first pass asks for each
    /// field (no key to hand back, so nothing to retain).
    @inline(__always)
    func value(for field: FieldPlan, in dictionary: ArchiveDictionary, hint: inout Int) -> ArchiveValue? {
        if let value = dictionary.value(forKey: field.key, hint: &hint) { return value }
        return hasAlternateKeys ? entry(for: field, in: dictionary)?.value : nil
    }

    /// ``entry(for:in:hint:)`` without a hint.
    func entry(for field: FieldPlan, in dictionary: ArchiveDictionary) -> (key: String, value: ArchiveValue)? {
        var hint = 0
        return entry(for: field, in: dictionary, hint: &hint)
    }

    private static let cache = TypeCache<TypePlan>()
    private static let namedCaches = Locked<[AMCKeyNaming: TypeCache<TypePlan>]>([:])
}

/// The plans of the last few types an encoder or decoder met, with what it asks of each for every
/// object: a graph's objects come in runs of a few types (a folder, its files, its folders), and
/// ``TypePlan/of(_:naming:)``, ``TypePlan/plainFields(of:)`` and the default
/// ``AMCCodable/amcKeys`` each take a lock.
///
/// ```swift
/// var recent = RecentPlans()
/// let (known, keys) = recent.plan(of: folder, naming: .archiverDefault)
/// // keys: folder.amcKeys, asked only when the type declares amcKeys (nil: the default keys)
/// ```
struct RecentPlans {
    /// A type's plan, which of its fields are plain, and whether its keys are the default ones.
    /// (A class: handing it out takes one retain, where a struct's three fields took three.)
    final class Known {
        let type: ObjectIdentifier
        let plan: TypePlan
        let plain: [Bool]
        let usesDefaultKeys: Bool
        /// ``TypePlan/nilMarkedFields(of:)``.
        let nilMarked: [Int]
        /// The plan under property names, whose ``TypePlan/defaultKeys`` the default keys are.
        let defaultPlan: TypePlan

        init(
            type: ObjectIdentifier, plan: TypePlan, plain: [Bool], usesDefaultKeys: Bool, nilMarked: [Int],
            defaultPlan: TypePlan
        ) {
            self.type = type
            self.plan = plan
            self.plain = plain
            self.usesDefaultKeys = usesDefaultKeys
            self.nilMarked = nilMarked
            self.defaultPlan = defaultPlan
        }
    }

    /// In the order first met; the oldest makes way for a new one.
    private var known: [Known] = []
    private static let capacity = 4

    /// The plan of `object`'s type under the key naming `naming` (which stays the same for one
    /// encoder or decoder), and `object`'s ``AMCCodable/amcKeys``, asked once at most: nil when
    /// they are the plan's ``TypePlan/defaultKeys``.
    mutating func plan(of object: some AMCCodable, naming: AMCKeyNaming) -> (known: Known, keys: [String]?) {
        let type = ObjectIdentifier(Swift.type(of: object))
        // Found where it is: moving it to the end at each change of type (a folder, its files,
        // its folders) would take a removal, an append and their retains.
        if let index = known.lastIndex(where: { $0.type == type }) {
            let found = known[index]
            return (found, found.usesDefaultKeys ? nil : object.amcKeys)
        }
        let keys = object.amcKeys
        // What the first instance of the type told is kept for the next calls, one look-up for
        // them all (a small document's calls meet each type once); an instance whose keys are
        // default where that one's were not, or the other way, gets its own.
        var found = Self.shared(naming).value(for: Swift.type(of: object)) { Self.known(of: object, keys: keys, naming: naming) }
        if found.usesDefaultKeys != found.defaultPlan.isDefault(keys: keys) {
            found = Self.known(of: object, keys: keys, naming: naming)
        }
        if known.count == Self.capacity { known.removeFirst() }
        known.append(found)
        return (found, found.usesDefaultKeys ? nil : keys)
    }

    /// What `object` tells of its type, whose ``AMCCodable/amcKeys`` are `keys`.
    private static func known(of object: some AMCCodable, keys: [String], naming: AMCKeyNaming) -> Known {
        let type = Swift.type(of: object)
        let plan = TypePlan.of(type, naming: naming)
        // The default keys come from the plan under property names (a naming rule's plan has
        // the same ones in an array of its own).
        let defaultPlan = TypePlan.of(type)
        return Known(
            type: ObjectIdentifier(type), plan: plan, plain: plan.plainFields(of: type),
            usesDefaultKeys: defaultPlan.isDefault(keys: keys), nilMarked: plan.nilMarkedFields(of: type),
            defaultPlan: defaultPlan)
    }

    /// The ``Known`` of each type met so far, for each key naming.
    private static func shared(_ naming: AMCKeyNaming) -> TypeCache<Known> {
        if naming == .archiverDefault || naming == .propertyNames { return sharedByDefault }
        return sharedByNaming.withLock { caches in
            if let cache = caches[naming] { return cache }
            let made = TypeCache<Known>()
            caches[naming] = made
            return made
        }
    }

    private static let sharedByDefault = TypeCache<Known>()
    private static let sharedByNaming = Locked<[AMCKeyNaming: TypeCache<Known>]>([:])
}
