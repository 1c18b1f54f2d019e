import Foundation

/// Walks an object graph and writes it to a sink: objects become dictionaries with a `"class"` key,
/// collections become arrays and dictionaries, structs with a codec become strings.
///
/// In graph mode (the default) an object met again is written as a reference to its first
/// occurrence (see ``ObjectReference``), so shared objects and cycles come back as they were;
/// `weak` and `unowned` references are written only as references, when their target is in the
/// archive through strong ones. In tree mode every occurrence is written in full, a cycle is an
/// error, and `weak`/`unowned` references are left out.
struct ArchiveEncoder<Sink: EncodingSink> {
    /// In no-throw mode a key that fails is left out (and reported) instead of failing the whole.
    let noThrow: Bool
    let maximumDepth: Int
    /// Dictionary keys in ascending order (for stable files) instead of property order.
    let sortedKeys: Bool
    let graphMode: AMCGraphMode
    let keyNaming: AMCKeyNaming
    /// Files: an object whose class is the declared type of its place goes without `"class"`
    /// (see ``AMCClassNames``).
    let omitsDeclaredClasses: Bool
    private var path = KeyPathTracker()
    /// Tree mode: the objects being encoded, from the root down to here: meeting one again is a cycle.
    private var objectsInProgress = Set<ObjectIdentifier>()
    /// Graph mode: where each object written so far was written in full.
    private var places = PlaceTable()
    /// The places of the objects being written, from the root down, with the key path depth of each.
    private var openObjects: [(place: Int, depth: Int)] = []
    /// Graph mode, second pass: where every object reachable through strong references will be
    /// written, so that a `weak` reference to one written later can point there.
    private var plannedPlaces: PlaceTable?
    /// The first of two passes: only finds places, writes nothing that is kept, reports nothing.
    private var isPlanning = false
    /// Every object but the root is written in the object table (see ``ObjectTable``): `places`
    /// then holds the root (an object's: a struct has no place) and the table's entries from
    /// `firstEntryPlace` on. `tableObjects` holds the entries from `tableStart` on; those before
    /// `tableWritten` are written.
    private var usesTable = false
    private var firstEntryPlace = 0
    private var tableObjects: [any AMCCodable] = []
    private var tableStart = 0
    private var tableWritten = 0
    /// The errors no-throw mode swallowed in this try, reported once it succeeds (a try started
    /// again, with the object table, meets them again in another order).
    private var swallowed: [AMCError] = []
    private var depth = 0
    /// The owners whose struct hook does not handle a type that has a route of its own.
    private var declinedHooks = Set<HookUse>()
    /// The versioned types written so far (see ``AMCCodable/amcVersion``), in the order met.
    private var versions: [TypePlan] = []
    /// The plans of the types written last.
    private var recentPlans = RecentPlans()
    // Last, so that the offsets of the fields above do not depend on `Sink`: code the compiler
    // shares between sinks then needs no generic metadata to reach them.
    var sink: Sink

    init(sink: Sink, archiver: AMCArchiver, sortedKeys: Bool = false, omitsDeclaredClasses: Bool = false) {
        self.sink = sink
        self.omitsDeclaredClasses = omitsDeclaredClasses
        self.noThrow = archiver.noThrow
        self.maximumDepth = archiver.maximumDepth
        self.graphMode = archiver.graphMode
        self.keyNaming = archiver.keyNaming
        self.sortedKeys = sortedKeys
    }

