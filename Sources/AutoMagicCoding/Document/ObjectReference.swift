/// References between objects in a document: an object met again is written as
/// `{"$ref": "#/roster/0"}`, a JSON Reference whose value is `#` and an RFC 6901 JSON Pointer from
/// the document's root to the object's first occurrence (`~0` for `~`, `~1` for `/` in keys).
///
/// A dictionary is a reference only when `"$ref"` is its one key and its value a string starting
/// with `#`. A dictionary of a user's own with one key `$ref` (or `$$ref`, …) is written with one
/// more `$` in front of that key, and read back without it, so it round-trips unchanged.
enum ObjectReference {
    static let key = "$ref"
    static let rootPointer = "#"

    /// The pointer `dictionary` refers to, when it is a reference.
    static func pointer(in dictionary: ArchiveDictionary) -> String? {
        guard dictionary.count == 1, let value = dictionary[reserved: .reference] else { return nil }
        return pointer(from: value)
    }

    /// The pointer a `"$ref"` key's value names: a string starting with `#`, else none.
    static func pointer(from value: ArchiveValue) -> String? {
        guard case let .string(pointer) = value, pointer.hasPrefix(rootPointer) else { return nil }
        return pointer
    }

    /// Whether a one-key dictionary's key must be escaped (written) or unescaped (read): `$ref`,
    /// `$$ref`, … (at least `minimumDollars` dollars).
    static func isEscapable(_ key: String, minimumDollars: Int) -> Bool {
        let dollars = key.prefix { $0 == "$" }.count
        return dollars >= minimumDollars && key.dropFirst(dollars) == "ref"
    }

    // MARK: - Pointers

    static func pointer(of components: [KeyPathTracker.Component]) -> String {
        var pointer = rootPointer
        for component in components { append(component, to: &pointer) }
        return pointer
    }

    /// Appends one step, `/` and its segment, to `pointer`.
    static func append(_ component: KeyPathTracker.Component, to pointer: inout String) {
        pointer += "/"
        pointer += segment(component)
    }

