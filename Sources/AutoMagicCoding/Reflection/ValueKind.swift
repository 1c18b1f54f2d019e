import Foundation

/// How the archiver handles values of one static type: decided once per type from its metadata
/// and conformances, then cached.
indirect enum ValueKind: @unchecked Sendable {
    case string
    case bool
    case character
    case date
    case data
    case url
    case uuid
    case integer(any FixedWidthInteger.Type)
    case floatingPoint(any BinaryFloatingPoint.Type)
    case optional(any OptionalContainer.Type, wrapped: ValueKind)
    case structString(any AMCStructCodable.Type)
    case object(any AMCCodable.Type)
    case rawValue(any RawRepresentable.Type, raw: ValueKind)
    case sequence(any SequenceContainer.Type, element: ValueKind)
    case dictionary(any DictionaryContainer.Type, value: ValueKind)
    case orderedCollection(any AMCOrderedCollection.Type, element: ValueKind)
    case keyedCollection(any AMCKeyedCollection.Type, value: ValueKind)
    /// `Any`, `AnyObject` and protocol existentials: decided by each value's dynamic type.
    case dynamic(Any.Type)
    /// A struct, enum or tuple with no codec of its own: the owner's struct hooks handle it.
    case opaqueStruct(Any.Type, name: String)
    case unsupported(Any.Type, reason: String)

    /// The kind for values of `type`, from the process-wide cache.
    static func of(_ type: Any.Type) -> ValueKind {
        let key = ObjectIdentifier(type)
        if let cached = cache.withLock({ $0[key] }) { return cached }
        let kind = classify(type)
        cache.withLock { $0[key] = kind }
        return kind
    }

    /// The field type a property of this kind has by default.
    var fieldType: AMCFieldType {
        switch self {
        case .object: return .customObject
        case .sequence, .orderedCollection: return .collectionArray
        case .dictionary, .keyedCollection: return .collectionHash
        case .structString, .opaqueStruct: return .structure
        case let .optional(_, wrapped): return wrapped.fieldType
        default: return .scalar
        }
    }

    private static let cache = Locked<[ObjectIdentifier: ValueKind]>([:])

    private static let scalarKinds: [ObjectIdentifier: ValueKind] = [
        ObjectIdentifier(String.self): .string,
        ObjectIdentifier(Bool.self): .bool,
        ObjectIdentifier(Character.self): .character,
        ObjectIdentifier(Date.self): .date,
        ObjectIdentifier(Data.self): .data,
        ObjectIdentifier(URL.self): .url,
        ObjectIdentifier(UUID.self): .uuid,
    ]

    private static func classify(_ type: Any.Type) -> ValueKind {
        if let scalar = scalarKinds[ObjectIdentifier(type)] { return scalar }
        if let optional = type as? any OptionalContainer.Type {
            return .optional(optional, wrapped: of(optional.wrappedType))
        }
        if let structType = type as? any AMCStructCodable.Type { return .structString(structType) }
        if let codable = type as? any AMCCodable.Type { return .object(codable) }
        if let integer = type as? any FixedWidthInteger.Type { return .integer(integer) }
        if let floating = type as? any BinaryFloatingPoint.Type { return .floatingPoint(floating) }
        if let ordered = type as? any AMCOrderedCollection.Type {
            return .orderedCollection(ordered, element: of(elementType(of: ordered)))
        }
        if let keyed = type as? any AMCKeyedCollection.Type {
            return .keyedCollection(keyed, value: of(valueType(of: keyed)))
        }
        if let sequence = type as? any SequenceContainer.Type {
            return .sequence(sequence, element: of(sequence.elementType))
        }
        if let dictionary = type as? any DictionaryContainer.Type {
            guard dictionary.keyType == String.self else {
                return .unsupported(type, reason: "only dictionaries with String keys can be archived")
            }
            return .dictionary(dictionary, value: of(dictionary.valueType))
        }
        if let raw = type as? any RawRepresentable.Type {
            return .rawValue(raw, raw: of(rawValueType(of: raw)))
        }
        switch RuntimeAccess.shape(of: type) {
        case .existential:
            return .dynamic(type)
        case .struct, .enum, .tuple:
            return .opaqueStruct(type, name: AMC.unqualifiedName(of: type))
        case .class:
            return .unsupported(type, reason: "the class does not conform to AMCCodable")
        default:
            return .unsupported(type, reason: "only values, collections and AMCCodable types can be archived")
        }
    }

    private static func elementType<C: AMCOrderedCollection>(of _: C.Type) -> Any.Type { C.AMCElement.self }
    private static func valueType<C: AMCKeyedCollection>(of _: C.Type) -> Any.Type { C.AMCValue.self }
    private static func rawValueType<R: RawRepresentable>(of _: R.Type) -> Any.Type { R.RawValue.self }
}
