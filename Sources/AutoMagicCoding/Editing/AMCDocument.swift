import Foundation

/// A document of any of the three formats, read without decoding objects, whose values are read,
/// added, changed and removed by key path, as `plutil -extract`, `-insert`, `-replace` and
/// `-remove` do.
///
/// A key path is keys joined by dots, where a number addresses an element of an array
/// (`"people.0.name"`); the last number of an insertion or a replacement may be the array's
/// count, to add at its end. A key holding a dot writes it `\.`, as plutil reads it; an empty
/// key path is the key `""` (plutil finds nothing there), never the whole document. Where plutil
/// differs: its `-replace` at an array index inserts there; ``replace(_:atKeyPath:)`` replaces.
/// Nothing is decoded into objects, so no class needs registering, and every other value is kept
/// as it was.
///
/// ```swift
/// var document = try AMCDocument(data: try Data(contentsOf: url))
/// try document.insert(.string("Ada"), atKeyPath: "people.0.nickname")
/// try document.replace(.integer(3), atKeyPath: "version")
/// try document.remove(atKeyPath: "people.1")
/// let name = try document.value(atKeyPath: "people.0.name")   // .string("Ada Lovelace")
/// try AMC.write(data: try document.data(), to: url)
/// ```
public struct AMCDocument {
    /// The format the document was read in, and ``data(format:options:textForDatesAndData:)``
    /// writes by default.
    public let format: AMCFormat
    private var root: ArchiveValue
    /// How the document was laid out: JSON compact or indented, and whether it ended in a line
    /// break, for ``data(format:options:textForDatesAndData:)`` to keep.
    private let layout: (options: AMCWriteOptions, finalLineBreak: Bool)

