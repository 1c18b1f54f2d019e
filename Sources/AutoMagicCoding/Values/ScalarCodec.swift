import Foundation

/// How values of one type are read and written as one document scalar, worked out once per type
/// (``ValueKind`` keeps it in the one per-type cache) from the type's ``ScalarValue`` conformance
/// or from one of the factories below: ``AMCStructCodable`` types, enums with raw values or case
/// names, option sets.
///
/// The closures are made where the value's type is known, so the typed field accessors made
/// from them (``FastField``) need no boxing in `Any` and no dynamic casts.
final class ScalarCodec: @unchecked Sendable {
    /// The type's unqualified name, for errors.
    let typeName: String
    /// Written as a struct string (an ``AMCStructCodable`` value): its field type is
    /// ``AMCFieldType/structure``.
    let isStructString: Bool
    /// The value when `raw` is exactly one (see ``ScalarValue/init(exactValue:)``).
    let exactValue: (ArchiveValue) -> Any?
    /// The same as a `(ArchiveValue) -> T?` of the type itself, for codecs built on this one
    /// (``rawValue(_:raw:names:)``) to take the value without boxing it and casting it back.
    let typedExactValue: Any
    /// The value `raw` holds or converts to; throws ``AMCError`` without key path.
    let decode: (ArchiveValue, ValueContext) throws -> Any
    /// The scalar for `value`; nil when `value` is not of the type.
    let encode: (Any) -> ArchiveScalar?
    /// For a type some of whose values have no scalar form (a URL relative to a base): the
    /// dictionary of scalars such a value is written as, in key order; nil for the others. Nil
    /// for every other type, which keeps its typed field accessors.
    let entries: ((Any) -> [(key: String, value: ArchiveScalar)]?)?
    /// A typed accessor for a field of exactly this type or `T?` (see ``FastField``).
    let fastField: (_ fieldType: Any.Type, _ offset: Int) -> FastField?
    /// A typed accessor for a field of exactly `[T]` or `[String: T]` (see ``GraphField``).
    let collectionField: (_ fieldType: Any.Type, _ offset: Int) -> GraphField?

    init<Value>(
        _: Value.Type,
        isStructString: Bool = false,
        scalar: @escaping (Value) -> ArchiveScalar,
        entries: ((Value) -> [(key: String, value: ArchiveScalar)]?)? = nil,
        exactValue: @escaping (ArchiveValue) -> Value?,
        converting: @escaping (ArchiveValue, ValueContext) throws -> Value
    ) {
        typeName = AMC.unqualifiedName(of: Value.self)
        self.entries = entries.map { entries in { ($0 as? Value).flatMap(entries) } }
        self.isStructString = isStructString
        self.exactValue = { exactValue($0) }
        typedExactValue = exactValue
        decode = { raw, context in
            if let value = exactValue(raw) { return value }
            // A value of the type itself in a dictionary representation (a URL, a CGPoint).
            if case let .foreign(box) = raw, let value = box.value as? Value { return value }
            return try converting(raw, context)
        }
        encode = { value in (value as? Value).map(scalar) }
        let isScalarAlways = entries == nil
        fastField = { fieldType, offset in
            guard isScalarAlways else { return nil }  // the encoder decides, value by value
            if fieldType == Value.self {
                return FastField(Value.self, at: offset, scalar: scalar, exactValue: exactValue, converting: converting)
            }
            if fieldType == Value?.self {
                return FastField(optional: Value.self, at: offset, scalar: scalar, exactValue: exactValue, converting: converting)
            }
            return nil
        }
        collectionField = { fieldType, offset in
            guard isScalarAlways else { return nil }
            if fieldType == [Value].self {
                return GraphField.scalars(Value.self, at: offset, scalar: scalar, exactValue: exactValue)
            }
            if fieldType == [String: Value].self {
                return GraphField.scalarDictionary(Value.self, at: offset, scalar: scalar, exactValue: exactValue)
            }
            return nil
        }
    }

