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
        try Styling.apply(style, to: &self)
    }

    /// Applies `styles` in order as one style: a later style wins on the same key.
    ///
    /// ```swift
    /// try card.apply(styles: [base, emphasis])
    /// ```
    public mutating func apply(styles: [[String: Any]]) throws {
        try Styling.apply(Styling.merged(styles), to: &self)
    }
}

extension AMCCodable where Self: AnyObject {
    /// ``AMCCodable/apply(style:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// try label.apply(style: ["font": "bold 17", "textColor": "#333", "layer.cornerRadius": 4])
    /// ```
    public func apply(style: [String: Any]) throws {
        var object = self
        try Styling.apply(style, to: &object)
    }

    /// ``AMCCodable/apply(styles:)`` for a class instance, also held in a `let`.
    ///
    /// ```swift
    /// try label.apply(styles: [base, emphasis])   // emphasis wins where both set a key
    /// ```
    public func apply(styles: [[String: Any]]) throws {
        var object = self
        try Styling.apply(Styling.merged(styles), to: &object)
    }
}

/// Checks every entry of a style against the object, then applies them.
enum Styling {
    static func merged(_ styles: [[String: Any]]) -> [String: Any] {
        styles.reduce(into: [:]) { merged, style in merged.merge(style) { _, later in later } }
    }

    static func apply<Root>(_ style: [String: Any], to root: inout Root) throws {
        var errors: [AMCError] = []
        var plain: [(path: [String], value: Any)] = []
        var hooked: [(keyPath: String, string: String)] = []
        for (keyPath, raw) in style.sorted(by: { $0.key < $1.key }) {
            let path = KeyValueCoding.components(keyPath)
            do {
                if try isPlainProperty(path, raw, in: root) {
                    plain.append((path, raw))
                } else if let string = raw as? String {
                    hooked.append((keyPath, string))
                }
            } catch let error as AMCError {
                errors.append(error)
            }
        }
        guard errors.isEmpty else { throw AMCError(.invalidStyle(errors: errors)) }
        // Special keys first: a hook that refuses its value still leaves every plain property as
        // it was.
        for (keyPath, string) in hooked {
            try KeyValueCoding.set(.string(string), path: KeyValueCoding.components(keyPath), index: 0, in: &root)
        }
        for (path, raw) in plain {
            try KeyValueCoding.set(KeyValueCoding.NewValue(raw), path: path, index: 0, in: &root)
        }
    }

    /// Whether `path` names a stored property that `raw` can become (true), or one of the owner's
    /// special keys with a string (false); throws for anything else.
    private static func isPlainProperty<Root>(_ path: [String], _ raw: Any, in root: Root) throws -> Bool {
        var current: Any = root
        for (index, key) in path.enumerated() {
            let here = path.prefix(index + 1).joined(separator: ".")
            let type = Swift.type(of: current)
            let plan = TypePlan.of(type)
            guard let field = plan.field(named: key) else {
                let special = (type as? any AMCCodable.Type)?.amcSpecialKeys ?? []
                if index == path.count - 1, special.contains(key) {
                    guard raw is String else {
                        throw AMCError(.typeMismatch(expected: "a string (\"\(key)\" is set by amcSetString)",
                                                     found: ConfigValues.describe(raw)), keyPath: here)
                    }
                    return false
                }
                throw AMCError(.unknownStyleKey(key: key, typeName: AMC.unqualifiedName(of: type),
                                                suggestion: suggestion(for: key, among: type)), keyPath: here)
            }
            guard index < path.count - 1 || field.isWritable else {
                throw AMCError(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
            }
            func read<Holder>(_ holder: Holder) -> Any { field.value(in: holder) }
            if index == path.count - 1 {
                do {
                    _ = try ConfigValues.convert(raw, to: field.type)
                } catch let error as AMCError {
                    throw error.under(here)
                }
                return true
            }
            guard let child = unwrappedValue(_openExistential(current, do: read)) else {
                throw AMCError(.nilInKeyPath(key: key, typeName: AMC.unqualifiedName(of: type)), keyPath: here)
            }
            current = child
        }
        return true
    }

    /// The property name, key or special key of `type` nearest to `key` (by edits, ignoring
    /// case), when it is near enough to be a likely typo: at most 2 edits, or a third of the key's
    /// length.
    static func suggestion(for key: String, among type: Any.Type) -> String? {
        let special = (type as? any AMCCodable.Type)?.amcSpecialKeys ?? []
        let candidates = Set(TypePlan.of(type).fields.flatMap { [$0.name, $0.key] }).union(special).sorted()
        let wanted = Array(key.lowercased())
        let scored = candidates.map { ($0, editDistance(wanted, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, wanted.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ one: [Character], _ two: [Character]) -> Int {
        var previous = Array(0...two.count)
        for (i, first) in one.enumerated() {
            var row = [i + 1]
            for (j, second) in two.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (first == second ? 0 : 1)))
            }
            previous = row
        }
        return previous[two.count]
    }
}
