import Foundation

// Values by kind: scalars, objects, arrays, dictionaries, `Any` and the struct hooks.

extension ArchiveDecoder {
    /// The value of the given kind that `raw` holds; nil when it is to be left unset.
    /// `element`: `raw` is an element of a collection, which is never left out: what a single
    /// property would leave unset (a scalar or an unrelated class where an object belongs) is an
    /// error there.
    mutating func decode(_ raw: ArchiveValue, kind: ValueKind, owner: (any AMCCodable)?, element: Bool = false) throws
        -> Any?
    {
        // A value of the place's own type in a dictionary representation (an object, a Set).
        if case let .foreign(box) = raw, kind.holds(box.value) { return box.value }
        switch kind {
        case let .scalar(codec):
            do {
                return try codec.decode(raw, context)
            } catch {
                throw path.located(error, hook: "init(amcStringValue:)", typeName: codec.typeName)
            }
        case let .optional(type, wrapped):
            if case .null = raw { return type.noneValue }
            // An empty string is nil for optionals of what cannot be empty (a number, a colour, an
            // object): decided here for objects, which lenient decoding would report instead.
            if case .object = wrapped, let string = raw.string, TextTrimming.isBlank(string) { return type.noneValue }
            do {
                return try decode(raw, kind: wrapped, owner: owner, element: element)
            } catch {
                // An empty string is nil for optionals of what cannot be empty (a number, a colour).
                if let string = raw.string, TextTrimming.isBlank(string) { return type.noneValue }
                throw error
            }
        case let .opaqueStruct(type, _):
            guard let value = try hookedValue(raw, type: type, owner: owner) else {
                throw path.error(ValueKind.unhandledStruct(type, operation: .decode))
            }
            return value
        case let .codable(route):
            // A string the owner's struct hook wrote before the type took this route still reads.
            if route.isHookable, owner != nil, raw.string != nil, let value = try hookedValue(raw, type: route.type, owner: owner)
            {
                return value
            }
            do {
                return try route.decode(raw, context)
            } catch {
                throw route.located(error, operation: .decode, raw: raw).under(path.rendered)
            }
        case let .object(type):
            guard case let .dictionary(dictionary) = raw else {
                let error = mismatch("a dictionary describing \(AMC.withArticle(AMC.unqualifiedName(of: type)))", raw)
                if element { throw error }
                try swallow(error, raw: raw)  // AMC leaves the property unset; the handler hears of it
                return nil
            }
            return try decodeObject(dictionary, expected: type, element: element)
        case let .sequence(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            if type.isUnordered { try fillNow(items) }  // hashed as they are
            return try built(type.make(from: items), type, raw)
        case let .orderedCollection(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            try fillNow(items)
            return try built(try hook { try type.amcMake(from: items) }, type, raw)
        case let .dictionary(type, keyCodec, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            return try built(type.make(from: try keyed(entries, keyCodec)), type, raw)
        case let .keyedCollection(type, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            try fillNow(Array(entries.values))
            return try built(try hook { try type.amcMake(from: entries) }, type, raw)
        case let .dynamic(type):
            return try decodeDynamic(raw, expected: type)
        case let .unsupported(type, reason):
            throw path.error(.unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: reason))
        }
    }

    /// The object `dictionary` describes where `expected` is declared; nil (reported) for a
    /// registered class unrelated to it in a single property, which AMC leaves unset.
    mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: Any.Type, element: Bool
    ) throws -> (any AMCCodable)? {
        try decodeObject(dictionary, expected: expected, codable: expected as? any AMCCodable.Type, element: element)
    }

    /// ``decodeObject(_:expected:element:)`` where an object of an ``AMCCodable`` type belongs.
    mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: any AMCCodable.Type, element: Bool
    ) throws -> (any AMCCodable)? {
        try decodeObject(dictionary, expected: expected, codable: expected, element: element)
    }

    /// ``decodeObject(_:expected:element:)``, with `expected` as an ``AMCCodable`` type when it is
    /// one (see ``resolve(_:expected:codable:)``).
    mutating func decodeObject(
        _ dictionary: ArchiveDictionary, expected: Any.Type, codable: (any AMCCodable.Type)?, element: Bool
    ) throws -> (any AMCCodable)? {
        if let pointer = ObjectReference.pointer(in: dictionary) { return try referenced(pointer, expected: expected) }
        if dictionary.count == 1, let entry = dictionary.entries.first, entry.key == ObjectReference.key {
            // Only a broken reference looks like this where an object belongs (ours are escaped).
            guard let pointer = entry.value.string else {
                throw mismatch("a reference: a \"$ref\" string starting with \"#\"", entry.value)
            }
            throw invalid(pointer, "its value must be a string starting with \"#\"")
        }
        if let references, let pointer = path.trackedPointer, let number = references.number(at: pointer) {
            // Made already, for a reference that came first: filled here if it is not yet.
            let taken = references.take(number)
            if taken.unfilled != nil { try fillMade(taken.object, from: dictionary) }
            return try checked(taken.object, expected)
        }
        let className = try className(in: dictionary)
        guard let type = try resolve(className, expected: expected, codable: codable) else {
            let error = path.error(.unrelatedClass(className: className ?? "", expected: AMC.unqualifiedName(of: expected)))
            if element { throw error }
            try swallow(error, raw: .dictionary(dictionary))
            return nil
        }
        return try instantiate(type, from: dictionary)
    }

    mutating func decodeArray(_ raw: ArchiveValue, elementKind: ValueKind, owner: (any AMCCodable)?) throws -> [Any] {
        guard case let .array(elements) = raw else { throw mismatch("an array", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [Any] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            path.push(index: index)
            defer { path.pop() }
            do {
                if let item = try decode(element, kind: elementKind, owner: owner, element: true) { items.append(item) }
            } catch {
                try stepOver(error, raw: element)  // lenient: the element is left out
            }
        }
        return items
    }

    mutating func decodeDictionary(
        _ raw: ArchiveValue, valueKind: ValueKind, owner: (any AMCCodable)?
    ) throws -> [String: Any] {
        guard case let .dictionary(entries) = raw else { throw mismatch("a dictionary", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [String: Any] = [:]
        items.reserveCapacity(entries.count)
        // A user's one-key dictionary `$$ref` was written for `$ref` (see ObjectReference).
        let unescapes = entries.count == 1 && ObjectReference.isEscapable(entries.entries[0].key, minimumDollars: 2)
        for entry in entries.entries where items[entry.key] == nil {
            path.push(key: entry.key)
            defer { path.pop() }
            do {
                if let item = try decode(entry.value, kind: valueKind, owner: owner, element: true) {
                    items[unescapes ? String(entry.key.dropFirst()) : entry.key] = item
                }
            } catch {
                try stepOver(error, raw: entry.value)  // lenient: the entry is left out
            }
        }
        return items
    }

    /// `entries` with their keys converted by `codec` (none: `String` keys); two strings that
    /// name the same key (`"1"` and `"01"` for an `Int`) are an error.
    mutating func keyed(_ entries: [String: Any], _ codec: ScalarCodec?) throws -> [(key: Any, value: Any)] {
        guard let codec else { return entries.map { ($0.key as Any, $0.value) } }
        var keys: [AnyHashable: String] = [:]
        var converted: [(key: Any, value: Any)] = []
        converted.reserveCapacity(entries.count)
        for (text, value) in entries {
            path.push(key: text)
            defer { path.pop() }
            let key: Any
            do {
                key = try codec.decode(.string(text), context)
            } catch {
                throw path.located(error, hook: "init(amcStringValue:)", typeName: codec.typeName)
            }
            if let hashable = key as? AnyHashable, let other = keys.updateValue(text, forKey: hashable) {
                throw path.error(
                    .typeMismatch(
                        expected: "one key for each \(codec.typeName)", found: "\"\(other)\" and \"\(text)\" for \(key)"))
            }
            converted.append((key, value))
        }
        return converted
    }

    /// A value for an `Any` or protocol-typed place: dictionaries with `"class"` become objects
    /// (of registered types only), other dictionaries and arrays are decoded element by element,
    /// numbers become `Int`, `UInt64` or `Double`.
    mutating func decodeDynamic(_ raw: ArchiveValue, expected: Any.Type) throws -> Any? {
        switch raw {
        case .null:
            return nil
        case let .dictionary(dictionary):
            if ObjectReference.pointer(in: dictionary) != nil
                || path.trackedPointer.flatMap({ references?.object(at: $0) }) != nil
            {
                return try decodeObject(dictionary, expected: expected, element: true)
            }
            if let className = try className(in: dictionary) {
                guard let type = try resolve(className, expected: expected) else {
                    throw path.error(.unrelatedClass(className: className, expected: AMC.unqualifiedName(of: expected)))
                }
                return try instantiate(type, from: dictionary)
            }
            return try decodeDictionary(raw, valueKind: .dynamic(Any.self), owner: nil)
        case .array:
            return try decodeArray(raw, elementKind: .dynamic(Any.self), owner: nil)
        case let .longNumber(text) where DecimalText.significantDigits(text.utf8) > Decimal.digits:
            // An `Any` place holds a long number as a `Decimal`, which would round this one.
            throw path.error(.valueOutOfRange(value: text, typeName: "Decimal"))
        default:
            return raw.swiftValue
        }
    }

    /// The value of a struct or enum with no ``AMCStructCodable`` conformance that the owner's
    /// struct hook (or the default one when there is no owner) reads from the string `raw`; nil
    /// when the hook does not handle the type, which is remembered for the rest of the document.
    mutating func hookedValue(_ raw: ArchiveValue, type: Any.Type, owner: (any AMCCodable)?) throws -> Any? {
        if case let .foreign(box) = raw, Swift.type(of: box.value) == type { return box.value }
        let name = AMC.unqualifiedName(of: type)
        guard case let .string(string) = raw else { throw mismatch("\(AMC.withArticle(name)) string", raw) }
        let codable = type as? any AMCStructCodable.Type
        let use = HookUse(owner: owner.map { Swift.type(of: $0) }, value: type)
        if codable == nil, declinedHooks.contains(use) { return nil }
        let value: Any
        do {
            if let codable {
                value = try codable.init(amcStringValue: string)  // a conformance comes before any hook
            } else if let owner {
                value = try owner.amcDecodeStruct(string, named: name)
            } else {
                value = try AMC.defaultDecodeStruct(string, named: name)
            }
        } catch let error as AMCError where codable == nil && error.isUnhandledStruct(named: name) {
            declinedHooks.insert(use)
            return nil
        } catch {
            throw path.located(error, hook: codable == nil ? "amcDecodeStruct" : "init(amcStringValue:)", typeName: name)
        }
        guard Swift.type(of: value) == type else {
            throw path.error(
                .typeMismatch(
                    expected: "amcDecodeStruct to return a \(name)",
                    found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
        }
        return value
    }
}
