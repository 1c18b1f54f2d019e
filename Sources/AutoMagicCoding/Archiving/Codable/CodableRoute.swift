import Foundation

/// How values of a `Codable` type with no other archiving route (an enum with associated values,
/// `TimeZone`, `Range<Int>`, a library's `struct Money: Codable`) are archived: through their own
/// conformance, into the same document as everything else. Keyed containers become dictionaries,
/// unkeyed ones arrays, single values scalars; values the package has a scalar form for (dates,
/// URLs, `Decimal`, raw-value enums) keep that form inside them. Worked out once per type and kept
/// in ``ValueKind``'s cache.
final class CodableRoute: @unchecked Sendable {
    let type: Any.Type
    let typeName: String
    /// A struct or an enum: an owner's struct hooks get the first say, so the strings they wrote
    /// before the type took this route still read.
    let isHookable: Bool
    /// The value's encoding, built by its `encode(to:)` (see ``EncodedNode``); `levels`: how many
    /// more nested values the archiver's depth limit allows.
    let encode: (_ value: Any, _ levels: Int, _ limit: Int) throws -> EncodedNode
    /// The value `raw` describes, made by the type's `init(from:)`.
    let decode: (_ raw: ArchiveValue, _ context: ValueContext) throws -> Any

    init<Value: Codable>(_: Value.Type, isHookable: Bool) {
        type = Value.self
        typeName = AMC.unqualifiedName(of: Value.self)
        self.isHookable = isHookable
        encode = { value, levels, limit in
            let node = EncodedNode()
            guard let value = value as? Value else { return node }
            try node.encode(value, codingPath: [], levels: levels, limit: limit)
            return node
        }
        decode = { raw, context in try CodableBridgeDecoder.decode(Value.self, from: raw, codingPath: [], context: context) }
    }

    /// The route of `type` when it is `Codable`.
    static func of(_ type: Any.Type, isHookable: Bool) -> CodableRoute? {
        guard let codable = type as? any Codable.Type else { return nil }
        func route<Value: Codable>(_: Value.Type) -> CodableRoute { CodableRoute(Value.self, isHookable: isHookable) }
        return route(codable)
    }

    /// An error thrown while the type's `encode(to:)` or `init(from:)` ran, as an ``AMCError``
    /// whose key path runs from the value (its `codingPath`): ours carry the ``AMCError`` they
    /// stand for; one of the type's own names its hook.
    /// `raw`: the document the value was decoded from, whose part at the error's place the
    /// message shows when the type's own error does not say what it found.
    func located(_ error: any Error, operation: AMCError.Operation, raw: ArchiveValue? = nil) -> AMCError {
        let hook = operation == .encode ? "encode(to:)" : "init(from:)"
        let codingPath: [any CodingKey]
        let reason: String
        let underlying: (any Error)?
        switch error {
        case let error as AMCError:
            return error
        case let EncodingError.invalidValue(_, context):
            (codingPath, reason, underlying) = (context.codingPath, context.debugDescription, context.underlyingError)
        case let DecodingError.typeMismatch(_, context), let DecodingError.valueNotFound(_, context),
            let DecodingError.dataCorrupted(context):
            (codingPath, reason, underlying) = (context.codingPath, context.debugDescription, context.underlyingError)
        case let DecodingError.keyNotFound(key, context):
            (codingPath, reason, underlying) = (context.codingPath + [key], context.debugDescription, context.underlyingError)
        default:
            return AMCError(.hookFailed(hook: hook, typeName: typeName, reason: "\(error)"))
        }
        let keyPath = Self.rendered(codingPath)
        if let amcError = underlying as? AMCError { return amcError.at(keyPath) }
        let found = raw.flatMap { Self.value(at: codingPath, in: $0) }.map { "; found \(ArchiveValue.summaryWithKeys($0))" } ?? ""
        let sentence = reason.hasSuffix(".") ? String(reason.dropLast()) : reason
        return AMCError(.hookFailed(hook: hook, typeName: typeName, reason: sentence + found), keyPath: keyPath)
    }

    /// The part of `raw` at `codingPath`; nil when there is none.
    private static func value(at codingPath: [any CodingKey], in raw: ArchiveValue) -> ArchiveValue? {
        var value = raw
        for key in codingPath {
            switch value {
            case let .array(elements) where key is IndexKey:
                guard let index = key.intValue, elements.indices.contains(index) else { return nil }
                value = elements[index]
            case let .dictionary(dictionary):
                guard let child = dictionary[key.stringValue] else { return nil }
                value = child
            default:
                return nil
            }
        }
        return value
    }

    /// A coding path as a key path: `published.tags[2]`.
    static func rendered(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if key is IndexKey, let index = key.intValue {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }
}

/// The coding key of an unkeyed container's element.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { "Index \(intValue ?? 0)" }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// A key of a keyed container, for `superEncoder()` and `superDecoder()`.
struct NamedKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// An owner type's struct hook asked about a value type (no owner: the default hook). The
/// encoder and decoder remember the ones that do not handle a type with a route of its own, so
/// each is asked once per archive.
struct HookUse: Hashable {
    let owner: ObjectIdentifier?
    let value: ObjectIdentifier

    init(owner: Any.Type?, value: Any.Type) {
        self.owner = owner.map(ObjectIdentifier.init)
        self.value = ObjectIdentifier(value)
    }
}

extension AMCError {
    /// Whether this is what a struct hook throws for a type it does not handle (what
    /// ``AMC/defaultEncodeStruct(_:named:)`` and ``AMC/defaultDecodeStruct(_:named:)`` throw).
    func isUnhandledStruct(named name: String) -> Bool {
        guard case let .unsupportedStruct(typeName, _) = kind else { return false }
        return typeName == name
    }
}
