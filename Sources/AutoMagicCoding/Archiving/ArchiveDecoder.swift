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
    let context: ValueContext
    var path = KeyPathTracker()
    var depth = 0
    /// The owners whose struct hook does not handle a type that has a route of its own.
    var declinedHooks = Set<HookUse>()
    /// The references of the document being decoded, when it has any.
    var references: References?
    /// The references of a document decoded before, emptied, for the next (see
    /// ``References/of(_:in:)``).
    var keptReferences: References?
    /// False when the document is known to hold no reference (see ``ParsedDocument``).
    var searchesReferences = true
    /// The objects `weak` and `unowned` fields were pointed at, to check once the document is
    /// decoded that something else holds them.
    var conditionalTargets: [ConditionalTarget] = []
    /// The versions the document records for its types, when it records any.
    var versions: DocumentVersions?
    /// Lenient decoding: the problems stepped over so far, in document order; nil when strict
    /// (every problem throws).
    var problems: [AMCProblem]?
    /// Keys that no property reads are problems too (lenient), or errors (strict).
    let reportsUnknownKeys: Bool
    /// The classes whose newer version a lenient decoding reported.
    var newerVersionsReported = Set<String>()
    /// The plans of the types filled last.
    var recentPlans = RecentPlans()
    /// Which field each key of the document names, by type.
    var keyFields = DocumentKeyFields()

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
        return try withScratch { try $0.decodeRoot(document.value, expected: expected) }
    }

    /// The object a dictionary representation describes (see ``decodeRoot(_:expected:)``).
    mutating func decodeRoot(_ dictionary: [String: Any], expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        try withScratch { decoder in
            try decoder.decodeRoot(try ArchiveValue.converting(dictionary, path: &decoder.path), expected: expected)
        }
    }

    /// Runs `body` with what a finished decoder left (see ``DecoderScratch``), and leaves this
    /// one's for the next when `body` returns.
    private mutating func withScratch<Result>(_ body: (inout ArchiveDecoder) throws -> Result) throws -> Result {
        let scratch = DecoderScratch.recycler.take() ?? DecoderScratch()
        swap(&path, &scratch.path)
        swap(&keyFields, &scratch.keyFields)
        if scratch.keyNaming == archiver.keyNaming { swap(&recentPlans, &scratch.recentPlans) }
        swap(&keptReferences, &scratch.references)
        let result = try body(&self)
        // A large document's key maps are not worth keeping.
        guard keyFields.isSmall else { return result }
        scratch.keyNaming = archiver.keyNaming
        swap(&path, &scratch.path)
        swap(&keyFields, &scratch.keyFields)
        swap(&recentPlans, &scratch.recentPlans)
        swap(&keptReferences, &scratch.references)
        scratch.path.removeAll()
        DecoderScratch.recycler.keep(scratch)
        return result
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
        if !ObjectReference.targets(in: raw).namesNothing {
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

    func hook<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw path.located(error, hook: "collection initializer", typeName: "\(T.self)")
        }
    }

    func built(_ value: Any?, _ type: Any.Type, _ raw: ArchiveValue) throws -> Any {
        guard let value else {
            throw path.error(
                .typeMismatch(
                    expected: "elements of \(AMC.unqualifiedName(of: type))",
                    found: "\(raw.summary) with elements of other types"))
        }
        return value
    }

    func mismatch(_ expected: String, _ raw: ArchiveValue) -> AMCError {
        path.error(.typeMismatch(expected: expected, found: raw.summary))
    }

    mutating func enterContainer() throws {
        if let refusal = NestingDepth.refusal(atDepth: depth, limit: archiver.maximumDepth) { throw path.error(refusal) }
        depth += 1
    }
}

/// What a decoder leaves for the next one (see ``Recycler``): the room of its key path, the plans
/// of the types it filled last, and which field each key names for them (kept under the key
/// table's numbering, which the next document read with the same kept table shares; see
/// ``KeyTable/reused()``).
final class DecoderScratch {
    // Unchecked: one decoder at a time holds a scratch, taken from the recycler and left there.
    @exclusivity(unchecked) var path = KeyPathTracker()
    @exclusivity(unchecked) var keyFields = DocumentKeyFields()
    @exclusivity(unchecked) var recentPlans = RecentPlans()
    /// The references of the last document with any, emptied.
    @exclusivity(unchecked) var references: ArchiveDecoder.References?
    /// The naming `recentPlans` were found under; nil before any.
    @exclusivity(unchecked) var keyNaming: AMCKeyNaming?

    static let recycler = Recycler<DecoderScratch>()
}
