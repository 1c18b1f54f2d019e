import Foundation

/// Extra names for the cases of an enum that string coding sets from strings, beside the case
/// names and raw values it always accepts (StringCoding's `"fit"` for `scaleAspectFit`). Keys
/// are matched without regard to case.
///
/// ```swift
/// enum ContentMode: String, AMCCaseAliases {
///     case scaleToFill, scaleAspectFit, scaleAspectFill
///     static var amcAliases: [String: ContentMode] { ["fit": .scaleAspectFit, "fill": .scaleAspectFill] }
/// }
/// try AMC.value(ContentMode.self, from: "Fit")   // .scaleAspectFit
/// ```
public protocol AMCCaseAliases: CaseIterable {
    /// Alias → case.
    static var amcAliases: [String: Self] { get }
}

/// An option set that string coding sets from space-separated member names, `"none"` and
/// `"all"` (StringCoding's bitmask constants). Names are matched without regard to case, with
/// the type's name allowed in front (`"AutoresizingFlexibleWidth"`).
///
/// ```swift
/// struct Autoresizing: OptionSet, AMCNamedOptions {
///     let rawValue: Int
///     static let flexibleWidth = Autoresizing(rawValue: 1), flexibleHeight = Autoresizing(rawValue: 2)
///     static var amcNamedMembers: [String: Autoresizing] {
///         ["flexibleWidth": .flexibleWidth, "flexibleHeight": .flexibleHeight]
///     }
/// }
/// try AMC.value(Autoresizing.self, from: "flexibleWidth flexibleHeight")   // both
/// ```
public protocol AMCNamedOptions: OptionSet {
    /// Member name → member.
    static var amcNamedMembers: [String: Self] { get }
}

/// Matching names to enum cases and option-set members. Each type's names (case names, raw
/// values, aliases, member names) are read once, lower-cased, into a table kept per type.
enum NamedValues {
    /// The case of `type` that `string` names: a case name or raw value, or an alias, in any
    /// case, with the type's name allowed in front (`"ContentModeScaleAspectFit"`).
    static func enumCase<E: CaseIterable>(_: E.Type, from string: String) throws -> E {
        if let value = enumTable(E.self).value(named: string) { return value }
        let names = E.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
        throw StringValues.mismatch("one of \(names) for \(AMC.unqualifiedName(of: E.self))", string)
    }

    /// ``enumCase(_:from:)`` for an enum known only at run time.
    static func enumParser(_ type: any CaseIterable.Type) -> StringValues.Parser {
        func make<E: CaseIterable>(_: E.Type) -> StringValues.Parser { { try enumCase(E.self, from: $0) } }
        return make(type)
    }

    /// The members of `type` that `string` names, separated by white space, `|` or `,`;
    /// `"none"` is the empty set and `"all"` every named member.
    static func optionsParser(_ type: any AMCNamedOptions.Type) -> StringValues.Parser {
        func make<O: AMCNamedOptions>(_: O.Type) -> StringValues.Parser {
            let table = NameTable<O>(typeName: AMC.unqualifiedName(of: O.self), names: O.amcNamedMembers.map { ($0, $1) })
            let all = table.values.values.reduce(into: O()) { $0.formUnion($1) }
            return { string in
                var result = O()
                let words = string.utf8.split { $0 == 0x20 || (0x09...0x0D).contains($0) || $0 == 0x7C || $0 == 0x2C }
                guard !words.isEmpty else { throw StringValues.mismatch("member names of \(table.typeName)", string) }
                for word in words.map({ String(Substring($0)) }) {
                    let lower = TextTrimming.lowercased(word)
                    if let member = table.value(named: word) {
                        result.formUnion(member)
                    } else if lower == "all" {
                        result.formUnion(all)
                    } else if lower != "none" {
                        let known = O.amcNamedMembers.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                        throw StringValues.mismatch("member names of \(table.typeName) (\(known), none, all)", string)
                    }
                }
                return result
            }
        }
        return make(type)
    }

    private static let enumTables = TypeCache<AnyObject>()

    private static func enumTable<E: CaseIterable>(_: E.Type) -> NameTable<E> {
        let table = enumTables.value(for: E.self) {
            var names: [(String, E)] = []
            for value in E.allCases {
                names.append((String(describing: value), value))
                if let raw = (value as? any RawRepresentable)?.rawValue { names.append(("\(raw)", value)) }
            }
            let aliases = ((E.self as? any AMCCaseAliases.Type).map(aliasNames) ?? []).compactMap { name, value in
                (value as? E).map { (name, $0) }
            }
            // Aliases first: they win over a case name or raw value they repeat.
            return NameTable<E>(typeName: AMC.unqualifiedName(of: E.self), names: aliases + names)
        }
        return table as! NameTable<E>  // made just above for this very E
    }

    private static func aliasNames(_ type: any AMCCaseAliases.Type) -> [(String, Any)] {
        func names<A: AMCCaseAliases>(_: A.Type) -> [(String, Any)] { A.amcAliases.map { ($0, $1 as Any) } }
        return names(type)
    }
}

/// Lower-cased names → values of one type; a name may carry the type's name in front. When two
/// names fold to the same, the first wins.
private final class NameTable<Value>: @unchecked Sendable {
    let typeName: String
    let values: [String: Value]
    private let prefix: String

    init(typeName: String, names: [(String, Value)]) {
        self.typeName = typeName
        prefix = TextTrimming.lowercased(typeName)
        var values: [String: Value] = [:]
        for (name, value) in names {
            let key = TextTrimming.lowercased(TextTrimming.trimmed(name))
            if values[key] == nil { values[key] = value }
        }
        self.values = values
    }

    /// The value `name` names, in any case, with or without the type's name in front.
    func value(named name: String) -> Value? {
        let wanted = TextTrimming.lowercased(TextTrimming.trimmed(name))
        if let value = values[wanted] { return value }
        guard wanted.utf8.count > prefix.utf8.count, wanted.utf8.starts(with: prefix.utf8) else { return nil }
        return values[String(wanted.dropFirst(prefix.count))]
    }
}
