/// Where the encoder wrote each object in full, so that a later occurrence can refer to it: one
/// entry per object, holding only the few key path components between it and the object it is
/// inside, so recording a place copies no path. The whole path is put together only when a
/// reference needs it.
struct PlaceTable {
    private typealias Component = KeyPathTracker.Component

    private struct Place {
        let identity: ObjectIdentifier
        /// The place of the object this one is inside; -1 for the root.
        let parent: Int
        /// The components from the parent's place to this one (one or two, usually).
        let components: Relative
    }

    private enum Relative {
        case none
        case one(Component)
        case two(Component, Component)
        case many([Component])
    }

    private var places: [Place] = []
    private var byIdentity: [ObjectIdentifier: Int] = [:]
    /// Pointers already put together, for objects referred to again and again.
    private var pointers: [Int: String] = [:]

    /// How many places are recorded: a mark to ``forget(since:)`` back to.
    var count: Int { places.count }

    /// The place of `identity`, if it was written.
    func place(of identity: ObjectIdentifier) -> Int? { byIdentity[identity] }

    /// Records that `identity` is written in full where `components` (the path from its parent's
    /// place) lead from `parent`; returns its place.
    mutating func record<Components: Collection>(_ identity: ObjectIdentifier, parent: Int, components: Components) -> Int
    where Components.Element == KeyPathTracker.Component {
        let relative: Relative
        switch components.count {
        case 0: relative = .none
        case 1: relative = .one(components[components.startIndex])
        case 2: relative = .two(components[components.startIndex], components[components.index(after: components.startIndex)])
        default: relative = .many(Array(components))
        }
        places.append(Place(identity: identity, parent: parent, components: relative))
        byIdentity[identity] = places.count - 1
        return places.count - 1
    }

    /// The JSON Pointer of `place` (see ``ObjectReference``), put together once.
    mutating func pointer(of place: Int) -> String {
        if let known = pointers[place] { return known }
        let pointer = ObjectReference.pointer(of: components(of: place))
        pointers[place] = pointer
        return pointer
    }

    /// The key path components from the root to `place`.
    func components(of place: Int) -> [KeyPathTracker.Component] {
        var chain: [Component] = []
        var current = place
        while current >= 0 {
            let entry = places[current]
            switch entry.components {
            case .none: break
            case let .one(only): chain.append(only)
            case let .two(first, second): chain.append(contentsOf: [second, first])
            case let .many(all): chain.append(contentsOf: all.reversed())
            }
            current = entry.parent
        }
        return chain.reversed()
    }

    /// Forgets the places recorded since `mark` (their writing was undone).
    mutating func forget(since mark: Int) {
        guard places.count > mark else { return }
        for place in places[mark...] { byIdentity[place.identity] = nil }
        for place in mark..<places.count { pointers[place] = nil }
        places.removeSubrange(mark...)
    }
}
