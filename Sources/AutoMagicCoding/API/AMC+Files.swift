import Foundation

extension AMC {
    // MARK: - Objects and bytes

    /// The bytes of `object` in `format`, written straight from the object graph (no dictionary
    /// on the way). Compact, keys in property order unless `options` say otherwise.
    ///
    /// ```swift
    /// let data = try AMC.data(for: company, format: .json)
    /// let pretty = try AMC.data(for: company, format: .json, options: .readable)
    /// ```
    ///
    /// Throws ``AMCError`` for a value that cannot be archived (and infinity or NaN in JSON); in
    /// no-throw mode such keys are left out and reported, as in ``AMCCodable/dictionaryRepresentation()``.
    public static func data(
        for object: any AMCCodable, format: AMCFormat, options: AMCWriteOptions = .compact
    ) throws -> Data {
        try AMCArchiver().data(for: object, format: format, options: options)
    }

    /// Decodes the object that `data` (JSON, an XML or a binary property list, told from the
    /// bytes) describes; its `"class"` must name a registered type.
    ///
    /// ```swift
    /// let any = try AMC.object(from: data)   // (any AMCCodable)?
    /// ```
    ///
    /// Throws ``AMCError`` for malformed data (with its line and column, or byte offset) and for
    /// the cases of `AMC.object(from:)`; in no-throw mode returns nil instead.
    public static func object(from data: Data) throws -> (any AMCCodable)? {
        try AMCArchiver().object(from: data)
    }

    /// Decodes a `T` (or a registered subclass that the data names) from JSON, an XML or a
    /// binary property list.
    ///
    /// ```swift
    /// let company = try AMC.object(Company.self, from: data)   // Company?
    /// ```
    ///
    /// Throws ``AMCError`` for malformed data and bad values; in no-throw mode returns nil instead.
    public static func object<T: AMCCodable>(_ type: T.Type, from data: Data) throws -> T? {
        try AMCArchiver().object(T.self, from: data)
    }

    // MARK: - Files

    /// Writes `object` to a file, atomically: the previous file stays as it was unless the whole
    /// write succeeds, and no temporary file is left behind. Without `format`, a `.json` name
    /// writes JSON and a `.plist` name an XML property list. Pretty-printed with sorted keys unless
    /// `options` say otherwise.
    ///
    /// ```swift
    /// try AMC.write(company, to: URL(fileURLWithPath: "company.json"))
    /// try AMC.write(company, to: url, format: .binaryPropertyList)
    /// ```
    ///
    /// Throws ``AMCError``: ``AMCError/Kind/unknownFormat(reason:)`` for another extension without
    /// a format, ``AMCError/Kind/fileSystem(path:reason:)`` when the file cannot be written, and
    /// the encoding errors of ``data(for:format:options:)``. In no-throw mode it reports the
    /// error and writes nothing.
    public static func write(
        _ object: any AMCCodable, to url: URL, format: AMCFormat? = nil, options: AMCWriteOptions = .readable
    ) throws {
        try AMCArchiver().write(object, to: url, format: format, options: options)
    }

    /// Reads the object a file describes, its format told from its bytes (never from its name);
    /// the `"class"` must name a registered type.
    ///
    /// ```swift
    /// let any = try AMC.read(from: url)   // (any AMCCodable)?
    /// ```
    ///
    /// Throws ``AMCError`` when the file cannot be read or parsed (with line and column, or byte
    /// offset) and for bad values; in no-throw mode returns nil instead.
    public static func read(from url: URL) throws -> (any AMCCodable)? {
        try AMCArchiver().read(from: url)
    }

    /// Reads a `T` (or a registered subclass that the file names) from a file in any of the three
    /// formats.
    ///
    /// ```swift
    /// let company = try AMC.read(Company.self, from: url)   // Company?
    /// ```
    ///
    /// Throws ``AMCError`` when the file cannot be read or parsed and for bad values; in no-throw
    /// mode returns nil instead.
    public static func read<T: AMCCodable>(_ type: T.Type, from url: URL) throws -> T? {
        try AMCArchiver().read(T.self, from: url)
    }

    // MARK: - Dictionaries

    /// Writes a dictionary (a dictionary representation, or any tree of strings, numbers, bools,
    /// dates, data, arrays and dictionaries) to a file atomically: AMC's
    /// `writeToFile:atomically:`. The format comes from the extension when not given.
    ///
    /// ```swift
    /// try AMC.write(dictionary: try company.dictionaryRepresentation(), to: url, format: .xmlPropertyList)
    /// ```
    ///
    /// Throws ``AMCError`` for values of other types (with their key path), `NSNull` in a property
    /// list, an unknown extension and file errors; in no-throw mode it reports and writes nothing.
    public static func write(
        dictionary: [String: Any], to url: URL, format: AMCFormat? = nil, options: AMCWriteOptions = .readable
    ) throws {
        try guarded(fallback: ()) {
            try AMCError.naming(url) {
                let format = try AMCFormat.resolved(format, for: url)
                var path = KeyPathTracker()
                let document = try ArchiveValue.converting(dictionary, path: &path)
                try AtomicFile.write(try DocumentCodec.encode(document, format: format, options: options), to: url)
            }
        }
    }

    /// The dictionary a file holds (any of the three formats, told from the bytes): AMC's
    /// `dictionaryWithContentsOfFile:`. Numbers come as `Int` (`UInt64` above `Int.max`) or
    /// `Double`, JSON's null as `NSNull`.
    ///
    /// ```swift
    /// let dict = try AMC.dictionary(contentsOf: url)
    /// let company = try AMC.object(from: dict)
    /// ```
    ///
    /// Throws ``AMCError`` when the file cannot be read or parsed, or holds something else than a
    /// dictionary at the top; in no-throw mode returns an empty dictionary instead.
    public static func dictionary(contentsOf url: URL) throws -> [String: Any] {
        try guarded(fallback: [:]) { try readDictionary(contentsOf: url) }
    }

    /// ``dictionary(contentsOf:)`` that always throws, whatever the no-throw setting.
    static func readDictionary(contentsOf url: URL) throws -> [String: Any] {
        try AMCError.naming(url) {
            let document = try DocumentCodec.parse(try AtomicFile.read(url)).value
            guard case .dictionary = document, let dictionary = document.swiftValue as? [String: Any] else {
                throw AMCError(.typeMismatch(expected: "a dictionary at the top", found: document.summary))
            }
            return dictionary
        }
    }

    /// Writes bytes to a file the way every `AMC.write` does: to a temporary file in the same
    /// folder, flushed, then renamed over the target, so the file is replaced whole or not at all.
    ///
    /// ```swift
    /// try AMC.write(data: try AMC.convert(json, to: .binaryPropertyList), to: url)
    /// ```
    ///
    /// Throws ``AMCError/Kind/fileSystem(path:reason:)`` when the file cannot be written; the
    /// previous file is then left as it was.
    public static func write(data: Data, to url: URL) throws {
        try AMCError.naming(url) { try AtomicFile.write(to: url) { drain in drain.write(data) } }
    }
}
