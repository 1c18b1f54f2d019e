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
/// Keys are stored-property names or the keys ``AMCCodable/amcKey(forProperty:)`` gives; a
/// number after an array picks its element (`"subviews.0.frame"`), as in `amc`'s key paths.
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

    /// The keys of `keyPath`: split at each dot, except one written `\.`, which is part of its
    /// key (as plutil reads key paths): the one key-path syntax of Key-Value Coding, styles,
    /// configurations, `AMCDocument` and `amc`.
    ///
    /// ```swift
    /// KeyPathWalker.components("servers.eu\\.west.port")   // ["servers", "eu.west", "port"]
    /// ```
    static func components(_ keyPath: String) -> [String] {
        guard keyPath.contains("\\") else {
            return keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        }
        var keys: [String] = []
        var key = ""
        var rest = Substring(keyPath)
        while let character = rest.popFirst() {
            if character == "\\", rest.first == "." {
                key.append(rest.removeFirst())
            } else if character == "." {
                keys.append(key)
                key = ""
            } else {
                key.append(character)
            }
        }
        keys.append(key)
        return keys
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
        if index == path.count - 1 {
            return try visitor.visit(&owner, key: key, keyPath: path.count == 1 ? key : path.joined(separator: "."))
        }
        let here = path[...index].joined(separator: ".")
        let type = Swift.type(of: owner as Any)
        guard let field = try TypePlan.usable(type, at: here).field(named: key) else {
            throw visitor.unknownKey(key, of: type, keyPath: here)
        }
        guard let child = unwrappedValue(field.value(in: owner)) else {
            throw AMCError(.nilInKeyPath(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
        }
        guard mode == .read || field.isWritable || RuntimeAccess.shape(of: Swift.type(of: child)) == .class else {
            throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
        }
        let (result, updated) = try descend(into: child, path, index: index + 1, mode: mode, visitor: &visitor)
        if mode == .write, let updated { _ = field.store(updated, in: &owner) }
        return result
    }

    /// Walks on from `child`, the value at `path[index - 1]`: into it, or, when `path[index]` is a
    /// number and `child` an array, into that element (the path goes on past it). Returns the
    /// result and, for a value (a struct, an array), the value to store back; nil for an object,
    /// changed in place.
    private static func descend<Visitor: KeyPathVisitor>(
        into child: Any, _ path: [String], index: Int, mode: Mode, visitor: inout Visitor
    ) throws -> (Visitor.Result, Any?) {
        if var elements = child as? any ArrayElements, let position = Int(path[index]), String(position) == path[index] {
            let here = path[...index].joined(separator: ".")
            guard elements.indices.contains(position) else {
                throw AMCError(
                    .keyPathNotFound(reason: "the array has \(elements.count) elements, none at \(position)"), keyPath: here)
            }
            guard index < path.count - 1 else {
                throw AMCError(
                    .keyPathNotFound(reason: "a key path names a property; this one ends at an array's element"), keyPath: here)
            }
            let (result, updated) = try descend(
                into: elements.element(at: position), path, index: index + 1, mode: mode, visitor: &visitor)
            guard let updated else { return (result, nil) }  // an object, changed in place
            guard elements.setElement(updated, at: position) else { return (result, nil) }
            return (result, elements)
        }
        func open<Child>(_ child: Child) throws -> (Visitor.Result, Any?) {
            var child = child
            let result = try step(path, index: index, owner: &child, mode: mode, visitor: &visitor)
            return (result, RuntimeAccess.shape(of: Child.self) == .class ? nil : child)
        }
        return try open(child)
    }
}

/// An array seen without its element type, for key paths through it.
private protocol ArrayElements {
    var count: Int { get }
    var indices: Range<Int> { get }
    func element(at index: Int) -> Any
    /// Sets the element at `index` to `value`; false when `value` is not an element.
    mutating func setElement(_ value: Any, at index: Int) -> Bool
}

extension Array: ArrayElements {
    func element(at index: Int) -> Any { self[index] }

    mutating func setElement(_ value: Any, at index: Int) -> Bool {
        guard let element = value as? Element else { return false }
        self[index] = element
        return true
    }
}
