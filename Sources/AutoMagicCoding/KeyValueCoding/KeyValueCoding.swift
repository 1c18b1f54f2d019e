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
        try KeyValueCoding.set(string, path: [key], in: &self)
    }

    /// Like `setValue(string:forKey:)` at the end of a dotted key path through nested objects
    /// and structs; structs along the way are written back.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(string: "12", forKeyPath: "frame.origin.x")
    /// ```
    public mutating func setValue(string: String, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(string, path: KeyPathWalker.components(keyPath), in: &self)
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
        try KeyValueCoding.set(value, path: [key], in: &self)
    }

    /// `setValue(_:forKey:)` at the end of a dotted key path.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(12.5, forKeyPath: "frame.size.width")
    /// ```
    public mutating func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(value, path: KeyPathWalker.components(keyPath), in: &self)
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
        try KeyValueCoding.set(string, path: [key], in: &object)
    }

    /// `setValue(string:forKeyPath:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(string: "#ff000080", forKeyPath: "header.layer.borderColor")
    /// ```
    public func setValue(string: String, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(string, path: KeyPathWalker.components(keyPath), in: &object)
    }

    /// `setValue(_:forKey:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let label = Label()
    /// try label.setValue(3, forKey: "numberOfLines")
    /// ```
    public func setValue(_ value: Any?, forKey key: String) throws {
        var object = self
        try KeyValueCoding.set(value, path: [key], in: &object)
    }

    /// `setValue(_:forKeyPath:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(4.0, forKeyPath: "header.layer.cornerRadius")
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(value, path: KeyPathWalker.components(keyPath), in: &object)
    }
}

/// Key-Value Coding on the one key-path walker (``KeyPathWalker``) and the one object filler
/// (``ArchiveDecoder``): a value set by key converts exactly as the archive decoder converts it.
enum KeyValueCoding {
    /// Sets `value` (a string to convert, a native value, nil) at `path` below `root`; a string
    /// goes to the owner's ``AMCCodable/amcSetString(_:forKey:)`` first.
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
        guard field.store(value, in: &owner) else {
            throw AMCError(
                .typeMismatch(
                    expected: "a value of type \(AMC.unqualifiedName(of: field.type))",
                    found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"), keyPath: keyPath)
        }
    }

    /// Lets the owner's ``AMCCodable/amcSetString(_:forKey:)`` take a string; true when it did.
    static func hookTook<Owner>(_ string: String, forKey key: String, of owner: Owner, keyPath: String) throws -> Bool {
        guard let codable = owner as? any AMCCodable else { return false }
        do {
            return try codable.amcSetString(string, forKey: key)
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
            if let string = value as? String, try hookTook(string, forKey: key, of: owner, keyPath: keyPath) { return }
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