    /// `object` written into `sink` as a dictionary: `"class"`, then each of its
    /// ``AMCCodable/amcKeys``. When a `weak` or `unowned` reference points to an object not
    /// written yet, a first pass finds where every object goes, and the second writes.
    ///
    /// `restarting` gives a sink made as the one it is handed was, with nothing written, for
    /// writing the graph again from the start (a new one: keeping the first would share its
    /// storage, and the first append would copy it).
    ///
    /// Returns the sink and how many errors no-throw mode swallowed (and reported). When this is
    /// the write done again (see ``DocumentWriter/wider``), `reportedBefore` is how many the try
    /// before reported: the first that many are not reported again.
    static func encode(
        _ object: any AMCCodable, into sink: consuming Sink, restarting: (borrowing Sink) -> Sink, archiver: AMCArchiver,
        sortedKeys: Bool = false, omitsDeclaredClasses: Bool = false, reportedBefore: Int = 0
    ) throws -> (sink: Sink, swallowed: Int) {
        let marked = StackRoom.beginWriting()
        defer { if marked { StackRoom.endWriting() } }
        var encoder = ArchiveEncoder(
            sink: consume sink, archiver: archiver, sortedKeys: sortedKeys, omitsDeclaredClasses: omitsDeclaredClasses)
        let scratch = EncoderScratch.recycler.take() ?? EncoderScratch()
        encoder.adopt(scratch)
        while true {
            do {
                try encoder.encodeObject(object, declared: nil)
                for error in encoder.swallowed.dropFirst(reportedBefore) { AMC.reportSwallowed(error) }
                encoder.leave(scratch)
                var finished = Sink.vacant
                swap(&finished, &encoder.sink)
                return (finished, max(encoder.swallowed.count, reportedBefore))
            } catch is PlanNeeded {
                var planner = ArchiveEncoder<NullSink>(sink: NullSink(), archiver: archiver, sortedKeys: sortedKeys)
                planner.isPlanning = true
                planner.usesTable = encoder.usesTable
                do {
                    try planner.encodeObject(object, declared: nil)
                } catch is TableNeeded {
                    encoder = encoder.startedAgain(archiver: archiver, usesTable: true, restarting: restarting)
                    continue
                }
                encoder = encoder.startedAgain(archiver: archiver, usesTable: encoder.usesTable, restarting: restarting)
                encoder.plannedPlaces = planner.places
            } catch is TableNeeded {
                encoder = encoder.startedAgain(archiver: archiver, usesTable: true, restarting: restarting)
            }
        }
    }

    /// Takes the storage a finished encoder left (see ``EncoderScratch``), if any.
    private mutating func adopt(_ scratch: EncoderScratch) {
        swap(&path, &scratch.path)
        swap(&places, &scratch.places)
        swap(&openObjects, &scratch.openObjects)
        if scratch.keyNaming == keyNaming { swap(&recentPlans, &scratch.recentPlans) }
    }

    /// Leaves this finished encoder's storage, emptied, for the next encoder: a small graph's,
    /// whose places are few (a large one's is not worth keeping), or a tree's, which records no
    /// places and keeps only room for its depth.
    private mutating func leave(_ scratch: EncoderScratch) {
        guard places.isSmall else { return }
        scratch.keyNaming = keyNaming
        swap(&path, &scratch.path)
        swap(&places, &scratch.places)
        swap(&openObjects, &scratch.openObjects)
        swap(&recentPlans, &scratch.recentPlans)
        scratch.path.removeAll()
        scratch.places.removeAll()
        scratch.openObjects.removeAllKeepingRoom()
        EncoderScratch.recycler.keep(scratch)
    }

    /// An encoder with the same settings that writes the graph again from the start, into the
    /// sink `restarting` makes.
    private consuming func startedAgain(
        archiver: AMCArchiver, usesTable: Bool, restarting: (borrowing Sink) -> Sink
    ) -> ArchiveEncoder {
        var encoder = ArchiveEncoder(
            sink: restarting(sink), archiver: archiver, sortedKeys: sortedKeys, omitsDeclaredClasses: omitsDeclaredClasses)
        encoder.usesTable = usesTable
        return encoder
    }

    /// A `weak` reference met an object not written yet: the places of all are needed first.
    private struct PlanNeeded: Error {}

    /// An object's place would be deeper than ``ObjectTable/maximumDepth``: the graph is written
    /// again with an object table.
    private struct TableNeeded: Error {}

