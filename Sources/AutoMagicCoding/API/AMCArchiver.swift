import Foundation

/// Settings for archiving, as a value: what an archiving call uses instead of the process-wide
/// defaults, in the shape of `JSONDecoder`'s properties. ``AMC``'s static entry points use an
/// archiver that follows the defaults (``AMC/noThrow`` and `AMC.withNoThrow(_:)`,
/// ``AMCRegistry/shared``, ``AMC/baseURL``, ``AMC/maximumDepth``), so two libraries in one app
/// can each use the package with their own settings.
///
/// ```swift
/// var archiver = AMCArchiver()
/// archiver.registry = myRegistry                 // only the types this library allows
/// archiver.noThrow = true                        // nil instead of errors, for this archiver only
/// let note = try archiver.object(Note.self, from: data)
/// ```
public struct AMCArchiver: Sendable {
    /// No-throw mode for this archiver's calls: decoding gives nil, encoding leaves out what it
    /// cannot encode, and every swallowed error goes to ``AMC/swallowedErrorHandler``. Until set,
    /// it follows ``AMC/noThrow`` and `AMC.withNoThrow(_:)` at each call.
    public var noThrow: Bool {
        get { noThrowSetting ?? AMC.isNoThrow }
        set { noThrowSetting = newValue }
    }
    /// The types data may name under `"class"`.
    public var registry: AMCRegistry
    /// The base of relative URL strings (`"images/logo.png"`); nil keeps them relative. Until
    /// set, it follows ``AMC/baseURL`` at each call.
    public var baseURL: URL? {
        get { baseURLSetting ?? AMC.baseURL }
        set { baseURLSetting = .some(newValue) }
    }
    /// The deepest nesting of objects and collections accepted; deeper data throws
    /// ``AMCError/Kind/nestingTooDeep(limit:)``. At most ``AMC/maximumDepth``.
    public var maximumDepth: Int {
        get { depthLimit }
        set { depthLimit = min(max(newValue, 1), AMC.maximumDepth) }
    }

    /// How objects met more than once are written: as references (``AMCGraphMode/graph``, the
    /// default) or in full at each place (``AMCGraphMode/tree``).
    public var graphMode: AMCGraphMode = .graph

    /// The key naming rule of the types that declare none of their own
    /// (``AMCCodable/amcKeyNaming`` is ``AMCKeyNaming/archiverDefault``), in archives and in the
    /// configs that use this archiver. Default: ``AMCKeyNaming/propertyNames``.
    ///
    /// ```swift
    /// var archiver = AMCArchiver()
    /// archiver.keyNaming = .snakeCase                  // every key snake_case
    /// let config = try AMCConfig(contentsOf: url, archiver: archiver)
    /// ```
    public var keyNaming: AMCKeyNaming = .propertyNames

    private var noThrowSetting: Bool?
    private var baseURLSetting: URL??
    private var depthLimit = AMC.maximumDepth

    /// An archiver that follows the process-wide settings until its own are set.
    ///
    /// ```swift
    /// let archiver = AMCArchiver()
    /// ```
    public init() {
        registry = .shared
    }

    /// The conversion settings values are read with.
    var context: ValueContext { ValueContext(baseURLSetting: baseURLSetting) }

    /// Runs an entry point: errors propagate, or in no-throw mode go to the handler and give
    /// `fallback`.
    func guarded<R>(fallback: R, _ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch {
            // The encoder and decoder turn every error into an AMCError with its key path.
            let amcError =
                error as? AMCError
                ?? AMCError(.hookFailed(hook: "archiving", typeName: "AutoMagicCoding", reason: "\(error)"))
            guard noThrow else { throw amcError }
            AMC.reportSwallowed(amcError)
            return fallback
        }
    }
}

/// How an archive holds objects reachable along more than one path.
///
/// ```swift
/// var archiver = AMCArchiver()
/// archiver.graphMode = .tree        // plain nested dictionaries, as the original AMC wrote
/// ```
public enum AMCGraphMode: Sendable, Equatable {
    /// An object met again is written as `{"$ref": "#/path/to/its/first/occurrence"}` and decodes
    /// to the same instance; cycles work; `weak` and `unowned` references are kept when their
    /// target is in the archive, and restored. The default.
    case graph
    /// Every occurrence is written in full and decodes as a copy; a cycle is an error; `weak` and
    /// `unowned` references are left out.
    case tree
}

// MARK: - Dictionaries

extension AMCArchiver {
    /// The dictionary representation of `object` (see ``AMCCodable/dictionaryRepresentation()``).
    ///
    /// ```swift
    /// let dict = try AMCArchiver().dictionaryRepresentation(of: note)
    /// ```
    public func dictionaryRepresentation(of object: any AMCCodable) throws -> [String: Any] {
        try guarded(fallback: [:]) {
            try ArchiveEncoder.encode(object, into: DictionaryBuilder(), restarting: { _ in DictionaryBuilder() }, archiver: self)
                .sink.result as? [String: Any] ?? [:]
        }
    }

