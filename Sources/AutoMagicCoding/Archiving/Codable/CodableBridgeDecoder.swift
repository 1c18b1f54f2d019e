import Foundation

/// The `Decoder` a `Codable` value's `init(from:)` reads a parsed document with (see
/// ``CodableRoute``): dictionaries are keyed containers, arrays unkeyed ones, scalars single
/// values. Values the package has a scalar form for (numbers, dates, URLs, `Decimal`, raw-value
/// enums) are read by the one value vocabulary, as anywhere else in an archive. Its errors are
/// `DecodingError`s, as the protocol's users expect, each carrying the ``AMCError`` it stands for.
struct CodableBridgeDecoder: Decoder {
    let value: ArchiveValue
    let codingPath: [any CodingKey]
    let context: ValueContext
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The `Value` that `raw` describes.
    /// `codingPath` is only worked out for a value that decodes itself, or for an error.
    static func decode<Value: Decodable>(
        _: Value.Type, from raw: ArchiveValue, codingPath: @autoclosure () -> [any CodingKey], context: ValueContext
    ) throws -> Value {
        if case let .scalar(codec) = ValueKind.of(Value.self) {
            do {
                if let value = try codec.decode(raw, context) as? Value { return value }
            } catch {
                throw DecodingError.typeMismatch(
                    Value.self,
                    .init(
                        codingPath: codingPath(), debugDescription: "\(error)", underlyingError: error))
            }
        }
        if case let .foreign(box) = raw, let value = box.value as? Value { return value }
        let codingPath = codingPath()
        if let refusal = NestingDepth.refusal(atDepth: codingPath.count, limit: AMC.maximumDepth) {
            let error = AMCError(refusal)
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "\(error)", underlyingError: error))
        }
        return try Value(from: CodableBridgeDecoder(value: raw, codingPath: codingPath, context: context))
    }

    func container<Key: CodingKey>(keyedBy _: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case let .dictionary(dictionary) = value else { throw mismatch("a dictionary") }
        return KeyedDecodingContainer(KeyedDocumentContainer<Key>(decoder: self, dictionary: dictionary))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case let .array(elements) = value else { throw mismatch("an array") }
        return UnkeyedDocumentContainer(decoder: self, elements: elements)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleDocumentContainer(decoder: self) }

    /// A decoder for `child`, one key deeper.
    func nested(_ child: ArchiveValue, key: any CodingKey) -> CodableBridgeDecoder {
        CodableBridgeDecoder(value: child, codingPath: codingPath + [key], context: context)
    }

    func decode<T: Decodable>(_: T.Type) throws -> T {
        try Self.decode(T.self, from: value, codingPath: codingPath, context: context)
    }

    private func mismatch(_ expected: String) -> DecodingError {
        let error = AMCError(.typeMismatch(expected: expected, found: value.summary))
        return DecodingError.typeMismatch(
            Any.self, .init(codingPath: codingPath, debugDescription: "\(error)", underlyingError: error))
    }
}

private struct KeyedDocumentContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: CodableBridgeDecoder
    let dictionary: ArchiveDictionary
    /// A user's one-key dictionary `$$ref` was written for `$ref` (see ``ObjectReference``).
    let unescapes: Bool
    /// The first value of each key of a large dictionary (as everywhere in the archiver, a
    /// repeated key keeps its first value); small ones are searched in order.
    let index: [String: ArchiveValue]?

    init(decoder: CodableBridgeDecoder, dictionary: ArchiveDictionary) {
        self.decoder = decoder
        self.dictionary = dictionary
        unescapes = dictionary.count == 1 && ObjectReference.isEscapable(dictionary.entries[0].key, minimumDollars: 2)
        index =
            dictionary.count > 16
            ? Dictionary(dictionary.entries.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    private func lookUp(_ key: String) -> ArchiveValue? {
        if unescapes { return dictionary.entries[0].key.dropFirst() == key ? dictionary.entries[0].value : nil }
        return index.map { $0[key] } ?? dictionary[key]
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] {
        var seen = Set<String>()
        return dictionary.entries.compactMap { entry in
            let key = unescapes ? String(entry.key.dropFirst()) : entry.key
            return seen.insert(key).inserted ? Key(stringValue: key) : nil
        }
    }

    func contains(_ key: Key) -> Bool { lookUp(key.stringValue) != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard case .null = try value(forKey: key, expecting: "a value") else { return false }
        return true
    }

    func decode<T: Decodable>(_: T.Type, forKey key: Key) throws -> T {
        let raw = try value(forKey: key, expecting: "a value of type \(T.self)")
        return try CodableBridgeDecoder.decode(T.self, from: raw, codingPath: codingPath + [key], context: decoder.context)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<
        NestedKey
    > {
        try decoder.nested(try value(forKey: key, expecting: "a dictionary"), key: key).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder.nested(try value(forKey: key, expecting: "an array"), key: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        decoder.nested(lookUp("super") ?? .null, key: NamedKey("super"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        decoder.nested(lookUp(key.stringValue) ?? .null, key: key)
    }

    private func value(forKey key: Key, expecting expected: String) throws -> ArchiveValue {
        guard let value = lookUp(key.stringValue) else {
            let error = AMCError(.typeMismatch(expected: expected, found: "nothing"))
            throw DecodingError.keyNotFound(
                key, .init(codingPath: codingPath, debugDescription: "\(error)", underlyingError: error))
        }
        return value
    }
}

private struct UnkeyedDocumentContainer: UnkeyedDecodingContainer {
    let decoder: CodableBridgeDecoder
    let elements: ArchiveArray
    private(set) var currentIndex = 0

    init(decoder: CodableBridgeDecoder, elements: ArchiveArray) {
        self.decoder = decoder
        self.elements = elements
    }

    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try next(expecting: "a value", consuming: false) else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_: T.Type) throws -> T {
        let key = IndexKey(currentIndex)
        let raw = try next(expecting: "a value of type \(T.self)")
        return try CodableBridgeDecoder.decode(T.self, from: raw, codingPath: codingPath + [key], context: decoder.context)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let key = IndexKey(currentIndex)
        return try decoder.nested(try next(expecting: "a dictionary"), key: key).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let key = IndexKey(currentIndex)
        return try decoder.nested(try next(expecting: "an array"), key: key).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let key = IndexKey(currentIndex)
        return decoder.nested(try next(expecting: "a value"), key: key)
    }

    /// The element at the current index, which moves on past it when `consuming`.
    private mutating func next(expecting expected: String, consuming: Bool = true) throws -> ArchiveValue {
        guard currentIndex < elements.count else {
            let error = AMCError(.typeMismatch(expected: expected, found: "the end of the array"))
            throw DecodingError.valueNotFound(
                Any.self,
                .init(
                    codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "\(error)", underlyingError: error))
        }
        defer { if consuming { currentIndex += 1 } }
        return elements[currentIndex]
    }
}

private struct SingleDocumentContainer: SingleValueDecodingContainer {
    let decoder: CodableBridgeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        guard case .null = decoder.value else { return false }
        return true
    }

    func decode<T: Decodable>(_: T.Type) throws -> T { try decoder.decode(T.self) }
}
