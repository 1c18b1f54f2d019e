/// What a ``KeyPathWalker`` does at the end of a key path.
protocol KeyPathVisitor {
    associatedtype Result
    /// Called with the owner of the path's last key (a class instance or a struct of its
    /// concrete type); `keyPath` is the whole path.
    mutating func visit<Owner>(_ owner: inout Owner, key: String, keyPath: String) throws -> Result
    /// The error for a key on the way that `type` has no stored property for.
    func unknownKey(_ key: String, of type: Any.Type, keyPath: String) -> AMCError
}

extension KeyPathVisitor {
    func unknownKey(_ key: String, of type: Any.Type, keyPath: String) -> AMCError {
        AMCError(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: keyPath)
    }
}

/// The one walk along a dotted key path (`"header.title.frame.origin.x"`) through objects and
/// structs, on the archiver's field plans: Key-Value Coding, styles and stylesheets all use it.
/// Keys are stored-property names or the keys ``AMCCodable/amcKey(forProperty:)`` gives.
enum KeyPathWalker {
    /// How the walk treats the structs on the way.
    enum Mode {
        /// Structs are copies; nothing is written back.
        case read
        /// As ``write`` would go (each struct on the way must be in a `var`), writing nothing.
        case check
        /// Structs on the way are written back into their owners, so that a change at the end
        /// reaches the root; objects are changed in place.
        case write
    }

    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Walks `path` from `root` and lets `visitor` act on the owner of its last key.
    static func walk<Root, Visitor: KeyPathVisitor>(
        _ path: [String], from root: inout Root, mode: Mode, visitor: inout Visitor
    ) throws -> Visitor.Result {
        try step(path, index: 0, owner: &root, mode: mode, visitor: &visitor)
    }

    private static func step<Owner, Visitor: KeyPathVisitor>(
        _ path: [String], index: Int, owner: inout Owner, mode: Mode, visitor: inout Visitor
    ) throws -> Visitor.Result {
        let key = path[index]
        let here = path[...index].joined(separator: ".")
        if index == path.count - 1 {
            return try visitor.visit(&owner, key: key, keyPath: path.joined(separator: "."))
        }
        let type = Swift.type(of: owner as Any)
        guard let field = TypePlan.of(type).field(named: key) else {
            throw visitor.unknownKey(key, of: type, keyPath: here)
        }
        guard let child = unwrappedValue(field.value(in: owner)) else {
            throw AMCError(.nilInKeyPath(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
        }
        func descend<Child>(_ child: Child) throws -> (Visitor.Result, Any) {
            var child = child
            let result = try step(path, index: index + 1, owner: &child, mode: mode, visitor: &visitor)
            return (result, child)
        }
        if RuntimeAccess.shape(of: Swift.type(of: child)) == .class {
            return try _openExistential(child, do: descend).0  // changed in place
        }
        guard mode == .read || field.isWritable else {
            throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
        }
        let (result, updated) = try _openExistential(child, do: descend)
        if mode == .write { _ = field.store(updated, in: &owner) }
        return result
    }
}
