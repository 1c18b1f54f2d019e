import Foundation

/// A theme or skin in one file (StringCoding's stylesheets, ViewStyle's named styles): flat
/// `"object.keyPath": value` entries applied to an object graph, and named styles under
/// `"styles"`, each of which may extend another with `"extends"`.
///
/// ```json
/// {
///   "header.title.layer.cornerRadius": "10",
///   "styles": {
///     "title": {"font": "bold 17", "textColor": "#333"},
///     "danger": {"extends": "title", "textColor": "red"}
///   }
/// }
/// ```
///
/// ```swift
/// let sheet = try AMCStylesheet(contentsOf: url)
/// try sheet.apply(to: screen)                                  // the flat entries
/// try sheet.apply(style: "danger", to: screen.header.title)    // a named style
/// ```
///
/// Applying is all or nothing, as for `apply(style:)`.
public struct AMCStylesheet: @unchecked Sendable {
    /// The flat entries: key path from the root object → value.
    public let entries: [String: Any]
    /// The named styles, each with the entries of the styles it extends merged in (its own win).
    public let styles: [String: [String: Any]]
    /// The file the stylesheet was read from; nil for one made from a dictionary. Errors in
    /// applying it name this file.
    public let url: URL?

    /// Reads a stylesheet from JSON or a property list (told from the bytes).
    ///
    /// ```swift
    /// let sheet = try AMCStylesheet(contentsOf: Bundle.main.url(forResource: "Theme", withExtension: "json")!)
    /// ```
    ///
    /// Throws ``AMCError`` for a file that cannot be read or parsed, a `"styles"` that is not a
    /// dictionary of dictionaries, or an `"extends"` naming no style or going round in a circle;
    /// the error names the file and the key path.
    public init(contentsOf url: URL) throws {
        self = try AMCError.naming(url) { try AMCStylesheet(dictionary: try AMC.readDictionary(contentsOf: url), url: url) }
    }

    /// A stylesheet from a dictionary in the file's shape.
    ///
    /// ```swift
    /// let sheet = try AMCStylesheet(dictionary: ["styles": ["title": ["font": "bold 17"]]])
    /// ```
    public init(dictionary: [String: Any]) throws {
        try self.init(dictionary: dictionary, url: nil)
    }

    private init(dictionary: [String: Any], url: URL?) throws {
        self.url = url
        var entries = dictionary
        let named = entries.removeValue(forKey: "styles") ?? [String: Any]()
        guard let declared = named as? [String: Any] else {
            throw AMCError(
                .typeMismatch(expected: "a dictionary of named styles", found: ArchiveValue.literal(named)),
                keyPath: "styles")
        }
        var styles: [String: [String: Any]] = [:]
        for name in declared.keys.sorted() {
            styles[name] = try Self.resolve(name, in: declared, chain: [])
        }
        self.entries = entries
        self.styles = styles
        self.declared = declared.compactMapValues { $0 as? [String: Any] }
    }

    /// The styles as the file declares them, before `extends` is resolved: where an entry is written.
    private let declared: [String: [String: Any]]

    /// Applies the flat entries to `root`, all or nothing.
    ///
    /// ```swift
    /// try sheet.apply(to: screen)
    /// ```
    public func apply<Root: AMCCodable & AnyObject>(to root: Root) throws {
        try namingTheFile { try root.apply(style: entries) }
    }

    /// Applies the flat entries to a struct root, all or nothing.
    ///
    /// ```swift
    /// var card = Card()
    /// try sheet.apply(to: &card)
    /// ```
    public func apply<Root: AMCCodable>(to root: inout Root) throws {
        try namingTheFile { try root.apply(style: entries) }
    }

    /// Applies the named style (with what it extends) to `object`, all or nothing; throws when
    /// there is no such style.
    ///
    /// ```swift
    /// try sheet.apply(style: "title", to: screen.header.title)
    /// ```
    public func apply<Object: AMCCodable & AnyObject>(style name: String, to object: Object) throws {
        try namingTheFile { try locatingEntries(ofStyle: name) { try object.apply(style: try style(named: name)) } }
    }

    /// Applies the named style to a struct, all or nothing.
    ///
    /// ```swift
    /// try sheet.apply(style: "card", to: &card)
    /// ```
    public func apply<Object: AMCCodable>(style name: String, to object: inout Object) throws {
        try namingTheFile { try locatingEntries(ofStyle: name) { try object.apply(style: try style(named: name)) } }
    }

