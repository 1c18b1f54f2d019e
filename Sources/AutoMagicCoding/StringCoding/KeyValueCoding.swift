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
        try KeyValueCoding.set(.string(string), path: [key], index: 0, in: &self)
    }

    /// Like ``setValue(string:forKey:)`` at the end of a dotted key path through nested objects
    /// and structs; structs along the way are written back.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(string: "12", forKeyPath: "frame.origin.x")
    /// ```
    public mutating func setValue(string: String, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(.string(string), path: KeyValueCoding.components(keyPath), index: 0, in: &self)
    }

    /// Sets the stored property `key` to `value`: a value of the property's type as it is, a
    /// string converted as ``setValue(string:forKey:)`` does, a number converted to the
    /// property's numeric type when it fits, nil for optionals.
    ///
    /// ```swift
    /// var settings = Settings()
    /// try settings.setValue("10", forKey: "index")   // index: Int becomes 10
    /// ```
    public mutating func setValue(_ value: Any?, forKey key: String) throws {
        try KeyValueCoding.set(.init(value), path: [key], index: 0, in: &self)
    }

    /// ``setValue(_:forKey:)`` at the end of a dotted key path.
    ///
    /// ```swift
    /// var card = Card()
    /// try card.setValue(12.5, forKeyPath: "frame.size.width")
    /// ```
    public mutating func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        try KeyValueCoding.set(.init(value), path: KeyValueCoding.components(keyPath), index: 0, in: &self)
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
        try KeyValueCoding.value(of: self, path: KeyValueCoding.components(keyPath))
    }
}

extension AMCCodable where Self: AnyObject {
    /// ``AMCCodable/setValue(string:forKey:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let label = Label()
    /// try label.setValue(string: "#ff000080", forKey: "textColor")
    /// ```
    public func setValue(string: String, forKey key: String) throws {
        var object = self
        try KeyValueCoding.set(.string(string), path: [key], index: 0, in: &object)
    }

    /// ``AMCCodable/setValue(string:forKeyPath:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(string: "#ff000080", forKeyPath: "header.layer.borderColor")
    /// ```
    public func setValue(string: String, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(.string(string), path: KeyValueCoding.components(keyPath), index: 0, in: &object)
    }

    /// ``AMCCodable/setValue(_:forKey:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let label = Label()
    /// try label.setValue(3, forKey: "numberOfLines")
    /// ```
    public func setValue(_ value: Any?, forKey key: String) throws {
        var object = self
        try KeyValueCoding.set(.init(value), path: [key], index: 0, in: &object)
    }

    /// ``AMCCodable/setValue(_:forKeyPath:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// let screen = Screen()
    /// try screen.setValue(4.0, forKeyPath: "header.layer.cornerRadius")
    /// ```
    public func setValue(_ value: Any?, forKeyPath keyPath: String) throws {
        var object = self
        try KeyValueCoding.set(.init(value), path: KeyValueCoding.components(keyPath), index: 0, in: &object)
    }
}

/// The key-path walk behind ``AMCCodable/setValue(string:forKeyPath:)`` and friends, on the
/// archiver's field plans.
enum KeyValueCoding {
    enum NewValue {
        case string(String)
        case value(Any?)

        init(_ value: Any?) {
            if let string = value as? String { self = .string(string) } else { self = .value(value) }
        }
    }

    static func components(_ keyPath: String) -> [String] {
        keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Sets the property `path[index]` of `root`, or goes on down the path from it.
    static func set<Root>(_ newValue: NewValue, path: [String], index: Int, in root: inout Root) throws {
        let key = path[index]
        let isLast = index == path.count - 1
        let type = Swift.type(of: root as Any)
        let typeName = AMC.unqualifiedName(of: type)
        let here = path.prefix(index + 1).joined(separator: ".")
        if isLast, case let .string(string) = newValue, let codable = root as? any AMCCodable {
            do {
                if try codable.amcSetString(string, forKey: key) { return }
            } catch let error as AMCError {
                throw error.keyPath.isEmpty ? error.at(here) : error
            } catch {
                throw AMCError(.hookFailed(hook: "amcSetString", typeName: typeName, reason: "\(error)"), keyPath: here)
            }
        }
        guard let field = TypePlan.of(type).field(named: key) else {
            throw AMCError(.unknownKey(key: key, typeName: typeName), keyPath: here)
        }
        if isLast {
            guard field.isWritable else { throw AMCError(.readOnlyKey(key: key, typeName: typeName), keyPath: here) }
            let value: Any
            do {
                value = try convert(newValue, to: field.type)
            } catch let error as AMCError {
                throw error.at(here)
            }
            guard field.store(value, in: &root) else {
                throw AMCError(.typeMismatch(
                    expected: "a value of type \(AMC.unqualifiedName(of: field.type))",
                    found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"), keyPath: here)
            }
            return
        }
        guard let child = unwrappedValue(field.value(in: root)) else {
            throw AMCError(.nilInKeyPath(key: key, typeName: typeName), keyPath: here)
        }
        let isObject = RuntimeAccess.shape(of: Swift.type(of: child)) == .class
        func descend<Child>(_ child: Child) throws -> Any {
            var child = child
            try set(newValue, path: path, index: index + 1, in: &child)
            return child
        }
        let updated = try _openExistential(child, do: descend)
        guard !isObject else { return }  // changed in place
        guard field.isWritable else { throw AMCError(.readOnlyKey(key: key, typeName: typeName), keyPath: here) }
        _ = field.store(updated, in: &root)
    }

    /// The value at `path` below `root`; nil for a nil optional at the end.
    static func value(of root: Any, path: [String]) throws -> Any? {
        var current = root
        for (index, key) in path.enumerated() {
            let here = path.prefix(index + 1).joined(separator: ".")
            let type = Swift.type(of: current)
            guard let field = TypePlan.of(type).field(named: key) else {
                throw AMCError(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
            }
            func read<Holder>(_ holder: Holder) -> Any { field.value(in: holder) }
            let value = unwrappedValue(_openExistential(current, do: read))
            if index == path.count - 1 { return value }
            guard let value else {
                throw AMCError(.nilInKeyPath(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
            }
            current = value
        }
        return current
    }

    /// `value` converted to `type`: as it is when it already is one, from a string by string
    /// coding, from a number when it fits.
    static func convert(_ newValue: NewValue, to type: Any.Type) throws -> Any {
        let value: Any
        switch newValue {
        case let .string(string):
            return try StringValues.parse(string, as: type)
        case .value(nil):
            guard let optional = type as? any OptionalContainer.Type else {
                throw AMCError(.typeMismatch(expected: "a value of type \(AMC.unqualifiedName(of: type))", found: "nil"))
            }
            return optional.noneValue
        case let .value(some?):
            value = some
        }
        func isInstance<T>(_: T.Type) -> Bool { value is T }
        if _openExistential(type, do: isInstance) { return value }
        let target = unwrappedType(type)
        if let number = NumberValue(value) {
            let converted: Any?
            if let integer = target as? any FixedWidthInteger.Type {
                converted = number.converted(to: integer)
            } else if let floating = target as? any BinaryFloatingPoint.Type {
                converted = number.converted(to: floating)
            } else {
                converted = nil
            }
            if let converted { return converted }
            if target is any FixedWidthInteger.Type || target is any BinaryFloatingPoint.Type {
                throw AMCError(.valueOutOfRange(value: number.description, typeName: AMC.unqualifiedName(of: target)))
            }
        }
        throw AMCError(.typeMismatch(
            expected: "a value of type \(AMC.unqualifiedName(of: type))",
            found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
    }
}
