import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Value kinds: how each static type is archived")
struct ValueKindTests {
    /// A kind's shape: its case, with what it holds that tells kinds apart.
    private func shape(_ kind: ValueKind) -> String {
        switch kind {
        case let .scalar(codec): return "scalar(\(codec.typeName), structString: \(codec.isStructString), \(kind.fieldType))"
        case let .optional(type, wrapped): return "optional(\(type), \(shape(wrapped)))"
        case let .object(type): return "object(\(type))"
        case let .sequence(type, element): return "sequence(\(type), \(shape(element)))"
        case let .dictionary(type, key, value): return "dictionary(\(type), \(key != nil), \(shape(value)))"
        case let .orderedCollection(type, element): return "ordered(\(type), \(shape(element)))"
        case let .keyedCollection(type, value): return "keyed(\(type), \(shape(value)))"
        case let .dynamic(type): return "dynamic(\(type))"
        case let .opaqueStruct(type, name): return "opaque(\(type), \(name))"
        case let .codable(route): return "codable(\(route.type))"
        case let .unsupported(type, reason): return "unsupported(\(type), \(reason))"
        }
    }

    /// The standard scalars and their optionals are told by identity, without the search of
    /// conformances: each gets the kind the search gives it.
    @Test func aStandardTypeToldByIdentityHasTheKindTheSearchGives() {
        let types: [Any.Type] = [
            String.self, Int.self, Double.self, Bool.self, Date.self, Data.self, URL.self, UUID.self, String?.self, Int?.self,
            Double?.self, Bool?.self, Date?.self, Data?.self, URL?.self, UUID?.self,
        ]
        #expect(ValueKind.standardKinds.count == types.count)
        for type in types {
            #expect(ValueKind.standardKinds[ObjectIdentifier(type)] != nil, "\(type) is told by identity")
            #expect(shape(ValueKind.classify(type)) == shape(ValueKind.classify(type, searching: true)), "\(type)")
        }
    }
}
