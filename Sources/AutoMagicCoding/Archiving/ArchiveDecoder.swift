import Foundation

/// Rebuilds objects and values from a parsed document, writing `var` fields through their type
/// plans: the one object filler. Archives, Key-Value Coding, configs and styles all decode through
/// it, so a value converts the same way wherever it appears. Only registered types, or exactly the
/// statically expected type, are ever instantiated.
struct ArchiveDecoder {
    let archiver: AMCArchiver
    /// A nested dictionary without `"class"` fills the object or struct a field already holds
    /// instead of a new one, so that what it leaves out keeps its value: how configuration
    /// objects are filled.
    let fillsExistingValues: Bool
    private let context: ValueContext
    private var path = KeyPathTracker()
    private var depth = 0
    /// The owners whose struct hook does not handle a type that has a route of its own.
    private var declinedHooks = Set<HookUse>()
    /// The references of the document being decoded, when it has any.
    private var references: References?
    /// False when the document is known to hold no reference (see ``ParsedDocument``).
    private var searchesReferences = true
    /// The objects of a document with references filled so far, in the order filled, with their
    /// places: their ``AMCCodable/amcDidDecode()`` runs once every object is filled.
    private var didDecodeLater: [(object: any AMCCodable, place: Unfilled.Place)] = []
    /// The objects `weak` and `unowned` fields were pointed at, to check once the document is
    /// decoded that something else holds them.
    private var conditionalTargets: [ConditionalTarget] = []
    /// The versions the document records for its types, when it records any.
    private var versions: DocumentVersions?
    /// Lenient decoding: the problems stepped over so far, in document order; nil when strict
    /// (every problem throws).
    private(set) var problems: [AMCProblem]?
    /// Keys that no property reads are problems too (lenient), or errors (strict).
    let reportsUnknownKeys: Bool
    /// The classes whose newer version a lenient decoding reported.
    private var newerVersionsReported = Set<String>()
    /// The plans of the types filled last.
    private var recentPlans = RecentPlans()
    /// Which field each key of the document names, by type.
    private var keyFields = DocumentKeyFields()

    /// A document's references: the places they name, and the object decoded at each.
    private final class References {
        let root: ArchiveValue
        let targets: ObjectReference.Targets
        var routes: [String: Set<String>] { targets.routes }
        /// The objects decoded or made so far, each under the pointer of its place, in the order
        /// made; for each, while it waits to be filled, where from.
        private var numbers: [String: Int] = [:]
        /// Those at the table's entries, by entry: their number + 1 (0: none yet), so that
        /// following `#/$objects/N` costs no look-up of its text.
        private var entryNumbers: [Int]
        /// The root's object table, when it has one (see ``ObjectTable``).
        let table: ArchiveArray?
        private var made: [any AMCCodable] = []
        private var unfilled: [Unfilled?] = []
        /// The numbers of those that wait, by identity.
        private var waitingNumbers: [ObjectIdentifier: Int] = [:]
        /// The first object made that may still wait (see ``nextUnfilled()``).
        private var firstWaiting = 0
        /// The root object's class: where a place's declared types start (see
        /// ``declaredClass(at:)``).
        var rootType: (any AMCCodable.Type)?

        init(root: ArchiveValue, targets: ObjectReference.Targets) {
            self.root = root
            self.targets = targets
            if case let .dictionary(dictionary) = root, case let .array(table)? = dictionary[ObjectTable.key] {
                self.table = table
            } else {
                self.table = nil
            }
            entryNumbers = Array(repeating: 0, count: table?.count ?? 0)
        }

        /// The table entry `pointer` names whole, when the table has it.
        func entry(named pointer: String) -> Int? {
            guard let entry = ObjectTable.entry(named: pointer), entry < entryNumbers.count else { return nil }
            return entry
        }

        private func number(at pointer: String) -> Int? {
            guard let entry = entry(named: pointer) else { return numbers[pointer] }
            return entryNumbers[entry] == 0 ? nil : entryNumbers[entry] - 1
        }

        /// The object decoded or made at `pointer`.
        func object(at pointer: String) -> (any AMCCodable)? {
            number(at: pointer).map { made[$0] }
        }

        /// Records `object` at `pointer`: being decoded there, or, with `unfilled`, made for a
        /// reference before decoding reached its place, to be filled where decoding reaches it or
        /// from ``nextUnfilled()`` once the rest is decoded, so that following references never
        /// recurses.
        func add(_ object: any AMCCodable, at pointer: String, unfilled waiting: Unfilled? = nil) {
            if let entry = entry(named: pointer) { entryNumbers[entry] = made.count + 1 } else { numbers[pointer] = made.count }
            if waiting != nil { waitingNumbers[ObjectIdentifier(object as AnyObject)] = made.count }
            made.append(object)
            unfilled.append(waiting)
        }

        /// Where to fill `object` from, when it was made for a reference and waits to be filled
        /// (it is no longer waiting: the caller fills it).
        func take(_ object: AnyObject) -> Unfilled? {
            guard !waitingNumbers.isEmpty, let number = waitingNumbers.removeValue(forKey: ObjectIdentifier(object)) else {
                return nil
            }
            defer { unfilled[number] = nil }
            return unfilled[number]
        }

        /// Whether every entry of the object table was made (the others are reached by nothing).
        var unmadeEntry: Int? { entryNumbers.firstIndex(of: 0) }

        /// The object at `pointer`, and where to fill it from when it waits to be filled (it is
        /// no longer waiting: the caller fills it).
        func take(at pointer: String) -> (object: any AMCCodable, unfilled: Unfilled?)? {
            guard let number = number(at: pointer) else { return nil }
            defer { unfilled[number] = nil }
            if unfilled[number] != nil { waitingNumbers[ObjectIdentifier(made[number] as AnyObject)] = nil }
            return (made[number], unfilled[number])
        }

        /// The next object made for a reference that still waits to be filled, in the order made.
        func nextUnfilled() -> (object: any AMCCodable, unfilled: Unfilled)? {
            while firstWaiting < made.count {
                defer { firstWaiting += 1 }
                if let waiting = unfilled[firstWaiting] {
                    unfilled[firstWaiting] = nil
                    waitingNumbers[ObjectIdentifier(made[firstWaiting] as AnyObject)] = nil
                    return (made[firstWaiting], waiting)
                }
            }
            return nil
        }
    }

    /// An object made for a reference, and where it is to be filled from.
    private struct Unfilled {
        let dictionary: ArchiveDictionary
        /// Where it is: an entry of the object table (no array to hold for each), or elsewhere.
        let place: Place

        enum Place {
            case entry(Int)
            case components([KeyPathTracker.Component])

            /// `tracker`'s place, held as an entry's number where it is one.
            init(_ tracker: KeyPathTracker) {
                let components = tracker.components
                if components.count == 2, components[0] == .key(ObjectTable.key), case let .index(entry) = components[1] {
                    self = .entry(entry)
                } else {
                    self = .components(components)
                }
            }

