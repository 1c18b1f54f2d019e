/// The key path from the root to the value being encoded or decoded, kept as a stack of
/// components and rendered (`"members[3].frame"`) only when an error needs it.
struct KeyPathTracker {
    private enum Component {
        case key(String)
        case index(Int)
    }

    private var components: [Component] = []

    mutating func push(key: String) { components.append(.key(key)) }
    mutating func push(index: Int) { components.append(.index(index)) }
    mutating func pop() { components.removeLast() }

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