    /// A value to put into a document, or one read from it: the types of `plutil -type`.
    public indirect enum Value: Equatable, Sendable {
        /// `true` or `false`.
        case bool(Bool)
        /// A whole number.
        case integer(Int64)
        /// A whole number above `Int64.max` (read from a document; written as any integer).
        case unsignedInteger(UInt64)
        /// A floating-point number.
        case float(Double)
        /// Text.
        case string(String)
        /// A moment (JSON has none: see ``AMCDocument/data(format:options:textForDatesAndData:)``).
        case date(Date)
        /// Bytes (JSON has none either).
        case data(Data)
        /// A dictionary; written with its keys in ascending order.
        case dictionary([String: Value])
        /// An array.
        case array([Value])

        /// The type names ``init(type:text:)`` reads.
        public static let textTypes = ["bool", "integer", "float", "string", "date", "data", "json", "xml"]
        /// The type names a value has (``typeName``).
        public static let typeNames = ["bool", "integer", "float", "string", "date", "data", "dictionary", "array"]

        /// A value from its text, as `plutil -insert KEYPATH -type TYPE VALUE` takes it: `bool`,
        /// `integer`, `float`, `date` (ISO 8601, as in XML property lists) and `data` (base64) read
        /// as string coding reads them everywhere (`YES`, `true`, `on`, `0x1F`…, and a word that is
        /// no bool is an error, where plutil would take it as false), `string` as it is, and `json`
        /// or `xml` a document or fragment in that format, for containers.
        ///
        /// ```swift
        /// let value = try AMCDocument.Value(type: "integer", text: "42")  // .integer(42)
        /// let list = try AMCDocument.Value(type: "json", text: "[1, 2]") // .array([.integer(1), .integer(2)])
        /// ```
        ///
        /// Throws ``AMCError/Kind/typeMismatch(expected:found:)`` for text that is not of the type.
        public init(type: String, text: String) throws {
            func mismatch(_ expected: String) -> AMCError {
                AMCError(.typeMismatch(expected: expected, found: "\"\(text)\""))
            }
            switch type {
            case "bool": self = .bool(try AMC.value(Bool.self, from: text))
            case "integer": self = .integer(try AMC.value(Int64.self, from: text))
            case "float": self = .float(try AMC.value(Double.self, from: text))
            case "string": self = .string(text)
            case "date": self = .date(try AMC.value(Date.self, from: text))
            case "data": self = .data(try AMC.value(Data.self, from: text))
            case "json", "xml":
                let parsed = try DocumentCodec.parse(Data(text.utf8))
                guard parsed.format == (type == "json" ? .json : .xmlPropertyList) else {
                    throw mismatch(type == "json" ? "JSON" : "an XML property list")
                }
                var path = KeyPathTracker()
                self = try Value(parsed.value, path: &path)
            default:
                throw AMCError(
                    .typeMismatch(
                        expected: "a type (bool, integer, float, string, date, data, json or xml)", found: "\"\(type)\""))
            }
        }

        /// The value of a document's `value`, at `path` (for errors).
        fileprivate init(_ value: ArchiveValue, path: inout KeyPathTracker) throws {
            switch value {
            case let .bool(bool): self = .bool(bool)
            case let .int(int): self = .integer(int)
            case let .uint(uint): self = Int64(exactly: uint).map { .integer($0) } ?? .unsignedInteger(uint)
            case let .double(double): self = .float(double)
            case let .longNumber(text):
                // A `.float` would round it: refused, as every value that cannot be held exactly.
                throw path.error(.valueOutOfRange(value: text, typeName: "Double"))
            case let .string(string): self = .string(string)
            case let .date(date): self = .date(date)
            case let .data(data): self = .data(data)
            case let .array(array):
                var elements: [Value] = []
                for (index, element) in array.enumerated() {
                    path.push(index: index)
                    defer { path.pop() }
                    elements.append(try Value(element, path: &path))
                }
                self = .array(elements)
            case let .dictionary(dictionary):
                var entries: [String: Value] = [:]
                for entry in dictionary.entries where entries[entry.key] == nil {
                    path.push(key: entry.key)
                    defer { path.pop() }
                    entries[entry.key] = try Value(entry.value, path: &path)
                }
                self = .dictionary(entries)
            case .null: throw path.error(.typeMismatch(expected: "a property-list value", found: "null"))
            case let .foreign(box):
                throw path.error(.unsupportedType(typeName: "\(Swift.type(of: box.value))", reason: "it has no document form"))
            }
        }

        /// The document value.
        fileprivate var archiveValue: ArchiveValue {
            switch self {
            case let .bool(bool): return .bool(bool)
            case let .integer(int): return .int(int)
            case let .unsignedInteger(uint): return .uint(uint)
            case let .float(double): return .double(double)
            case let .string(string): return .string(string)
            case let .date(date): return .date(date)
            case let .data(data): return .data(data)
            case let .array(elements): return .array(ArchiveArray(elements.map(\.archiveValue)))
            case let .dictionary(entries):
                var dictionary = ArchiveDictionary(minimumCapacity: entries.count)
                for key in entries.keys.sorted() { dictionary.append(key, entries[key]!.archiveValue) }
                return .dictionary(dictionary)
            }
        }

        /// The value as text, as `plutil -extract KEYPATH raw` prints it: a string as it is, a
        /// number, `true` or `false`, a date in ISO 8601 (UTC), data in base64, a dictionary's keys
        /// one per line (in ascending order), an array's count.
        ///
        /// ```swift
        /// AMCDocument.Value.array([.integer(1), .integer(2)]).rawText   // "2"
        /// ```
        public var rawText: String { archiveValue.rawText }

        /// Its type's name, as `plutil -type` says it: `bool`, `integer`, `float`, `string`,
        /// `date`, `data`, `dictionary` or `array` (see ``typeNames``).
        ///
        /// ```swift
        /// AMCDocument.Value.integer(3).typeName   // "integer"
        /// ```
        public var typeName: String { archiveValue.typeName }
    }

    /// Reads a document; its format is told from its bytes.
    ///
    /// ```swift
    /// let document = try AMCDocument(data: try Data(contentsOf: url))
    /// ```
    public init(data: Data) throws {
        let parsed = try DocumentCodec.parse(data)
        (format, root) = (parsed.format, parsed.value)
        // Indented when a line break comes between the first and the last of its content.
        let isContent = { (byte: UInt8) in !TextWhitespace.contains(byte) }
        let content =
            (data.firstIndex(where: isContent) ?? data.startIndex)..<(data.lastIndex(where: isContent) ?? data.startIndex)
        let indented = format != .json || data[content].contains(UInt8(ascii: "\n"))
        layout = (indented ? AMCWriteOptions(prettyPrinted: true, sortedKeys: false) : .compact, data.last == UInt8(ascii: "\n"))
    }