    /// Writes `object` as a dictionary: `"class"`, then each of its ``AMCCodable/amcKeys``; in
    /// graph mode an object written before as a reference to it, and with the object table every
    /// object but the root as a reference to its entry. `declared`: the type the place
    /// holding it declares, when a reader knows it (nil for the root and in `Any` places).
    ///
    /// Nothing here is generic over the object's type, which is known only at run time: the
    /// compiler then specialises the whole walk for each sink, and calls the sink directly.
    private mutating func encodeObject(_ object: any AMCCodable, declared: Any.Type?) throws {
        let identity = RuntimeAccess.identity(ofAny: object)
        if let identity {
            if try wroteReference(to: identity) { return }
            switch graphMode {
            case .graph where usesTable:
                guard path.components.isEmpty else {
                    // An object that cannot be written fails here, in the field that refers to
                    // it, as where it is written in full.
                    let (known, keys) = recentPlans.plan(of: object, naming: keyNaming)
                    if let error = known.plan.keyError(keys: keys) { throw path.error(error) }
                    // Two statements: a call on `self` whose argument changes `self` would copy
                    // the tables for the call, and the change would then copy them again.
                    let place = addToTable(object, identity)
                    return try writeReference(toPlace: place)
                }
                firstEntryPlace = places.record(identity, parent: -1, components: []) + 1  // the root
            case .graph:
                guard path.components.count <= ObjectTable.maximumDepth else { throw TableNeeded() }
                let parent = openObjects.last ?? (place: -1, depth: 0)
                let place = places.record(identity, parent: parent.place, components: path.components, from: parent.depth)
                openObjects.append((place, path.components.count))
            case .tree:
                guard objectsInProgress.insert(identity).inserted else {
                    throw path.error(.referenceCycle(typeName: AMC.unqualifiedName(of: Swift.type(of: object))))
                }
            }
        }
        defer {
            if let identity {
                if graphMode == .tree {
                    objectsInProgress.remove(identity)
                } else if !usesTable {
                    openObjects.removeLast()
                }
            }
        }
        try writeInFull(object, declared: declared)
    }

