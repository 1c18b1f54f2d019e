import Foundation

// Styles (ViewStyle's job): dictionaries of property names or key paths → values, applied in bulk,
// all or nothing.

extension AMCCodable {
    /// Sets every entry of `style`: keys are property names (or the keys
    /// ``AMCCodable/amcKey(forProperty:)`` gives) or key paths, values native or strings in any
    /// string-coding form. Every entry is checked first; if any is bad, nothing changes and the
    /// ``AMCError`` (``AMCError/Kind/invalidStyle(errors:)``) lists each bad entry, an unknown key
    /// with the nearest key the object has. A string for one of the object's
    /// ``AMCCodable/amcSpecialKeys`` goes to its ``amcSetString(_:forKey:)``.
    ///
    /// ```swift
    /// var card = Card()   // a struct
    /// try card.apply(style: ["title": "Hello", "frame.size": "300 x 200"])
    /// ```
    public mutating func apply(style: [String: Any]) throws {
        try Styling.apply([style], to: &self)
    }

    /// Applies `styles` in order, as `apply(style:)` for each in turn would (a later style
    /// wins where both set a property), but checked as a whole first: if any entry of any style
    /// is bad, nothing changes.
    ///
    /// ```swift
    /// try card.apply(styles: [base, emphasis])
    /// ```
    public mutating func apply(styles: [[String: Any]]) throws {
        try Styling.apply(styles, to: &self)
    }
}

extension AMCCodable where Self: AnyObject {
    /// `apply(style:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// try label.apply(style: ["font": "bold 17", "textColor": "#333", "layer.cornerRadius": 4])
    /// ```
    public func apply(style: [String: Any]) throws {
        var object = self
        try Styling.apply([style], to: &object)
    }

    /// `apply(styles:)` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// try label.apply(styles: [base, emphasis])   // emphasis wins where both set a key
    /// ```
    public func apply(styles: [[String: Any]]) throws {
        var object = self
        try Styling.apply(styles, to: &object)
    }
}

/// Checks every entry of the styles against the object, then applies them in order.
enum Styling {
    /// Applies `styles` in order, all or nothing: every entry is checked (and converted) first;
    /// then the strings for special keys go to their hooks, then the plain entries are stored,
    /// each style's after the one before.
    static func apply<Root: AMCCodable>(_ styles: [[String: Any]], to root: inout Root, archiver: AMCArchiver = AMCArchiver())
        throws
    {
        if var planned = planned(styles, in: &root, archiver: archiver) {
            // Taken from the end, so that no entry is copied on its way to its field.
            while let entry = planned.popLast() {
                if try entry.plan.set(checked: entry.string, converted: entry.value, in: &root, archiver: archiver) { continue }
                var setter = KeyValueCoding.Setter(value: entry.string, converted: entry.value, archiver: archiver)
                try KeyPathWalker.walk(entry.plan.keys, from: &root, mode: .write, visitor: &setter)
            }
            return
        }
        var checker = Checker(archiver: archiver)
        checker.plain.reserveCapacity(styles.reduce(0) { $0 + $1.count })
        for style in styles {
            for (keyPath, raw) in style.sorted(by: { $0.key < $1.key }) {
                checker.check(keyPath, raw, in: &root)
            }
        }
        guard checker.errors.isEmpty else { throw AMCError(.invalidStyle(errors: checker.errors)) }
        // Special keys first: a hook that refuses its value still leaves every plain property as
        // it was.
        for (path, string) in checker.hooked {
            try KeyValueCoding.set(string, path: path, in: &root, archiver: archiver)
        }
        for entry in checker.plain {
            switch entry {
            case let .planned(plan, string, value):
                // A hook of the special keys may have replaced an object on the way.
                if try plan.set(.string(string), converted: value, in: &root, archiver: archiver) { continue }
                var setter = KeyValueCoding.Setter(value: string, converted: value, archiver: archiver)
                try KeyPathWalker.walk(plan.keys, from: &root, mode: .write, visitor: &setter)
            case let .walked(path, raw, value):
                var setter = KeyValueCoding.Setter(value: raw, converted: value, archiver: archiver)
                try KeyPathWalker.walk(path, from: &root, mode: .write, visitor: &setter)
            }
        }
    }

    /// A string checked and converted for a scalar field along its key path's plan.
    private struct Planned {
        let style: Int
        let key: String
        let plan: KeyPathPlan
        let string: String
        /// What `string` converts to, once every entry is known to have a plan.
        var value: Any = ()
    }

    /// The entries of `styles` in the reverse of the order they apply in, when every entry is a
    /// string that converts for a scalar field along its key path's plan: the common case, checked
    /// without the walker. Nil when any entry is not, and the checker must go (and say why).
    private static func planned<Root: AMCCodable>(
        _ styles: [[String: Any]], in root: inout Root, archiver: AMCArchiver
    ) -> [Planned]? {
        var planned: [Planned] = []
        planned.reserveCapacity(styles.reduce(0) { $0 + $1.count })
        let rootType = Swift.type(of: root)
        for (index, style) in styles.enumerated() {
            for (key, raw) in style {
                guard let (plan, string) = plannedString(key, raw, for: rootType) else { return nil }
                planned.append(Planned(style: index, key: key, plan: plan, string: string))
            }
        }
        // Converted only once every entry has a plan: a style that goes to the checker (for a
        // number among its values, say) has had none of its strings converted here.
        for index in planned.indices {
            guard let value = plannedValue(planned[index].string, along: planned[index].plan, in: &root, archiver: archiver)
            else { return nil }
            planned[index].value = value
        }
        // Styles apply in order, and each style's entries in the order of their keys.
        planned.sort { $0.style != $1.style ? $0.style > $1.style : $0.key > $1.key }
        return planned
    }