    /// The resolved styles as text, one `name` line then its sorted `  key: value` lines, for
    /// `amc style FILE --check`.
    ///
    /// ```swift
    /// print(try AMCStylesheet(contentsOf: url).printedStyles)
    /// // danger (extends title)
    /// //   font: "bold 17"
    /// //   textColor: "red"
    /// ```
    public var printedStyles: String {
        styles.keys.sorted().map { name in
            let style = styles[name] ?? [:]
            let own = (style[Self.extendsKey] as? String).map { " (extends \($0))" } ?? ""
            let lines = style.filter { $0.key != Self.extendsKey }.sorted { $0.key < $1.key }
                .map { "  \($0.key): \(ArchiveValue.literal($0.value))" }
            return ([name + own] + lines).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    private static let extendsKey = "extends"

    /// Runs `body`; an error it throws names the stylesheet's file.
    private func namingTheFile<R>(_ body: () throws -> R) throws -> R {
        try AMCError.naming(url, body)
    }

    /// Runs `body`, which applies style `name`; the bad entries of an ``AMCError/Kind/invalidStyle(errors:)``
    /// it throws are named by their key paths in the file (`styles.title.font`), under the style
    /// that declares each: `name`, or a style it extends.
    private func locatingEntries<R>(ofStyle name: String, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let error as AMCError {
            guard case let .invalidStyle(errors) = error.kind else { throw error }
            let located = errors.map { $0.under("styles.\(declaringStyle(of: $0.keyPath, from: name))") }
            throw AMCError(.invalidStyle(errors: located), keyPath: error.keyPath, file: error.file)
        }
    }

    /// The style that declares entry `keyPath` of style `name`: of its `extends` chain, the nearest
    /// that has `keyPath` as a key, else the one whose key is the longest start of it (`"font"` for
    /// `"font.size"`), else `name`.
    private func declaringStyle(of keyPath: String, from name: String) -> String {
        var chain: [String] = []
        var current: String? = name
        while let style = current, let declared = declared[style], !chain.contains(style) {
            chain.append(style)
            current = declared[Self.extendsKey] as? String
        }
        if let exact = chain.first(where: { declared[$0]?[keyPath] != nil }) { return exact }
        func longestStart(in style: String) -> Int {
            (declared[style] ?? [:]).keys.filter { keyPath.hasPrefix($0 + ".") || keyPath.hasPrefix($0 + "[") }.map(\.count).max()
                ?? 0
        }
        let best = chain.max { longestStart(in: $0) < longestStart(in: $1) }
        return best.map { longestStart(in: $0) > 0 ? $0 : name } ?? name
    }

    private func style(named name: String) throws -> [String: Any] {
        guard let style = styles[name] else {
            let names = styles.isEmpty ? "the stylesheet has none" : styles.keys.sorted().joined(separator: ", ")
            throw AMCError(.typeMismatch(expected: "the name of a style (\(names))", found: "\"\(name)\""))
        }
        return style.filter { $0.key != Self.extendsKey }
    }

    /// Style `name` with the styles it extends merged under it; keeps its own `"extends"` for
    /// ``printedStyles``.
    private static func resolve(_ name: String, in declared: [String: Any], chain: [String]) throws -> [String: Any] {
        guard let style = declared[name] as? [String: Any] else {
            throw AMCError(
                .typeMismatch(
                    expected: "a dictionary of key paths and values",
                    found: ArchiveValue.literal(declared[name] ?? "nothing")), keyPath: "styles.\(name)")
        }
        guard let parent = style[extendsKey] else { return style }
        guard let parentName = parent as? String, declared[parentName] != nil else {
            throw AMCError(
                .typeMismatch(expected: "the name of a style", found: ArchiveValue.literal(parent)),
                keyPath: "styles.\(name).extends")
        }
        guard !chain.contains(parentName), parentName != name else {
            throw AMCError(
                .typeMismatch(
                    expected: "styles that do not extend themselves",
                    found: (chain + [name, parentName]).joined(separator: " → ")),
                keyPath: "styles.\(name).extends")
        }
        let inherited = try resolve(parentName, in: declared, chain: chain + [name])
        return inherited.merging(style) { _, own in own }
    }
}
