/// The key path from the root to the value being encoded or decoded, kept as a stack of
/// components and rendered (`"members[3].frame"`) only when an error needs it. While decoding a
/// document with references, it also knows when the place is one a reference names.
struct KeyPathTracker {
    enum Component: Hashable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []
    /// While decoding a document with references: for each level, its place among the routes to
    /// what references name (``noPlace`` off them), so that the decoder knows when it reaches a
    /// target without rendering every place it passes.
    private var places: [Int] = []
    private var routes: ObjectReference.Routes?
    private static let noPlace = -1

    init() {}

    /// A tracker at `components` (the place a reference names), following `routes`.
    init(components: [Component], routes: ObjectReference.Routes?) {
        self.routes = routes
        if routes != nil { places = [ObjectReference.Routes.root] }
        for component in components { push(component) }
    }

    /// Starts following `routes` (see ``ObjectReference/targets(in:)``).
    mutating func track(_ routes: ObjectReference.Routes) {
        precondition(components.isEmpty, "tracking starts at the root")
        self.routes = routes
        places = [ObjectReference.Routes.root]
    }

    /// Back at the root, following nothing, keeping the room the components took.
    mutating func removeAll() {
        components.removeAllKeepingRoom()
        places.removeAllKeepingRoom()
        routes = nil
    }

    mutating func push(key: String) { push(.key(key)) }
    mutating func push(index: Int) { push(.index(index)) }

    mutating func pop() {
        components.removeLast()
        if routes != nil { places.removeLast() }
    }

    private mutating func push(_ component: Component) {
        // Room for a few levels at once, not grown from one by doubling.
        if components.capacity == 0 { components.reserveCapacity(8) }
        components.append(component)
        guard let routes else { return }
        guard let parent = places.last, parent != Self.noPlace, let next = routes.place(after: parent, component) else {
            return places.append(Self.noPlace)
        }
        places.append(next)
    }

    /// The JSON Pointer of the current place when it is on the way to a reference's target (see
    /// ``track(_:)``).
    var trackedPointer: String? {
        guard let routes, let place = places.last, place != Self.noPlace else { return nil }
        return routes.pointer(of: place)
    }

    var rendered: String {
        var text = ""
        for component in components {
            switch component {
            case let .key(key): text += text.isEmpty ? key : ".\(key)"
            case let .index(index): text += "[\(index)]"
            }
        }
        return text
    }

    /// An error of `kind` at the current key path.
    func error(_ kind: AMCError.Kind) -> AMCError {
        AMCError(kind, keyPath: rendered)
    }

    /// `error` as an ``AMCError`` at the current key path: a user hook's own error becomes
    /// ``AMCError/Kind/hookFailed(hook:typeName:reason:)``; an ``AMCError`` thrown without a key
    /// path (by ``AMC/defaultDecodeStruct(_:named:)``, say) gets this one.
    func located(_ error: any Error, hook: String, typeName: String) -> AMCError {
        guard let amcError = error as? AMCError else {
            return self.error(.hookFailed(hook: hook, typeName: typeName, reason: "\(error)"))
        }
        return amcError.keyPath.isEmpty ? amcError.at(rendered) : amcError
    }
}