    /// The whole document as a value.
    ///
    /// ```swift
    /// if case let .dictionary(entries) = try document.rootValue() { print(entries.keys.sorted()) }
    /// ```
    ///
    /// Throws ``AMCError/Kind/typeMismatch(expected:found:)`` for JSON's `null`, which has no
    /// ``Value``.
    public func rootValue() throws -> Value {
        var path = KeyPathTracker()
        return try Value(root, path: &path)
    }

    /// The value at `keyPath`; with `type` (a ``Value/typeName``), only a value of that type,
    /// as `plutil -extract … -expect TYPE` checks.
    ///
    /// ```swift
    /// if case let .string(name) = try document.value(atKeyPath: "people.0.name") { print(name) }
    /// let count = try document.value(atKeyPath: "count", ofType: "integer")
    /// ```
    ///
    /// Throws ``AMCError/Kind/keyPathNotFound(reason:)`` when the key path names no value, and
    /// ``AMCError/Kind/typeMismatch(expected:found:)`` when it is not of `type`.
    public func value(atKeyPath keyPath: String, ofType type: String? = nil) throws -> Value {
        var (value, path) = try Self.walk(root, to: Self.components(of: keyPath), ofType: type)
        return try Value(value, path: &path)
    }

    /// The type of the value at `keyPath`, as `plutil -type` says it (``Value/typeName``; `null`
    /// for JSON's).
    ///
    /// ```swift
    /// try document.typeName(atKeyPath: "people")   // "array"
    /// ```
    ///
    /// Throws ``AMCError/Kind/keyPathNotFound(reason:)`` when the key path names no value.
    public func typeName(atKeyPath keyPath: String) throws -> String {
        try Self.walk(root, to: Self.components(of: keyPath)).0.typeName
    }

    /// The value at `keyPath` as `plutil -extract KEYPATH raw` prints it (``Value/rawText``;
    /// `null` for JSON's), with `type`, only a value of that type.
    ///
    /// ```swift
    /// try document.rawText(atKeyPath: "people")   // "2", the array's count
    /// ```
    ///
    /// Throws as ``value(atKeyPath:ofType:)`` does.
    public func rawText(atKeyPath keyPath: String, ofType type: String? = nil) throws -> String {
        try Self.walk(root, to: Self.components(of: keyPath), ofType: type).0.rawText
    }

    /// The value at `keyPath` as a document of its own, in `format` (a scalar makes a document of
    /// one value, as `plutil -extract` writes one).
    ///
    /// ```swift
    /// let people = try document.extract("people", as: .json)
    /// ```
    ///
    /// Throws as ``value(atKeyPath:ofType:)`` does, and as ``AMC/convert(_:to:options:textForDatesAndData:)``
    /// does for what `format` cannot hold.
    public func extract(
        _ keyPath: String, as format: AMCFormat, options: AMCWriteOptions = .readable, textForDatesAndData: Bool = false
    ) throws -> Data {
        let (value, path) = try Self.walk(root, to: Self.components(of: keyPath))
        do {
            return Data(
                try DocumentCodec.encode(
                    value, format: format, options: options, textForDatesAndData: textForDatesAndData))
        } catch let error as AMCError {
            throw error.under(path.rendered)  // the key path from the document's root
        }
    }

    /// Adds `value` at `keyPath`: a new key of a dictionary, or an element of an array at an
    /// index (the array's count adds it at the end); with `appending`, `keyPath` names an array
    /// and `value` goes at its end.
    ///
    /// ```swift
    /// try document.insert(.integer(7), atKeyPath: "scores", appending: true)
    /// ```
    ///
    /// Throws ``AMCError/Kind/valueExists`` when a dictionary already has the key (``replace(_:atKeyPath:)``
    /// changes a value), and ``AMCError/Kind/keyPathNotFound(reason:)`` when the key path leads
    /// nowhere.
    ///
    /// References (`{"$ref": "#/…"}`) keep naming the same objects: those that name an element
    /// after an inserted one are rewritten.
    public mutating func insert(_ value: Value, atKeyPath keyPath: String, appending: Bool = false) throws {
        let new = value.archiveValue
        var components = Self.components(of: keyPath)
        if appending { components.append(.append) }
        try edit(at: components, change: .insert(new))
    }

