import Foundation

/// One thing lenient decoding stepped over: what was wrong and where (``error``, with its key
/// path and kind), and the value the document held there.
///
/// ```swift
/// let report = try AMC.lenientObject(Note.self, from: data)
/// for problem in report.problems {
///     print(problem)   // At "tags[2]": expected a string, found the number 7. (value: 7)
/// }
/// ```
///
/// Sendable: ``value`` holds only the immutable values of a document (strings, numbers, `Bool`,
/// `Date`, `Data`, `NSNull`, arrays and dictionaries of them).
public struct AMCProblem: @unchecked Sendable, CustomStringConvertible {
    /// What went wrong, and its key path from the root object (``AMCError/keyPath``).
    public let error: AMCError
    /// The value the document held at ``keyPath`` (`String`, `Int`, `Double`, `Bool`, `Date`,
    /// `Data`, `NSNull`, `[Any]`, `[String: Any]`); nil when the problem is about no single
    /// value (an `amcDidDecode()` that threw, a weak reference left nil).
    public let value: Any?

    /// Where: `"notes[3].created"`; empty for the root object.
    public var keyPath: String { error.keyPath }
    /// What went wrong: an unknown class, a type mismatch, an unrestorable `let`, a newer
    /// version, an invalid reference, an unused key…
    public var kind: AMCError.Kind { error.kind }

    /// Makes a problem.
    ///
    /// ```swift
    /// let problem = AMCProblem(error: AMCError(.missingClassName), value: nil)
    /// ```
    public init(error: AMCError, value: Any?) {
        self.error = error
        self.value = value
    }

    /// The error's sentence, then the value: `At "age": expected …, found the string "x". (value: "x")`.
    public var description: String {
        guard let value else { return error.description }
        return "\(error.description) (value: \(ArchiveValue.literal(value)))"
    }
}

/// What lenient decoding made of a document: the object, with every field and element that
/// could be decoded, and the problems it stepped over, in the order decoding met them (an
/// object's unknown keys, then its properties in declaration order, each one's values depth first).
///
/// ```swift
/// let report = try AMC.lenientObject(Settings.self, from: data)
/// let settings = report.object          // what could be read; the rest keeps its initial value
/// if !report.problems.isEmpty { log(report.problems) }
/// ```
public struct AMCDecodingReport<Object> {
    /// The decoded object.
    public let object: Object
    /// Everything that could not be decoded, each with its key path, kind and value.
    public let problems: [AMCProblem]
}

extension AMCDecodingReport: Sendable where Object: Sendable {}

// MARK: - Lenient decoding

extension AMCArchiver {
    /// Decodes a `T` from JSON, an XML or a binary property list leniently: every field and
    /// element that can be decoded is, the rest keep their initial values (a bad array element
    /// is left out), and the report lists each problem: an unknown class, a type mismatch, an
    /// unrestorable `let`, a newer version (read as it is), an invalid reference, and with
    /// `reportingUnknownKeys`, keys no property reads (with the nearest key).
    ///
    /// ```swift
    /// let report = try archiver.lenientObject(Note.self, from: data, reportingUnknownKeys: true)
    /// ```
    ///
    /// Still throws, whatever ``noThrow`` says, when there is no object to give: bytes that are
    /// no document, a root that is not an object of `T` or a registered subtype, nesting too deep,
    /// and an `unowned` reference that would dangle.
    public func lenientObject<T: AMCCodable>(
        _ type: T.Type, from data: Data, reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        try lenientObject(T.self, from: try DocumentCodec.parse(data).value, reportingUnknownKeys: reportingUnknownKeys)
    }

    /// ``lenientObject(_:from:reportingUnknownKeys:)-(_,Data,_)`` for a dictionary representation.
    ///
    /// ```swift
    /// let report = try archiver.lenientObject(Note.self, from: ["class": "Note", "title": 7])
    /// report.problems.count   // 1: "title" is not a string
    /// ```
    public func lenientObject<T: AMCCodable>(
        _ type: T.Type, from dictionary: [String: Any], reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        var path = KeyPathTracker()
        return try lenientObject(
            T.self, from: try ArchiveValue.converting(dictionary, path: &path),
            reportingUnknownKeys: reportingUnknownKeys)
    }

