import Foundation

// Following references: objects made for pointers, filled when their place is reached, checked
// against what the field declares; conditional (`weak`/`unowned`) references restored last.

extension ArchiveDecoder {
    /// A document's references: the places they name, and the object decoded at each. A decoder
    /// leaves its own, emptied, for the next (see ``DecoderScratch``): a small document's tables
    /// keep their room, and the next document that names the same places keeps their routes.
    final class References {
        // Unchecked: one decoder at a time holds it (the decoder's own, or one kept in a scratch
        // taken from the recycler).
        @exclusivity(unchecked) private(set) var root = ArchiveValue.null
        @exclusivity(unchecked) private(set) var targets = ObjectReference.Targets()
        var routes: ObjectReference.Routes { targets.routes }
        /// The numbers of the objects decoded or made so far (see ``made``), by the pointer of
        /// their places.
        @exclusivity(unchecked) private var numbers = StringNumbers()
        /// Those at the table's entries, by entry: their number + 1 (0: none yet), so that
        /// following `#/$objects/N` costs no look-up of its text.
        @exclusivity(unchecked) private var entryNumbers: [Int]
        /// The root's object table, when it has one (see ``ObjectTable``).
        @exclusivity(unchecked) private(set) var table: ArchiveArray?
        /// The objects decoded or made so far, in the order made.
        @exclusivity(unchecked) private var made = Objects()
        /// Where to fill each of those made for a reference that waits to be filled from, by its
        /// number. (A dictionary, whose type's metadata only a document with a reference to a
        /// place after it makes.)
        @exclusivity(unchecked) private var unfilled: [Int: Unfilled] = [:]
        /// The numbers of those that wait, by identity.
        @exclusivity(unchecked) private var waitingNumbers: [ObjectIdentifier: Int] = [:]
        /// The first object made that may still wait (see ``nextUnfilled()``).
        @exclusivity(unchecked) private var firstWaiting = 0
        /// The root object's class: where a place's declared types start (see
        /// ``declaredClass(at:)``).
        @exclusivity(unchecked) var rootType: (any AMCCodable.Type)?
        /// The objects filled so far, in the order filled: their ``AMCCodable/amcDidDecode()``
        /// runs once every object is (see ``ArchiveDecoder/decoded(_:)``).
        @exclusivity(unchecked) private(set) var filled = Objects()
        /// The key path components of the places of ``filled``, one after the other (an array of
        /// its own for each would be a copy of the decoder's path), and where each one's end.
        @exclusivity(unchecked) private var filledPlaces: [KeyPathTracker.Component] = []
        @exclusivity(unchecked) private var filledPlaceEnds: [Int] = []

        private init() {
            entryNumbers = []
        }

        /// The references of `root`, when it holds any, in `kept` (emptied by ``empty()``) or
        /// new; nil when it holds none.
        static func of(_ root: ArchiveValue, in kept: References?) -> References? {
            let targets = ObjectReference.targets(in: root, reusing: kept?.targets)
            guard !targets.namesNothing else { return nil }
            let references = kept ?? References()
            references.root = root
            references.targets = targets
            if case let .dictionary(dictionary) = root, case let .array(table)? = dictionary[reserved: .objectTable] {
                references.table = table
            }
            references.entryNumbers.append(contentsOf: repeatElement(0, count: references.table?.count ?? 0))
            return references
        }

        /// Whether it is a small document's, worth keeping for the next (a large one's tables
        /// are not). Asked once emptied: the room its tables took. (Its numbers by pointer are
        /// as few as the places the targets name.)
        var isSmall: Bool {
            made.capacity <= 64 && entryNumbers.capacity <= 64 && filled.capacity <= 64 && filledPlaces.capacity <= 256
                && unfilled.capacity <= 64 && targets.areFew
        }

        /// Adds `object`, filled at `path`, to those whose hook waits (see ``filled``).
        func addFilled<T: AMCCodable>(_ object: T, at path: KeyPathTracker) {
            // Room for a few at once, not grown from one by doubling.
            if filled.capacity == 0 {
                filled.reserveCapacity(8)
                filledPlaceEnds.reserveCapacity(8)
            }
            filledPlaces.append(contentsOf: path.components)
            filled.append(object)
            filledPlaceEnds.append(filledPlaces.count)
        }

