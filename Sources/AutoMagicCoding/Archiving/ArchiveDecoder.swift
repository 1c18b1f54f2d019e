import Foundation

/// Rebuilds objects from a dictionary representation, writing `var` fields through their type
/// plans. Only registered types, or exactly the statically expected type, are ever instantiated.
struct ArchiveDecoder {
    private var path = KeyPathTracker()
    private var depth = 0

    /// The object a top-level dictionary describes: of the registered class it names (when
    /// `expected` is nil), or of `expected` or a registered subtype of it.
    mutating func decodeRoot(_ root: ArchiveValue, expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        guard case let .dictionary(dictionary) = root else {
            throw mismatch("a dictionary describing an object", root)
        }
        let className = try self.className(in: dictionary)
        guard let expected else {
            guard let className else { throw path.error(.missingClassName) }
            guard let type = ClassRegistry.shared.type(named: className) else {
                throw path.error(.unregisteredClass(className: className))
            }
            return try instantiate(type, from: dictionary)
        }
        guard let type = resolve(className, expected: expected) else {
            let name = className ?? ""
            if ClassRegistry.shared.type(named: name) == nil {
                throw path.error(.unregisteredClass(className: name))
            }
            throw path.error(.unrelatedClass(className: name, expected: AMC.unqualifiedName(of: expected)))
        }
        return try instantiate(type, from: dictionary)
    }

    /// The object a dictionary representation describes (see ``decodeRoot(_:expected:)``).
    mutating func decodeRoot(_ dictionary: [String: Any], expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
        try decodeRoot(try ArchiveValue.converting(dictionary, path: &path), expected: expected)
    }