    /// Writes `object` as a dictionary, where it is: `"class"`, then each of its
    /// ``AMCCodable/amcKeys``; after the root's, the object table and `"$versions"`.
    private mutating func writeInFull(_ object: any AMCCodable, declared: Any.Type?) throws {
        let type = Swift.type(of: object)
        let (known, keys) = recentPlans.plan(of: object, naming: keyNaming)
        let plan = known.plan
        if let error = plan.keyError(keys: keys) { throw path.error(error) }
        if plan.version != 0, versions.last !== plan, !versions.contains(where: { $0 === plan }) { versions.append(plan) }
        try enterContainer()
        defer { depth -= 1 }
        sink.beginDictionary()
        try RuntimeAccess.withFieldBase(ofAny: object) { base in
            let nils = known.nilMarked.isEmpty ? [] : try writeNils(of: object, at: base, known: known, keys: keys)
            for slot in plan.slots(for: keys, sorted: sortedKeys) {
                switch slot {
                case .className:
                    // Not where the place's declared type names the class, unless the object
                    // could then read as a reference (a lone `$ref`-like key).
                    if omitsDeclaredClasses, declared == type, !plan.hasReferenceLikeKey { continue }
                    try sink.className(plan.classNameKey)
                case let .unknown(key):
                    path.push(key: key)
                    defer { path.pop() }
                    try fail(path.error(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type))))
                case let .field(index):
                    // `fields[index]` each time, not held in a local (see `encodeField(_:of:object:at:plain:)`).
                    let fields = plan.fields
                    if !noThrow, known.plain[index], nils.isEmpty || !nils.contains(index),
                        try wroteFastScalar(fields[index], at: base)
                    {
                        continue
                    }
                    path.push(key: fields[index].key)
                    defer { path.pop() }
                    if !nils.isEmpty, nils.contains(index) {
                        guard sink.holdsNull else { continue }  // listed under `$nil`
                        sink.key(fields[index].internedKey)
                        try emit(.null)
                        continue
                    }
                    // Where to go back to when the field fails in no-throw mode; a thrown error
                    // ends the write, so only no-throw mode pays for a mark per field.
                    let mark = noThrow ? sink.mark() : nil
                    let placesMark = places.count
                    do {
                        try encodeField(index, of: fields, object: object, at: base, plain: known.plain[index])
                    } catch let error as AMCError {
                        if let mark {
                            sink.rewind(to: mark)
                            places.forget(since: placesMark)
                            if usesTable {
                                tableObjects.removeLast(tableObjects.count - (placesMark - firstEntryPlace - tableStart))
                            }
                        }
                        try fail(error)
                    }
                }
            }
        }
        if path.components.isEmpty {
            if usesTable { try writeTable() }
            if !versions.isEmpty { try writeVersions() }
        }
        sink.endDictionary()
    }

    /// Writes `field` when it is a scalar the fast way, where a failure ends the write (not in
    /// no-throw mode): its key joins the path only for the error. False when it is not one.
    /// (Out of line: its locals would add to the frames of every level a deep graph nests.)
    @inline(never)
    private mutating func wroteFastScalar(_ field: FieldPlan, at base: UnsafeFieldBase) throws -> Bool {
        guard let fast = field.fast else { return false }
        guard let scalar = fast.encode(base) else { return true }  // nil: left out
        sink.key(field.internedKey)
        do {
            try sink.scalar(scalar)
        } catch let error as AMCError {
            path.push(key: field.key)
            defer { path.pop() }
            throw error.at(path.rendered)
        }
        return true
    }

    /// The fields of `object` among its keys that are nil where a new instance's are not (see
    /// ``TypePlan/nilMarkedFields(of:)``), by position; listed under ``TypePlan/nilKey`` now for a
    /// sink without null, written as null in their places by the caller otherwise.
    private mutating func writeNils(
        of object: any AMCCodable, at base: UnsafeFieldBase, known: RecentPlans.Known, keys: [String]?
    )
        throws -> [Int]
    {
        let fields = known.plan.fields
        let nils = known.nilMarked.filter { index in
            unwrappedValue(fields[index].value(at: base, of: object)) == nil
                && keys.map { $0.contains(fields[index].name) } != false
        }
        guard !nils.isEmpty, !sink.holdsNull else { return nils }
        sink.key(TypePlan.nilKey)
        sink.beginArray()
        for index in nils { try sink.scalar(.string(fields[index].key)) }
        sink.endArray()
        return nils
    }

    /// The root object's entry `"$objects"`: every object the walk met, in the order met, each in
    /// full (see ``ObjectTable``). Writing them meets more, which come after them.
    private mutating func writeTable() throws {
        sink.key(ObjectTable.key)
        path.push(key: ObjectTable.key)
        defer { path.pop() }
        try enterContainer()
        defer { depth -= 1 }
        sink.beginArray()
        while tableWritten < tableStart + tableObjects.count {
            // The written ones go now and then, so that the array holds about those waiting.
            if tableWritten - tableStart > max(1024, tableObjects.count / 2) {
                tableObjects.removeFirst(tableWritten - tableStart)
                tableStart = tableWritten
            }
            let object = tableObjects[tableWritten - tableStart]
            path.push(index: tableWritten)
            defer { path.pop() }
            tableWritten += 1
            try writeInFull(object, declared: nil)
        }
        sink.endArray()
    }

    /// The root object's last entry, when the archive holds versioned types: `"$versions"`, the
    /// version of each by class name (see ``DocumentVersions``).
    private mutating func writeVersions() throws {
        sink.key(DocumentVersions.key)
        let entries = versions.map { (key: $0.className, value: $0.version) }.sorted { $0.key < $1.key }
        try encodeEntries(entries) { encoder, version in try encoder.emit(.int(Int64(version))) }
    }

    // MARK: - Fields and values

    /// A field with a typed accessor for objects or an array (see ``GraphField``).
    private mutating func encodeGraphField(_ graph: GraphField, named name: InternedKey, at base: UnsafeFieldBase) throws {
        switch graph {
        case let .object(type, read, _):
            guard let child = read(base) else { return }  // nil: the key is left out
            sink.key(name)
            try encodeObject(child, declared: type)
        case let .objects(type, read, _):
            sink.key(name)
            // `encodeArray`'s frame, written out: the elements come through a callback (walked in
            // place), and Swift refuses to hand that callback a closure capturing `encodeOne`.
            try enterContainer()
            defer { depth -= 1 }
            sink.beginArray()
            var index = 0
            try read(base) { identity, element in
                path.push(index: index)
                defer { path.pop() }
                // An object met before takes its identity alone, not a retain of the object.
                if let identity, try wroteReference(to: identity) {
                } else {
                    try encodeObject(element(), declared: type)
                }
                index += 1
            }
            sink.endArray()
        case let .scalars(read, _):
            sink.key(name)
            try enterContainer()
            defer { depth -= 1 }
            sink.beginArray()
            var index = 0
            try read(base) { scalar in
                // The index joins the key path only for an error: nothing below a scalar needs it.
                do {
                    try sink.scalar(scalar)
                } catch let error as AMCError {
                    path.push(index: index)
                    defer { path.pop() }
                    throw error.at(path.rendered)
                }
                index += 1
            }
            sink.endArray()
        case let .scalarDictionary(read, _):
            sink.key(name)
            try encodeEntries(read(base)) { encoder, value in try encoder.emit(value) }
        }
    }

    /// Writes field `index` of `object` (its key, then its value; neither when it is nil),
    /// choosing the field's lane: a scalar read straight from the object, objects or an array
    /// through a typed accessor (see ``GraphField``), or the rest (``encodeFieldWithObject(_:of:at:plain:)``).
    /// `fields`: the plan's; `base`: the object's field base. `plain`: the field's declared type is
    /// the inferred one (see ``TypePlan/plainFields(of:)``).
    ///
    /// Inlined into the walk over the fields, and handed the array rather than the field's plan:
    /// holding a field's plan across these calls took a retain and a release of it per field.
    @inline(__always)
    private mutating func encodeField(
        _ index: Int, of fields: [FieldPlan], object: any AMCCodable, at base: UnsafeFieldBase, plain: Bool
    ) throws {
        if plain, let fast = fields[index].fast {
            guard let scalar = fast.encode(base) else { return }  // nil: left out
            sink.key(fields[index].internedKey)
            return try emit(scalar)
        }
        if plain, let graph = fields[index].graph {
            return try encodeGraphField(graph, named: fields[index].internedKey, at: base)
        }
        try encodeFieldWithObject(fields[index], of: object, at: base, plain: plain)
    }

    /// Writes `field` of `object` in the lanes that need the object: a `weak` or `unowned`
    /// reference, or the general walk, with the field-type hook.
    private mutating func encodeFieldWithObject(
        _ field: FieldPlan, of object: any AMCCodable, at base: UnsafeFieldBase, plain: Bool
    ) throws {
        guard field.isStrong else { return try encodeConditional(field, of: object, at: base) }
        let inferred = field.kind.fieldType
        let declared = plain ? inferred : Swift.type(of: object).amcFieldType(forKey: field.name)
        guard let (value, kind) = Self.unwrapped(field.value(at: base, of: object), kind: field.kind) else {
            return  // nil: the key is left out
        }
        if declared == inferred {
            sink.key(field.internedKey)
            try encode(value, kind: kind, owner: object, declaresObjects: true)
        } else if declared == .structure {
            let string = try encodeStructWithHook(value, owner: object)
            sink.key(field.internedKey)
            try emit(.string(string))
        } else {
            throw path.error(.fieldTypeMismatch(key: field.name, declared: declared, inferred: inferred))
        }
    }

    /// A `weak` or `unowned` field: a reference to its target when the target is in the archive
    /// (written before, or, as the first pass found, after); left out otherwise, and in tree mode.
    private mutating func encodeConditional(_ field: FieldPlan, of object: any AMCCodable, at base: UnsafeFieldBase) throws {
        guard graphMode == .graph, let target = field.referencedObject(at: base, of: object) else { return }
        let identity = ObjectIdentifier(target)
        if let place = places.place(of: identity) {
            sink.key(field.internedKey)
            try writeReference(toPlace: place)
        } else if usesTable, plannedPlaces?.place(of: identity) != nil, let object = target as? any AMCCodable {
            // In the archive, as the first pass found: its entry is made here, not where the first
            // pass put it, which a field no-throw mode leaves out could have moved.
            let place = addToTable(object, identity)
            sink.key(field.internedKey)
            try writeReference(toPlace: place)
        } else if let place = plannedPlaces?.place(of: identity), let pointer = plannedPlaces?.pointer(of: place) {
            sink.key(field.internedKey)
            try writeReference(to: pointer)
        } else if plannedPlaces == nil, !isPlanning {
            throw PlanNeeded()  // it may still come, through a strong reference
        }
    }

    /// With the object table: a new entry for `object`, written once the root's fields are; its
    /// place.
    private mutating func addToTable(_ object: any AMCCodable, _ identity: ObjectIdentifier) -> Int {
        tableObjects.append(object)
        return places.record(identity, parent: -1, components: [])
    }

    /// In graph mode, whether the object `identity` names was met before, and a reference to it
    /// written.
    private mutating func wroteReference(to identity: ObjectIdentifier) throws -> Bool {
        guard graphMode == .graph, let place = places.place(of: identity) else { return false }
        try writeReference(toPlace: place)
        return true
    }

    /// `{"$ref": "#/…"}` to the object written in full at `place`: with the object table, the
    /// root's or an entry's.
    private mutating func writeReference(toPlace place: Int) throws {
        guard usesTable else { return try writeReference(to: places.pointer(of: place)) }
        guard place >= firstEntryPlace else { return try writeReference(to: ObjectReference.rootPointer) }
        try sink.entryReference(place - firstEntryPlace)
    }

    /// `{"$ref": "#/…"}` to the object written in full where `pointer` says.
    private mutating func writeReference(to pointer: String) throws {
        sink.beginDictionary()
        sink.key(ObjectReference.key)
        try emit(.string(pointer))
        sink.endDictionary()
    }

    /// Writes one value of the given kind; `owner` is the nearest enclosing object, whose struct
    /// hooks handle structs without a codec. `declaresObjects`: the kind is the declared type of
    /// the place (not found from the value, in an `Any` place), so a reader knows the class of an
    /// object of exactly that type.
    private mutating func encode(_ value: Any, kind: ValueKind, owner: (any AMCCodable)?, declaresObjects: Bool) throws {
        switch kind {
        case let .scalar(codec):
            if let entries = codec.entries?(value) {
                try enterContainer()
                defer { depth -= 1 }
                sink.beginDictionary()
                for (key, scalar) in entries {
                    sink.key(key)
                    try emit(scalar)
                }
                return sink.endDictionary()
            }
            guard let scalar = codec.encode(value) else {
                throw path.error(.typeMismatch(expected: codec.typeName, found: "\(Swift.type(of: value))"))
            }
            try emit(scalar)
        case .optional:
            guard let (wrapped, wrappedKind) = Self.unwrapped(value, kind: kind) else {
                throw path.error(
                    .unsupportedType(
                        typeName: AMC.unqualifiedName(of: Swift.type(of: value)),
                        reason: ValueKind.nilElementReason))
            }
            try encode(wrapped, kind: wrappedKind, owner: owner, declaresObjects: declaresObjects)
        case .opaqueStruct:
            try emit(.string(try encodeStructWithHook(value, owner: owner)))
        case let .codable(route):
            if route.isHookable, owner != nil, let string = try hookedString(value, owner: owner) {
                return try emit(.string(string))
            }
            try encodeCodable(value, route: route)
        case let .object(type):
            try encodeObject(try cast(value, (any AMCCodable).self), declared: declaresObjects ? type : nil)
        case let .sequence(type, elementKind):
            var elements = try cast(value, (any SequenceContainer).self).anyElements
            // Sorted output is the same for the same data: a set of scalars in ascending order.
            if sortedKeys, type.isUnordered, case let .scalar(codec) = elementKind {
                elements = elements.map { (codec.encode($0), $0) }.sorted { ArchiveScalar.ascending($0.0, $1.0) }.map(\.1)
            }
            try encodeArray(elements, kind: elementKind, owner: owner, declaresObjects: declaresObjects)
        case let .orderedCollection(_, elementKind):
            let elements = try cast(value, (any AMCOrderedCollection).self).amcAnyElements
            try encodeArray(elements, kind: elementKind, owner: owner, declaresObjects: declaresObjects)
        case let .dictionary(_, keyCodec, valueKind):
            let entries = try cast(value, (any DictionaryContainer).self).anyEntries
            try encodeDictionary(
                try entries.map { (try keyString($0.key, keyCodec), $0.value) }, kind: valueKind, owner: owner,
                declaresObjects: declaresObjects)
        case let .keyedCollection(_, valueKind):
            try encodeDictionary(
                try cast(value, (any AMCKeyedCollection).self).amcAnyEntries, kind: valueKind, owner: owner,
                declaresObjects: declaresObjects)
        case .dynamic:
            let dynamicKind = ValueKind.of(Swift.type(of: value))
            if case .dynamic = dynamicKind {
                throw path.error(.unsupportedType(typeName: "\(Swift.type(of: value))", reason: "no concrete type"))
            }
            try encode(value, kind: dynamicKind, owner: owner, declaresObjects: false)
        case let .unsupported(type, reason):
            throw path.error(.unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: reason))
        }
    }

    private mutating func encodeArray(_ elements: [Any], kind: ValueKind, owner: (any AMCCodable)?, declaresObjects: Bool) throws
    {
        try encodeArray(elements) { encoder, element in
            try encoder.encode(element, kind: kind, owner: owner, declaresObjects: declaresObjects)
        }
    }

    /// Writes `elements` as an array, each by `encodeOne` at its index in the key path. Inlined,
    /// so that each caller's loop calls its `encodeOne` directly rather than through a closure.
    @inline(__always)
    private mutating func encodeArray<Element>(
        _ elements: [Element], _ encodeOne: (inout ArchiveEncoder, Element) throws -> Void
    ) throws {
        try enterContainer()
        defer { depth -= 1 }
        sink.beginArray()
        for (index, element) in elements.enumerated() {
            path.push(index: index)
            defer { path.pop() }
            try encodeOne(&self, element)
        }
        sink.endArray()
    }

    private mutating func encodeDictionary(
        _ entries: [(key: String, value: Any)], kind: ValueKind, owner: (any AMCCodable)?, declaresObjects: Bool
    ) throws {
        // A nil value would read back as a missing key: refused, as a nil element of an array is.
        let present = try entries.map { entry in
            guard let value = Self.unwrapped(entry.value, kind: kind) else {
                path.push(key: entry.key)
                defer { path.pop() }
                throw path.error(
                    .unsupportedType(
                        typeName: AMC.unqualifiedName(of: Swift.type(of: entry.value)), reason: ValueKind.nilElementReason))
            }
            return (entry.key, value)
        }
        try encodeEntries(present) { encoder, value in
            try encoder.encode(value.0, kind: value.1, owner: owner, declaresObjects: declaresObjects)
        }
    }

    /// Writes `entries` as a dictionary, each value by `encodeOne` at its key in the key path.
    private mutating func encodeEntries<Value>(
        _ entries: [(key: String, value: Value)], _ encodeOne: (inout ArchiveEncoder, Value) throws -> Void
    ) throws {
        try enterContainer()
        defer { depth -= 1 }
        sink.beginDictionary()
        // A dictionary of one key `$ref` (`$$ref`, …) would read as a reference: one `$` more.
        let escapes = entries.count == 1 && ObjectReference.isEscapable(entries[0].key, minimumDollars: 1)
        for (key, value) in sortedKeys ? entries.sorted(by: { $0.key < $1.key }) : entries {
            let written = escapes ? "$" + key : key
            path.push(key: written)  // references name the key as written
            defer { path.pop() }
            sink.key(written)
            try encodeOne(&self, value)
        }
        sink.endDictionary()
    }

    /// A value through its `Codable` conformance: its encoding is built (see ``EncodedNode``),
    /// then written.
    private mutating func encodeCodable(_ value: Any, route: CodableRoute) throws {
        let node: EncodedNode
        do {
            node = try route.encode(value, maximumDepth - depth, maximumDepth)
        } catch {
            throw route.located(error, operation: .encode).under(path.rendered)
        }
        try write(node)
    }

    private mutating func write(_ node: EncodedNode) throws {
        switch node.shape {
        case let .scalar(scalar):
            try emit(scalar)
        case .array:
            try encodeArray(node.elements) { encoder, element in try encoder.write(element) }
        case .dictionary, .empty:
            try encodeEntries(node.keys.compactMap { key in node.values[key].map { (key, $0) } }) { encoder, child in
                try encoder.write(child)
            }
        }
    }

    /// A dictionary key as the string documents have: itself, or its scalar's text.
    private func keyString(_ key: Any, _ codec: ScalarCodec?) throws -> String {
        guard let codec else { return try cast(key, String.self) }
        guard let text = codec.encode(key)?.keyText else {
            throw path.error(.typeMismatch(expected: "a \(codec.typeName) key", found: "\(key)"))
        }
        return text
    }

    /// A struct or enum with no ``AMCStructCodable`` conformance, through the owner's hook (or
    /// the default one when there is no owner); an error when the hook does not handle it.
    private mutating func encodeStructWithHook(_ value: Any, owner: (any AMCCodable)?) throws -> String {
        guard let string = try hookedString(value, owner: owner) else {
            throw path.error(ValueKind.unhandledStruct(Swift.type(of: value), operation: .encode))
        }
        return string
    }

    /// The string the owner's struct hook (or the default one) makes of `value`; nil when it
    /// does not handle the type, which is remembered for the rest of the archive.
    private mutating func hookedString(_ value: Any, owner: (any AMCCodable)?) throws -> String? {
        if let codable = value as? any AMCStructCodable { return codable.amcStringValue }
        let type = Swift.type(of: value)
        let use = HookUse(owner: owner.map { Swift.type(of: $0) }, value: type)
        if declinedHooks.contains(use) { return nil }
        let name = AMC.unqualifiedName(of: type)
        do {
            if let owner { return try owner.amcEncodeStruct(value, named: name) }
            return try AMC.defaultEncodeStruct(value, named: name)
        } catch let error as AMCError where error.isUnhandledStruct(named: name) {
            declinedHooks.insert(use)
            return nil
        } catch {
            throw path.located(error, hook: "amcEncodeStruct", typeName: name)
        }
    }

    // MARK: - Helpers

    /// The value inside any levels of `Optional`, with its kind; nil for `nil`.
    private static func unwrapped(_ value: Any, kind: ValueKind) -> (Any, ValueKind)? {
        var value = value
        var kind = kind
        while case let .optional(_, wrappedKind) = kind {
            guard let wrapped = (value as? any OptionalContainer)?.wrappedValue else { return nil }
            value = wrapped
            kind = wrappedKind
        }
        return (value, kind)
    }

    /// Writes a scalar; an error of the format (a NaN in JSON) gets the current key path.
    private mutating func emit(_ scalar: ArchiveScalar) throws {
        do {
            try sink.scalar(scalar)
        } catch let error as AMCError {
            throw error.at(path.rendered)
        }
    }

    private func cast<T>(_ value: Any, _: T.Type) throws -> T {
        guard let typed = value as? T else {
            throw path.error(.typeMismatch(expected: "\(T.self)", found: "\(Swift.type(of: value))"))
        }
        return typed
    }

    private mutating func enterContainer() throws {
        if let refusal = NestingDepth.refusal(atDepth: depth, limit: maximumDepth, readBack: .objects) {
            throw path.error(refusal)
        }
        depth += 1
    }

    /// In no-throw mode keeps the error to report once the write succeeds, and goes on;
    /// otherwise throws it. (The planning pass reports nothing.)
    private mutating func fail(_ error: AMCError) throws {
        guard noThrow else { throw error }
        guard !isPlanning else { return }
        swallowed.append(error)
    }
}

/// What an encoder leaves for the next one (see ``Recycler``): the room of its key path, of its
/// places and of its open objects, emptied, and the plans of the types it met under the key
/// naming it used, which an encoder under the same naming starts with.
final class EncoderScratch {
    // Unchecked: one encoder at a time holds a scratch, taken from the recycler and left there.
    @exclusivity(unchecked) var path = KeyPathTracker()
    @exclusivity(unchecked) var places = PlaceTable()
    @exclusivity(unchecked) var openObjects: [(place: Int, depth: Int)] = []
    @exclusivity(unchecked) var recentPlans = RecentPlans()
    /// The naming `recentPlans` were found under; nil before any.
    @exclusivity(unchecked) var keyNaming: AMCKeyNaming?

    static let recycler = Recycler<EncoderScratch>()
}