        /// The place of ``filled``'s object `number`, for an error there.
        func place(ofFilled number: Int) -> KeyPathTracker {
            let start = number == 0 ? 0 : filledPlaceEnds[number - 1]
            return KeyPathTracker(components: Array(filledPlaces[start..<filledPlaceEnds[number]]), routes: nil)
        }

        /// Forgets the document and the objects made for it, keeping the room of the tables and
        /// the targets, for the next document (see ``of(_:in:)``).
        func empty() {
            root = .null
            table = nil
            numbers.removeAll()
            entryNumbers.removeAllKeepingRoom()
            made.removeAllKeepingRoom()
            if !unfilled.isEmpty { unfilled.removeAll(keepingCapacity: true) }
            if !waitingNumbers.isEmpty { waitingNumbers.removeAll(keepingCapacity: true) }
            firstWaiting = 0
            rootType = nil
            filled.removeAllKeepingRoom()
            filledPlaces.removeAllKeepingRoom()
            filledPlaceEnds.removeAllKeepingRoom()
        }

        /// The table entry `pointer` names whole, when the table has it.
        func entry(named pointer: String) -> Int? {
            guard let entry = ObjectTable.entry(named: pointer), entry < entryNumbers.count else { return nil }
            return entry
        }

        /// The number of the object decoded or made at `pointer` (see ``take(_:)``).
        func number(at pointer: String) -> Int? {
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
        func add<T: AMCCodable>(_ object: T, at pointer: String, unfilled waiting: Unfilled? = nil) {
            if let entry = entry(named: pointer) { entryNumbers[entry] = made.count + 1 } else { numbers[pointer] = made.count }
            if let waiting {
                waitingNumbers[ObjectIdentifier(RuntimeAccess.object(of: object))] = made.count
                unfilled[made.count] = waiting
            }
            made.append(object)
        }

        /// Where to fill `object` from, when it was made for a reference and waits to be filled
        /// (it is no longer waiting: the caller fills it).
        func take(_ object: AnyObject) -> Unfilled? {
            guard !waitingNumbers.isEmpty, let number = waitingNumbers.removeValue(forKey: ObjectIdentifier(object)) else {
                return nil
            }
            return unfilled.removeValue(forKey: number)
        }

        /// Whether every entry of the object table was made (the others are reached by nothing).
        var unmadeEntry: Int? { entryNumbers.firstIndex(of: 0) }

        /// Object `number`, and where to fill it from when it waits to be filled (it is no longer
        /// waiting: the caller fills it).
        func take(_ number: Int) -> (object: any AMCCodable, unfilled: Unfilled?) {
            let object = made[number]
            guard !unfilled.isEmpty, let waiting = unfilled.removeValue(forKey: number) else { return (object, nil) }
            waitingNumbers[ObjectIdentifier(made.reference(number))] = nil
            return (object, waiting)
        }

        /// The number of the next object made for a reference that still waits to be filled, in
        /// the order made.
        func nextUnfilled() -> Int? {
            guard !unfilled.isEmpty else { return nil }
            while firstWaiting < made.count {
                defer { firstWaiting += 1 }
                if unfilled[firstWaiting] != nil { return firstWaiting }
            }
            return nil
        }
    }

    /// Objects, in order, each held as `AnyObject` beside the class it was added as. (Arrays of
    /// objects and of `any AMCCodable.Type`, types whose metadata a process has made once it holds
    /// objects and registers a class: an array of a struct of its own, or of `any AMCCodable`,
    /// would be one more type whose metadata the runtime makes the first time a process reads a
    /// document with references.)
    struct Objects {
        private var objects: [AnyObject] = []
        private var types: [any AMCCodable.Type] = []

        var count: Int { objects.count }
        var capacity: Int { objects.capacity }

        /// Object `number`, as the reference it is.
        func reference(_ number: Int) -> AnyObject { objects[number] }