    /// Sets one field of `instance` from `dictionary[key]`.
    mutating func loadValue<Root: AMCCodable>(
        forKey key: String, from dictionary: [String: Any], into instance: inout Root
    ) throws {
        let type = Swift.type(of: instance)
        path.push(key: key)
        defer { path.pop() }
        guard let field = TypePlan.of(type).fieldsByName[key] else {
            throw path.error(.unknownKey(key: key, typeName: AMC.unqualifiedName(of: type)))
        }
        guard let raw = dictionary[field.key] else { return }
        guard field.isWritable else {
            throw path.error(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)))
        }
        try decodeField(field, from: try ArchiveValue.converting(raw, path: &path, depth: 1), into: &instance)
    }

    // MARK: - Objects

    private mutating func instantiate(_ type: any AMCCodable.Type, from dictionary: ArchiveDictionary) throws -> any AMCCodable {
        try enterContainer()
        defer { depth -= 1 }
        return try fill(type, from: dictionary)
    }

    private mutating func fill<T: AMCCodable>(_: T.Type, from dictionary: ArchiveDictionary) throws -> T {
        var instance = T()
        let plan = TypePlan.of(T.self)
        let plain = plan.plainFields(of: instance)
        let slots = plan.slots(for: instance.amcKeys, sorted: false)
        // First every field whose value is exactly of its type, through one field base; then the
        // rest (objects, collections, conversions, errors), which need the decoder. Bit n of
        // `pending` marks slot n for the second pass; slots past 64 all go there.
        var pending: UInt64 = 0
        var hint = 0
        RuntimeAccess.withMutableFieldBase(of: &instance) { base in
            for (position, slot) in slots.enumerated() {
                guard case let .field(index) = slot else { continue }  // unknown keys are left alone
                let field = plan.fields[index]
                guard position < 64, field.isWritable, let raw = dictionary.value(forKey: field.key, hint: &hint) else {
                    continue  // keys the data lacks, or the type cannot set, are left alone
                }
                if plain[index], let fast = field.fast, fast.decode(base, raw) { continue }
                pending |= 1 << position
            }
        }
        hint = 0
        for (position, slot) in slots.enumerated() where position >= 64 || pending & (1 << position) != 0 {
            guard case let .field(index) = slot else { continue }
            let field = plan.fields[index]
            guard field.isWritable, let raw = dictionary.value(forKey: field.key, hint: &hint) else { continue }
            if position >= 64, plain[index], let fast = field.fast,
               RuntimeAccess.withMutableFieldBase(of: &instance, { fast.decode($0, raw) }) {
                continue
            }
            path.push(key: field.key)
            defer { path.pop() }
            if plain[index], let graph = field.graph, try decodeGraphField(graph, of: field.type, from: raw, into: &instance) {
                continue
            }
            try decodeField(field, from: raw, into: &instance)
        }
        do {
            try instance.amcDidDecode()
        } catch {
            throw path.located(error, hook: "amcDidDecode", typeName: AMC.unqualifiedName(of: T.self))
        }
        return instance
    }

    private mutating func decodeField<Root: AMCCodable>(
        _ field: FieldPlan, from raw: ArchiveValue, into instance: inout Root
    ) throws {
        let declared = instance.amcFieldType(forKey: field.name)
        let inferred = field.kind.fieldType
        let value: Any?
        if declared == inferred {
            value = try decode(raw, kind: field.kind, owner: instance)
        } else if declared == .structure {
            var structType = field.type
            while let optional = structType as? any OptionalContainer.Type { structType = optional.wrappedType }
            value = try decodeStructWithHook(raw, type: structType, owner: instance)
        } else {
            throw path.error(.fieldTypeMismatch(key: field.name, declared: declared, inferred: inferred))
        }
        guard let value else { return }  // left unset, as AMC does for a scalar where an object belongs
        try storeDecoded(field.store(value, in: &instance), value, field.type)
    }

    /// Decodes a field with a typed accessor (see ``GraphField``); false, having stored nothing,
    /// when `raw` is not what the accessor takes, for the general path to convert or report.
    private mutating func decodeGraphField<Root>(
        _ graph: GraphField, of fieldType: Any.Type, from raw: ArchiveValue, into instance: inout Root
    ) throws -> Bool {
        switch graph {
        case let .object(type, _, write):
            guard case let .dictionary(dictionary) = raw, let object = try decodeObject(dictionary, expected: type) else {
                return false
            }
            try storeDecoded(RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, object) }, object, fieldType)
        case let .objects(type, _, write):
            guard case let .array(elements) = raw else { return false }
            try enterContainer()
            defer { depth -= 1 }
            var objects: [any AMCCodable] = []
            objects.reserveCapacity(elements.count)
            for (index, element) in elements.enumerated() {
                path.push(index: index)
                defer { path.pop() }
                // Like the general path: what is not a dictionary of a usable class is left out.
                if case let .dictionary(dictionary) = element, let object = try decodeObject(dictionary, expected: type) {
                    objects.append(object)
                }
            }
            try storeDecoded(RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, objects) }, objects, fieldType)
        case let .scalars(_, write):
            guard case let .array(elements) = raw else { return false }
            try enterContainer()
            depth -= 1
            return RuntimeAccess.withMutableFieldBase(of: &instance) { write($0, elements) }
        }
        return true
    }

    /// Throws the error of a value a field of `fieldType` cannot hold, unless `stored`.
    private func storeDecoded(_ stored: Bool, _ value: Any, _ fieldType: Any.Type) throws {
        guard !stored else { return }
        throw path.error(.typeMismatch(
            expected: "a value of type \(AMC.unqualifiedName(of: fieldType))",
            found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
    }

    /// The class named by `"class"`, if any; throws when `"class"` holds something else than a string.
    private func className(in dictionary: ArchiveDictionary) throws -> String? {
        guard let value = dictionary["class"] else { return nil }
        guard case let .string(name) = value else {
            throw mismatch("a class name string under \"class\"", value)
        }
        return name
    }

    /// The type to instantiate for data naming `className` where `expected` is declared: the
    /// expected type itself, or a registered type that can be stored there; nil otherwise.
    private func resolve(_ className: String?, expected: Any.Type) -> (any AMCCodable.Type)? {
        let expectedCodable = expected as? any AMCCodable.Type
        guard let className else { return expectedCodable }
        if let expectedCodable, expectedCodable.amcClassName == className { return expectedCodable }
        guard let registered = ClassRegistry.shared.type(named: className) else { return nil }
        if RuntimeAccess.shape(of: expected) == .existential { return registered }
        func isInstantiable<Expected>(_: Expected.Type) -> Bool { registered is Expected.Type }
        return _openExistential(expected, do: isInstantiable) ? registered : nil
    }

    // MARK: - Values

    /// The value of the given kind that `raw` holds; nil when it is to be left unset.
    private mutating func decode(_ raw: ArchiveValue, kind: ValueKind, owner: (any AMCCodable)?) throws -> Any? {
        switch kind {
        case .string:
            guard case let .string(string) = raw else { throw mismatch("a string", raw) }
            return string
        case .bool:
            return try bool(from: raw)
        case .character:
            guard case let .string(string) = raw, string.count == 1 else {
                throw mismatch("a one-character string", raw)
            }
            return string.first!
        case .date:
            switch raw {
            case let .date(date): return date
            case let .string(string): return try expect(ISODate.date(from: string), "a date or an ISO 8601 date string", raw)
            default: throw mismatch("a date or an ISO 8601 date string", raw)
            }
        case .data:
            switch raw {
            case let .data(data): return data
            case let .string(string): return try expect(Data(base64Encoded: string), "data or a base64 string", raw)
            default: throw mismatch("data or a base64 string", raw)
            }
        case .url:
            if let url = foreign(raw, URL.self) { return url }
            guard case let .string(string) = raw else { throw mismatch("a URL string", raw) }
            return try expect(URL(string: string), "a URL string", raw)
        case .uuid:
            if let uuid = foreign(raw, UUID.self) { return uuid }
            guard case let .string(string) = raw else { throw mismatch("a UUID string", raw) }
            return try expect(UUID(uuidString: string), "a UUID string", raw)
        case let .integer(type):
            return try numeric(from: raw, as: type) { $0.converted(to: type) }
        case let .floatingPoint(type):
            return try numeric(from: raw, as: type) { $0.converted(to: type) }
        case let .optional(type, wrapped):
            if case .null = raw { return type.noneValue }
            return try decode(raw, kind: wrapped, owner: owner)
        case let .structString(type as Any.Type), let .opaqueStruct(type, _):
            return try decodeStructWithHook(raw, type: type, owner: owner)
        case let .object(type):
            guard case let .dictionary(dictionary) = raw else { return nil }
            return try decodeObject(dictionary, expected: type)
        case let .rawValue(type, rawKind):
            guard let rawValue = try decode(raw, kind: rawKind, owner: owner) else { return nil }
            return try expect(Self.make(type, rawValue: rawValue), "a raw value of \(AMC.unqualifiedName(of: type))", raw)
        case let .sequence(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            return try built(type.make(from: items), type, raw)
        case let .orderedCollection(type, elementKind):
            let items = try decodeArray(raw, elementKind: elementKind, owner: owner)
            return try built(try hook { try type.amcMake(from: items) }, type, raw)
        case let .dictionary(type, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            return try built(type.make(from: entries), type, raw)
        case let .keyedCollection(type, valueKind):
            let entries = try decodeDictionary(raw, valueKind: valueKind, owner: owner)
            return try built(try hook { try type.amcMake(from: entries) }, type, raw)
        case let .dynamic(type):
            return try decodeDynamic(raw, expected: type)
        case let .unsupported(type, reason):
            throw path.error(.unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: reason))
        }
    }

    private mutating func decodeObject(_ dictionary: ArchiveDictionary, expected: Any.Type) throws -> (any AMCCodable)? {
        guard let type = resolve(try className(in: dictionary), expected: expected) else {
            return nil  // an unrelated or unregistered class is left unset, as AMC does
        }
        return try instantiate(type, from: dictionary)
    }

    private mutating func decodeArray(_ raw: ArchiveValue, elementKind: ValueKind, owner: (any AMCCodable)?) throws -> [Any] {
        guard case let .array(elements) = raw else { throw mismatch("an array", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [Any] = []
        items.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            path.push(index: index)
            defer { path.pop() }
            if let item = try decode(element, kind: elementKind, owner: owner) { items.append(item) }
        }
        return items
    }

    private mutating func decodeDictionary(
        _ raw: ArchiveValue, valueKind: ValueKind, owner: (any AMCCodable)?
    ) throws -> [String: Any] {
        guard case let .dictionary(entries) = raw else { throw mismatch("a dictionary", raw) }
        try enterContainer()
        defer { depth -= 1 }
        var items: [String: Any] = [:]
        items.reserveCapacity(entries.count)
        for entry in entries.entries where items[entry.key] == nil {
            path.push(key: entry.key)
            defer { path.pop() }
            if let item = try decode(entry.value, kind: valueKind, owner: owner) { items[entry.key] = item }
        }
        return items
    }

    /// A value for an `Any` or protocol-typed place: dictionaries with `"class"` become objects
    /// (of registered types only), other dictionaries and arrays are decoded element by element,
    /// numbers become `Int`, `UInt64` or `Double`.
    private mutating func decodeDynamic(_ raw: ArchiveValue, expected: Any.Type) throws -> Any? {
        switch raw {
        case .null:
            return nil
        case let .dictionary(dictionary):
            if let className = try className(in: dictionary) {
                guard let type = resolve(className, expected: expected) else {
                    throw path.error(.unregisteredClass(className: className))
                }
                return try instantiate(type, from: dictionary)
            }
            return try decodeDictionary(raw, valueKind: .dynamic(Any.self), owner: nil)
        case .array:
            return try decodeArray(raw, elementKind: .dynamic(Any.self), owner: nil)
        default:
            return raw.swiftValue
        }
    }

    private func decodeStructWithHook(_ raw: ArchiveValue, type: Any.Type, owner: (any AMCCodable)?) throws -> Any {
        if case let .foreign(box) = raw, Swift.type(of: box.value) == type { return box.value }
        let name = AMC.unqualifiedName(of: type)
        guard case let .string(string) = raw else { throw mismatch("a \(name) string", raw) }
        let codable = type as? any AMCStructCodable.Type
        let value: Any
        do {
            if let codable {
                value = try codable.init(amcStringValue: string)  // a conformance comes before any hook
            } else if let owner {
                value = try owner.amcDecodeStruct(string, named: name)
            } else {
                value = try AMC.defaultDecodeStruct(string, named: name)
            }
        } catch {
            throw path.located(error, hook: codable == nil ? "amcDecodeStruct" : "init(amcStringValue:)", typeName: name)
        }
        guard Swift.type(of: value) == type else {
            throw path.error(.typeMismatch(
                expected: "amcDecodeStruct to return a \(name)",
                found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
        }
        return value
    }

    // MARK: - Scalars

    private func bool(from raw: ArchiveValue) throws -> Bool {
        if case let .bool(bool) = raw { return bool }
        if case let .string(string) = raw {
            return try expect(ScalarStrings.bool(string), "a Bool (yes/no, true/false, on/off, 1/0)", raw)
        }
        let number = try expect(raw.number, "a Bool", raw)
        switch number.exactly(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw path.error(.valueOutOfRange(value: number.description, typeName: "Bool"))
        }
    }

    /// A number from `raw` converted by `convert` to the property's numeric `type`; throws when
    /// it does not fit.
    private func numeric(from raw: ArchiveValue, as type: Any.Type, _ convert: (NumberValue) -> Any?) throws -> Any {
        let typeName = AMC.unqualifiedName(of: type)
        let number = try number(from: raw, typeName: typeName)
        guard let value = convert(number) else {
            throw path.error(.valueOutOfRange(value: number.description, typeName: typeName))
        }
        return value
    }

    /// A number from a numeric value, a `Bool` (0 or 1), or a string holding either.
    private func number(from raw: ArchiveValue, typeName: String) throws -> NumberValue {
        if let number = raw.number { return number }
        if case let .bool(bool) = raw { return .int(bool ? 1 : 0) }
        if case let .string(string) = raw {
            if let number = ScalarStrings.number(string) { return number }
            if let bool = ScalarStrings.bool(string) { return .int(bool ? 1 : 0) }
        }
        throw mismatch("a number of type \(typeName)", raw)
    }

    // MARK: - Helpers

    private static func make<R: RawRepresentable>(_: R.Type, rawValue: Any) -> R? {
        (rawValue as? R.RawValue).flatMap(R.init(rawValue:))
    }

    private func hook<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw path.located(error, hook: "collection initializer", typeName: "\(T.self)")
        }
    }

    private func built(_ value: Any?, _ type: Any.Type, _ raw: ArchiveValue) throws -> Any {
        guard let value else {
            throw path.error(.typeMismatch(
                expected: "elements of \(AMC.unqualifiedName(of: type))",
                found: "\(raw.summary) with elements of other types"))
        }
        return value
    }

    private func expect<T>(_ value: T?, _ expected: String, _ raw: ArchiveValue) throws -> T {
        guard let value else { throw mismatch(expected, raw) }
        return value
    }

    private func mismatch(_ expected: String, _ raw: ArchiveValue) -> AMCError {
        path.error(.typeMismatch(expected: expected, found: raw.summary))
    }

    /// The value of a dictionary representation that holds a `T` itself (a `URL`, say).
    private func foreign<T>(_ raw: ArchiveValue, _: T.Type) -> T? {
        guard case let .foreign(box) = raw else { return nil }
        return box.value as? T
    }

    private mutating func enterContainer() throws {
        guard depth < AMC.maximumDepth else {
            throw path.error(.nestingTooDeep(limit: AMC.maximumDepth))
        }
        depth += 1
    }
}
