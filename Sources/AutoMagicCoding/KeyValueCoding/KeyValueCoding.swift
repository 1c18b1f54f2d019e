import Foundation

// Key-Value Coding for every AMCCodable type: read and set stored properties by name or dotted
// key path, converting strings (and numbers) to the property's type.

extension AMCCodable {
    /// Sets the stored property `key` from a string, converted to the property's type (see
    /// ``AMC/value(_:from:)``), unless ``amcSetString(_:forKey:)`` takes it. Throws ``AMCError``
    /// for an unknown or read-only key, or a string the type cannot be read from.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try settings.setValue(string: "10 20", forKey: "offset")
    /// ```
    public mutating func setValue(string: String, forKey key: String) throws {
        try KeyValueCoding.set(string: string, key: key, in: &self)
    }

    /// Like `setValue(string:forKey:)` at the end of a dotted key path through nested objects
    /// and structs; structs along the way are written back.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(string: "12", forKeyPath: "frame.origin.x")
    /// ```
    public mutating func setValue(string: String, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(string: string, keyPath: keyPath, in: &self)
    }

    /// Sets the stored property `key` to `value`: a value of the property's type as it is, a
    /// string converted as `setValue(string:forKey:)` does, a number converted to the
    /// property's numeric type when it fits, nil for optionals.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try settings.setValue("10", forKey: "index")   // index: Int becomes 10
    /// ```
    public mutating func setValue(_ value: Any?, forKey key: String) throws {
        try KeyValueCoding.set(value, key: key, in: &self)
    }

    /// `setValue(_:forKey:)` at the end of a dotted key path.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(12.5, forKeyPath: "frame.size.width")
    /// ```
    public mutating func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(value, keyPath: keyPath, in: &self)
    }

    /// The value of the stored property `key`; nil when it is an optional holding nil. Throws
    /// ``AMCError`` for an unknown key.
    ///
    /// ```swift
    /// let index = try settings.value(forKey: "index") as? Int
    /// ```
    public func value(forKey key: String) throws -> Any? {
        try KeyValueCoding.value(of: self, path: [key])
    }

    /// The value at the end of a dotted key path; throws when the path goes through nil.
    ///
    /// ```swift
    /// let x = try card.value(forKeyPath: "frame.origin.x") as? CGFloat
    /// ```
    public func value(forKeyPath keyPath: String) throws -> Any? {
        try KeyValueCoding.value(of: self, path: KeyPathWalker.components(keyPath))
    }
}

extension AMCCodable where Self: AnyObject {
    /// `setValue(string:forKey:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let label = Label()
    /// try label.setValue(string: "#ff000080", forKey: "textColor")
    /// ```
    public func setValue(string: String, forKey key: String) throws {
        var object = self
        try KeyValueCoding.set(string: string, key: key, in: &object)
    }

    /// `setValue(string:forKeyPath:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(string: "#ff000080", forKeyPath: "header.layer.borderColor")
    /// ```
    public func setValue(string: String, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(string: string, keyPath: keyPath, in: &object)
    }

    /// `setValue(_:forKey:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let label = Label()
    /// try label.setValue(3, forKey: "numberOfLines")
    /// ```
    public func setValue(_ value: Any?, forKey key: String) throws {
        var object = self
        try KeyValueCoding.set(value, key: key, in: &object)
    }

    /// `setValue(_:forKeyPath:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(4.0, forKeyPath: "header.layer.cornerRadius")
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(value, keyPath: keyPath, in: &object)
    }
}

/// Key-Value Coding on the one key-path walker (``KeyPathWalker``) and the one object filler
/// (``ArchiveDecoder``): a value set by key converts exactly as the archive decoder converts it.
enum KeyValueCoding {
    /// Sets `string` (converted to the property's type) at the key `key` of `root`; the owner's
    /// ``AMCCodable/amcSetString(_:forKey:)`` is asked first.
    static func set<Root: AMCCodable>(string: String, key: String, in root: inout Root, archiver: AMCArchiver = AMCArchiver())
        throws
    {
        try set(.string(string), keyPath: key, isKey: true, in: &root, archiver: archiver)
    }

    /// Sets `string` at the end of the dotted `keyPath` below `root`.
    static func set<Root: AMCCodable>(string: String, keyPath: String, in root: inout Root, archiver: AMCArchiver = AMCArchiver())
        throws
    {
        try set(.string(string), keyPath: keyPath, isKey: false, in: &root, archiver: archiver)
    }

    /// Sets `value` (a string to convert, a native value, nil) at the key `key` of `root`.
    static func set<Root: AMCCodable>(_ value: Any?, key: String, in root: inout Root, archiver: AMCArchiver = AMCArchiver())
        throws
    {
        try set(NewValue(value), keyPath: key, isKey: true, in: &root, archiver: archiver)
    }

