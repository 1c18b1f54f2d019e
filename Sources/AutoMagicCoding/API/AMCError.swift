import Foundation

/// The one error the archiver throws: what failed (``kind``) and where (``keyPath``, from the root
/// object, like `"members[3].frame"`; empty for the root itself).
///
/// ```swift
/// do {
///     _ = try AMC.object(Company.self, from: ["class": "Company", "founded": ["class": "Person"]])
/// } catch let error as AMCError {
///     print(error)
///     // At "founded": expected a number of type Int, found a dictionary of class "Person".
/// }
/// ```
public struct AMCError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Whether the failure happened while encoding or decoding.
    public enum Operation: String, Equatable, Sendable {
        /// Writing an object graph (`dictionaryRepresentation()`).
        case encode
        /// Reading one back (`AMC.object(from:)`, `loadValue(forKey:from:)`).
        case decode
    }

    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// A struct with no codec: neither `Codable` nor ``AMCStructCodable``, nor handled by the
        /// owner's struct hooks (AMC's AMCEncodeException / AMCDecodeException).
        case unsupportedStruct(typeName: String, operation: Operation)
        /// A value the archiver cannot represent, with the reason (a closure, a class that is not
        /// ``AMCCodable``, a dictionary with non-`String` keys, a `nil` inside an array).
        case unsupportedType(typeName: String, reason: String)
        /// A key that is not a stored property of the type: from ``AMCCodable/amcKeys`` on encode,
        /// or given to `loadValue(forKey:from:)`.
        case unknownKey(key: String, typeName: String)
        /// `loadValue(forKey:from:)`, Key-Value Coding or a style was asked to set a
        /// `let` (or `weak`/`unowned`) property on its own. (Archive decoding points `weak` and
        /// `unowned` `var`s at the objects their references name.)
        case readOnlyKey(key: String, typeName: String)
        /// A key path goes through a property that is nil (`"header.title"` with no `header`).
        case nilInKeyPath(key: String, typeName: String)
        /// The data holds something other than what the property's type needs.
        case typeMismatch(expected: String, found: String)
        /// A number that does not fit the property's type exactly (300 into `UInt8`, 1.5 into `Int`).
        case valueOutOfRange(value: String, typeName: String)
        /// `AMC.object(from:)` was given a dictionary without a `"class"` key.
        case missingClassName
        /// The data names a class that was not registered with ``AMC/register(_:)-(AMCCodable....)``, so it is
        /// never instantiated.
        case unregisteredClass(className: String)
        /// The data names a class that is not the requested type or a registered subtype of it.
        case unrelatedClass(className: String, expected: String)
        /// Several registered types have this ``AMCCodable/amcClassName`` (their full names are
        /// given): data naming it is never decoded as one of them.
        case ambiguousClassName(className: String, typeNames: [String])
        /// An object contains itself in tree mode (``AMCGraphMode/tree``): encoding would never end.
        case referenceCycle(typeName: String)
        /// A reference (`{"$ref": "#/…"}`) that names no object of the document: what it names,
        /// and why not.
        case invalidReference(pointer: String, reason: String)
        /// Containers nested deeper than ``AMC/maximumDepth`` (or the archiver's lower limit).
        case nestingTooDeep(limit: Int)
        /// Converting or printing a document would write more than `limit` bytes: 64 times the
        /// input, at least 64 MiB (shared objects of a binary property list, or the indentation of
        /// deep nesting, can multiply a small file far).
        case outputTooLarge(limit: Int)
        /// Containers nested so deep (`depth` levels) that going on would overflow the calling
        /// thread's stack: the walk stopped before it did. Run deep documents on a thread with a
        /// larger stack (`Thread.stackSize`).
        case stackExhausted(depth: Int)
        /// The archive holds a value for a `let` that every new instance of the type gives the
        /// same value: release builds may build that value into the code, so it is never written.
        /// Make the property a `var` (a struct can conform to `Codable` instead, whose
        /// `init(from:)` sets its `let`s).
        case unrestorableLet(key: String, typeName: String)
        /// ``AMC/check(_:)`` found properties that cannot be archived: one error for each.
        case unarchivable(errors: [AMCError])
        /// An edit would take away a value that references (at the key paths `referrers`) name, or
        /// a value inside it: they would name another, or nothing.
        case referencedElsewhere(referrers: [String])
        /// ``AMC/lint(_:)`` found references that name no object: an
        /// ``invalidReference(pointer:reason:)`` for each, at its key path.
        case brokenReferences(errors: [AMCError])
        /// A stored property written under a reserved key (`key`): `"class"` names an object's class in every
        /// archive, `"$ref"` marks a reference, `"$nil"`, `"$versions"` and `"$objects"` hold
        /// the archiver's own tables, so a property of one of those names needs another key
        /// (``AMCCodable/amcKey(forProperty:)``).
        case reservedKey(key: String, typeName: String)
        /// Two or more stored properties would be written under one key (a naming rule makes
        /// `userID` and `userId` both `user_id`, or ``AMCCodable/amcKey(forProperty:)`` gives a
        /// property another's key): each needs a key of its own.
        case sharedKey(key: String, typeName: String, properties: [String])
        /// ``AMCCodable/amcFieldType(forKey:)`` declared a field type that its value cannot have.
        case fieldTypeMismatch(key: String, declared: AMCFieldType, inferred: AMCFieldType)
        /// Bytes that are not valid data of the format: what is wrong and where.
        case malformedData(format: AMCFormat, location: Location, reason: String)
        /// Data of no format the archiver reads, or a file name whose extension names none.
        case unknownFormat(reason: String)
        /// Reading or writing a file failed (it does not exist, the disk is full); a failed
        /// write leaves the previous file as it was.
        case fileSystem(path: String, reason: String)
        /// A style names a key the object does not have (and its `amcSetString(_:forKey:)` does
        /// not take), with the nearest key it does have when one is close.
        case unknownStyleKey(key: String, typeName: String, suggestion: String?)
        /// A style or stylesheet was not applied, because of each of these entries (nothing was
        /// changed).
        case invalidStyle(errors: [AMCError])
        /// A user hook (`init(amcStringValue:)`, a struct hook, `amcDidDecode()`, `amcMigrate`, a
        /// custom collection's initializer) threw an error of its own, described in `reason`.
        case hookFailed(hook: String, typeName: String, reason: String)
        /// The document was written by a newer version of the class (``AMCCodable/amcVersion``)
        /// than this code knows: `found` in the document, `known` here. Lenient decoding reads it
        /// as it is.
        case newerVersion(className: String, found: Int, known: Int)
        /// Lenient decoding, asked to report them: a key in the data that no property of the type
        /// reads, with the nearest key it has when one is close (a likely typo).
        case unusedKey(key: String, typeName: String, suggestion: String?)
        /// An ``AMCDocument`` key path names no value: no such key, an index past an array's end,
        /// or a step into a value that is not a dictionary or an array.
        case keyPathNotFound(reason: String)
        /// ``AMCDocument/insert(_:atKeyPath:appending:)`` found a value at the key path already
        /// (``AMCDocument/replace(_:atKeyPath:)`` changes one).
        case valueExists
        /// The Swift runtime's reflection did not report fields as the archiver reads them (a
        /// toolchain it was not built for): `reason` says what disagreed. Every call that would
        /// read or write stored properties throws this rather than touch memory at a wrong
        /// offset; see ``AMC/checkRuntime()``.
        case runtimeUnsupported(reason: String)
        /// A markup document was not built (``AMCMarkup``), because of each of these faults, each
        /// with its file, ``location`` and element path (nothing was assigned to the owner).
        case invalidMarkup(errors: [AMCError])
        /// Something in a markup document that building it cannot act on: an element no
        /// registered type is named, a child or an instruction its element does not take, an id
        /// used twice, an include that may not be read.
        case markupFault(reason: String)
    }

    /// Where in a file's bytes a problem is: a line and column (from 1) in the text formats, a
    /// byte offset (from 0) in binary property lists.
    public enum Location: Equatable, Sendable, CustomStringConvertible {
        /// A line and a column of a text format (JSON, XML), both from 1.
        case line(Int, column: Int)
        /// A byte of a binary property list, from 0.
        case byteOffset(Int)

        /// `line 3, column 7` or `byte 1024`.
        public var description: String {
            switch self {
            case let .line(line, column): return "line \(line), column \(column)"
            case let .byteOffset(offset): return "byte \(offset)"
            }
        }
    }

    /// What went wrong.
    public let kind: Kind
    /// Where, from the root object: `"members[3].frame"`; empty for the root itself.
    public let keyPath: String
    /// The file the failing value came from, when one did (a configuration file); nil otherwise.
    public let file: String?
    /// Where in ``file`` the failing value is, when it is text that knows (markup): its line and
    /// column.
    public let location: Location?

    /// Makes an error; the archiver fills in ``keyPath`` where it is thrown.
    ///
    /// ```swift
    /// throw AMCError(.typeMismatch(expected: "an action name", found: "\"\""), keyPath: "action")
    /// ```
    public init(_ kind: Kind, keyPath: String = "", file: String? = nil, location: Location? = nil) {
        self.kind = kind
        self.keyPath = keyPath
        self.file = file
        self.location = location
    }

    /// A sentence a user can act on, starting with where it happened.
    public var description: String {
        switch kind {
        case .malformedData, .unknownFormat, .fileSystem, .invalidMarkup:
            return sentenceNamingFile
        case .nestingTooDeep where keyPath.isEmpty, .stackExhausted where keyPath.isEmpty:
            return sentenceNamingFile  // a document's reader has no key path: it stopped inside one
        default:
            var place = keyPath.isEmpty ? "At the root" : "At \"\(Self.folded(keyPath))\""
            if let location {
                place = keyPath.isEmpty ? "\(location)" : "\(location), \(place.prefix(1).lowercased())\(place.dropFirst())"
            }
            let sentence = message.hasSuffix("?") || message.hasSuffix(".") ? message : message + "."
            guard let file else { return "\(place.prefix(1).uppercased())\(place.dropFirst()): \(sentence)" }
            return "In \(file), \(place.prefix(1).lowercased())\(place.dropFirst()): \(sentence)"
        }
    }

    /// The message as a sentence, after the file's name when there is one.
    private var sentenceNamingFile: String {
        // A file system error's message starts with the path, which keeps its case; where a
        // file named it (an include), that place comes first.
        if case .fileSystem = kind {
            guard let location else { return message + "." }
            return "In \(file.map { "\($0), " } ?? "")\(location): \(message)."
        }
        let stop = message.hasSuffix(".") || message.hasSuffix("?") ? "" : "."
        let sentence = "\(message.prefix(1).uppercased())\(message.dropFirst())\(stop)"
        guard let file else { return sentence }
        return "In \(file): \(sentence)"
    }

    /// `keyPath` with each run of four or more equal segments, or equal groups of two or three,
    /// written once with a count (`"replies[0] ×300.text"`, `"[0] ×515"`, `"(neg._0) ×2500"`):
    /// a deep document's key path stays readable.
    static func folded(_ keyPath: String) -> String {
        let segments = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(foldedIndices)
        var parts: [String] = []
        var index = 0
        while index < segments.count {
            var best: (period: Int, count: Int) = (1, 1)
            for period in 1...3 where index + period <= segments.count {
                var count = 1
                while index + (count + 1) * period <= segments.count,
                    segments[(index + count * period)..<(index + (count + 1) * period)].elementsEqual(
                        segments[index..<(index + period)])
                {
                    count += 1
                }
                if count >= 4, count * period > best.count * best.period { best = (period, count) }
            }
            if best.count >= 4 {
                let group = segments[index..<(index + best.period)].joined(separator: ".")
                parts.append(best.period == 1 ? "\(group) ×\(best.count)" : "(\(group)) ×\(best.count)")
                index += best.period * best.count
            } else {
                parts.append(String(segments[index]))
                index += 1
            }
        }
        return parts.joined(separator: ".")
    }

    /// One segment of a key path (`"grid[0][0][0][0][0]"`) with each run of four or more equal
    /// indices written once, with a count (`"grid[0] ×5"`).
    private static func foldedIndices(_ segment: Substring) -> Substring {
        guard let first = segment.firstIndex(of: "[") else { return segment }
        var indices: [(index: Substring, count: Int)] = []
        for index in segment[first...].split(separator: "]").map({ $0 + "]" }) {
            if let last = indices.last, last.index == index {
                indices[indices.count - 1].count += 1
            } else {
                indices.append((index, 1))
            }
        }
        guard indices.contains(where: { $0.count >= 4 }) else { return segment }
        let runs = indices.map { run in
            run.count >= 4 ? "\(run.index) ×\(run.count)" : String(repeating: String(run.index), count: run.count)
        }
        return segment[..<first] + runs.joined()
    }

    private var message: String {
        switch kind {
        case let .unsupportedStruct(typeName, operation):
            return "cannot \(operation.rawValue) struct \(typeName): conform it to Codable or AMCStructCodable, or handle "
                + "\"\(typeName)\" in the owner's amc\(operation == .encode ? "Encode" : "Decode")Struct hook"
        case let .unsupportedType(typeName, reason):
            return "cannot archive a value of type \(typeName): \(reason)"
        case let .unknownKey(key, typeName):
            return "\(typeName) has no stored property \"\(key)\""
        case let .readOnlyKey(key, typeName):
            return "\(typeName).\(key) is read-only (let, weak or unowned) and cannot be set on its own"
        case let .nilInKeyPath(key, typeName):
            return "cannot go through \(typeName).\(key): it is nil"
        case let .typeMismatch(expected, found):
            return "expected \(expected), found \(found)"
        case let .valueOutOfRange(value, typeName):
            return "\(value) does not fit exactly in \(typeName)"
        case .missingClassName:
            return "the dictionary has no \"class\" key, so its type is unknown; "
                + "use AMC.object(YourType.self, from:) to name the type"
        case let .unregisteredClass(className):
            return "class \"\(className)\" is not registered; call AMC.register(\(className).self) "
                + "before decoding it"
        case let .unrelatedClass(className, expected):
            return "class \"\(className)\" is not \(expected) or a registered subclass of it"
        case let .ambiguousClassName(className, typeNames):
            return "class name \"\(className)\" is used by \(typeNames.joined(separator: " and ")); give each its own "
                + "static var amcClassName (\"\(typeNames.first.map { $0.replacingOccurrences(of: ".", with: "") } ?? className)\", say)"
        case let .referenceCycle(typeName):
            return "reference cycle: this \(typeName) is already being encoded higher up the graph"
        case let .invalidReference(pointer, reason):
            return "the reference \"\(pointer)\" names no object: \(reason)"
        case let .nestingTooDeep(limit):
            return "nesting deeper than \(limit) levels"
        case let .outputTooLarge(limit):
            return "the output would be larger than \(limit) bytes (64 times the input, at least 64 MiB): "
                + "shared objects or deep nesting expand the document too far"
        case let .stackExhausted(depth):
            return "nesting \(depth) levels deep needs more stack than this thread has: "
                + "run it on a thread with a larger stack (Thread.stackSize)"
        case let .unrestorableLet(key, typeName):
            return "\(typeName).\(key) is a let that every new \(typeName) gives the same value, which release builds "
                + "may build into the code, so the archive's other value cannot be restored: make it a var "
                + "(or, for a struct, conform to Codable instead: its init(from:) sets lets)"
        case let .reservedKey(key, typeName):
            return "\(typeName) would write a property under \"\(key)\", "
                + "\(TypePlan.reservedKeyMeanings[key] ?? "a key the archiver writes of its own"): "
                + "give it another key with amcKey(forProperty:)"
        case let .sharedKey(key, typeName, properties):
            let names = properties.map { "\(typeName).\($0)" }
            return
                "\(names.dropLast().joined(separator: ", ")) and \(names.last ?? "") would \(properties.count == 2 ? "both" : "all") be written under \"\(key)\": "
                + "give each its own key with amcKey(forProperty:)"
        case let .fieldTypeMismatch(key, declared, inferred):
            return "amcFieldType(forKey: \"\(key)\") says .\(declared.rawValue), "
                + "but the property's type makes it .\(inferred.rawValue)"
        case let .malformedData(format, location, reason):
            return "malformed \(format) at \(location): \(reason)"
        case let .unknownFormat(reason):
            return reason
        case let .fileSystem(path, reason):
            return "\(path): \(reason)"
        case let .unknownStyleKey(key, typeName, suggestion):
            return "\(typeName) has no property \"\(key)\"" + (suggestion.map { " — did you mean \"\($0)\"?" } ?? "")
        case let .unarchivable(errors):
            let entries = errors.map { "\"\($0.keyPath)\" (\($0.message))" }
            return "\(errors.count == 1 ? "1 property" : "\(errors.count) properties") cannot be archived: "
                + entries.joined(separator: "; ")
        case let .referencedElsewhere(referrers):
            let names = referrers.map { "\"\($0)\"" }.joined(separator: ", ")
            return
                "\(referrers.count == 1 ? "a reference names" : "\(referrers.count) references name") this value or one inside it "
                + "(\(names)): change or remove \(referrers.count == 1 ? "it" : "them") first"
        case let .brokenReferences(errors):
            let entries = errors.map { "\"\($0.keyPath)\" (\($0.message))" }
            return "\(errors.count == 1 ? "1 reference names" : "\(errors.count) references name") no object: "
                + entries.joined(separator: "; ")
        case let .invalidStyle(errors):
            let entries = errors.map { error in
                "\(error.keyPath.isEmpty ? "the root" : "\"\(error.keyPath)\"") (\(error.message))"
            }
            return "the style was not applied, \(errors.count == 1 ? "1 bad entry" : "\(errors.count) bad entries"): "
                + entries.joined(separator: "; ")
        case let .hookFailed(hook, typeName, reason):
            return "\(hook) of \(typeName) failed: \(reason)"
        case let .newerVersion(className, found, known):
            return "\(className) was written by version \(found) of the type, newer than the version \(known) this code "
                + "knows (lenient decoding, AMC.lenientObject, reads what this version understands)"
        case let .unusedKey(key, typeName, suggestion):
            return "no property of \(typeName) reads the key \"\(key)\"" + (suggestion.map { " — did you mean \"\($0)\"?" } ?? "")
        case let .keyPathNotFound(reason):
            return "no value here: \(reason)"
        case .valueExists:
            return "a value is here already: insert adds one, replace changes one"
        case let .invalidMarkup(errors):
            let shown = errors.count == 1 ? "1 fault" : "\(errors.count) faults"
            return "the markup was not built, \(shown):\n" + errors.map { "- \($0.description)" }.joined(separator: "\n")
        case let .markupFault(reason):
            return reason
        case let .runtimeUnsupported(reason):
            return "the Swift runtime does not report stored properties as this version of AutoMagicCoding reads them "
                + "(\(reason)), so nothing is read or written: update AutoMagicCoding for this Swift version"
        }
    }

    /// Whether decoding can go on past this error, leaving one value out: not for nesting too
    /// deep, a stack too small, or bytes that are no document.
    var isRecoverable: Bool {
        switch kind {
        case .nestingTooDeep, .stackExhausted, .outputTooLarge, .malformedData, .unknownFormat, .fileSystem,
            .runtimeUnsupported:
            return false
        default: return true
        }
    }

    /// The same error at another key path.
    func at(_ keyPath: String) -> AMCError {
        AMCError(kind, keyPath: keyPath, file: file, location: location)
    }

    /// The same error with `prefix` in front of its key path: the error of a value found at
    /// `prefix` (a config key path, a style entry) whose own key path counts from that value.
    func under(_ prefix: String) -> AMCError {
        if keyPath.isEmpty || prefix.isEmpty { return at(keyPath.isEmpty ? prefix : keyPath) }
        return at(keyPath.hasPrefix("[") ? prefix + keyPath : "\(prefix).\(keyPath)")
    }

    /// The same error, from `file`.
    func inFile(_ file: String?) -> AMCError {
        AMCError(kind, keyPath: keyPath, file: file, location: location)
    }

    /// Runs `body`, a function that took `url`: an ``AMCError`` it throws, or reports to
    /// ``AMC/swallowedErrorHandler`` in no-throw mode, names `url`'s file, unless it names one
    /// already (a file `url` included).
    static func naming<Result>(_ url: URL?, _ body: () throws -> Result) throws -> Result {
        do {
            return try $currentFile.withValue(url?.path ?? currentFile, operation: body)
        } catch let error as AMCError {
            throw error.naming(url?.path)
        }
    }

    /// The file the entry point running on this task took (see ``naming(_:_:)``).
    @TaskLocal static var currentFile: String?

    /// The same error from `file`, unless it names a file already.
    func naming(_ file: String?) -> AMCError {
        self.file == nil ? inFile(file) : self
    }
}