    /// Puts `value` at `keyPath`, in place of the value there: a dictionary's key (added when it
    /// is missing) or an array's element (the array's count adds it at the end).
    ///
    /// ```swift
    /// try document.replace(.bool(true), atKeyPath: "settings.enabled")
    /// ```
    ///
    /// Throws ``AMCError/Kind/keyPathNotFound(reason:)`` when the key path leads nowhere.
    ///
    /// Throws ``AMCError/Kind/referencedElsewhere(referrers:)`` when references name the value
    /// there or a value inside it: they would name another.
    public mutating func replace(_ value: Value, atKeyPath keyPath: String) throws {
        let new = value.archiveValue
        try edit(at: Self.components(of: keyPath), change: .replace(new))
    }

    /// Removes the value at `keyPath`: a dictionary's key, or an array's element.
    ///
    /// ```swift
    /// try document.remove(atKeyPath: "people.1")
    /// ```
    ///
    /// Throws ``AMCError/Kind/keyPathNotFound(reason:)`` when there is no value there.
    ///
    /// Throws ``AMCError/Kind/referencedElsewhere(referrers:)`` when references name the value
    /// or a value inside it (remove them first); references to later elements of an array are
    /// rewritten to keep naming the same objects.
    public mutating func remove(atKeyPath keyPath: String) throws {
        try edit(at: Self.components(of: keyPath), change: .remove)
    }

    /// Makes `change` at `components`, keeping every reference naming the object it named.
    private mutating func edit(at components: [Component], change: Change) throws {
        let references = ObjectReference.all(in: root)
        guard !references.isEmpty, let place = Self.place(of: components, in: root) else {
            root = try Self.checked(try Self.edit(root, at: components[...], path: KeyPathTracker(), change: change), was: root)
            return
        }
        // An element inserted into or removed from an array moves the ones after it.
        var shift: (array: [KeyPathTracker.Component], from: Int, by: Int)?
        if case let .index(index)? = place.last {
            switch change {
            case .insert: shift = (Array(place.dropLast()), index, 1)
            case .remove: shift = (Array(place.dropLast()), index + 1, -1)
            case .replace: break
            }
        }
        func moved(_ components: [KeyPathTracker.Component]) -> [KeyPathTracker.Component] {
            guard let shift, components.count > shift.array.count, components.starts(with: shift.array),
                case let .index(index) = components[shift.array.count], index >= shift.from
            else { return components }
            var moved = components
            moved[shift.array.count] = .index(index + shift.by)
            return moved
        }
        // What a removal or replacement takes away, references may not name; those inside it go too.
        var referrers: [String] = []
        if case .insert = change {
        } else {
            for reference in references
            where reference.target?.starts(with: place) == true && !reference.place.starts(with: place) {
                referrers.append(KeyPathTracker(components: reference.place, routes: nil).rendered)
            }
        }
        guard referrers.isEmpty else {
            throw KeyPathTracker(components: place, routes: nil).error(.referencedElsewhere(referrers: referrers))
        }
        var edited = try Self.edit(root, at: components[...], path: KeyPathTracker(), change: change)
        for reference in references {
            guard let target = reference.target, moved(target) != target else { continue }
            // A reference inside what was removed or replaced went with it.
            if case .insert = change {} else if reference.place.starts(with: place) { continue }
            let pointer = ArchiveValue.string(ObjectReference.pointer(of: moved(target)))
            let at = (moved(reference.place) + [.key(ObjectReference.key)]).map { component -> Component in
                switch component {
                case let .key(key): .key(key)
                case let .index(index): .key(String(index))
                }
            }
            edited = try Self.edit(edited, at: at[...], path: KeyPathTracker(), change: .replace(pointer))
        }
        root = try Self.checked(edited, was: root)
    }

    /// `edited`, unless the edit broke a reference `original` did not have broken: a removal can
    /// leave a dictionary whose one key is `$ref`, which reads as a reference.
    private static func checked(_ edited: ArchiveValue, was original: ArchiveValue) throws -> ArchiveValue {
        let broken = ObjectReference.brokenReferences(in: edited)
        guard let first = broken.first, broken.count > ObjectReference.brokenReferences(in: original).count else { return edited }
        throw first
    }

