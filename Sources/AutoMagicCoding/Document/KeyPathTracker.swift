/// The key path from the root to the value being encoded or decoded, kept as a stack of
/// components and rendered (`"members[3].frame"`) only when an error needs it. While decoding a
/// document with references, it also knows when the place is one a reference names.
struct KeyPathTracker {
    enum Component: Hashable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []
    /// While decoding a document with references: the JSON Pointer of each level, where it is on
    /// the way to a reference's target (nil elsewhere), so that the decoder knows when it reaches a
    /// target without rendering every place it passes.
    private var pointers: [String?] = []
    /// For each pointer on the way to a target, the segments that lead on.
    private var routes: [String: Set<String>]?

    init() {}

    /// A tracker at `components` (the place a reference names), following `routes`.
    init(components: [Component], routes: [String: Set<String>]?) {
        self.routes = routes
        if routes != nil { pointers = [ObjectReference.rootPointer] }
        for component in components { push(component) }
    }

    /// Starts following `routes` (see ``ObjectReference/targets(in:)``).
    mutating func track(_ routes: [String: Set<String>]) {
        precondition(components.isEmpty, "tracking starts at the root")
        self.routes = routes
        pointers = [ObjectReference.rootPointer]
    }

    /// Back at the root, following nothing, keeping the room the components took.
    mutating func removeAll() {
        components.removeAll(keepingCapacity: true)
        pointers.removeAll(keepingCapacity: true)
        routes = nil
    }

    mutating func push(key: String) { push(.key(key)) }
    mutating func push(index: Int) { push(.index(index)) }

    mutating func pop() {
        components.removeLast()
        if routes != nil { pointers.removeLast() }
    }

    private mutating func push(_ component: Component) {
        // Room for a few levels at once, not grown from one by doubling.
        if components.capacity == 0 { components.reserveCapacity(8) }
        components.append(component)
        guard let routes else { return }
        guard let parent = pointers.last ?? nil, let next = routes[parent] else { return pointers.append(nil) }
        let segment = ObjectReference.segment(component)
        pointers.append(next.contains(segment) ? parent + "/" + segment : nil)
    }

    /// The JSON Pointer of the current place when it is one being followed (see ``track(_:)``).
    var trackedPointer: String? { pointers.last ?? nil }

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