        subscript(number: Int) -> any AMCCodable {
            func typed<T: AMCCodable>(_ type: T.Type) -> any AMCCodable { RuntimeAccess.instance(type, of: objects[number]) }
            return typed(types[number])
        }

        /// Adds `object`, an instance of the class `T` (or of a subclass).
        mutating func append<T: AMCCodable>(_ object: T) {
            objects.append(RuntimeAccess.object(of: object))
            types.append(T.self)
        }

        mutating func reserveCapacity(_ capacity: Int) {
            objects.reserveCapacity(capacity)
            types.reserveCapacity(capacity)
        }

        mutating func removeAllKeepingRoom() {
            objects.removeAllKeepingRoom()
            types.removeAllKeepingRoom()
        }
    }

    /// An object made for a reference, and where it is to be filled from.
    struct Unfilled {
        let dictionary: ArchiveDictionary
        /// Where it is: an entry of the object table (no array to hold for each), or elsewhere.
        let place: Place

        enum Place {
            case entry(Int)
            case components([KeyPathTracker.Component])

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

    /// Starts following the references in the document `root`, if it has any: decoding then
    /// knows each place a reference names.
    mutating func followReferences(in root: ArchiveValue) {
        guard searchesReferences, references == nil, path.components.isEmpty else { return }
        guard let found = References.of(root, in: keptReferences) else { return }
        keptReferences = nil
        references = found
        path.track(found.routes)
    }

    /// Points the `weak` and `unowned` fields of `instance` at the objects their references name
    /// (an `unowned let` too: a reference is never built into the code). A full object there is decoded too,
    /// but, as in memory, stays only if something else holds it (see ``decoded(_:)``).
    mutating func restoreConditionalReferences<T: AMCCodable>(
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
    mutating func restoreConditionalReference<T: AMCCodable>(
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
    struct ConditionalTarget {
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
    mutating func decoded<Result>(_ result: Result) throws -> Result {
        try fillUnfilled()
        if let references {
            self.references = nil
            for number in 0..<references.filled.count {
                func call<T: AMCCodable>(_ object: T) throws {
                    var instance = object  // a class: the same object
                    try didDecode(&instance, at: references.place(ofFilled: number))
                }
                try call(references.filled[number])
            }
            references.empty()  // so that only `result` holds what it holds, for the check below
            if references.isSmall { keptReferences = references }
        }
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
    mutating func referenced(_ pointer: String, expected: Any.Type) throws -> any AMCCodable {
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
    mutating func checkObjectTable(in root: ArchiveDictionary) throws {
        guard let table = root[reserved: .objectTable] else { return }
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
    mutating func fillUnfilled() throws {
        guard let references else { return }
        while let number = references.nextUnfilled() {
            let next = references.take(number)
            if let unfilled = next.unfilled { try fill(next.object, from: unfilled) }
        }
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
    mutating func fillNow(_ items: [Any]) throws {
        guard let references else { return }
        for item in items {
            guard RuntimeAccess.shape(of: Swift.type(of: item)) == .class, let unfilled = references.take(item as AnyObject),
                let object = item as? any AMCCodable
            else { continue }
            try fill(object, from: unfilled)
        }
    }

    /// Fills `object`, made for a reference, at its place.
    mutating func fill(_ object: any AMCCodable, from unfilled: Unfilled) throws {
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
    mutating func fillMade(_ object: any AMCCodable, from dictionary: ArchiveDictionary) throws {
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
    func declaredClass(at components: [KeyPathTracker.Component]) throws -> (any AMCCodable.Type)? {
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
    func checked(_ object: any AMCCodable, _ expected: Any.Type) throws -> any AMCCodable {
        if Swift.type(of: object) == expected { return object }
        func fits<Expected>(_: Expected.Type) -> Bool { object is Expected }
        guard fits(expected) else {
            throw path.error(
                .unrelatedClass(className: Swift.type(of: object).amcClassName, expected: AMC.unqualifiedName(of: expected)))
        }
        return object
    }

    func invalid(_ pointer: String, _ reason: String) -> AMCError {
        path.error(.invalidReference(pointer: pointer, reason: reason))
    }
}