    /// One step of a pointer: an index, or a key with `~` and `/` escaped.
    static func segment(_ component: KeyPathTracker.Component) -> String {
        switch component {
        case let .index(index): return String(index)
        case let .key(key):
            // Most keys hold neither byte, and then no character of theirs is either.
            guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }),
                key.contains(where: { $0 == "~" || $0 == "/" })
            else { return key }
            return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }
    }

    /// What can be wrong with a pointer, for the error.
    enum Failure: Error {
        case malformed
        case nothingThere(depth: Int)

        /// Why the pointer names nothing, for messages.
        var reason: String {
            switch self {
            case .malformed:
                return "it is not a JSON Pointer (\"#\" then \"/\"-separated keys and indices)"
            case let .nothingThere(depth):
                return depth == 0
                    ? "nothing is there (its first step leads nowhere)"
                    : "nothing is there (its first \(depth == 1 ? "step leads" : "\(depth) steps lead") somewhere, the next does not)"
            }
        }
    }

    /// Why `target`, what a reference names, is not an object a reference may name: nil when it
    /// is one (a dictionary that is not a reference itself).
    static func notAnObject(_ target: ArchiveValue) -> String? {
        guard case let .dictionary(dictionary) = target else { return "it names \(target.summary), not an object" }
        return pointer(in: dictionary) == nil ? nil : "it names another reference"
    }

    /// A reference in a document: where it is, what it says, and the place it names (nil when it
    /// names nothing there).
    struct Found {
        let place: [KeyPathTracker.Component]
        let pointer: String
        let target: [KeyPathTracker.Component]?
    }

    /// Every reference in `root`, in document order. Walks without recursion.
    static func all(in root: ArchiveValue) -> [Found] {
        var found: [Found] = []
        var pending: [(value: ArchiveValue, place: [KeyPathTracker.Component])] = [(root, [])]
        while let (value, place) = pending.popLast() {
            switch value {
            case let .dictionary(dictionary):
                if let pointer = pointer(in: dictionary) {
                    found.append(Found(place: place, pointer: pointer, target: try? target(of: pointer, in: root).1))
                    continue
                }
                for entry in dictionary.entries.reversed() { pending.append((entry.value, place + [.key(entry.key)])) }
            case let .array(elements):
                for (index, element) in elements.enumerated().reversed() { pending.append((element, place + [.index(index)])) }
            default:
                break
            }
        }
        return found
    }

    /// An error for each reference in `root` that names no object, at its key path, in document
    /// order: what `amc lint` reports.
    static func brokenReferences(in root: ArchiveValue) -> [AMCError] {
        all(in: root).compactMap { reference in
            let problem: String?
            do throws(Failure) {
                problem = notAnObject(try target(of: reference.pointer, in: root).0)
            } catch {
                problem = error.reason
            }
            return problem.map {
                KeyPathTracker(components: reference.place, routes: nil).error(
                    .invalidReference(pointer: reference.pointer, reason: $0))
            }
        }
    }

    /// The value `pointer` names in `root`, and the key path to it (indices where it passes
    /// arrays). Work is proportional to the pointer's length.
    static func target(of pointer: String, in root: ArchiveValue) throws(Failure) -> (ArchiveValue, [KeyPathTracker.Component]) {
        guard pointer.hasPrefix(rootPointer) else { throw .malformed }
        let rest = pointer.dropFirst()
        guard rest.isEmpty || rest.hasPrefix("/") else { throw .malformed }
        var current = root
        var components: [KeyPathTracker.Component] = []
        guard !rest.isEmpty else { return (current, components) }
        for (depth, raw) in rest.dropFirst().split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            let segment = raw.utf8.contains(UInt8(ascii: "~")) ? try unescaped(raw) : String(raw)
            switch current {
            case let .dictionary(dictionary):
                guard let value = dictionary[segment] else { throw .nothingThere(depth: depth) }
                current = value
                components.append(.key(segment))
            case let .array(elements):
                guard let index = Self.index(named: segment), elements.indices.contains(index) else {
                    throw .nothingThere(depth: depth)
                }
                current = elements[index]
                components.append(.index(index))
            default:
                throw .nothingThere(depth: depth)
            }
        }
        return (current, components)
    }

    /// The array index a pointer's segment names: its digits as `String(index)` writes them
    /// (`"01"` and `"+1"` name keys only).
    static func index(named segment: String) -> Int? {
        guard let first = segment.utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            let index = Int(segment), String(index) == segment
        else { return nil }
        return index
    }

    static func unescaped(_ segment: Substring) throws(Failure) -> String {
        var result = ""
        var iterator = segment.makeIterator()
        while let character = iterator.next() {
            guard character == "~" else {
                result.append(character)
                continue
            }
            switch iterator.next() {
            case "0": result.append("~")
            case "1": result.append("/")
            default: throw .malformed
            }
        }
        return result
    }

    // MARK: - Finding references

    /// What the references of a document name.
    struct Targets {
        /// The pointers they name, but those naming an object table's entry whole.
        var pointers = Set<String>()
        /// The places on the way to `pointers`.
        var routes = Routes()
        /// The object table's entries they name whole (`#/$objects/N`, see ``ObjectTable``),
        /// which decoding reaches from the table rather than by walking to them: a bit for each
        /// entry the table has (a pointer past its end is among `pointers`, and names nothing).
        var entries = SlotBits(count: 0)
        /// Whether any reference names an entry.
        var namesEntries = false
        /// How many entries the object table has (0 without one): how many bits ``entries`` has.
        var tableCount = 0
        /// The pointers in ``pointers``, as the document gives them (repeats too), while they
        /// are few: a document that gives the same ones in the same order has the same targets.
        fileprivate var given: [String]? = []
        /// The most pointers ``given`` lists.
        fileprivate static let givenLimit = 16

        /// Whether the references name few places (and, so, have few routes).
        var areFew: Bool { given != nil }

        /// Whether the document holds no reference.
        var namesNothing: Bool { pointers.isEmpty && !namesEntries }
    }

    /// What every reference in `root` names; ``Targets/namesNothing`` when `root` holds no
    /// reference (the decoder then follows nothing). (Not an optional: the runtime makes the
    /// metadata of each such type the first time a process uses it.)
    ///
    /// `last`: the targets of a document read before; when this one's references name the same
    /// few places in the same order, and no entry of an object table, and its object table is as
    /// long, they are `last` (their routes are not made again).
    static func targets(in root: ArchiveValue, reusing last: Targets? = nil) -> Targets {
        var found = Targets()
        if case let .dictionary(dictionary) = root, case let .array(table)? = dictionary[reserved: .objectTable] {
            found.tableCount = table.count
            found.entries = SlotBits(count: found.tableCount)
        }
        collect(root, into: &found)
        // The same places, and an object table as long (whose entries neither names).
        if let last, !found.namesEntries, !last.namesEntries, found.tableCount == last.tableCount, let given = found.given,
            given == last.given
        {
            return last
        }
        if let given = found.given {
            found.pointers = Set(given)
        }
        for target in found.pointers { found.routes.add(target) }
        return found
    }

    /// The places on the way from the root to what references name, as a tree of pointer
    /// segments that the decoder follows a level at a time as it goes down (see
    /// ``KeyPathTracker``): a step costs a look at the few segments that lead on from the place,
    /// and no place's pointer is made as it is passed.
    ///
    /// ```swift
    /// var routes = ObjectReference.Routes()
    /// routes.add("#/people/0")
    /// let people = routes.place(after: ObjectReference.Routes.root, .key("people"))!
    /// routes.pointer(of: routes.place(after: people, .index(0))!)  // "#/people/0"
    /// routes.place(after: people, .index(1))                       // nil: no reference leads there
    /// ```
    struct Routes {
        /// The root's place.
        static let root = 0

        /// A place: its pointer, the step that leads to it (the last segment, unescaped, and the
        /// array index it names when it is one: its digits as `String(index)` writes them), and
        /// the places one step on, by their numbers. A class: an array of objects is one whose
        /// metadata every process has, where an array of a struct of its own would be one more
        /// type whose metadata the first document with references in a process makes. Routes
        /// stay a value: a place another copy holds too is copied before it changes (see
        /// ``changing(_:)``).
        private final class Place {
            let pointer: String
            let key: String
            let index: Int?
            // Unchecked: changed only through ``changing(_:)``, which holds the only reference.
            /// The places one step on.
            @exclusivity(unchecked) var next: [Int] = []
            /// When there are many: each step's place, by key and by index.
            @exclusivity(unchecked) var lookup: [KeyPathTracker.Component: Int]?

            init(pointer: String, key: String, index: Int?) {
                (self.pointer, self.key, self.index) = (pointer, key, index)
            }

            func copy() -> Place {
                let copy = Place(pointer: pointer, key: key, index: index)
                (copy.next, copy.lookup) = (next, lookup)
                return copy
            }
        }

        /// Place `number`, to change: copied first when another copy of these routes holds it too.
        private mutating func changing(_ number: Int) -> Place {
            if !isKnownUniquelyReferenced(&places[number]) { places[number] = places[number].copy() }
            return places[number]
        }

        /// The places, the root's first; none until a pointer is added (a document without
        /// references makes no array).
        private var places: [Place] = []
        /// The most steps from one place looked at one by one.
        private static let scannedSteps = 8

        /// Adds the places on the way to `pointer`, and its own. A pointer that is not one
        /// (a segment with `~` not followed by `0` or `1`) adds the places before that segment:
        /// no key leads on from there.
        mutating func add(_ pointer: String) {
            guard pointer.utf8.starts(with: "#/".utf8) else { return }
            if places.isEmpty { places.append(Place(pointer: ObjectReference.rootPointer, key: "", index: nil)) }
            var place = Self.root
            // Segment by segment, without an array of them (a type whose metadata the first
            // document with references would make).
            var rest = Substring(pointer).dropFirst(2)
            var more = true
            while more {
                let end = rest.utf8.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
                let segment = rest[..<end]
                more = end != rest.endIndex
                if more { rest = rest[rest.utf8.index(after: end)...] }
                let raw = segment.utf8
                let key: String
                if raw.contains(UInt8(ascii: "~")) {
                    guard let unescaped = try? ObjectReference.unescaped(segment) else { return }
                    key = unescaped
                } else {
                    key = String(segment)
                }
                if let next = self.place(after: place, key: key) {
                    place = next
                    continue
                }
                let index = ObjectReference.index(named: key)
                let next = places.count
                places.append(Place(pointer: places[place].pointer + "/" + String(segment), key: key, index: index))
                let from = changing(place)
                from.next.append(next)
                if from.lookup != nil {
                    from.lookup?[.key(key)] = next
                    if let index { from.lookup?[.index(index)] = next }
                } else if from.next.count > Self.scannedSteps {
                    var lookup: [KeyPathTracker.Component: Int] = [:]
                    for step in from.next {
                        lookup[.key(places[step].key)] = step
                        if let index = places[step].index { lookup[.index(index)] = step }
                    }
                    from.lookup = lookup
                }
                place = next
            }
        }

        /// The place `component` leads to from `place`, when it is on the way to a target.
        func place(after place: Int, _ component: KeyPathTracker.Component) -> Int? {
            guard place < places.count else { return nil }  // the root, with no routes
            let from = places[place]
            if let lookup = from.lookup { return lookup[component] }
            for step in from.next {
                switch component {
                case let .key(key) where places[step].key == key: return step
                case let .index(index) where places[step].index == index: return step
                default: continue
                }
            }
            return nil
        }

        private func place(after place: Int, key: String) -> Int? {
            self.place(after: place, .key(key))
        }

        /// The JSON Pointer of `place`.
        func pointer(of place: Int) -> String {
            place < places.count ? places[place].pointer : ObjectReference.rootPointer
        }
    }

    /// Adds what each reference in `value` names to `found`. A whole document a reader built in
    /// a tape is looked through slot by slot, its one-entry dictionaries only (a walk from its
    /// root makes a value of every container on the way).
    private static func collect(_ value: ArchiveValue, into found: inout Targets) {
        if case let .dictionary(dictionary) = value, let (tape, first) = dictionary.tapeRun,
            tape.isRoot(dictionaryAt: first, count: dictionary.count)
        {
            tape.forEachValue(ofLoneKey: .reference) { value in
                if let pointer = pointer(from: value) { note(pointer, in: &found) }
            }
            return
        }
        walk(value, into: &found)
    }

    private static func walk(_ value: ArchiveValue, into found: inout Targets) {
        switch value {
        case let .dictionary(dictionary):
            if let pointer = pointer(in: dictionary) { return note(pointer, in: &found) }
            dictionary.forEachContainerValue { walk($0, into: &found) }
        case let .array(elements):
            elements.forEachContainer { walk($0, into: &found) }
        default:
            break
        }
    }

    /// Adds the place `pointer`, a reference's, names to `found`.
    private static func note(_ pointer: String, in found: inout Targets) {
        if let entry = ObjectTable.entry(named: pointer), entry < found.tableCount {
            found.entries[entry] = true
            found.namesEntries = true
        } else if found.given == nil {
            found.pointers.insert(pointer)
        } else if found.given!.count < Targets.givenLimit {
            found.given!.append(pointer)
        } else {
            // Many: a set of them, and no list to compare.
            found.pointers = Set(found.given!)
            found.pointers.insert(pointer)
            found.given = nil
        }
    }
}
