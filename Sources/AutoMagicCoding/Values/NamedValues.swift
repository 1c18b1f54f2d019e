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
/// values, aliases, member names) are read once, lower-cased, into a table that the type's
/// ``ScalarCodec`` keeps.
enum NamedValues {
    /// The names of `E`'s cases: case names and raw values, and ``AMCCaseAliases/amcAliases``
    /// (which win over a case name or raw value they repeat).
    static func enumTable<E: CaseIterable>(_: E.Type) -> NameTable<E> {
        var names: [(String, E)] = []
        for value in E.allCases {
            names.append((String(describing: value), value))
            if let raw = (value as? any RawRepresentable)?.rawValue { names.append(("\(raw)", value)) }
        }
        let aliases = ((E.self as? any AMCCaseAliases.Type).map(aliasNames) ?? []).compactMap { name, value in
            (value as? E).map { (name, $0) }
        }
        let cases = E.allCases.map { "\"\($0)\"" }.joined(separator: ", ")
        return NameTable<E>(
            typeName: AMC.unqualifiedName(of: E.self), expectation: "one of \(cases) for \(AMC.unqualifiedName(of: E.self))",
            names: aliases + names)
    }

    /// The members of `O` that a string names, separated by white space, `|` or `,`; `"none"` is
    /// the empty set and `"all"` every named member.
    static func optionsParser<O: AMCNamedOptions>(_: O.Type) -> NameParser<O> {
        let typeName = AMC.unqualifiedName(of: O.self)
        let known = O.amcNamedMembers.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
        let table = NameTable<O>(
            typeName: typeName, expectation: "member names of \(typeName) (\(known), none, all)",
            names: O.amcNamedMembers.map { ($0, $1) })
        let all = table.values.values.reduce(into: O()) { $0.formUnion($1) }
        return NameParser(expectation: table.expectation) { string in
            var result = O()
            let words = TextTrimming.words(string.utf8, separators: [UInt8(ascii: "|"), UInt8(ascii: ",")])
            guard !words.isEmpty else { throw StringValues.mismatch(table.expectation, string) }
            for word in words.map({ String(Substring($0)) }) {
                let lower = TextTrimming.lowercased(word)
                if let member = table.value(named: word) {
                    result.formUnion(member)
                } else if lower == "all" {
                    result.formUnion(all)
                } else if lower != "none" {
                    throw StringValues.mismatch(table.expectation, string)
                }
            }
            return result
        }
    }

    private static func aliasNames(_ type: any AMCCaseAliases.Type) -> [(String, Any)] {
        func names<A: AMCCaseAliases>(_: A.Type) -> [(String, Any)] { A.amcAliases.map { ($0, $1 as Any) } }
        return names(type)
    }
}

/// How values of a type are read from their names, and what an error lists when a name is none
/// of them.
struct NameParser<Value> {
    let expectation: String
    let parse: (String) throws -> Value
}

/// Lower-cased names → values of one type; a name may carry the type's name in front. When two
/// names fold to the same, the first wins.
final class NameTable<Value>: @unchecked Sendable {
    let typeName: String
    /// What an error says was expected: `one of "low", "high" for Level`.
    let expectation: String
    let values: [String: Value]
    private let exact: [String: Value]
    private let prefix: String

    init(typeName: String, expectation: String, names: [(String, Value)]) {
        self.typeName = typeName
        self.expectation = expectation
        prefix = TextTrimming.lowercased(typeName)
        var values: [String: Value] = [:]
        var exact: [String: Value] = [:]
        for (name, value) in names {
            let key = TextTrimming.lowercased(TextTrimming.trimmed(name))
            if values[key] == nil { values[key] = value }
            if exact[name] == nil { exact[name] = value }
        }
        self.values = values
        self.exact = exact
    }

    /// The value `name` names exactly as written (a case name or raw value as the writer wrote it).
    func exactValue(named name: String) -> Value? { exact[name] }

    /// The value `name` names, in any case, with or without the type's name in front.
    func value(named name: String) -> Value? {
        if let value = exact[name] { return value }
        let wanted = TextTrimming.lowercased(TextTrimming.trimmed(name))
        if let value = values[wanted] { return value }
        guard wanted.utf8.count > prefix.utf8.count, wanted.utf8.starts(with: prefix.utf8) else { return nil }
        return values[String(wanted.dropFirst(prefix.count))]
    }

    /// ``value(named:)``, or the error that lists the names.
    func value(from string: String) throws -> Value {
        guard let value = value(named: string) else { throw StringValues.mismatch(expectation, string) }
        return value
    }
}