    /// Decodes leniently the object `data` describes, of the registered class its `"class"`
    /// names (see ``lenientObject(_:from:reportingUnknownKeys:)-(_,Data,_)``).
    ///
    /// ```swift
    /// let report = try archiver.lenientObject(from: data)   // AMCDecodingReport<any AMCCodable>
    /// ```
    public func lenientObject(from data: Data, reportingUnknownKeys: Bool = false) throws -> AMCDecodingReport<any AMCCodable> {
        var decoder = ArchiveDecoder(archiver: self, lenient: true, reportsUnknownKeys: reportingUnknownKeys)
        let object = try decoder.decodeRoot(try DocumentCodec.parse(data), expected: nil)
        return AMCDecodingReport(object: object, problems: decoder.problems ?? [])
    }

    /// Reads a `T` leniently from a file in any of the three formats; each problem's error
    /// names the file.
    ///
    /// ```swift
    /// let report = try archiver.lenientRead(Settings.self, from: url, reportingUnknownKeys: true)
    /// for problem in report.problems { print(problem) }   // In /…/settings.json, at "volume": …
    /// ```
    public func lenientRead<T: AMCCodable>(
        _ type: T.Type, from url: URL, reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        try AMCError.naming(url) {
            let report = try lenientObject(T.self, from: try AtomicFile.read(url), reportingUnknownKeys: reportingUnknownKeys)
            let problems = report.problems.map { problem in
                AMCProblem(error: problem.error.naming(url.path), value: problem.value)
            }
            return AMCDecodingReport(object: report.object, problems: problems)
        }
    }

    private func lenientObject<T: AMCCodable>(
        _ type: T.Type, from root: ArchiveValue, reportingUnknownKeys: Bool
    ) throws -> AMCDecodingReport<T> {
        var decoder = ArchiveDecoder(archiver: self, lenient: true, reportsUnknownKeys: reportingUnknownKeys)
        guard let object = try decoder.decodeRoot(root, expected: T.self) as? T else {
            throw AMCError(.typeMismatch(expected: AMC.withArticle(AMC.unqualifiedName(of: T.self)), found: root.summary))
        }
        return AMCDecodingReport(object: object, problems: decoder.problems ?? [])
    }
}

extension AMC {
    /// Decodes a `T` leniently with the process-wide settings (see
    /// ``AMCArchiver/lenientObject(_:from:reportingUnknownKeys:)-(_,Data,_)``): what can be read,
    /// and the list of what could not.
    ///
    /// ```swift
    /// let report = try AMC.lenientObject(Settings.self, from: data, reportingUnknownKeys: true)
    /// report.problems.map(\.keyPath)   // ["volume", "theme.accent"]
    /// ```
    public static func lenientObject<T: AMCCodable>(
        _ type: T.Type, from data: Data, reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        try AMCArchiver().lenientObject(T.self, from: data, reportingUnknownKeys: reportingUnknownKeys)
    }

    /// ``lenientObject(_:from:reportingUnknownKeys:)-(_,Data,_)`` for a dictionary
    /// representation, with the process-wide settings.
    ///
    /// ```swift
    /// let report = try AMC.lenientObject(Settings.self, from: ["volume": "loud"])
    /// report.problems.count   // 1: "volume" is not a number
    /// ```
    public static func lenientObject<T: AMCCodable>(
        _ type: T.Type, from dictionary: [String: Any], reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        try AMCArchiver().lenientObject(T.self, from: dictionary, reportingUnknownKeys: reportingUnknownKeys)
    }

    /// Decodes leniently the object `data` describes, of the registered class its `"class"` names.
    ///
    /// ```swift
    /// let report = try AMC.lenientObject(from: data)
    /// ```
    public static func lenientObject(from data: Data, reportingUnknownKeys: Bool = false) throws -> AMCDecodingReport<
        any AMCCodable
    > {
        try AMCArchiver().lenientObject(from: data, reportingUnknownKeys: reportingUnknownKeys)
    }

    /// Reads a `T` leniently from a file in any of the three formats.
    ///
    /// ```swift
    /// let report = try AMC.lenientRead(Settings.self, from: url)
    /// ```
    public static func lenientRead<T: AMCCodable>(
        _ type: T.Type, from url: URL, reportingUnknownKeys: Bool = false
    ) throws -> AMCDecodingReport<T> {
        try AMCArchiver().lenientRead(T.self, from: url, reportingUnknownKeys: reportingUnknownKeys)
    }
}