    /// The plan and string of an entry that its key path's plan may set: a string, for a key path
    /// that has a plan.
    private static func plannedString(
        _ keyPath: String, _ raw: Any, for rootType: any AMCCodable.Type
    ) -> (plan: KeyPathPlan, string: String)? {
        guard let string = raw as? String, let plan = KeyPathPlan.plan(for: rootType, keyPath: keyPath, isKey: false)
        else { return nil }
        return (plan, string)
    }

    /// What `string` converts to for the scalar field at the end of `plan`, when it converts and
    /// the field's owner can be reached in `root` (no nil object on the way).
    private static func plannedValue<Root: AMCCodable>(
        _ string: String, along plan: KeyPathPlan, in root: inout Root, archiver: AMCArchiver
    ) -> Any? {
        guard let value = plan.scalarValue(from: string, archiver: archiver),
            plan.endsAtRoot || plan.withOwnerBase(in: &root, { _, _ in })
        else { return nil }
        return value
    }

    /// Checks entries against an object, collecting what to set and what is wrong.
    private struct Checker: KeyPathVisitor {
        let archiver: AMCArchiver
        var errors: [AMCError] = []
        /// Entries for stored properties, with their values converted to the property's type.
        var plain: [Entry] = []
        /// Strings for the owners' special keys.
        var hooked: [(path: [String], string: String)] = []
        private var path: [String] = []
        private var raw: Any = ()

        init(archiver: AMCArchiver) {
            self.archiver = archiver
        }

        /// A checked entry for a stored property.
        enum Entry {
            /// A string for a scalar field, along its key path's plan.
            case planned(KeyPathPlan, string: String, value: Any)
            /// Any other value, or a path without a plan, by the walker.
            case walked(path: [String], raw: Any, value: Any)
        }

        /// What checking an entry found at its end.
        enum Outcome {
            case checked
            /// A nested dictionary for an object or struct already there: its entries are
            /// checked as key paths below it, so what it leaves out keeps its value.
            case nested([String: Any])
        }

        /// Checks the entry `keyPath`: `raw`: along the key path's plan when it leads to a scalar
        /// field that `raw`, a string, converts for; else by the walker, which reports what is wrong.
        mutating func check<Root: AMCCodable>(_ keyPath: String, _ raw: Any, in root: inout Root) {
            if let (plan, string) = plannedString(keyPath, raw, for: Swift.type(of: root)),
                let value = plannedValue(string, along: plan, in: &root, archiver: archiver)
            {
                plain.append(.planned(plan, string: string, value: value))
                return
            }
            check(KeyPathWalker.components(keyPath), raw, in: &root)
        }

        mutating func check<Root>(_ path: [String], _ raw: Any, in root: inout Root) {
            self.path = path
            self.raw = raw
            do {
                guard case let .nested(entries) = try KeyPathWalker.walk(path, from: &root, mode: .check, visitor: &self) else {
                    return
                }
                for (key, value) in entries.sorted(by: { $0.key < $1.key }) { check(path + [key], value, in: &root) }
            } catch let error as AMCError {
                errors.append(error)
            } catch {
                errors.append(AMCError(.hookFailed(hook: "style", typeName: "\(Root.self)", reason: "\(error)")))
            }
        }

        mutating func visit<Owner>(_ owner: inout Owner, key: String, keyPath: String) throws -> Outcome {
            let type = Swift.type(of: owner as Any)
            guard let field = try TypePlan.usable(type, at: keyPath).field(named: key) else {
                guard (type as? any AMCCodable.Type)?.amcSpecialKeys.contains(key) == true else {
                    throw unknownKey(key, of: type, keyPath: keyPath)
                }
                guard let string = raw as? String else {
                    throw AMCError(
                        .typeMismatch(
                            expected: "a string (\"\(key)\" is set by amcSetString)",
                            found: ArchiveValue.literal(raw)), keyPath: keyPath)
                }
                hooked.append((path, string))
                return .checked
            }
            // Checked as key paths below it, the walk asks for a `var` only where a struct is.
            if let entries = raw as? [String: Any], entries["class"] == nil,
                unwrappedValue(field.value(in: owner)) is any AMCCodable
            {
                return .nested(entries)
            }
            guard field.isWritable else {
                throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: keyPath)
            }
            let value = try KeyValueCoding.converted(
                raw, to: field.type, owner: owner as? any AMCCodable,
                keyPath: keyPath, archiver: archiver)
            plain.append(.walked(path: path, raw: raw, value: value))
            return .checked
        }

        func unknownKey(_ key: String, of type: Any.Type, keyPath: String) -> AMCError {
            AMCError(
                .unknownStyleKey(
                    key: key, typeName: AMC.unqualifiedName(of: type),
                    suggestion: TypePlan.of(type).nearestKey(to: key)), keyPath: keyPath)
        }
    }
}