    /// Sets `value` at the end of the dotted `keyPath` below `root`.
    static func set<Root: AMCCodable>(_ value: Any?, keyPath: String, in root: inout Root, archiver: AMCArchiver = AMCArchiver())
        throws
    {
        try set(NewValue(value), keyPath: keyPath, isKey: false, in: &root, archiver: archiver)
    }

    /// What a set stores: a string to convert, which the owner's hook sees first, or any other
    /// value (native, a number to convert, nil).
    enum NewValue {
        case string(String)
        case other(Any?)

        init(_ value: Any?) {
            self = (value as? String).map { .string($0) } ?? .other(value)
        }

        var value: Any? {
            switch self {
            case let .string(string): string
            case let .other(value): value
            }
        }
    }

    /// Sets `value` at `keyPath` (one key when `isKey`) below `root`: along the path's
    /// ``KeyPathPlan`` when it has one, else by the walker.
    private static func set<Root: AMCCodable>(
        _ value: NewValue, keyPath: String, isKey: Bool, in root: inout Root, archiver: AMCArchiver
    ) throws {
        if let plan = KeyPathPlan.plan(for: Swift.type(of: root), keyPath: keyPath, isKey: isKey),
            try plan.set(value, in: &root, archiver: archiver)
        {
            return
        }
        try set(value.value, path: isKey ? [keyPath] : KeyPathWalker.components(keyPath), in: &root, archiver: archiver)
    }

    /// Sets `value` (a string to convert, a native value, nil) at `path` below `root`, by the
    /// walker; a string goes to the owner's ``AMCCodable/amcSetString(_:forKey:)`` first.
    static func set<Root>(_ value: Any?, path: [String], in root: inout Root, archiver: AMCArchiver = AMCArchiver()) throws {
        var setter = Setter(value: value, archiver: archiver)
        try KeyPathWalker.walk(path, from: &root, mode: .write, visitor: &setter)
    }

    /// The value at `path` below `root`; nil for a nil optional at the end.
    static func value<Root>(of root: Root, path: [String]) throws -> Any? {
        var root = root
        var getter = Getter()
        return try KeyPathWalker.walk(path, from: &root, mode: .read, visitor: &getter)
    }

    /// `raw` (a native value, a string, nil) as a value of `type`, converted by the archive
    /// decoder with `owner`'s struct hooks; errors carry `keyPath` in front of their own.
    static func converted(
        _ raw: Any?, to type: Any.Type, owner: (any AMCCodable)?, keyPath: String, archiver: AMCArchiver
    ) throws -> Any {
        var path = KeyPathTracker()
        do {
            let document = try raw.map { try ArchiveValue.converting($0, path: &path) } ?? .null
            var decoder = ArchiveDecoder(archiver: archiver, forgiving: true)
            return try decoder.decodeValue(document, as: type, owner: owner)
        } catch let error as AMCError {
            throw error.under(keyPath)
        }
    }