            var components: [KeyPathTracker.Component] {
                switch self {
                case let .entry(entry): ObjectTable.components(ofEntry: entry)
                case let .components(components): components
                }
            }
        }

        /// The key path components of its place.
        var components: [KeyPathTracker.Component] { place.components }
    }

    /// A decoder; `lenient`: every field and element that can be decoded is, the rest keep
    /// their initial values, and ``problems`` lists each (with unknown keys when
    /// `reportsUnknownKeys`; strict decoding throws for the first). `forgiving`: Booleans read as
    /// numbers and numbers as Booleans (configurations and styles; see ``ValueContext/forgiving``).
    init(
        archiver: AMCArchiver = AMCArchiver(), fillsExistingValues: Bool = false, lenient: Bool = false,
        reportsUnknownKeys: Bool = false, forgiving: Bool = false
    ) {
        self.archiver = archiver
        self.fillsExistingValues = fillsExistingValues
        var context = archiver.context
        context.forgiving = forgiving
        self.context = context
        self.problems = lenient ? [] : nil
        self.reportsUnknownKeys = reportsUnknownKeys
    }

    /// The object a top-level dictionary describes: of the registered class it names (when
    /// `expected` is nil), or of `expected` or a registered subtype of it.
    mutating func decodeRoot(_ root: ArchiveValue, expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        followReferences(in: root)
        guard case let .dictionary(dictionary) = root, ObjectReference.pointer(in: dictionary) == nil else {
            throw mismatch("a dictionary describing an object", root)
        }
        versions = try DocumentVersions(root: dictionary, path: path)
        try checkObjectTable(in: dictionary)
        let className = try self.className(in: dictionary)
        guard let expected else {
            guard let className else { throw path.error(.missingClassName) }
            let type = try registered(className)
            references?.rootType = type
            return try decoded(try instantiate(type, from: dictionary))
        }
        guard let type = try resolve(className, expected: expected) else {
            throw path.error(.unrelatedClass(className: className ?? "", expected: AMC.unqualifiedName(of: expected)))
        }
        references?.rootType = type
        return try decoded(try instantiate(type, from: dictionary))
    }

    /// `raw` as a value of `type`, ready to store in a property of that type: what archive
    /// decoding stores in a field of the type, with `owner`'s struct hooks. Where archive decoding
    /// would leave a field unset (a number for an object property), this throws.
    mutating func decodeValue(_ raw: ArchiveValue, as type: Any.Type, owner: (any AMCCodable)? = nil) throws -> Any {
        followReferences(in: raw)
        let kind = ValueKind.of(type)
        guard let value = try decode(raw, kind: kind, owner: owner) else {
            throw mismatch(AMC.withArticle(AMC.unqualifiedName(of: unwrappedType(type))), raw)
        }
        return try decoded(value)
    }

    /// Fills `instance` from `dictionary`, as decoding an object of its type does, then calls its
    /// ``AMCCodable/amcDidDecode()``.
    mutating func fill<T: AMCCodable>(_ instance: inout T, from dictionary: ArchiveDictionary) throws {
        let isDocument = depth == 0
        if isDocument {
            followReferences(in: .dictionary(dictionary))
            versions = try DocumentVersions(root: dictionary, path: path)
            try checkObjectTable(in: dictionary)
            // The object being filled is the document's root: a reference to "#" names it.
            if let references, references.targets.pointers.contains(ObjectReference.rootPointer),
                RuntimeAccess.shape(of: T.self) == .class
            {
                references.add(instance, at: ObjectReference.rootPointer)
            }
        }
        try enterContainer()
        try fillFields(of: &instance, from: dictionary)
        depth -= 1
        if isDocument { _ = try decoded(instance) }
    }

    /// The object a parsed document describes (see ``decodeRoot(_:expected:)``), without looking
    /// for references in a document whose reader saw none.
    mutating func decodeRoot(_ document: ParsedDocument, expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        searchesReferences = document.holdsReferences
        return try decodeRoot(document.value, expected: expected)
    }

    /// The object a dictionary representation describes (see ``decodeRoot(_:expected:)``).
    mutating func decodeRoot(_ dictionary: [String: Any], expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        try decodeRoot(try ArchiveValue.converting(dictionary, path: &path), expected: expected)
    }