    /// The codec of a ``ScalarValue`` type.
    convenience init<Value: ScalarValue>(_: Value.Type) {
        self.init(
            Value.self, scalar: { $0.archiveScalar }, entries: Value.hasEntries ? { $0.archiveEntries } : nil,
            exactValue: Value.init(exactValue:), converting: Value.init(converting:context:))
    }
}

// MARK: - AMCStructCodable

extension ScalarCodec {
    /// An ``AMCStructCodable`` type: written as its ``AMCStructCodable/amcStringValue``, read by
    /// its `init(amcStringValue:)`. An error of the initializer's own becomes
    /// ``AMCError/Kind/hookFailed(hook:typeName:reason:)``.
    static func structString<Value: AMCStructCodable>(_: Value.Type) -> ScalarCodec {
        let expectation = "\(AMC.withArticle(AMC.unqualifiedName(of: Value.self))) string"
        return ScalarCodec(
            Value.self, isStructString: true,
            scalar: { .string($0.amcStringValue) },
            exactValue: { raw in raw.string.flatMap { try? Value(amcStringValue: $0) } },
            converting: { raw, _ in
                guard let string = raw.string else {
                    throw AMCError(.typeMismatch(expected: expectation, found: raw.summary))
                }
                do {
                    return try Value(amcStringValue: string)
                } catch let error as AMCError {
                    throw error
                } catch {
                    throw AMCError(
                        .hookFailed(
                            hook: "init(amcStringValue:)", typeName: AMC.unqualifiedName(of: Value.self),
                            reason: "\(error)"))
                }
            })
    }
}

// MARK: - Enums and option sets

extension ScalarCodec {
    /// A `RawRepresentable` type whose raw value has a codec (`raw`): written as the raw value,
    /// read from it, or from a string through `names` (case names, raw values, aliases of a
    /// `CaseIterable` enum; member names of an ``AMCNamedOptions`` set).
    static func rawValue<Value: RawRepresentable>(
        _: Value.Type, raw: ScalarCodec, names: NameParser<Value>?
    ) -> ScalarCodec {
        let expectation = names?.expectation ?? "a raw value of \(AMC.unqualifiedName(of: Value.self))"
        // The raw value's own exact reader, cast once here (every codec keeps one): a cast of
        // each value read took a third of reading an `Int` enum.
        let exactRaw =
            raw.typedExactValue as? (ArchiveValue) -> Value.RawValue? ?? { raw.exactValue($0) as? Value.RawValue }
        return ScalarCodec(
            Value.self,
            scalar: { raw.encode($0.rawValue) ?? .null },
            exactValue: { document in
                guard let rawValue = exactRaw(document) else { return nil }  // not `flatMap`: unspecialised here
                return Value(rawValue: rawValue)
            },
            converting: { document, context in
                var namesError: (any Error)?
                if let names, let string = document.string {
                    do { return try names.parse(string) } catch { namesError = error }
                }
                if let rawValue = try? raw.decode(document, context) as? Value.RawValue, let value = Value(rawValue: rawValue) {
                    return value
                }
                throw namesError ?? AMCError(.typeMismatch(expected: expectation, found: document.summary))
            })
    }

    /// A `CaseIterable` enum without raw values: written as its case name, read from a case name
    /// or alias in any case.
    static func caseName<Value: CaseIterable>(_: Value.Type) -> ScalarCodec {
        let table = NamedValues.enumTable(Value.self)
        return ScalarCodec(
            Value.self,
            scalar: { .string(String(describing: $0)) },
            exactValue: { raw in raw.string.flatMap(table.exactValue(named:)) },
            converting: { raw, _ in
                guard let string = raw.string else {
                    throw AMCError(.typeMismatch(expected: table.expectation, found: raw.summary))
                }
                return try table.value(from: string)
            })
    }
}