    /// The stored field `key` of `type` that may be set; throws for an unknown or read-only key.
    static func writableField(_ key: String, of type: Any.Type, keyPath: String) throws -> FieldPlan {
        guard let field = try TypePlan.usable(type, at: keyPath).field(named: key) else {
            throw AMCError(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: keyPath)
        }
        guard field.isWritable else {
            throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: keyPath)
        }
        return field
    }

    /// Stores `value` (of the field's type) into `owner`'s field.
    static func store<Owner>(_ value: Any, in field: FieldPlan, of owner: inout Owner, keyPath: String) throws {
        guard field.store(value, in: &owner) else { throw mismatch(value, for: field, keyPath: keyPath) }
    }

    /// The error for a `value` that is not of `field`'s type.
    static func mismatch(_ value: Any, for field: FieldPlan, keyPath: String) -> AMCError {
        AMCError(
            .typeMismatch(
                expected: "a value of type \(AMC.unqualifiedName(of: field.type))",
                found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"), keyPath: keyPath)
    }

    /// Lets the owner's ``AMCCodable/amcSetString(_:forKey:)`` take a string; true when it did.
    static func hookTook(_ string: String, forKey key: String, of owner: some AMCCodable, keyPath: String) throws -> Bool {
        do {
            return try owner.amcSetString(string, forKey: key)
        } catch let error as AMCError {
            throw error.keyPath.isEmpty ? error.at(keyPath) : error
        } catch {
            throw AMCError(
                .hookFailed(
                    hook: "amcSetString", typeName: AMC.unqualifiedName(of: Swift.type(of: owner as Any)),
                    reason: "\(error)"), keyPath: keyPath)
        }
    }

    /// Sets the last key of a path: a string goes to the owner's hook first; anything else is
    /// converted to the field's type (unless already `converted`, by a style's check) and stored.
    struct Setter: KeyPathVisitor {
        let value: Any?
        var converted: Any?
        let archiver: AMCArchiver

        init(value: Any?, converted: Any? = nil, archiver: AMCArchiver) {
            self.value = value
            self.converted = converted
            self.archiver = archiver
        }

        func visit<Owner>(_ owner: inout Owner, key: String, keyPath: String) throws {
            if let string = value as? String, let codable = owner as? any AMCCodable,
                try hookTook(string, forKey: key, of: codable, keyPath: keyPath)
            {
                return
            }
            let field = try writableField(key, of: Swift.type(of: owner as Any), keyPath: keyPath)
            let newValue =
                try converted
                ?? KeyValueCoding.converted(
                    value, to: field.type, owner: owner as? any AMCCodable, keyPath: keyPath,
                    archiver: archiver)
            try store(newValue, in: field, of: &owner, keyPath: keyPath)
        }
    }

    private struct Getter: KeyPathVisitor {
        func visit<Owner>(_ owner: inout Owner, key: String, keyPath: String) throws -> Any? {
            let type = Swift.type(of: owner as Any)
            guard let field = try TypePlan.usable(type, at: keyPath).field(named: key) else {
                throw unknownKey(key, of: type, keyPath: keyPath)
            }
            return unwrappedValue(field.value(in: owner))
        }
    }
}

extension KeyPathPlan {
    /// Sets `value` at the plan's end below `root`, as the walker's ``KeyValueCoding/Setter``
    /// does: a string goes to the owner's hook first; then `converted` (the value a style's
    /// check made) is stored, or the string converts straight into a scalar field, or the
    /// archive decoder converts the value. False, doing nothing, when an object on the way is
    /// not the planned one and the walker must go instead. `asksHook` false: the caller has asked
    /// the root's hook already (the plan ends at the root).
    func set<Root: AMCCodable>(
        _ value: KeyValueCoding.NewValue, converted: Any? = nil, in root: inout Root, archiver: AMCArchiver,
        asksHook: Bool = true
    ) throws -> Bool {
        var context = archiver.context
        context.forgiving = true
        guard endsAtRoot else {
            return try withOwnerBase(in: &root) { base, owner in
                try set(value, converted: converted, at: base, owner: owner, context: context, archiver: archiver)
            }
        }
        if case let .string(string) = value {
            if asksHook, try KeyValueCoding.hookTook(string, forKey: key, of: root, keyPath: keyPath) { return true }
            if converted == nil, let fast = field.fast,
                (try? RuntimeAccess.withMutableFieldBase(of: &root) { try fast.convert($0, .string(string), context) }) != nil
            {
                return true
            }
        }
        let newValue =
            try converted
            ?? KeyValueCoding.converted(value.value, to: field.type, owner: root, keyPath: keyPath, archiver: archiver)
        try KeyValueCoding.store(newValue, in: field, of: &root, keyPath: keyPath)
        return true
    }

    /// Sets `converted`, the value a style's check made of `string`, as
    /// ``set(_:converted:in:archiver:asksHook:)`` does, the root's hook first. False, doing nothing, when
    /// an object on the way is not the planned one and the walker must go instead.
    func set<Root: AMCCodable>(checked string: String, converted: Any, in root: inout Root, archiver: AMCArchiver) throws -> Bool
    {
        guard endsAtRoot else { return try set(.string(string), converted: converted, in: &root, archiver: archiver) }
        if try KeyValueCoding.hookTook(string, forKey: key, of: root, keyPath: keyPath) { return true }
        try KeyValueCoding.store(converted, in: field, of: &root, keyPath: keyPath)
        return true
    }

    /// ``set(_:converted:in:archiver:asksHook:)`` at the fields of the last key's owner, `owner` as its
    /// hooks see it.
    private func set(
        _ value: KeyValueCoding.NewValue, converted: Any?, at base: UnsafeMutableFieldBase, owner: (any AMCCodable)?,
        context: ValueContext, archiver: AMCArchiver
    ) throws {
        if case let .string(string) = value {
            if let owner, try KeyValueCoding.hookTook(string, forKey: key, of: owner, keyPath: keyPath) { return }
            // A string the fast way cannot read goes the archive decoder's way, which says why.
            if converted == nil, let fast = field.fast, (try? fast.convert(base, .string(string), context)) != nil { return }
        }
        let newValue =
            try converted
            ?? KeyValueCoding.converted(value.value, to: field.type, owner: owner, keyPath: keyPath, archiver: archiver)
        guard RuntimeAccess.store(newValue, as: field.type, at: field.offset, to: base) else {
            throw KeyValueCoding.mismatch(newValue, for: field, keyPath: keyPath)
        }
    }

    /// What `string` converts to for a field that is a scalar (or an optional of one), as the
    /// archive decoder converts it; nil for other fields and for a string that does not convert
    /// (the decoder's way then says why).
    func scalarValue(from string: String, archiver: AMCArchiver) -> Any? {
        var context = archiver.context
        context.forgiving = true
        switch field.kind {
        case let .scalar(codec), let .optional(_, .scalar(codec)): return try? codec.decode(.string(string), context)
        default: return nil
        }
    }
}
