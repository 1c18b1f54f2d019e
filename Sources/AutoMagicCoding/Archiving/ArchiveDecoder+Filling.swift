import Foundation

// Filling objects: making the allowed type, storing each field through its plan, `amcDidDecode`,
// and the check that constant `let`s agree.

extension ArchiveDecoder {
    mutating func instantiate(_ type: any AMCCodable.Type, from dictionary: ArchiveDictionary) throws -> any AMCCodable {
        try enterContainer()
        defer { depth -= 1 }
        return try made(type, from: dictionary)
    }

    mutating func made<T: AMCCodable>(_: T.Type, from dictionary: ArchiveDictionary) throws -> T {
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

    mutating func fillFields<T: AMCCodable>(of instance: inout T, from dictionary: ArchiveDictionary) throws {
        let (known, keys) = recentPlans.plan(of: instance, naming: archiver.keyNaming)
        let plan = known.plan
        if let error = plan.keyError(keys: keys) { throw path.error(error) }
        var dictionary = dictionary
        if !known.nilMarked.isEmpty, let listed = dictionary[reserved: .nils] {
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
        // First every field whose value is exactly of its type; then the rest, which need the decoder.
        let pending = FastFill.fill(
            &instance, from: dictionary, known: known, writable: writable, slots: slots, keyFields: &keyFields)
        let source = dictionary
        let fields = plan.fields
        var hint = 0
        for slot in slots {
            guard case let .field(index) = slot, pending.contains(index) else { continue }
            let field = fields[index]
            guard let entry = plan.entry(for: field, in: source, hint: &hint) else { continue }
            let raw = entry.value
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
        if let references, RuntimeAccess.shape(of: T.self) == .class {
            return references.addFilled(instance, at: path)
        }
        let here = path
        try didDecode(&instance, at: here)
    }

    /// Calls `instance`'s ``AMCCodable/amcDidDecode()``; lenient decoding steps over its error.
    mutating func didDecode<T: AMCCodable>(_ instance: inout T, at place: @autoclosure () -> KeyPathTracker) throws {
        do {
            try instance.amcDidDecode()
        } catch {
            try stepOver(place().located(error, hook: "amcDidDecode", typeName: AMC.unqualifiedName(of: T.self)), raw: nil)
        }
    }

    mutating func decodeField<Root: AMCCodable>(
        _ field: FieldPlan, from raw: ArchiveValue, into instance: inout Root
    ) throws {
        let declared = Swift.type(of: instance).amcFieldType(forKey: field.name)
        let inferred = field.kind.fieldType
        if fillsExistingValues, declared == inferred, case let .dictionary(dictionary) = raw,
            dictionary[reserved: .className] == nil,
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
    mutating func fieldValue<Root: AMCCodable>(_ field: FieldPlan, from raw: ArchiveValue, owner: Root) throws
        -> Any?
    {
        let declared = Swift.type(of: owner).amcFieldType(forKey: field.name)
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
    mutating func filled<Value: AMCCodable>(_ value: Value, from dictionary: ArchiveDictionary) throws -> Value {
        var value = value
        try fill(&value, from: dictionary)
        return value
    }

    /// Decodes a field with a typed accessor (see ``GraphField``); false, having stored nothing,
    /// when `raw` is not what the accessor takes, for the general path to convert or report.
    mutating func decodeGraphField<Root>(
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
    mutating func decodeElement(_ element: ArchiveValue, at index: Int, expected type: any AMCCodable.Type) throws
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
    func storeDecoded(_ stored: Bool, _ value: Any, _ fieldType: Any.Type) throws {
        guard !stored else { return }
        throw path.error(
            .typeMismatch(
                expected: "a value of type \(AMC.unqualifiedName(of: fieldType))",
                found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
    }

    /// The class named by `"class"`, if any; throws when `"class"` holds something else than a string.
    func className(in dictionary: ArchiveDictionary) throws -> String? {
        guard let value = dictionary[reserved: .className] else { return nil }
        guard case let .string(name) = value else {
            throw mismatch("a class name string under \"class\"", value)
        }
        return name
    }

    /// The type to instantiate for data naming `className` where `expected` is declared: the
    /// expected type itself, or a registered type that can be stored there; nil for a registered
    /// type that cannot. Throws for a name that is not registered or names several types.
    func resolve(_ className: String?, expected: Any.Type) throws -> (any AMCCodable.Type)? {
        try resolve(className, expected: expected, codable: expected as? any AMCCodable.Type)
    }

    /// ``resolve(_:expected:)`` for a caller that has `expected` as an ``AMCCodable`` type already
    /// (`expectedCodable`, nil when it is not one): the cast looks up a conformance at run time,
    /// too slow to make for every object.
    func resolve(_ className: String?, expected: Any.Type, codable expectedCodable: (any AMCCodable.Type)?) throws
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
    func registered(_ className: String) throws -> any AMCCodable.Type {
        switch archiver.registry.lookup(className) {
        case let .type(type): return type
        case .missing: throw path.error(.unregisteredClass(className: className))
        case let .ambiguous(types):
            throw path.error(.ambiguousClassName(className: className, typeNames: types.map(AMCRegistry.fullName)))
        }
    }

    /// A `let` every new instance agrees on is never written (see
    /// ``TypePlan/writability(of:)``): an archive holding another value for it is an error.
    mutating func checkConstants<T: AMCCodable>(
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
}
