/// How deep a reader is in nested containers, against ``AMC/maximumDepth`` and the room left on
/// the calling thread's stack (see ``StackRoom``).
struct NestingDepth {
    private(set) var depth = 0

    /// Goes one level deeper, or throws why it may not (before anything deeper is read): the
    /// depth limit, or the stack. Neither is malformed data: the document may be well formed.
    mutating func enter() throws(AMCError) {
        if let refusal = Self.refusal(atDepth: depth, limit: AMC.maximumDepth) { throw AMCError(refusal) }
        depth += 1
    }

    /// Why a walk at `depth` may not go a level deeper: `limit` is reached, or the thread's
    /// stack has no room (see ``StackRoom``); nil when it may. Every recursive walk asks this.
    /// `readBack`: the walk writes a document, which reading must not refuse on this thread (see
    /// ``StackRoom/allowsLevel(atDepth:readBack:)``).
    static func refusal(atDepth depth: Int, limit: Int, readBack: StackRoom.Writer? = nil) -> AMCError.Kind? {
        if depth >= limit { return .nestingTooDeep(limit: limit) }
        return StackRoom.allowsLevel(atDepth: depth, readBack: readBack) ? nil : .stackExhausted(depth: depth)
    }

    mutating func leave() {
        depth -= 1
    }
}
