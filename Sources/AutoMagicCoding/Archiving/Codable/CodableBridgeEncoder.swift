import Foundation

/// What a `Codable` value's `encode(to:)` writes (see ``CodableRoute``): a small tree the archive
/// encoder then writes to its sink in one go. It is built first because an `Encoder`'s containers
/// may be filled in any order (a nested container's keys after its parent's later ones), which a
/// sink writing bytes in document order cannot follow.
final class EncodedNode {
    enum Shape {
        /// Nothing was encoded: written as an empty dictionary, as `JSONEncoder` does.
        case empty
        case scalar(ArchiveScalar)
        case array
        case dictionary
    }

    private(set) var shape = Shape.empty
    /// An array's elements.
    private(set) var elements: [EncodedNode] = []
    /// A dictionary's keys in the order first written, and its values.
    private(set) var keys: [String] = []
    private(set) var values: [String: EncodedNode] = [:]

    func set(_ scalar: ArchiveScalar) {
        shape = .scalar(scalar)
    }

    /// Makes this node a dictionary (keeping its entries if it is one already, as a class and its
    /// superclass share their encoder's container).
    func becomeDictionary() {
        if case .dictionary = shape { return }
        (shape, keys, values) = (.dictionary, [], [:])
    }

    func becomeArray() {
        if case .array = shape { return }
        (shape, elements) = (.array, [])
    }

    /// The node under `key`, new (replacing an earlier one, as encoding a key twice does).
    func child(forKey key: String) -> EncodedNode {
        let node = EncodedNode()
        if values.updateValue(node, forKey: key) == nil { keys.append(key) }
        return node
    }

    func appendChild() -> EncodedNode {
        let node = EncodedNode()
        elements.append(node)
        return node
    }

    /// Writes `value` into this node: values the package has a scalar form for take it (dates,
    /// URLs, `Decimal`, raw-value enums: the same as anywhere else in an archive), anything else
    /// encodes itself. `levels`: how many more values may nest before ``AMC/maximumDepth``.
    /// `codingPath` is only worked out for a value that encodes itself, or for an error.
    func encode<Value: Encodable>(
        _ value: Value, codingPath: @autoclosure () -> [any CodingKey], levels: Int, limit: Int
    ) throws {
        // A value with no scalar form (a URL relative to a base) encodes itself, as a dictionary.
        if case let .scalar(codec) = ValueKind.of(Value.self), codec.entries?(value) == nil, let scalar = codec.encode(value) {
            return set(scalar)
        }
        if let refusal = NestingDepth.refusal(atDepth: limit - levels, limit: limit, readBack: .codableValues) {
            throw EncodingError.invalidValue(
                value,
                EncodingError.Context(
                    codingPath: codingPath(), debugDescription: "nesting too deep", underlyingError: AMCError(refusal)))
        }
        try value.encode(to: NodeEncoder(node: self, codingPath: codingPath(), levels: levels - 1, limit: limit))
    }
}

/// The `Encoder` a `Codable` value's `encode(to:)` writes an ``EncodedNode`` with.
private struct NodeEncoder: Encoder {
    let node: EncodedNode
    let codingPath: [any CodingKey]
    let levels: Int
    let limit: Int
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy _: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeDictionary()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(encoder: self) }

    /// An encoder for `child`, one key deeper.
    func nested(_ child: EncodedNode, key: any CodingKey) -> NodeEncoder {
        NodeEncoder(node: child, codingPath: codingPath + [key], levels: levels, limit: limit)
    }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil(forKey key: Key) throws { encoder.node.child(forKey: key.stringValue).set(.null) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try encoder.node.child(forKey: key.stringValue)
            .encode(value, codingPath: codingPath + [key], levels: encoder.levels, limit: encoder.limit)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy _: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoder.nested(encoder.node.child(forKey: "super"), key: NamedKey("super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder.nested(encoder.node.child(forKey: key.stringValue), key: key)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.elements.count }

    mutating func encodeNil() throws { encoder.node.appendChild().set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = IndexKey(count)
        try encoder.node.appendChild().encode(value, codingPath: codingPath + [key], levels: encoder.levels, limit: encoder.limit)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy _: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = IndexKey(count)
        return encoder.nested(encoder.node.appendChild(), key: key).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = IndexKey(count)
        return encoder.nested(encoder.node.appendChild(), key: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = IndexKey(count)
        return encoder.nested(encoder.node.appendChild(), key: key)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let encoder: NodeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws { encoder.node.set(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try encoder.node.encode(value, codingPath: codingPath, levels: encoder.levels, limit: encoder.limit)
    }
}
