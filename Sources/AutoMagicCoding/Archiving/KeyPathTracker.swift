/// The key path from the root to the value being encoded or decoded, kept as a stack of
/// components and rendered (`"members[3].frame"`) only when an error needs it. It also gives the
/// place's JSON Pointer (`#/members/3/frame`), which object references name.
struct KeyPathTracker {
    enum Component: Hashable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []
    /// While decoding a document with references: the JSON Pointer of each level, where it is a
    /// prefix of a reference's target (nil elsewhere), so that the decoder knows when it reaches a
    /// target without rendering every place it passes.
    private var pointers: [String?] = []
    private var targetPrefixes: Set<String>?

    init() {}

    /// A tracker at `components` (the place a reference names), tracking `targetPrefixes`.
    init(components: [Component], targetPrefixes: Set<String>?) {
        self.targetPrefixes = targetPrefixes
        if targetPrefixes != nil { pointers = [ObjectReference.rootPointer] }
        for component in components { push(component) }
    }

    /// Starts following the places in `prefixes` (the JSON Pointers of reference targets and
    /// of every container on the way to them).
    mutating func track(_ prefixes: Set<String>) {
        targetPrefixes = prefixes
        pointers = [ObjectReference.rootPointer]
        precondition(components.isEmpty, "tracking starts at the root")
    }

    mutating func push(key: String) { push(.key(key)) }
    mutating func push(index: Int) { push(.index(index)) }

    mutating func pop() {
        components.removeLast()
        if targetPrefixes != nil { pointers.removeLast() }
    }

    private mutating func push(_ component: Component) {
        components.append(component)
        guard let prefixes = targetPrefixes else { return }
        guard let parent = pointers.last ?? nil else { return pointers.append(nil) }
        let pointer = ObjectReference.pointer(parent, appending: component)
        pointers.append(prefixes.contains(pointer) ? pointer : nil)
    }

    /// The JSON Pointer of the current place when it is one being followed (see ``track(_:)``).
    var trackedPointer: String? { pointers.last ?? nil }

    /// The JSON Pointer of the current place: `#/members/3`.
    var pointer: String { ObjectReference.pointer(of: components) }

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
