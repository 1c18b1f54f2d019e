import Foundation

/// Rebuilds objects from a dictionary representation, writing `var` fields through their type
/// plans. Only registered types, or exactly the statically expected type, are ever instantiated.
struct ArchiveDecoder {
    private var path = KeyPathTracker()
    private var depth = 0

    /// The object a top-level dictionary describes: of the registered class it names (when
    /// `expected` is nil), or of `expected` or a registered subtype of it.
    mutating func decodeRoot(_ dictionary: [String: Any], expected: (any AMCCodable.Type)?) throws -> any AMCCodable {
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
        guard let raw = dictionary[key] else { return }
        guard field.isWritable else {
            throw path.error(.readOnlyKey(key: key, typeName: AMC.unqualifiedName(of: type)))
        }
        try decodeField(field, from: raw, into: &instance)
    }

    // MARK: - Objects

    private mutating func instantiate(_ type: any AMCCodable.Type, from dictionary: [String: Any]) throws -> any AMCCodable {
        try enterContainer()
        defer { depth -= 1 }
        return try fill(type, from: dictionary)
    }

    private mutating func fill<T: AMCCodable>(_: T.Type, from dictionary: [String: Any]) throws -> T {
        var instance = T()
        let plan = TypePlan.of(T.self)
        for key in instance.amcKeys {
            guard let raw = dictionary[key], let field = plan.fieldsByName[key], field.isWritable else {
                continue  // keys the data lacks, or the type cannot set, are left alone
            }
            path.push(key: key)
            defer { path.pop() }
            try decodeField(field, from: raw, into: &instance)
        }
        do {
            try instance.amcDidDecode()
        } catch {
            throw path.located(error, hook: "amcDidDecode", typeName: AMC.unqualifiedName(of: T.self))
        }
        return instance
    }

    private mutating func decodeField<Root: AMCCodable>(_ field: FieldPlan, from raw: Any, into instance: inout Root) throws {
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
        guard field.store(value, in: &instance) else {
            throw path.error(.typeMismatch(
                expected: "a value of type \(AMC.unqualifiedName(of: field.type))",
                found: "a value of type \(AMC.unqualifiedName(of: Swift.type(of: value)))"))
        }
    }

