/// A custom ordered collection the archiver writes as an array and rebuilds from one: AMC's
/// ordered custom collections.
///
/// ```swift
/// struct Playlist: AMCOrderedCollection {
///     var songs: [Song] = []
///     init(amcElements: [Song]) { songs = amcElements }
///     var amcElements: [Song] { songs }
/// }
/// ```
///
/// Elements are decoded as `AMCElement` (polymorphically, for class elements). As in AMC, a custom
/// collection nested directly inside another collection is written as a plain array.
public protocol AMCOrderedCollection {
    /// The element type.
    associatedtype AMCElement
    /// Builds the collection from its decoded elements, in order.
    init(amcElements: [AMCElement]) throws
    /// The elements to write, in order.
    var amcElements: [AMCElement] { get }
}

/// A custom keyed collection the archiver writes as a dictionary and rebuilds from one: AMC's
/// key-value custom collections.
///
/// ```swift
/// struct Roster: AMCKeyedCollection {
///     var byName: [String: Person] = [:]
///     init(amcEntries: [String: Person]) { byName = amcEntries }
///     var amcEntries: [String: Person] { byName }
/// }
/// ```
public protocol AMCKeyedCollection {
    /// The value type.
    associatedtype AMCValue
    /// Builds the collection from its decoded entries.
    init(amcEntries: [String: AMCValue]) throws
    /// The entries to write.
    var amcEntries: [String: AMCValue] { get }
}

extension AMCOrderedCollection {
    var amcAnyElements: [Any] { amcElements.map { $0 as Any } }

    static func amcMake(from items: [Any]) throws -> Self? {
        var elements: [AMCElement] = []
        elements.reserveCapacity(items.count)
        for item in items {
            guard let element = item as? AMCElement else { return nil }
            elements.append(element)
        }
        return try Self(amcElements: elements)
    }
}

extension AMCKeyedCollection {
    var amcAnyEntries: [(key: String, value: Any)] { amcEntries.map { ($0.key, $0.value as Any) } }

    static func amcMake(from items: [String: Any]) throws -> Self? {
        var entries: [String: AMCValue] = [:]
        entries.reserveCapacity(items.count)
        for (key, item) in items {
            guard let value = item as? AMCValue else { return nil }
            entries[key] = value
        }
        return try Self(amcEntries: entries)
    }
}