    /// The place `components` name in `root` as key path components (indices where they pass
    /// arrays), without following references; nil when they lead nowhere or append.
    private static func place(of components: [Component], in root: ArchiveValue) -> [KeyPathTracker.Component]? {
        var current: ArchiveValue? = root
        var place: [KeyPathTracker.Component] = []
        for component in components {
            guard case let .key(key) = component else { return nil }
            switch current {
            case let .dictionary(dictionary)?:
                place.append(.key(key))
                current = dictionary[key]
            case let .array(array)?:
                guard let index = Int(key), index >= 0 else { return nil }
                place.append(.index(index))
                current = index < array.count ? array[index] : nil
            default:
                return nil
            }
        }
        return place
    }

    /// The document's bytes, in `format` (the one it was read in by default), laid out by
    /// `options`; by default as it was read when the format is the same (JSON compact or indented
    /// in two spaces, its keys in their order, a final line break if it had one), else
    /// ``AMCWriteOptions/readable``.
    ///
    /// ```swift
    /// try AMC.write(data: try document.data(), to: url)
    /// ```
    ///
    /// Throws as ``AMC/convert(_:to:options:textForDatesAndData:)`` does for what `format`
    /// cannot hold.
    public func data(format: AMCFormat? = nil, options: AMCWriteOptions? = nil, textForDatesAndData: Bool = false)
        throws -> Data
    {
        let format = format ?? self.format
        let keepsLayout = options == nil && format == self.format
        var bytes = try DocumentCodec.encode(
            root, format: format, options: options ?? (keepsLayout ? layout.options : .readable),
            textForDatesAndData: textForDatesAndData)
        if keepsLayout, format == .json {
            let endsInLineBreak = bytes.last == UInt8(ascii: "\n")
            if layout.finalLineBreak, !endsInLineBreak { bytes.append(UInt8(ascii: "\n")) }
            if !layout.finalLineBreak, endsInLineBreak { bytes.removeLast() }
        }
        return Data(bytes)
    }

    // MARK: - Key paths

    private enum Component {
        /// A key, or an index when it is a number and the container is an array.
        case key(String)
        /// The end of an array (`appending`).
        case append
    }

    private enum Change {
        case insert(ArchiveValue)
        case replace(ArchiveValue)
        case remove
    }

    /// The keys of `keyPath` (see `KeyPathWalker.components(_:)`).
    private static func components(of keyPath: String) -> [Component] {
        KeyPathWalker.components(keyPath).map(Component.key)
    }

    /// The value `components` lead to from `value`, and the path walked; with `type`, only a value
    /// of that type.
    private static func walk(
        _ value: ArchiveValue, to components: [Component], ofType type: String? = nil
    ) throws -> (ArchiveValue, KeyPathTracker) {
        var path = KeyPathTracker()
        var current = value
        for case let .key(key) in components {
            // A reference stands for the object it names, but for its own "$ref" key.
            if key != ObjectReference.key { current = try followed(current, in: value, path: path) }
            let step = try step(from: current, key: key, path: &path)
            guard let next = step.value else { throw path.error(.keyPathNotFound(reason: step.missing)) }
            current = next
        }
        current = try followed(current, in: value, path: path)
        if let type, current.typeName != type {
            throw path.error(.typeMismatch(expected: "a value of type \(type)", found: "one of type \(current.typeName)"))
        }
        return (current, path)
    }

    /// The object `value` names when it is a reference (`{"$ref": "#/…"}`) into `root`, else
    /// `value`; an error at `path` when it names no object.
    private static func followed(_ value: ArchiveValue, in root: ArchiveValue, path: KeyPathTracker) throws -> ArchiveValue {
        guard case let .dictionary(dictionary) = value, let pointer = ObjectReference.pointer(in: dictionary) else {
            return value
        }
        let target: ArchiveValue
        do {
            target = try ObjectReference.target(of: pointer, in: root).0
        } catch {
            throw path.error(.invalidReference(pointer: pointer, reason: error.reason))
        }
        if let problem = ObjectReference.notAnObject(target) {
            throw path.error(.invalidReference(pointer: pointer, reason: problem))
        }
        return target
    }

    /// One step of a walk: the value `key` names in `container` (nil, with why, when none), with
    /// `path` moved onto it.
    private static func step(
        from container: ArchiveValue, key: String, path: inout KeyPathTracker
    ) throws -> (value: ArchiveValue?, missing: String) {
        switch container {
        case let .dictionary(dictionary):
            path.push(key: key)
            return (dictionary[key], "no such key")
        case let .array(array):
            guard let index = Int(key), index >= 0 else {
                throw path.error(.keyPathNotFound(reason: "\"\(key)\" is not an index of this array of \(array.count)"))
            }
            path.push(index: index)
            return (index < array.count ? array[index] : nil, "past the end of an array of \(array.count)")
        default:
            throw path.error(.keyPathNotFound(reason: "\"\(key)\" goes into \(container.kindPhrase), not a dictionary or array"))
        }
    }