    /// The class named by `"class"`, if any; throws when `"class"` holds something else than a string.
    private func className(in dictionary: [String: Any]) throws -> String? {
        guard let value = dictionary["class"] else { return nil }
        guard let name = value as? String else {
            throw path.error(.typeMismatch(expected: "a class name string under \"class\"", found: Self.describe(value)))
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
    private mutating func decode(_ raw: Any, kind: ValueKind, owner: (any AMCCodable)?) throws -> Any? {
        switch kind {
        case .string:
            return try expect(raw as? String, "a string", raw)
        case .bool:
            return try bool(from: raw)
        case .character:
            guard let string = raw as? String, string.count == 1 else {
                throw mismatch("a one-character string", raw)
            }
            return string.first!
        case .date:
            if let date = raw as? Date { return date }
            return try expect((raw as? String).flatMap(Self.isoDate), "a date or an ISO 8601 date string", raw)
        case .data:
            if let data = raw as? Data { return data }
            return try expect((raw as? String).flatMap { Data(base64Encoded: $0) }, "data or a base64 string", raw)
        case .url:
            if let url = raw as? URL { return url }
            return try expect((raw as? String).flatMap { URL(string: $0) }, "a URL string", raw)
        case .uuid:
            if let uuid = raw as? UUID { return uuid }
            return try expect((raw as? String).flatMap { UUID(uuidString: $0) }, "a UUID string", raw)
        case let .integer(type):
            return try numeric(from: raw, as: type) { $0.converted(to: type) }
        case let .floatingPoint(type):
            return try numeric(from: raw, as: type) { $0.converted(to: type) }
        case let .optional(type, wrapped):
            if NumberValue.isNull(raw) { return type.noneValue }
            return try decode(raw, kind: wrapped, owner: owner)
        case let .structString(type as Any.Type), let .opaqueStruct(type, _):
            return try decodeStructWithHook(raw, type: type, owner: owner)
        case let .object(type):
            guard let dictionary = raw as? [String: Any] else { return nil }
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

    private mutating func decodeObject(_ dictionary: [String: Any], expected: Any.Type) throws -> (any AMCCodable)? {
        guard let type = resolve(try className(in: dictionary), expected: expected) else {
            return nil  // an unrelated or unregistered class is left unset, as AMC does
        }
        return try instantiate(type, from: dictionary)
    }

    private mutating func decodeArray(_ raw: Any, elementKind: ValueKind, owner: (any AMCCodable)?) throws -> [Any] {
        let elements = try expect(raw as? [Any], "an array", raw)
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

    private mutating func decodeDictionary(_ raw: Any, valueKind: ValueKind, owner: (any AMCCodable)?) throws -> [String: Any] {
        let entries = try expect(raw as? [String: Any], "a dictionary", raw)
        try enterContainer()
        defer { depth -= 1 }
        var items: [String: Any] = [:]
        items.reserveCapacity(entries.count)
        for (key, entry) in entries {
            path.push(key: key)
            defer { path.pop() }
            if let item = try decode(entry, kind: valueKind, owner: owner) { items[key] = item }
        }
        return items
    }

    /// A value for an `Any` or protocol-typed place: dictionaries with `"class"` become objects
    /// (of registered types only), other dictionaries and arrays are decoded element by element.
    private mutating func decodeDynamic(_ raw: Any, expected: Any.Type) throws -> Any? {
        if NumberValue.isNull(raw) { return nil }
        if let number = NumberValue.foundationNumber(raw) {
            // Foundation's readers give NSNumber; hand back the Swift value it stands for.
            if "cB".contains(NumberValue.typeCode(of: number)) { return number.boolValue }
            return NumberValue(number)?.swiftValue ?? number
        }
        switch raw {
        case let dictionary as [String: Any]:
            if let className = try className(in: dictionary) {
                guard let type = resolve(className, expected: expected) else {
                    throw path.error(.unregisteredClass(className: className))
                }
                return try instantiate(type, from: dictionary)
            }
            return try decodeDictionary(dictionary, valueKind: .dynamic(Any.self), owner: nil)
        case let array as [Any]:
            return try decodeArray(array, elementKind: .dynamic(Any.self), owner: nil)
        default:
            return raw
        }
    }

    private func decodeStructWithHook(_ raw: Any, type: Any.Type, owner: (any AMCCodable)?) throws -> Any {
        if Swift.type(of: raw) == type { return raw }
        let name = AMC.unqualifiedName(of: type)
        let string = try expect(raw as? String, "a \(name) string", raw)
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

    private func bool(from raw: Any) throws -> Bool {
        if let bool = raw as? Bool, Swift.type(of: raw) == Bool.self { return bool }
        if let string = raw as? String {
            return try expect(ScalarStrings.bool(string), "a Bool (yes/no, true/false, on/off, 1/0)", raw)
        }
        let number = try expect(NumberValue(raw), "a Bool", raw)
        switch number.exactly(UInt8.self) {
        case 0: return false
        case 1: return true
        default: throw path.error(.valueOutOfRange(value: number.description, typeName: "Bool"))
        }
    }

    /// A number from `raw` converted by `convert` to the property's numeric `type`; throws when
    /// it does not fit.
    private func numeric(from raw: Any, as type: Any.Type, _ convert: (NumberValue) -> Any?) throws -> Any {
        let typeName = AMC.unqualifiedName(of: type)
        let number = try number(from: raw, typeName: typeName)
        guard let value = convert(number) else {
            throw path.error(.valueOutOfRange(value: number.description, typeName: typeName))
        }
        return value
    }

    /// A number from a numeric value, a `Bool` (0 or 1), or a string holding either.
    private func number(from raw: Any, typeName: String) throws -> NumberValue {
        if let number = NumberValue(raw) { return number }
        if Swift.type(of: raw) == Bool.self, let bool = raw as? Bool { return .int(bool ? 1 : 0) }
        if let string = raw as? String {
            if let number = ScalarStrings.number(string) { return number }
            if let bool = ScalarStrings.bool(string) { return .int(bool ? 1 : 0) }
        }
        throw mismatch("a number of type \(typeName)", raw)
    }

    // MARK: - Helpers

    private static func make<R: RawRepresentable>(_: R.Type, rawValue: Any) -> R? {
        (rawValue as? R.RawValue).flatMap(R.init(rawValue:))
    }

    private static func isoDate(_ string: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: string) { return date }
        formatter.formatOptions.insert(.withFractionalSeconds)
        return formatter.date(from: string)
    }

    private func hook<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw path.located(error, hook: "collection initializer", typeName: "\(T.self)")
        }
    }

    private func built(_ value: Any?, _ type: Any.Type, _ raw: Any) throws -> Any {
        guard let value else {
            throw path.error(.typeMismatch(
                expected: "elements of \(AMC.unqualifiedName(of: type))",
                found: "\(Self.describe(raw)) with elements of other types"))
        }
        return value
    }

    private func expect<T>(_ value: T?, _ expected: String, _ raw: Any) throws -> T {
        guard let value else { throw mismatch(expected, raw) }
        return value
    }

    private func mismatch(_ expected: String, _ raw: Any) -> AMCError {
        path.error(.typeMismatch(expected: expected, found: Self.describe(raw)))
    }

    private mutating func enterContainer() throws {
        guard depth < AMC.maximumDepth else {
            throw path.error(.nestingTooDeep(limit: AMC.maximumDepth))
        }
        depth += 1
    }

    /// How a piece of data reads in an error message: `the string "abc"`, `the number 300`,
    /// `a dictionary of class "Person"`.
    static func describe(_ raw: Any) -> String {
        switch raw {
        case let dictionary as [String: Any]:
            if let name = dictionary["class"] as? String { return "a dictionary of class \"\(name)\"" }
            return "a dictionary"
        case is [Any]:
            return "an array"
        case let string as String:
            let shown = string.count > 60 ? string.prefix(57) + "..." : Substring(string)
            return "the string \"\(shown)\""
        case let bool as Bool where Swift.type(of: raw) == Bool.self:
            return "the bool \(bool)"
        case is Date:
            return "a date"
        case let data as Data:
            return "data of \(data.count) bytes"
        case _ where NumberValue.isNull(raw):
            return "null"
        default:
            if let number = NumberValue(raw) { return "the number \(number)" }
            return "a value of type \(AMC.unqualifiedName(of: Swift.type(of: raw)))"
        }
    }
}