    /// Sets one field of `instance` from `dictionary[key]`: the value is decoded whole, and the
    /// ``AMCCodable/amcDidDecode()`` of each object in it has run, before it is stored.
    mutating func loadValue<Root: AMCCodable>(
        forKey key: String, from dictionary: [String: Any], into instance: inout Root
    ) throws {
        let type = Swift.type(of: instance)
        let plan = TypePlan.of(type, naming: archiver.keyNaming)
        if let refusal = plan.runtimeRefusal { throw AMCError(refusal, keyPath: key) }
        guard let index = plan.indexByName[key] else {
            throw AMCError(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: key)
        }
        let field = plan.fields[index]
        guard let value = dictionary[field.key] ?? field.alternateKeys.lazy.compactMap({ dictionary[$0] }).first else { return }
        guard (plan.lets.isEmpty ? plan.writable : plan.writability(of: Root.self).writable)[index] else {
            throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: key)
        }
        path.push(key: key)
        var raw = try ArchiveValue.converting(value, path: &path, depth: 1)
        path.pop()
        if ObjectReference.targets(in: raw) != nil {
            // References in the value name places in the whole dictionary: that is the document,
            // and the object it describes, "#", is `instance`.
            let root = try ArchiveValue.converting(dictionary, path: &path)
            followReferences(in: root)
            guard case let .dictionary(document) = root, let inDocument = plan.entry(for: field, in: document) else { return }
            raw = inDocument.value
            if let references, references.targets.pointers.contains(ObjectReference.rootPointer),
                RuntimeAccess.shape(of: Root.self) == .class
            {
                references.add(instance, at: ObjectReference.rootPointer)
            }
        }
        path.push(key: key)
        defer { path.pop() }
        // All or nothing: stored once every object in it is filled and every `weak` or `unowned`
        // field in it points at an object something holds (a live object must never point at a
        // freed one).
        guard let value = try fieldValue(field, from: raw, owner: instance) else { return }
        let held = try decoded(value)
        try storeDecoded(field.store(held, in: &instance), held, field.type)
    }

    // MARK: - Objects

    /// Starts following the references in the document `root`, if it has any: decoding then
    /// knows each place a reference names.
    private mutating func followReferences(in root: ArchiveValue) {
        guard searchesReferences, references == nil, path.components.isEmpty, let found = ObjectReference.targets(in: root) else {
            return
        }
        references = References(root: root, targets: found)
        path.track(found.routes)
    }

    private mutating func instantiate(_ type: any AMCCodable.Type, from dictionary: ArchiveDictionary) throws -> any AMCCodable {
        try enterContainer()
        defer { depth -= 1 }
        return try made(type, from: dictionary)
    }

    private mutating func made<T: AMCCodable>(_: T.Type, from dictionary: ArchiveDictionary) throws -> T {
        var instance = T()
        // A place a reference names: known before its fields are read, so that a cycle back to it
        // finds this very object.
        if let references, let pointer = path.trackedPointer, references.targets.pointers.contains(pointer),
            RuntimeAccess.shape(of: T.self) == .class
        {
            references.add(instance, at: pointer)
        }
        try fillFields(of: &instance, from: dictionary)
        return instance
    }

    private mutating func fillFields<T: AMCCodable>(of instance: inout T, from dictionary: ArchiveDictionary) throws {
        let (known, keys) = recentPlans.plan(of: instance, naming: archiver.keyNaming)
        let plan = known.plan
        if let error = plan.keyError(keys: keys) { throw path.error(error) }
        var dictionary = dictionary
        if !known.nilMarked.isEmpty, let listed = dictionary[TypePlan.nilKey] {
            dictionary = try withNils(listed, in: dictionary)
        }
        // Lenient decoding too leaves out an object whose migration failed: the enclosing field
        // or element steps over it.
        // Keys a migration moved a value to, by the key the document has it under (see ``migrated(_:plan:type:)``).
        var movedFrom: [String: String] = [:]
        if plan.version != 0 || versions != nil {
            (dictionary, movedFrom) = try migrated(dictionary, plan: plan, type: Swift.type(of: instance))
        }
        if reportsUnknownKeys { try reportUnknownKeys(in: dictionary, plan: plan) }
        let fieldProblemsStart = problems?.count
        let writability = plan.lets.isEmpty ? nil : plan.writability(of: T.self)
        let writable = writability?.writable ?? plan.writable
        let slots = plan.slots(for: keys, sorted: false)
        // First every field whose value is exactly of its type, through one field base; then the
        // rest (objects, collections, conversions, errors), which need the decoder. Bit n of
        // `pending` marks the field at position n of the plan's fields for the second pass;
        // fields past 64 all go there.
        var pending: UInt64 = 0
        let fields = plan.fields
        // Stores `raw` in the field at `index` when it is exactly of the field's type, or marks
        // the field for the second pass. A field the type cannot set is left alone.
        func store(_ index: Int, _ raw: ArchiveValue, _ base: MutableFieldBase) {
            guard index < 64, writable[index] else { return }
            if known.plain[index], fields[index].fast?.decode(base, raw) == true { return }
            pending |= 1 << index
        }
        let source = dictionary
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
        var hint = 0
        for slot in slots {
            guard case let .field(index) = slot, index >= 64 || pending & (1 << index) != 0 else { continue }
            let field = fields[index]
            guard writable[index], let entry = plan.entry(for: field, in: source, hint: &hint) else { continue }
            let raw = entry.value
            if index >= 64, known.plain[index], let fast = field.fast,
                RuntimeAccess.withMutableFieldBase(of: &instance, { fast.decode($0, raw) })
            {
                continue
            }
            path.push(key: movedFrom.isEmpty ? entry.key : movedFrom[entry.key] ?? entry.key)
            defer { path.pop() }
            do {
                if known.plain[index], let graph = field.graph,
                    try decodeGraphField(graph, of: field.type, from: raw, into: &instance)
                {
                    continue
                }
                try decodeField(field, from: raw, into: &instance)
            } catch {
                try stepOver(error, raw: raw)  // lenient: the field keeps its value
            }
        }
        if let constants = writability?.constants, !constants.isEmpty {
            try checkConstants(constants, of: plan, in: source, owner: instance)
            // Checked last, listed in their places: problems come in declaration order.
            if let fieldProblemsStart { orderProblems(from: fieldProblemsStart, by: plan) }
        }
        if !plan.conditionalFields.isEmpty { try restoreConditionalReferences(of: plan, in: source, into: &instance) }
        // In a document with references, an object's own are filled later perhaps: its hook runs
        // once every object is (see ``decoded(_:)``). A struct's runs now, before it is stored.
        if references != nil, RuntimeAccess.shape(of: T.self) == .class {
            return didDecodeLater.append((instance, Unfilled.Place(path)))
        }
        let here = path
        try didDecode(&instance, at: here)
    }

    /// Calls `instance`'s ``AMCCodable/amcDidDecode()``; lenient decoding steps over its error.
    private mutating func didDecode<T: AMCCodable>(_ instance: inout T, at place: @autoclosure () -> KeyPathTracker) throws {
        do {
            try instance.amcDidDecode()
        } catch {
            try stepOver(place().located(error, hook: "amcDidDecode", typeName: AMC.unqualifiedName(of: T.self)), raw: nil)
        }
    }

    /// `dictionary` with a null under each key that its ``TypePlan/nilKey`` list names (how a
    /// property list holds a nil where a new instance has a value) and that has no value.
    private mutating func withNils(_ listed: ArchiveValue, in dictionary: ArchiveDictionary) throws -> ArchiveDictionary {
        path.push(key: TypePlan.nilKey)
        defer { path.pop() }
        guard case let .array(keys) = listed else { throw mismatch("an array of the keys of nil properties", listed) }
        var dictionary = dictionary
        for (index, key) in keys.enumerated() {
            guard let key = key.string else {
                path.push(index: index)
                defer { path.pop() }
                throw mismatch("the key of a nil property", key)
            }
            dictionary.append(key, .null)
        }
        return dictionary
    }

    /// `dictionary`, an object of `type` as the document's version of it wrote it, brought up to
    /// the type's ``AMCCodable/amcVersion`` by its ``AMCCodable/amcMigrate(_:from:)``. A newer
    /// version than the type's is an error (lenient decoding reports it once per class and reads
    /// the object as it is).
    ///
    /// `movedFrom`: each new key whose value (a dictionary or an array) the migration moved there
    /// unchanged from a key it removed, by that key. The value is decoded at its place in the
    /// document, so that references to it (or into it) find the same objects.
    private mutating func migrated<T: AMCCodable>(
        _ dictionary: ArchiveDictionary, plan: TypePlan, type: T.Type
    ) throws -> (dictionary: ArchiveDictionary, movedFrom: [String: String]) {
        let written = dictionary["class"]?.string
        var found = versions?.version(forAnyOf: [written ?? plan.className, plan.className]) ?? 0
        if found == 0, written == nil, let versions {
            found = versions.version(forAnyOf: archiver.registry.formerNames(of: type))
        }
        guard found != plan.version else { return (dictionary, [:]) }
        guard found < plan.version else {
            let error = path.error(.newerVersion(className: written ?? plan.className, found: found, known: plan.version))
            guard problems != nil else { throw error }
            if newerVersionsReported.insert(written ?? plan.className).inserted {
                problems?.append(AMCProblem(error: error, value: found))
            }
            return (dictionary, [:])
        }
        guard var fields = ArchiveValue.dictionary(dictionary).swiftValue as? [String: Any] else { return (dictionary, [:]) }
        do {
            try type.amcMigrate(&fields, from: found)
        } catch {
            throw path.located(error, hook: "amcMigrate", typeName: plan.className)
        }
        guard case let .dictionary(migrated) = try ArchiveValue.converting(fields, path: &path, depth: depth) else {
            return (dictionary, [:])
        }
        var movedFrom: [String: String] = [:]
        let removed = dictionary.entries.filter { migrated[$0.key] == nil && $0.value.isContainer }
        for entry in migrated.entries where entry.value.isContainer && dictionary[entry.key] == nil {
            if let origin = removed.first(where: { $0.value.isSame(as: entry.value) }) { movedFrom[entry.key] = origin.key }
        }
        return (migrated, movedFrom)
    }

    /// Lenient decoding: a problem for each key of `dictionary` that no field of `plan` reads
    /// (`"class"` and the reserved `$` keys aside), with the nearest key the type has.
    private mutating func reportUnknownKeys(in dictionary: ArchiveDictionary, plan: TypePlan) throws {
        for entry in dictionary.entries where !plan.knownKeys.contains(entry.key) && !entry.key.hasPrefix("$") {
            path.push(key: entry.key)
            defer { path.pop() }
            let error = path.error(
                .unusedKey(
                    key: entry.key, typeName: plan.typeName,
                    suggestion: TypePlan.nearest(to: entry.key, among: plan.knownKeys.subtracting(["class"]))))
            guard problems != nil else { throw error }  // strict: the first is the error
            problems?.append(AMCProblem(error: error, value: entry.value.swiftValue))
        }
    }

    /// Puts the problems from `start` on (of the fields of the object being decoded, whose plan
    /// is `plan`) in the order of the fields they are about.
    private mutating func orderProblems(from start: Int, by plan: TypePlan) {
        guard let count = problems?.count, count - start > 1 else { return }
        let here = path.rendered
        func position(_ problem: AMCProblem) -> Int {
            var rest = Substring(problem.keyPath)
            if !here.isEmpty {
                guard rest.hasPrefix(here) else { return Int.max }
                rest = rest.dropFirst(here.count).drop { $0 == "." }
            }
            let key = String(rest.prefix { $0 != "." && $0 != "[" })
            return plan.fieldsByKey[key].flatMap { plan.indexByName[$0.name] } ?? Int.max
        }
        let ordered = problems![start...].enumerated().sorted { one, two in
            (position(one.element), one.offset) < (position(two.element), two.offset)
        }
        problems!.replaceSubrange(start..., with: ordered.map(\.element))
    }

    /// Lenient decoding records `error` (with the value it is about) and returns, for the caller
    /// to leave that value out and go on; strict decoding, and errors no decoding can go on
    /// from (nesting, the stack, malformed bytes), rethrow it.
    private mutating func stepOver(_ error: any Error, raw: ArchiveValue?) throws {
        guard problems != nil, let amcError = error as? AMCError, amcError.isRecoverable else { throw error }
        problems?.append(AMCProblem(error: amcError, value: raw?.swiftValue))
    }

    /// An error AMC leaves a single property unset for: reported to ``AMC/swallowedErrorHandler``,
    /// or a problem of lenient decoding. Filling a configuration, it is an error: a value there
    /// is meant for the property, and dropping it would lose what a layer below holds.
    private mutating func swallow(_ error: AMCError, raw: ArchiveValue?) throws {
        if problems != nil { return problems!.append(AMCProblem(error: error, value: raw?.swiftValue)) }
        if fillsExistingValues { throw error }
        AMC.reportSwallowed(error)
    }

    private mutating func decodeField<Root: AMCCodable>(
        _ field: FieldPlan, from raw: ArchiveValue, into instance: inout Root
    ) throws {
        let declared = instance.amcFieldType(forKey: field.name)
        let inferred = field.kind.fieldType
        if fillsExistingValues, declared == inferred, case let .dictionary(dictionary) = raw, dictionary["class"] == nil,
            ObjectReference.pointer(in: dictionary) == nil,
            let current = unwrappedValue(field.value(in: instance)) as? any AMCCodable
        {
            try storeDecoded(field.store(try filled(current, from: dictionary), in: &instance), current, field.type)
            return
        }
        guard let value = try fieldValue(field, from: raw, owner: instance) else { return }
        try storeDecoded(field.store(value, in: &instance), value, field.type)
    }

    /// The value `raw` gives `field` of `owner`, as its ``AMCCodable/amcFieldType(forKey:)``
    /// declares it; nil when it is left unset, as AMC does for a scalar where an object belongs.
    private mutating func fieldValue<Root: AMCCodable>(_ field: FieldPlan, from raw: ArchiveValue, owner: Root) throws
        -> Any?
    {
        let declared = owner.amcFieldType(forKey: field.name)
        let inferred = field.kind.fieldType
        if declared == inferred { return try decode(raw, kind: field.kind, owner: owner) }
        guard declared == .structure else {
            throw path.error(.fieldTypeMismatch(key: field.name, declared: declared, inferred: inferred))
        }
        var structType = field.type
        while let optional = structType as? any OptionalContainer.Type { structType = optional.wrappedType }
        guard let hooked = try hookedValue(raw, type: structType, owner: owner) else {
            throw path.error(ValueKind.unhandledStruct(structType, operation: .decode))
        }
        return hooked
    }

    /// `value` (an object or struct a field holds) filled from `dictionary`: the same object, or
    /// a filled copy of the struct.
    private mutating func filled<Value: AMCCodable>(_ value: Value, from dictionary: ArchiveDictionary) throws -> Value {
        var value = value
        try fill(&value, from: dictionary)
        return value
    }

    /// Decodes a field with a typed accessor (see ``GraphField``); false, having stored nothing,
    /// when `raw` is not what the accessor takes, for the general path to convert or report.
    private mutating func decodeGraphField<Root>(
        _ graph: GraphField, of fieldType: Any.Type, from raw: ArchiveValue, into instance: inout Root
    ) throws -> Bool {
        switch graph {
        case let .object(type, _, write):
            guard case let .dictionary(dictionary) = raw else { return false }
            guard let object = try decodeObject(dictionary, expected: type, element: false) else { return true }  // left unset
            try storeDecoded(RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, object) }, object, fieldType)
        case let .objects(type, _, write):
            guard case let .array(elements) = raw else { return false }
            try enterContainer()
            defer { depth -= 1 }
            let stored = try RuntimeAccess.withMutableFieldBase(of: &instance) { base in
                try write(base, elements.count) { index in try decodeElement(elements[index], at: index, expected: type) }
            }
            if !stored {  // an element not of `type` (the registry resolves only types that can be there)
                throw path.error(
                    .typeMismatch(
                        expected: "an array of \(AMC.unqualifiedName(of: type))",
                        found: "an element of another type"))
            }
        case let .scalars(_, write):
            guard case let .array(elements) = raw else { return false }
            try enterContainer()
            depth -= 1
            return RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, elements) }
        case let .scalarDictionary(_, write):
            guard case let .dictionary(entries) = raw else { return false }
            try enterContainer()
            depth -= 1
            return RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, entries) }
        }
        return true
    }

    /// The object an element of an array of `type`s describes; nil when lenient decoding leaves it
    /// out.
    private mutating func decodeElement(_ element: ArchiveValue, at index: Int, expected type: any AMCCodable.Type) throws
        -> (any AMCCodable)?
    {
        path.push(index: index)
        defer { path.pop() }
        do {
            guard case let .dictionary(dictionary) = element else {
                throw mismatch("a dictionary describing \(AMC.withArticle(AMC.unqualifiedName(of: type)))", element)
            }
            return try decodeObject(dictionary, expected: type, element: true)
        } catch {
            try stepOver(error, raw: element)  // lenient: the element is left out
            return nil
        }
    }

    /// Throws the error of a value a field of `fieldType` cannot hold, unless `stored`.
    private func storeDecoded(_ stored: Bool, _ value: Any, _ fieldType: Any.Type) throws {
        guard !stored else { return }
        throw path.error(
            .typeMismatch(
                expected: "a value of type \(AMC.unqualifiedName(of: fieldType))",
                found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
    }

    /// The class named by `"class"`, if any; throws when `"class"` holds something else than a string.
    private func className(in dictionary: ArchiveDictionary) throws -> String? {
        guard let value = dictionary["class"] else { return nil }
        guard case let .string(name) = value else {
            throw mismatch("a class name string under \"class\"", value)
        }
        return name
    }

    /// The type to instantiate for data naming `className` where `expected` is declared: the
    /// expected type itself, or a registered type that can be stored there; nil for a registered
    /// type that cannot. Throws for a name that is not registered or names several types.
    private func resolve(_ className: String?, expected: Any.Type) throws -> (any AMCCodable.Type)? {
        try resolve(className, expected: expected, codable: expected as? any AMCCodable.Type)
    }

    /// ``resolve(_:expected:)`` for a caller that has `expected` as an ``AMCCodable`` type already
    /// (`expectedCodable`, nil when it is not one): the cast looks up a conformance at run time,
    /// too slow to make for every object.
    private func resolve(_ className: String?, expected: Any.Type, codable expectedCodable: (any AMCCodable.Type)?) throws
        -> (any AMCCodable.Type)?
    {
        guard let className else { return expectedCodable }
        if let expectedCodable, expectedCodable.amcClassName == className { return expectedCodable }
        let registered = try self.registered(className)
        if RuntimeAccess.shape(of: expected) == .existential { return registered }
        func isInstantiable<Expected>(_: Expected.Type) -> Bool { registered is Expected.Type }
        return isInstantiable(expected) ? registered : nil
    }

    /// The one type registered under `className`; throws, naming the fix, for none or several.
    private func registered(_ className: String) throws -> any AMCCodable.Type {
        switch archiver.registry.lookup(className) {
        case let .type(type): return type
        case .missing: throw path.error(.unregisteredClass(className: className))
        case let .ambiguous(types):
            throw path.error(.ambiguousClassName(className: className, typeNames: types.map(AMCRegistry.fullName)))
        }
    }

    // MARK: - Values

    /// The value of the given kind that `raw` holds; nil when it is to be left unset.
    /// `element`: `raw` is an element of a collection, which is never left out: what a single
    /// property would leave unset (a scalar or an unrelated class where an object belongs) is an
    /// error there.
    private mutating func decode(_ raw: ArchiveValue, kind: ValueKind, owner: (any AMCCodable)?, element: Bool = false) throws
        -> Any?
    {
        // A value of the place's own type in a dictionary representation (an object, a Set).
        if case let .foreign(box) = raw, kind.holds(box.value) { return box.value }
        switch kind {
        case let .scalar(codec):
            do {
                return try codec.decode(raw, context)
            } catch {
                throw path.located(error, hook: "init(amcStringValue:)", typeName: codec.typeName)
            }
        case let .optional(type, wrapped):
            if case .null = raw { return type.noneValue }
            // An empty string is nil for optionals of what cannot be empty (a number, a colour, an
            // object): decided here for objects, which lenient decoding would report instead.
            if case .object = wrapped, let string = raw.string, TextTrimming.isBlank(string) { return type.noneValue }
            do {
                return try decode(raw, kind: wrapped, owner: owner, element: element)
            } catch {
                // An empty string is nil for optionals of what cannot be empty (a number, a colour).
                if let string = raw.string, TextTrimming.isBlank(string) { return type.noneValue }
                throw error
            }
        case let .opaqueStruct(type, _):
            guard let value = try hookedValue(raw, type: type, owner: owner) else {
                throw path.error(ValueKind.unhandledStruct(type, operation: .decode))
            }
            return value
        case let .codable(route):
            // A string the owner's struct hook wrote before the type took this route still reads.
            if route.isHookable, owner != nil, raw.string != nil, let value = try hookedValue(raw, type: route.type, owner: owner)
            {
                return value
            }
            do {
                return try route.decode(raw, context)
            } catch {
                throw route.located(error, operation: .decode, raw: raw).under(path.rendered)
            }
        case let .object(type):
            guard case let .dictionary(dictionary) = raw else {
                let error = mismatch("a dictionary describing \(AMC.withArticle(AMC.unqualifiedName(of: type)))", raw)
                if element { throw error }
                try swallow(error, raw: raw)  // AMC leaves the property unset; the handler hears of it
                return nil
            }
            return try decodeObject(dictionary, expected: type, element: element)
        case let .sequence(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            if type.isUnordered { try fillNow(items) }  // hashed as they are
            return try built(type.make(from: items), type, raw)
        case let .orderedCollection(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            try fillNow(items)
            return try built(try hook { try type.amcMake(from: items) }, type, raw)
        case let .dictionary(type, keyCodec, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            return try built(type.make(from: try keyed(entries, keyCodec)), type, raw)
        case let .keyedCollection(type, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            try fillNow(Array(entries.values))
            return try built(try hook { try type.amcMake(from: entries) }, type, raw)
        case let .dynamic(type):
            return try decodeDynamic(raw, expected: type)
        case let .unsupported(type, reason):
            throw path.error(.unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: reason))
        }
    }

    /// The object `dictionary` describes where `expected` is declared; nil (reported) for a
    /// registered class unrelated to it in a single property, which AMC leaves unset.
    private mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: Any.Type, element: Bool
    ) throws -> (any AMCCodable)? {
        try decodeObject(dictionary, expected: expected, codable: expected as? any AMCCodable.Type, element: element)
    }

    /// ``decodeObject(_:expected:element:)`` where an object of an ``AMCCodable`` type belongs.
    private mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: any AMCCodable.Type, element: Bool
    ) throws -> (any AMCCodable)? {
        try decodeObject(dictionary, expected: expected, codable: expected, element: element)
    }

    /// ``decodeObject(_:expected:element:)``, with `expected` as an ``AMCCodable`` type when it is
    /// one (see ``resolve(_:expected:codable:)``).
    private mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: Any.Type, codable: (any AMCCodable.Type)?, element: Bool
    ) throws -> (any AMCCodable)? {
        if let pointer = ObjectReference.pointer(in: dictionary) { return try referenced(pointer, expected: expected) }
        if dictionary.count == 1, let entry = dictionary.entries.first, entry.key == ObjectReference.key {
            // Only a broken reference looks like this where an object belongs (ours are escaped).
            guard let pointer = entry.value.string else {
                throw mismatch("a reference: a \"$ref\" string starting with \"#\"", entry.value)
            }
            throw invalid(pointer, "its value must be a string starting with \"#\"")
        }
        if let references, let pointer = path.trackedPointer, let (known, unfilled) = references.take(at: pointer) {
            // Made already, for a reference that came first: filled here if it is not yet.
            if unfilled != nil { try fillMade(known, from: dictionary) }
            return try checked(known, expected)
        }
        let className = try className(in: dictionary)
        guard let type = try resolve(className, expected: expected, codable: codable) else {
            let error = path.error(.unrelatedClass(className: className ?? "", expected: AMC.unqualifiedName(of: expected)))
            if element { throw error }
            try swallow(error, raw: .dictionary(dictionary))
            return nil
        }
        return try instantiate(type, from: dictionary)
    }

    private mutating func decodeArray(_ raw: ArchiveValue, elementKind: ValueKind, owner: (any AMCCodable)?) throws -> [Any] {
        guard case let .array(elements) = raw else { throw mismatch("an array", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [Any] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            path.push(index: index)
            defer { path.pop() }
            do {
                if let item = try decode(element, kind: elementKind, owner: owner, element: true) { items.append(item) }
            } catch {
                try stepOver(error, raw: element)  // lenient: the element is left out
            }
        }
        return items
    }

    private mutating func decodeDictionary(
        _ raw: ArchiveValue, valueKind: ValueKind, owner: (any AMCCodable)?
    ) throws -> [String: Any] {
        guard case let .dictionary(entries) = raw else { throw mismatch("a dictionary", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [String: Any] = [:]
        items.reserveCapacity(entries.count)
        // A user's one-key dictionary `$$ref` was written for `$ref` (see ObjectReference).
        let unescapes = entries.count == 1 && ObjectReference.isEscapable(entries.entries[0].key, minimumDollars: 2)
        for entry in entries.entries where items[entry.key] == nil {
            path.push(key: entry.key)
            defer { path.pop() }
            do {
                if let item = try decode(entry.value, kind: valueKind, owner: owner, element: true) {
                    items[unescapes ? String(entry.key.dropFirst()) : entry.key] = item
                }
            } catch {
                try stepOver(error, raw: entry.value)  // lenient: the entry is left out
            }
        }
        return items
    }

    /// `entries` with their keys converted by `codec` (none: `String` keys); two strings that
    /// name the same key (`"1"` and `"01"` for an `Int`) are an error.
    private mutating func keyed(_ entries: [String: Any], _ codec: ScalarCodec?) throws -> [(key: Any, value: Any)] {
        guard let codec else { return entries.map { ($0.key as Any, $0.value) } }
        var keys: [AnyHashable: String] = [:]
        var converted: [(key: Any, value: Any)] = []
        converted.reserveCapacity(entries.count)
        for (text, value) in entries {
            path.push(key: text)
            defer { path.pop() }
            let key: Any
            do {
                key = try codec.decode(.string(text), context)
            } catch {
                throw path.located(error, hook: "init(amcStringValue:)", typeName: codec.typeName)
            }
            if let hashable = key as? AnyHashable, let other = keys.updateValue(text, forKey: hashable) {
                throw path.error(
                    .typeMismatch(
                        expected: "one key for each \(codec.typeName)", found: "\"\(other)\" and \"\(text)\" for \(key)"))
            }
            converted.append((key, value))
        }
        return converted
    }

    /// A value for an `Any` or protocol-typed place: dictionaries with `"class"` become objects
    /// (of registered types only), other dictionaries and arrays are decoded element by element,
    /// numbers become `Int`, `UInt64` or `Double`.
    private mutating func decodeDynamic(_ raw: ArchiveValue, expected: Any.Type) throws -> Any? {
        switch raw {
        case .null:
            return nil
        case let .dictionary(dictionary):
            if ObjectReference.pointer(in: dictionary) != nil
                || path.trackedPointer.flatMap({ references?.object(at: $0) }) != nil
            {
                return try decodeObject(dictionary, expected: expected, element: true)
            }
            if let className = try className(in: dictionary) {
                guard let type = try resolve(className, expected: expected) else {
                    throw path.error(.unrelatedClass(className: className, expected: AMC.unqualifiedName(of: expected)))
                }
                return try instantiate(type, from: dictionary)
            }
            return try decodeDictionary(raw, valueKind: .dynamic(Any.self), owner: nil)
        case .array:
            return try decodeArray(raw, elementKind: .dynamic(Any.self), owner: nil)
        case let .longNumber(text) where DecimalText.significantDigits(text.utf8) > Decimal.digits:
            // An `Any` place holds a long number as a `Decimal`, which would round this one.
            throw path.error(.valueOutOfRange(value: text, typeName: "Decimal"))
        default:
            return raw.swiftValue
        }
    }

    /// The value of a struct or enum with no ``AMCStructCodable`` conformance that the owner's
    /// struct hook (or the default one when there is no owner) reads from the string `raw`; nil
    /// when the hook does not handle the type, which is remembered for the rest of the document.
    private mutating func hookedValue(_ raw: ArchiveValue, type: Any.Type, owner: (any AMCCodable)?) throws -> Any? {
        if case let .foreign(box) = raw, Swift.type(of: box.value) == type { return box.value }
        let name = AMC.unqualifiedName(of: type)
        guard case let .string(string) = raw else { throw mismatch("\(AMC.withArticle(name)) string", raw) }
        let codable = type as? any AMCStructCodable.Type
        let use = HookUse(owner: owner.map { Swift.type(of: $0) }, value: type)
        if codable == nil, declinedHooks.contains(use) { return nil }
        let value: Any
        do {
            if let codable {
                value = try codable.init(amcStringValue: string)  // a conformance comes before any hook
            } else if let owner {
                value = try owner.amcDecodeStruct(string, named: name)
            } else {
                value = try AMC.defaultDecodeStruct(string, named: name)
            }
        } catch let error as AMCError where codable == nil && error.isUnhandledStruct(named: name) {
            declinedHooks.insert(use)
            return nil
        } catch {
            throw path.located(error, hook: codable == nil ? "amcDecodeStruct" : "init(amcStringValue:)", typeName: name)
        }
        guard Swift.type(of: value) == type else {
            throw path.error(
                .typeMismatch(
                    expected: "amcDecodeStruct to return a \(name)",
                    found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
        }
        return value
    }

    // MARK: - References

    /// A `let` every new instance agrees on is never written (see
    /// ``TypePlan/writability(of:)``): an archive holding another value for it is an error.
    private mutating func checkConstants<T: AMCCodable>(
        _ constants: [Int: String], of plan: TypePlan, in dictionary: ArchiveDictionary, owner: T
    ) throws {
        for (index, fingerprint) in constants.sorted(by: { $0.key < $1.key }) {
            let field = plan.fields[index]
            guard let entry = plan.entry(for: field, in: dictionary) else { continue }
            let (key, raw) = (entry.key, entry.value)
            path.push(key: key)
            defer { path.pop() }
            do {
                let value = try decode(raw, kind: field.kind, owner: owner)
                guard value.map({ TypePlan.fingerprint($0, kind: field.kind) }) != fingerprint else { continue }
                throw path.error(.unrestorableLet(key: field.name, typeName: AMC.unqualifiedName(of: T.self)))
            } catch {
                try stepOver(error, raw: raw)
            }
        }
    }

    /// Points the `weak` and `unowned` fields of `instance` at the objects their references name
    /// (an `unowned let` too: a reference is never built into the code). A full object there is decoded too,
    /// but, as in memory, stays only if something else holds it (see ``decoded(_:)``).
    private mutating func restoreConditionalReferences<T: AMCCodable>(
        of plan: TypePlan, in dictionary: ArchiveDictionary, into instance: inout T
    ) throws {
        for field in plan.conditionalFields {
            guard let entry = plan.entry(for: field, in: dictionary) else { continue }
            let (key, raw) = (entry.key, entry.value)
            if case .null = raw { continue }
            path.push(key: key)
            defer { path.pop() }
            do {
                try restoreConditionalReference(field, from: raw, into: &instance)
            } catch {
                try stepOver(error, raw: raw)
            }
        }
    }

    /// Points one `weak` or `unowned` field at the object `raw` names.
    private mutating func restoreConditionalReference<T: AMCCodable>(
        _ field: FieldPlan, from raw: ArchiveValue, into instance: inout T
    ) throws {
        let expected = unwrappedType(field.type)
        guard case let .dictionary(description) = raw else {
            throw mismatch("a reference to \(AMC.withArticle(AMC.unqualifiedName(of: expected))) ({\"$ref\": \"#/…\"})", raw)
        }
        guard let object = try decodeObject(description, expected: expected, element: false) else {
            return  // unrelated: reported
        }
        guard let ownership = field.field.ownership else {
            throw path.error(
                .unsupportedType(
                    typeName: AMC.unqualifiedName(of: field.type),
                    reason: "the runtime's field records do not say whether it is weak or unowned"))
        }
        try storeDecoded(field.storeReference(object as AnyObject, in: &instance), object, field.type)
        conditionalTargets.append(
            ConditionalTarget(
                object: object as AnyObject, isWeak: ownership == .weak, pointer: ObjectReference.pointer(in: description),
                path: path))
    }

    /// An object a `weak` or `unowned` field was pointed at.
    private struct ConditionalTarget {
        weak var object: AnyObject?
        let isWeak: Bool
        /// The reference's pointer; nil for an object written in the field itself.
        let pointer: String?
        /// Where the field is, for the error (made only when needed).
        let path: KeyPathTracker

        /// What to say when nothing else holds the object.
        var error: AMCError {
            let property = isWeak ? "a weak" : "an unowned"
            guard let pointer else {
                return path.error(
                    .typeMismatch(
                        expected: "a reference to an object the document holds elsewhere",
                        found: "an object nothing else holds, which \(property) property does not keep"))
            }
            return path.error(
                .invalidReference(
                    pointer: pointer,
                    reason: "nothing else in the document holds the object it names, and \(property) property does not keep it"))
        }
    }

    /// `result`, the whole of a document, once only it holds the objects decoding made: a `weak`
    /// field whose object nothing holds is nil, as it would be in memory, and
    /// ``AMC/swallowedErrorHandler`` hears of it; an `unowned` one would dangle, an error.
    private mutating func decoded<Result>(_ result: Result) throws -> Result {
        try fillUnfilled()
        references = nil
        var filled = didDecodeLater
        didDecodeLater = []
        for (object, place) in filled {
            func call<T: AMCCodable>(_ object: T) throws {
                var instance = object  // a class: the same object
                try didDecode(&instance, at: KeyPathTracker(components: place.components, routes: nil))
            }
            try call(object)
        }
        filled.removeAll()  // so that only `result` holds what it holds, for the check below
        let targets = conditionalTargets
        conditionalTargets = []
        for target in targets where target.object == nil {
            // An unowned reference would dangle: an error even in lenient decoding.
            if target.isWeak { try swallow(target.error, raw: nil) } else { throw target.error }
        }
        return result
    }

    /// The object `pointer` names, where `expected` is declared: decoded once, at its own place,
    /// whether the reference comes before or after it.
    private mutating func referenced(_ pointer: String, expected: Any.Type) throws -> any AMCCodable {
        guard let references else { throw invalid(pointer, "the document has no such place") }
        if let known = references.object(at: pointer) { return try checked(known, expected) }
        let target: ArchiveValue
        let place: Unfilled.Place
        do {
            if let entry = references.entry(named: pointer), let table = references.table {
                (target, place) = (table[table.startIndex + entry], .entry(entry))
            } else {
                let found = try ObjectReference.target(of: pointer, in: references.root)
                (target, place) = (found.0, .components(found.1))
            }
        } catch {
            throw invalid(pointer, error.reason)
        }
        if let problem = ObjectReference.notAnObject(target) { throw invalid(pointer, problem) }
        guard case let .dictionary(dictionary) = target else { throw invalid(pointer, "it names no object") }
        let type: any AMCCodable.Type
        if let className = try className(in: dictionary) {
            guard let resolved = try resolve(className, expected: expected) else {
                throw path.error(.unrelatedClass(className: className, expected: AMC.unqualifiedName(of: expected)))
            }
            type = resolved
        } else {
            // Written without its class, as the declared type of its place (see AMCClassNames).
            guard let declared = try declaredClass(at: place.components) else {
                throw invalid(pointer, "it names a dictionary without \"class\"")
            }
            type = declared
        }
        guard RuntimeAccess.shape(of: type) == .class else {
            throw invalid(pointer, "it names a \(type.amcClassName) value, not an object")
        }
        // Made now and filled at its own place later, so that the places below it are right and
        // a chain of references is followed without recursion.
        let object = try checked(type.init(), expected)
        references.add(object, at: pointer, unfilled: Unfilled(dictionary: dictionary, place: place))
        return object
    }

    /// The root's object table (see ``ObjectTable``), when it has one: an array, each of whose
    /// entries a reference names (a writer puts nothing else there; anything else is a document
    /// changed by hand or made to mislead, and would be dropped unseen).
    private mutating func checkObjectTable(in root: ArchiveDictionary) throws {
        guard let table = root[ObjectTable.key] else { return }
        path.push(key: ObjectTable.key)
        defer { path.pop() }
        guard case let .array(entries) = table else { throw mismatch("an array of objects (the object table)", table) }
        for index in entries.indices where references?.targets.entries[index] != true {
            path.push(index: index)
            defer { path.pop() }
            try stepOver(
                path.error(.typeMismatch(expected: "an object that a reference names", found: "an entry no reference names")),
                raw: entries[index])
        }
    }

    /// Fills the objects references made whose places decoding did not reach, each at its place,
    /// until none is left (filling one may make more).
    private mutating func fillUnfilled() throws {
        guard let references else { return }
        while let (object, unfilled) = references.nextUnfilled() { try fill(object, from: unfilled) }
        if let entry = references.unmadeEntry, references.table != nil {
            path.push(key: ObjectTable.key)
            path.push(index: entry)
            defer {
                path.pop()
                path.pop()
            }
            // Named by references only from entries nothing reaches: it would be dropped unseen.
            try stepOver(
                path.error(
                    .typeMismatch(expected: "an object that a reference names", found: "an entry nothing in the document reaches")
                ),
                raw: nil)
        }
    }

    /// The objects among `items` made for a reference and not filled yet, filled now: a set hashes
    /// them, a collection's own initializer reads them.
    private mutating func fillNow(_ items: [Any]) throws {
        guard let references else { return }
        for item in items {
            guard RuntimeAccess.shape(of: Swift.type(of: item)) == .class, let unfilled = references.take(item as AnyObject),
                let object = item as? any AMCCodable
            else { continue }
            try fill(object, from: unfilled)
        }
    }

    /// Fills `object`, made for a reference, at its place.
    private mutating func fill(_ object: any AMCCodable, from unfilled: Unfilled) throws {
        guard let references else { return }
        let (here, hereDepth) = (path, depth)
        path = KeyPathTracker(components: unfilled.components, routes: references.routes)
        depth = path.components.count
        defer { (path, depth) = (here, hereDepth) }
        do {
            try fillMade(object, from: unfilled.dictionary)
        } catch {
            try stepOver(error, raw: .dictionary(unfilled.dictionary))  // lenient: it keeps what it was made with
        }
    }

    /// Fills `object`, made for a reference, from `dictionary`, as decoding it there would.
    private mutating func fillMade(_ object: any AMCCodable, from dictionary: ArchiveDictionary) throws {
        func fill<T: AMCCodable>(_ object: T) throws {
            var instance = object  // a class: the same object
            try fillFields(of: &instance, from: dictionary)
        }
        try enterContainer()
        defer { depth -= 1 }
        try fill(object)
    }

    /// The class of the object at `components` when its dictionary names none: the type its
    /// place declares, found by walking down from the root object through the field plans of
    /// the objects on the way (and the classes they name). Nil where a place on the way is `Any`
    /// or a protocol (whose objects always name their class) or the walk leaves the document.
    private func declaredClass(at components: [KeyPathTracker.Component]) throws -> (any AMCCodable.Type)? {
        guard let references, let rootType = references.rootType else { return nil }
        var value = references.root
        var kind = ValueKind.object(rootType)
        for component in components {
            while case let .optional(_, wrapped) = kind { kind = wrapped }
            // An object in an `Any` place names its class: the walk goes on from it.
            if case .dynamic = kind, case let .dictionary(dictionary) = value, let name = try className(in: dictionary) {
                kind = .object(try registered(name))
            }
            switch (kind, component, value) {
            case let (.object(declared), .key(key), .dictionary(dictionary)):
                guard let type = try resolve(try className(in: dictionary), expected: declared),
                    let field = TypePlan.of(type, naming: archiver.keyNaming).field(named: key), let next = dictionary[key]
                else {
                    return nil
                }
                (kind, value) = (field.kind, next)
            case let (.sequence(_, element), .index(index), .array(elements)),
                let (.orderedCollection(_, element), .index(index), .array(elements)):
                guard elements.indices.contains(index) else { return nil }
                (kind, value) = (element, elements[index])
            case let (.dictionary(_, _, element), .key(key), .dictionary(dictionary)),
                let (.keyedCollection(_, element), .key(key), .dictionary(dictionary)):
                guard let next = dictionary[key] else { return nil }
                (kind, value) = (element, next)
            default:
                return nil
            }
        }
        while case let .optional(_, wrapped) = kind { kind = wrapped }
        guard case let .object(declared) = kind else { return nil }
        return declared
    }

    /// `object`, when it can be stored where `expected` is declared.
    private func checked(_ object: any AMCCodable, _ expected: Any.Type) throws -> any AMCCodable {
        if Swift.type(of: object) == expected { return object }
        func fits<Expected>(_: Expected.Type) -> Bool { object is Expected }
        guard fits(expected) else {
            throw path.error(
                .unrelatedClass(className: Swift.type(of: object).amcClassName, expected: AMC.unqualifiedName(of: expected)))
        }
        return object
    }

    private func invalid(_ pointer: String, _ reason: String) -> AMCError {
        path.error(.invalidReference(pointer: pointer, reason: reason))
    }

    // MARK: - Helpers

    private func hook<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw path.located(error, hook: "collection initializer", typeName: "\(T.self)")
        }
    }

    private func built(_ value: Any?, _ type: Any.Type, _ raw: ArchiveValue) throws -> Any {
        guard let value else {
            throw path.error(
                .typeMismatch(
                    expected: "elements of \(AMC.unqualifiedName(of: type))",
                    found: "\(raw.summary) with elements of other types"))
        }
        return value
    }

    private func mismatch(_ expected: String, _ raw: ArchiveValue) -> AMCError {
        path.error(.typeMismatch(expected: expected, found: raw.summary))
    }

    private mutating func enterContainer() throws {
        if let refusal = NestingDepth.refusal(atDepth: depth, limit: archiver.maximumDepth) { throw path.error(refusal) }
        depth += 1
    }
}
