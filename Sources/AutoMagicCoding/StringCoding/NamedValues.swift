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

/// Matching names to enum cases and option-set members.
enum NamedValues {
    /// The case of `type` that `string` names: a case name or raw value, or an alias, in any
    /// case, with the type's name allowed in front (`"ContentModeScaleAspectFit"`).
    static func anyEnumCase(_ type: any CaseIterable.Type, from string: String) throws -> Any {
        func open<E: CaseIterable>(_ opened: E.Type) throws -> Any { try enumCase(opened, from: string) }
        return try open(type)
    }

    static func enumCase<E: CaseIterable>(_: E.Type, from string: String) throws -> E {
        let wanted = normalized(string, typeName: AMC.unqualifiedName(of: E.self))
        if let aliases = E.self as? any AMCCaseAliases.Type, let hit = alias(aliases, wanted) as? E { return hit }
        for value in E.allCases {
            if normalized(String(describing: value), typeName: "") == wanted { return value }
            if let raw = (value as? any RawRepresentable)?.rawValue, normalized("\(raw)", typeName: "") == wanted {
                return value
            }
        }
        throw StringValues.mismatch("one of \(names(E.self)) for \(AMC.unqualifiedName(of: E.self))", string)
    }

    /// The members of `type` that `string` names, separated by white space, `|` or `,`;
    /// `"none"` is the empty set and `"all"` every named member.
    static func options(_ type: any AMCNamedOptions.Type, from string: String) throws -> Any {
        func union<O: AMCNamedOptions>(_: O.Type) throws -> Any {
            let typeName = AMC.unqualifiedName(of: O.self)
            var members: [String: O] = [:]
            for (name, member) in O.amcNamedMembers { members[normalized(name, typeName: "")] = member }
            var result = O()
            let words = string.split(whereSeparator: { $0.isWhitespace || $0 == "|" || $0 == "," })
            guard !words.isEmpty else { throw StringValues.mismatch("member names of \(typeName)", string) }
            for word in words {
                let name = normalized(String(word), typeName: typeName)
                if name == "none" { continue }
                if name == "all" {
                    members.values.forEach { result.formUnion($0) }
                } else if let member = members[name] {
                    result.formUnion(member)
                } else {
                    let known = O.amcNamedMembers.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                    throw StringValues.mismatch("member names of \(typeName) (\(known), none, all)", string)
                }
            }
            return result
        }
        return try union(type)
    }

    /// Lowercased, trimmed, without a leading `typeName`.
    static func normalized(_ name: String, typeName: String) -> String {
        let lower = name.trimmingCharacters(in: .whitespaces).lowercased()
        let prefix = typeName.lowercased()
        guard !prefix.isEmpty, lower.count > prefix.count, lower.hasPrefix(prefix) else { return lower }
        return String(lower.dropFirst(prefix.count))
    }

    private static func alias<A: AMCCaseAliases>(_: A.Type, _ wanted: String) -> Any? {
        A.amcAliases.first { normalized($0.key, typeName: "") == wanted }?.value
    }

    private static func names<E: CaseIterable>(_: E.Type) -> String {
        E.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