    /// Decodes an object whose type the dictionary's `"class"` names; the type must be in
    /// ``registry`` (see `AMC.object(from:)`).
    ///
    /// ```swift
    /// let any = try archiver.object(from: ["class": "Note", "title": "Hi"])
    /// ```
    public func object(from dictionary: [String: Any]) throws -> (any AMCCodable)? {
        try guarded(fallback: nil) {
            var decoder = ArchiveDecoder(archiver: self)
            return try decoder.decodeRoot(dictionary, expected: nil)
        }
    }

    /// Decodes a `T` (or a registered subclass that the dictionary names; see
    /// `AMC.object(_:from:)`).
    ///
    /// ```swift
    /// let note = try archiver.object(Note.self, from: ["title": "Hi"])
    /// ```
    public func object<T: AMCCodable>(_ type: T.Type, from dictionary: [String: Any]) throws -> T? {
        try guarded(fallback: nil) {
            var decoder = ArchiveDecoder(archiver: self)
            return try decoder.decodeRoot(dictionary, expected: T.self) as? T
        }
    }
}

// MARK: - Bytes and files

extension AMCArchiver {
    /// The bytes of `object` in `format` (see ``AMC/data(for:format:options:)``).
    ///
    /// ```swift
    /// let data = try archiver.data(for: note, format: .json)
    /// ```
    public func data(for object: any AMCCodable, format: AMCFormat, options: AMCWriteOptions = .compact) throws -> Data {
        try guarded(fallback: Data()) {
            // The writer passes its bytes on as it goes, into Data that grows in place: the
            // document is not copied whole at the end.
            let drain = ByteDrain()
            try DocumentCodec.write(object, format: format, options: options, archiver: self, to: drain)
            return drain.data
        }
    }

    /// Decodes the object that `data` describes (see `AMC.object(from:)` for data).
    ///
    /// ```swift
    /// let any = try archiver.object(from: data)
    /// ```
    public func object(from data: Data) throws -> (any AMCCodable)? {
        try guarded(fallback: nil) {
            var decoder = ArchiveDecoder(archiver: self)
            return try decoder.decodeRoot(try DocumentCodec.parse(data), expected: nil)
        }
    }

    /// Decodes a `T` from JSON, an XML or a binary property list (see `AMC.object(_:from:)` for
    /// data).
    ///
    /// ```swift
    /// let note = try archiver.object(Note.self, from: data)
    /// ```
    public func object<T: AMCCodable>(_ type: T.Type, from data: Data) throws -> T? {
        try guarded(fallback: nil) {
            var decoder = ArchiveDecoder(archiver: self)
            return try decoder.decodeRoot(try DocumentCodec.parse(data), expected: T.self) as? T
        }
    }

    /// Writes `object` to a file, atomically (see ``AMC/write(_:to:format:options:)``).
    ///
    /// ```swift
    /// try archiver.write(note, to: URL(fileURLWithPath: "note.json"))
    /// ```
    public func write(
        _ object: any AMCCodable, to url: URL, format: AMCFormat? = nil, options: AMCWriteOptions = .readable
    ) throws {
        try guarded(fallback: ()) {
            try AMCError.naming(url) {
                let format = try AMCFormat.resolved(format, for: url)
                try AtomicFile.write(to: url) { drain in
                    try DocumentCodec.write(object, format: format, options: options, archiver: self, to: drain)
                }
            }
        }
    }

    /// Reads the object a file describes (see `AMC.read(from:)`).
    ///
    /// ```swift
    /// let any = try archiver.read(from: url)
    /// ```
    public func read(from url: URL) throws -> (any AMCCodable)? {
        try guarded(fallback: nil) { try AMCError.naming(url) { try object(from: try AtomicFile.read(url)) } }
    }

    /// Reads a `T` from a file in any of the three formats (see `AMC.read(_:from:)`).
    ///
    /// ```swift
    /// let note = try archiver.read(Note.self, from: url)
    /// ```
    public func read<T: AMCCodable>(_ type: T.Type, from url: URL) throws -> T? {
        try guarded(fallback: nil) { try AMCError.naming(url) { try object(T.self, from: try AtomicFile.read(url)) } }
    }
}

// MARK: - Strings

extension AMCArchiver {
    /// Parses `string` as a value of `type`, as a property of that type reads it everywhere (see
    /// ``AMC/value(_:from:)``). Throws ``AMCError`` naming the type and the string, whatever
    /// ``noThrow`` says: there is no value to fall back to.
    ///
    /// ```swift
    /// var archiver = AMCArchiver()
    /// archiver.baseURL = URL(fileURLWithPath: "/srv/assets", isDirectory: true)
    /// let logo = try archiver.value(URL.self, from: "images/logo.png")   // file:///srv/assets/images/logo.png
    /// ```
    public func value<T>(_ type: T.Type, from string: String) throws -> T {
        let value: Any
        if case let .scalar(codec) = ValueKind.of(T.self) {
            value = try codec.decode(.string(string), context)  // what the decoder does for a scalar
        } else {
            var decoder = ArchiveDecoder(archiver: self)
            value = try decoder.decodeValue(.string(string), as: T.self)
        }
        guard let typed = value as? T else {
            throw AMCError(
                .typeMismatch(
                    expected: AMC.withArticle(AMC.unqualifiedName(of: T.self)),
                    found: ArchiveValue.string(string).summary))
        }
        return typed
    }
}
