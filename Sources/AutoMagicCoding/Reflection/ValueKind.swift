import Foundation

/// How the archiver handles values of one static type: decided once per type from its metadata
/// and conformances, then cached. This is the one place that dispatches on types: archives,
/// `AMC.value(_:from:)`, Key-Value Coding, configs and styles all ask it.
indirect enum ValueKind: @unchecked Sendable {
    /// One document scalar: strings, numbers, bools, dates, data, URLs, UUIDs,
    /// ``AMCStructCodable`` values, enums and option sets (see ``ScalarCodec``).
    case scalar(ScalarCodec)
    case optional(any OptionalContainer.Type, wrapped: ValueKind)
    case object(any AMCCodable.Type)
    case sequence(any SequenceContainer.Type, element: ValueKind)
    /// A `Dictionary`; `key` converts keys of other types than `String` to and from the string
    /// keys documents have (integers, UUIDs, enums with raw values, anything with a codec).
    case dictionary(any DictionaryContainer.Type, key: ScalarCodec?, value: ValueKind)
    case orderedCollection(any AMCOrderedCollection.Type, element: ValueKind)
    case keyedCollection(any AMCKeyedCollection.Type, value: ValueKind)
    /// `Any`, `AnyObject` and protocol existentials: decided by each value's dynamic type.
    case dynamic(Any.Type)
    /// A struct or enum with no codec of its own: the owner's struct hooks handle it.
    case opaqueStruct(Any.Type, name: String)
    /// A `Codable` type with no other route: archived through its conformance (see
    /// ``CodableRoute``), after the owner's struct hooks for structs and enums.
    case codable(CodableRoute)
    case unsupported(Any.Type, reason: String)

    /// The kind for values of `type`, from the process-wide cache.
    static func of(_ type: Any.Type) -> ValueKind {
        cache.value(for: type) { classify(type) }
    }

    /// The field type a property of this kind has by default.
    var fieldType: AMCFieldType {
        switch self {
        case let .scalar(codec): return codec.isStructString ? .structure : .scalar
        case .object: return .customObject
        case .sequence, .orderedCollection: return .collectionArray
        case .dictionary, .keyedCollection: return .collectionHash
        case .opaqueStruct, .codable: return .structure
        case let .optional(_, wrapped): return wrapped.fieldType
        case .dynamic, .unsupported: return .scalar
        }
    }

    /// Whether `value` already is a value of this kind's type: a foreign value in a dictionary
    /// representation (an object, a `Set`), taken as it is. Scalars' codecs and `Any` places take
    /// theirs themselves.
    func holds(_ value: Any) -> Bool {
        let type: Any.Type
        switch self {
        case let .optional(optional, _): type = optional
        case let .object(object): type = object
        case let .sequence(sequence, _): type = sequence
        case let .dictionary(dictionary, _, _): type = dictionary
        case let .orderedCollection(collection, _): type = collection
        case let .keyedCollection(collection, _): type = collection
        case let .opaqueStruct(opaque, _): type = opaque
        case let .codable(route): type = route.type
        case .scalar, .dynamic, .unsupported: return false
        }
        func isInstance<T>(_: T.Type) -> Bool { value is T }
        return isInstance(type)
    }

    private static let cache = TypeCache<ValueKind>()

    /// The kinds of the standard scalars most fields have, and of their optionals, by identity:
    /// each `as?` in ``classify(_:searching:)`` is a search of every conformance in the process
    /// the first time it is asked of a type, which a program's first write paid for each of its
    /// fields' types. (Not their arrays: a program may give `Array` a conformance of the package's
    /// public protocols, which the search finds first.)
    static let standardKinds: [ObjectIdentifier: ValueKind] = {
        var kinds: [ObjectIdentifier: ValueKind] = [:]
        func add<T: ScalarValue>(_: T.Type) {
            let scalar = ValueKind.scalar(codec(T.self))
            kinds[ObjectIdentifier(T.self)] = scalar
            kinds[ObjectIdentifier(T?.self)] = .optional(T?.self, wrapped: scalar)
        }
        add(String.self)
        add(Int.self)
        add(Double.self)
        add(Bool.self)
        add(Date.self)
        add(Data.self)
        add(URL.self)
        add(UUID.self)
        return kinds
    }()

    /// Why an array or a dictionary of optionals cannot be archived when it holds a nil (the
    /// encoder's error), and so why ``AMC/check(_:)`` reports one.
    static let nilElementReason = "nil inside an array or a dictionary cannot be archived (property lists have no null)"

    /// `type`'s kind: a standard type's from ``standardKinds`` unless `searching`, which asks
    /// the conformances as for any other type (tests compare the two).
    static func classify(_ type: Any.Type, searching: Bool = false) -> ValueKind {
        if !searching, let known = standardKinds[ObjectIdentifier(type)] { return known }
        // Only structs and enums are scalar values (the conformances are the package's own), and
        // only `Optional` is an optional: the runtime is not asked what it would answer no to,
        // since the first such question about a type is a search of every conformance.
        let shape = RuntimeAccess.shape(of: type)
        if shape != .class, shape != .optional, let scalar = type as? any ScalarValue.Type { return .scalar(codec(scalar)) }
        if shape == .optional, let optional = type as? any OptionalContainer.Type {
            guard RuntimeAccess.shape(of: optional.wrappedType) != .optional else {
                // `.some(nil)` would be written as nil is, and read back as nil.
                return .unsupported(type, reason: "an optional of an optional: .some(nil) and nil would read back the same")
            }
            return .optional(optional, wrapped: of(optional.wrappedType))
        }
        if let structType = type as? any AMCStructCodable.Type { return .scalar(structCodec(structType)) }
        if let codable = type as? any AMCCodable.Type { return .object(codable) }
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
            guard dictionary.keyType != String.self else {
                return .dictionary(dictionary, key: nil, value: of(dictionary.valueType))
            }
            guard case let .scalar(key) = of(dictionary.keyType), !key.isStructString else {
                let keyName = AMC.unqualifiedName(of: dictionary.keyType)
                return .unsupported(
                    type,
                    reason:
                        "its keys, of type \(keyName), have no string form (keys can be strings, numbers, UUIDs, enums with raw values)"
                )
            }
            return .dictionary(dictionary, key: key, value: of(dictionary.valueType))
        }
        if let raw = type as? any RawRepresentable.Type { return rawValueKind(raw) }
        switch shape {
        case .existential:
            return .dynamic(type)
        case .enum:
            if let enumeration = type as? any CaseIterable.Type { return .scalar(caseNameCodec(enumeration)) }
            if let route = CodableRoute.of(type, isHookable: true) { return .codable(route) }
            return .opaqueStruct(type, name: AMC.unqualifiedName(of: type))
        case .struct:
            if let route = CodableRoute.of(type, isHookable: true) { return .codable(route) }
            return .opaqueStruct(type, name: AMC.unqualifiedName(of: type))
        case .tuple where type == Void.self:
            // What the runtime reports for a field whose value it cannot hand over.
            return .unsupported(
                type,
                reason: "the runtime reports a noncopyable field (a Mutex, an Atomic, any ~Copyable type) as (), "
                    + "and cannot hand its value over: leave the property out of amcKeys")
        case .tuple:
            return .unsupported(
                type,
                reason: "a tuple has no names to archive its elements under: "
                    + "use a struct (AMCCodable or AMCStructCodable) instead")
        case .class where type is any Actor.Type:
            return .unsupported(
                type,
                reason: "an actor's state is isolated to it: archive a snapshot of it "
                    + "(an AMCCodable class or struct) made on the actor")
        case .class:
            if let route = CodableRoute.of(type, isHookable: false) { return .codable(route) }
            return .unsupported(type, reason: "the class does not conform to AMCCodable (or Codable)")
        case .function:
            return .unsupported(
                type,
                reason: "a closure is code, not data: make it a computed property "
                    + "or leave it out of amcKeys")
        case .metatype:
            return .unsupported(
                type,
                reason: "a type is not data: archive its name (a String) "
                    + "and look the type up when reading")
        default:
            return .unsupported(type, reason: "only values, collections and AMCCodable types can be archived")
        }
    }

    // MARK: - Opening metatypes

    /// The codec of a scalar type. The common ones are made where their type is known, so that
    /// the compiler specialises their accessors: a generic one looks up the metadata of `[T]`,
    /// `[String: T]` and their elements at run time for every value (a measured fifth of writing
    /// string-heavy records).
    private static func codec(_ type: any ScalarValue.Type) -> ScalarCodec {
        switch type {
        case is String.Type: ScalarCodec(String.self)
        case is Int.Type: ScalarCodec(Int.self)
        case is Double.Type: ScalarCodec(Double.self)
        case is Bool.Type: ScalarCodec(Bool.self)
        case is Date.Type: ScalarCodec(Date.self)
        case is UUID.Type: ScalarCodec(UUID.self)
        case is Int64.Type: ScalarCodec(Int64.self)
        case is Float.Type: ScalarCodec(Float.self)
        case is Data.Type: ScalarCodec(Data.self)
        case is URL.Type: ScalarCodec(URL.self)
        default: openedCodec(type)
        }
    }

    private static func openedCodec<T: ScalarValue>(_: T.Type) -> ScalarCodec { ScalarCodec(T.self) }
    private static func structCodec<T: AMCStructCodable>(_: T.Type) -> ScalarCodec { .structString(T.self) }
    private static func caseNameCodec<T: CaseIterable>(_: T.Type) -> ScalarCodec { .caseName(T.self) }

    /// A raw-value type: its raw value's codec, with names for `CaseIterable` enums and
    /// ``AMCNamedOptions`` sets.
    private static func rawValueKind<R: RawRepresentable>(_: R.Type) -> ValueKind {
        guard case let .scalar(raw) = of(R.RawValue.self) else {
            return .unsupported(
                R.self, reason: "its raw value, of type \(AMC.unqualifiedName(of: R.RawValue.self)), is no scalar")
        }
        return .scalar(.rawValue(R.self, raw: raw, names: names(of: R.self)))
    }

    private static func names<R>(of _: R.Type) -> NameParser<R>? {
        let names: NameParser<Any>?
        if let options = R.self as? any AMCNamedOptions.Type {
            names = optionNames(options)
        } else if let enumeration = R.self as? any CaseIterable.Type {
            names = caseNames(enumeration)
        } else {
            names = nil
        }
        return names.map { names in
            NameParser(expectation: names.expectation) { string in
                guard let value = try names.parse(string) as? R else { throw StringValues.mismatch(names.expectation, string) }
                return value
            }
        }
    }

    private static func optionNames<O: AMCNamedOptions>(_: O.Type) -> NameParser<Any> {
        let names = NamedValues.optionsParser(O.self)
        return NameParser(expectation: names.expectation) { try names.parse($0) }
    }

    private static func caseNames<E: CaseIterable>(_: E.Type) -> NameParser<Any> {
        let table = NamedValues.enumTable(E.self)
        return NameParser(expectation: table.expectation) { try table.value(from: $0) }
    }

    private static func elementType<C: AMCOrderedCollection>(of _: C.Type) -> Any.Type { C.AMCElement.self }
    private static func valueType<C: AMCKeyedCollection>(of _: C.Type) -> Any.Type { C.AMCValue.self }
}

extension ValueKind {
    /// The error for a struct or enum that no conformance and no struct hook handles, with the
    /// fixes that apply to it.
    static func unhandledStruct(_ type: Any.Type, operation: AMCError.Operation) -> AMCError.Kind {
        let name = AMC.unqualifiedName(of: type)
        guard RuntimeAccess.shape(of: type) == .enum else { return .unsupportedStruct(typeName: name, operation: operation) }
        return .unsupportedType(
            typeName: name,
            reason: "an enum is archived by its raw value, by its case name when it is "
                + "CaseIterable, or (with associated values) through Codable: conform it to one of these, or handle \"\(name)\" "
                + "in the owner's amc\(operation == .encode ? "Encode" : "Decode")Struct hook")
    }
}