    /// `value` with `change` made at the end of `components`: each container on the way rebuilt
    /// with its one changed entry, every other value as it was.
    private static func edit(
        _ value: ArchiveValue, at components: ArraySlice<Component>, path: KeyPathTracker, change: Change
    ) throws -> ArchiveValue {
        var path = path
        // A key path has at least one key (`""` is the empty key), and the walk goes deeper only
        // while keys remain.
        guard let component = components.first else { preconditionFailure("a key path without keys") }
        let rest = components.dropFirst()
        switch (value, component) {
        case let (.dictionary(dictionary), .key(key)):
            path.push(key: key)
            var entries = Array(dictionary.entries.map { (key: $0.key, value: $0.value) })
            let index = entries.firstIndex { $0.key == key }
            if !rest.isEmpty {
                guard let index else { throw path.error(.keyPathNotFound(reason: "no such key")) }
                entries[index].value = try edit(entries[index].value, at: rest, path: path, change: change)
            } else {
                switch change {
                case let .insert(new):
                    guard index == nil else { throw path.error(.valueExists) }
                    entries.append((key, new))
                case let .replace(new):
                    if let index { entries[index].value = new } else { entries.append((key, new)) }
                case .remove:
                    guard let index else { throw path.error(.keyPathNotFound(reason: "no such key")) }
                    entries.remove(at: index)
                }
            }
            var rebuilt = ArchiveDictionary(minimumCapacity: entries.count)
            for entry in entries { rebuilt.append(entry.key, entry.value) }
            return .dictionary(rebuilt)
        case let (.array(array), component):
            var elements = Array(array)
            let index: Int
            switch component {
            case .append:
                guard rest.isEmpty, case let .insert(new) = change else {
                    throw path.error(.keyPathNotFound(reason: "appending adds to an array"))
                }
                elements.append(new)
                return .array(ArchiveArray(elements))
            case let .key(key):
                guard let number = Int(key), number >= 0 else {
                    throw path.error(.keyPathNotFound(reason: "\"\(key)\" is not an index of this array of \(elements.count)"))
                }
                index = number
            }
            path.push(index: index)
            // Inserting or replacing at the count adds at the end, as plutil does.
            let adding = rest.isEmpty && { if case .remove = change { false } else { true } }()
            guard index < elements.count || (adding && index == elements.count) else {
                throw path.error(.keyPathNotFound(reason: "past the end of an array of \(elements.count)"))
            }
            if !rest.isEmpty {
                elements[index] = try edit(elements[index], at: rest, path: path, change: change)
            } else {
                switch change {
                case let .insert(new): elements.insert(new, at: index)
                case let .replace(new) where index == elements.count: elements.append(new)
                case let .replace(new): elements[index] = new
                case .remove: elements.remove(at: index)
                }
            }
            return .array(ArchiveArray(elements))
        case (.dictionary, .append):
            throw path.error(.typeMismatch(expected: "an array to append to", found: "a dictionary"))
        case let (_, .key(key)):
            throw path.error(.keyPathNotFound(reason: "\"\(key)\" goes into \(value.kindPhrase), not a dictionary or array"))
        case (_, .append):
            throw path.error(.typeMismatch(expected: "an array to append to", found: value.kindPhrase))
        }
    }
}

extension ArchiveValue {
    /// The value as `plutil -extract KEYPATH raw` prints it.
    fileprivate var rawText: String {
        switch self {
        case let .bool(bool): "\(bool)"
        case let .int(int): "\(int)"
        case let .uint(uint): "\(uint)"
        case let .double(double): "\(double)"
        case let .longNumber(text): text
        case let .string(string): string
        case let .date(date): ISODate.string(from: date) ?? "\(date.timeIntervalSinceReferenceDate)"
        case let .data(data): data.base64EncodedString()
        case let .dictionary(dictionary): dictionary.entries.map(\.key).sorted().joined(separator: "\n")
        case let .array(array): "\(array.count)"
        case .null: "null"
        case let .foreign(box): "\(box.value)"
        }
    }
}
