import Foundation

// Type-erased views of the standard library's generic containers, so that the archiver can take
// them apart and rebuild them knowing only their metatypes at run time.

protocol OptionalContainer {
    static var wrappedType: Any.Type { get }
    static var noneValue: Any { get }
    var wrappedValue: Any? { get }
}

extension Optional: OptionalContainer {
    static var wrappedType: Any.Type { Wrapped.self }
    static var noneValue: Any { Self.none as Any }
    var wrappedValue: Any? { map { $0 as Any } }
}

/// `type` without any levels of `Optional`: `Int` for `Int??`.
func unwrappedType(_ type: Any.Type) -> Any.Type {
    var type = type
    while let optional = type as? any OptionalContainer.Type { type = optional.wrappedType }
    return type
}

/// The value inside any levels of `Optional`; nil for `nil`.
func unwrappedValue(_ value: Any) -> Any? {
    var value = value
    while let optional = value as? any OptionalContainer {
        guard let wrapped = optional.wrappedValue else { return nil }
        value = wrapped
    }
    return value
}

protocol SequenceContainer {
    static var elementType: Any.Type { get }
    /// A `Set`: its order is not the data's, and differs from run to run.
    static var isUnordered: Bool { get }
    var anyElements: [Any] { get }
    /// The container of these elements, or nil when one of them is not an `Element`.
    static func make(from items: [Any]) -> Any?
}

extension Array: SequenceContainer {
    static var elementType: Any.Type { Element.self }
    static var isUnordered: Bool { false }
    var anyElements: [Any] { map { $0 as Any } }
    static func make(from items: [Any]) -> Any? {
        var elements: [Element] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let element = item as? Element else { return nil }
            elements.append(element)
        }
        return elements
    }
}

extension Set: SequenceContainer {
    static var elementType: Any.Type { Element.self }
    static var isUnordered: Bool { true }
    var anyElements: [Any] { map { $0 as Any } }
    static func make(from items: [Any]) -> Any? {
        var elements = Set<Element>(minimumCapacity: items.count)
        for item in items {
            guard let element = item as? Element else { return nil }
            elements.insert(element)
        }
        return elements
    }
}

protocol DictionaryContainer {
    static var keyType: Any.Type { get }
    static var valueType: Any.Type { get }
    var anyEntries: [(key: Any, value: Any)] { get }
    /// The dictionary of these entries, or nil when a key is not a `Key` or a value not a `Value`.
    static func make(from entries: [(key: Any, value: Any)]) -> Any?
}

extension Dictionary: DictionaryContainer {
    static var keyType: Any.Type { Key.self }
    static var valueType: Any.Type { Value.self }
    var anyEntries: [(key: Any, value: Any)] { map { ($0.key as Any, $0.value as Any) } }
    static func make(from entries: [(key: Any, value: Any)]) -> Any? {
        var dictionary: [Key: Value] = [:]
        dictionary.reserveCapacity(entries.count)
        for (key, item) in entries {
            guard let key = key as? Key, let value = item as? Value else { return nil }
            dictionary[key] = value
        }
        return dictionary
    }
}
