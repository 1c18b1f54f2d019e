import Foundation

/// Typed access to one field whose value is a single scalar in a document (a string, number,
/// bool, date, data, an ``AMCStructCodable`` string, or an optional of one), built once per field
/// so that encoding and decoding it needs no boxing in `Any` and no dynamic casts.
///
/// The decoder only takes this path when the document holds exactly the field's kind of value;
/// for anything else (a string for an `Int`, a bad value) it falls back to the general path,
/// which converts or reports the error with its key path.
struct FastField {
    private let access: Access

    private enum Access {
        /// A field of one of the types most models are made of, or an optional of one: read and
        /// written by a switch. Through closures, each field's call takes a retain and a release
        /// of the closure's context.
        case direct(DirectType, optional: Bool, offset: Int)
        /// Any other scalar type, through closures made where its type is known.
        case closures(
            encode: (UnsafeFieldBase) -> ArchiveScalar?, decode: (UnsafeMutableFieldBase, ArchiveValue) -> Bool,
            convert: (UnsafeMutableFieldBase, ArchiveValue, ValueContext) throws -> Void)
    }

    /// The types read and written without closures, each through its ``ScalarValue``
    /// conformance, as its ``ScalarCodec`` reads and writes it.
    private enum DirectType {
        case string, int, double, bool, date
    }

    /// The field's value as a scalar; nil for a `nil` optional (the key is left out).
    @inline(__always)
    func encode(_ base: UnsafeFieldBase) -> ArchiveScalar? {
        switch access {
        case let .direct(type, optional, offset):
            switch type {
            case .string: Self.encode(String.self, optional: optional, at: offset, from: base, scalar: { $0.archiveScalar })
            case .int: Self.encode(Int.self, optional: optional, at: offset, from: base, scalar: { $0.archiveScalar })
            case .double: Self.encode(Double.self, optional: optional, at: offset, from: base, scalar: { $0.archiveScalar })
            case .bool: Self.encode(Bool.self, optional: optional, at: offset, from: base, scalar: { $0.archiveScalar })
            case .date: Self.encode(Date.self, optional: optional, at: offset, from: base, scalar: { $0.archiveScalar })
            }
        case let .closures(encode, _, _): encode(base)
        }
    }

    /// Stores `raw` when it is exactly of the field's kind; false (storing nothing) otherwise.
    @inline(__always)
    func decode(_ base: UnsafeMutableFieldBase, _ raw: ArchiveValue) -> Bool {
        switch access {
        case let .direct(type, optional, offset):
            switch type {
            case .string:
                Self.decode(
                    String.self, optional: optional, at: offset, into: base, from: raw, exactValue: { String(exactValue: $0) })
            case .int:
                Self.decode(Int.self, optional: optional, at: offset, into: base, from: raw, exactValue: { Int(exactValue: $0) })
            case .double:
                Self.decode(
                    Double.self, optional: optional, at: offset, into: base, from: raw, exactValue: { Double(exactValue: $0) })
            case .bool:
                Self.decode(
                    Bool.self, optional: optional, at: offset, into: base, from: raw, exactValue: { Bool(exactValue: $0) })
            case .date:
                Self.decode(
                    Date.self, optional: optional, at: offset, into: base, from: raw, exactValue: { Date(exactValue: $0) })
            }
        case let .closures(_, decode, _): decode(base, raw)
        }
    }

    /// Stores the value `raw` (a string or a number) holds or converts to, as the field's
    /// ``ScalarCodec`` reads it: Key-Value Coding's way of setting a field from a string. Throws,
    /// storing nothing, when it converts to none; null is `nil` for an optional.
    func convert(_ base: UnsafeMutableFieldBase, _ raw: ArchiveValue, _ context: ValueContext) throws {
        switch access {
        case let .direct(type, optional, offset):
            switch type {
            case .string: try Self.convert(String.self, optional: optional, at: offset, into: base, from: raw, context)
            case .int: try Self.convert(Int.self, optional: optional, at: offset, into: base, from: raw, context)
            case .double: try Self.convert(Double.self, optional: optional, at: offset, into: base, from: raw, context)
            case .bool: try Self.convert(Bool.self, optional: optional, at: offset, into: base, from: raw, context)
            case .date: try Self.convert(Date.self, optional: optional, at: offset, into: base, from: raw, context)
            }
        case let .closures(_, _, convert): try convert(base, raw, context)
        }
    }

    /// A field of type `Value` at `offset`, written by `scalar` and read by `exactValue` (a
    /// ``ScalarCodec``'s).
    init<Value>(
        _: Value.Type, at offset: Int, scalar: @escaping (Value) -> ArchiveScalar,
        exactValue: @escaping (ArchiveValue) -> Value?, converting: @escaping (ArchiveValue, ValueContext) throws -> Value
    ) {
        self.init(Value.self, optional: false, at: offset, scalar: scalar, exactValue: exactValue, converting: converting)
    }

    /// A field of type `Value?`: `nil` is left out, and null decodes to `nil`.
    init<Value>(
        optional _: Value.Type, at offset: Int, scalar: @escaping (Value) -> ArchiveScalar,
        exactValue: @escaping (ArchiveValue) -> Value?, converting: @escaping (ArchiveValue, ValueContext) throws -> Value
    ) {
        self.init(Value.self, optional: true, at: offset, scalar: scalar, exactValue: exactValue, converting: converting)
    }

    private init<Value>(
        _: Value.Type, optional: Bool, at offset: Int, scalar: @escaping (Value) -> ArchiveScalar,
        exactValue: @escaping (ArchiveValue) -> Value?, converting: @escaping (ArchiveValue, ValueContext) throws -> Value
    ) {
        access = .closures(
            encode: { Self.encode(Value.self, optional: optional, at: offset, from: $0, scalar: scalar) },
            decode: { Self.decode(Value.self, optional: optional, at: offset, into: $0, from: $1, exactValue: exactValue) },
            convert: { base, raw, context in
                let value = try exactValue(raw) ?? converting(raw, context)
                Self.store(value, optional: optional, at: offset, into: base)
            })
    }

    private init(_ type: DirectType, optional: Bool, at offset: Int) {
        access = .direct(type, optional: optional, offset: offset)
    }

    /// The value of the `Value` (or `Value?` when `optional`) field at `offset`, written by
    /// `scalar`; nil for a `nil` optional.
    @inline(__always)
    private static func encode<Value>(
        _: Value.Type, optional: Bool, at offset: Int, from base: UnsafeFieldBase, scalar: (Value) -> ArchiveScalar
    ) -> ArchiveScalar? {
        optional
            ? RuntimeAccess.read(Value?.self, at: offset, from: base).map(scalar)
            : scalar(RuntimeAccess.read(Value.self, at: offset, from: base))
    }

    /// Stores what `exactValue` reads from `raw` in the `Value` (or `Value?`) field at `offset`;
    /// null is `nil` for an optional. False, storing nothing, when `raw` is not exactly a value.
    @inline(__always)
    private static func decode<Value>(
        _: Value.Type, optional: Bool, at offset: Int, into base: UnsafeMutableFieldBase, from raw: ArchiveValue,
        exactValue: (ArchiveValue) -> Value?
    ) -> Bool {
        if optional, case .null = raw {
            RuntimeAccess.write(Value?.none, at: offset, to: base)
            return true
        }
        guard let typed = exactValue(raw) else { return false }
        store(typed, optional: optional, at: offset, into: base)
        return true
    }

    /// ``convert(_:_:_:)`` for a `Value` (or `Value?`) field of one of the ``DirectType``s.
    @inline(__always)
    private static func convert<Value: ScalarValue>(
        _: Value.Type, optional: Bool, at offset: Int, into base: UnsafeMutableFieldBase, from raw: ArchiveValue,
        _ context: ValueContext
    ) throws {
        if optional, case .null = raw {
            RuntimeAccess.write(Value?.none, at: offset, to: base)
            return
        }
        let value = try Value(exactValue: raw) ?? Value(converting: raw, context: context)
        store(value, optional: optional, at: offset, into: base)
    }

    @inline(__always)
    private static func store<Value>(_ value: Value, optional: Bool, at offset: Int, into base: UnsafeMutableFieldBase) {
        if optional {
            RuntimeAccess.write(value as Value?, at: offset, to: base)
        } else {
            RuntimeAccess.write(value, at: offset, to: base)
        }
    }

    /// The accessor for a strong field of `type` (whose kind is `kind`) at `offset`; nil for
    /// types without a scalar form.
    static func make(for type: Any.Type, kind: ValueKind, at offset: Int) -> FastField? {
        let direct: [(Any.Type, Any.Type, DirectType)] = [
            (String.self, String?.self, .string), (Int.self, Int?.self, .int), (Double.self, Double?.self, .double),
            (Bool.self, Bool?.self, .bool), (Date.self, Date?.self, .date),
        ]
        if let (plain, _, direct) = direct.first(where: { $0.0 == type || $0.1 == type }) {
            return FastField(direct, optional: plain != type, at: offset)
        }
        switch kind {
        case let .scalar(codec), let .optional(_, .scalar(codec)): return codec.fastField(type, offset)
        default: return nil
        }
    }
}

/// Typed access to a field that holds objects or an array, built once per field, so that the
/// archiver walks it with no boxing in `Any`, no dynamic casts to protocols and no type-erased
/// containers. Only for fields whose type is exactly the one the accessor reads and writes
/// (checked when it is made); anything else takes the general path.
enum GraphField {
    /// An ``AMCCodable`` value of type `type`, or an optional of one: read gives nil for `nil`
    /// (the key is left out); write is false when the object is not a `type`.
    case object(
        type: any AMCCodable.Type,
        read: (UnsafeFieldBase) -> (any AMCCodable)?,
        write: (UnsafeMutableFieldBase, any AMCCodable) -> Bool)
    /// An array of ``AMCCodable`` values of type `type`: read calls its second argument for each
    /// element in order (the array is not copied), with the element's identity when it is an
    /// object (nil for a struct) and a function that gives the element: a walk that has met the
    /// object before needs only its identity, and asking for the element retains it. Write stores the array its third argument
    /// makes: called with each index below the second, it gives the element there, or nil to
    /// leave it out. Each element is checked and put in place as soon as it is made, while it is
    /// still in the cache (checking a finished array would touch every object once more). Write
    /// is false, storing nothing, when one is
    /// not a `type`.
    case objects(
        type: any AMCCodable.Type,
        read: (UnsafeFieldBase, (ObjectIdentifier?, () -> any AMCCodable) throws -> Void) throws -> Void,
        write: (UnsafeMutableFieldBase, Int, (Int) throws -> (any AMCCodable)?) throws -> Bool)
    /// An array of scalars (strings, numbers, dates, data, ``AMCStructCodable`` values): read
    /// hands each element's scalar to its body, in order, walking the array in place; write is
    /// false, storing nothing, unless every element is exactly of the element type (see
    /// ``FastField``).
    case scalars(
        read: (UnsafeFieldBase, (ArchiveScalar) throws -> Void) throws -> Void,
        write: (UnsafeMutableFieldBase, ArchiveArray) -> Bool)
    /// A `[String: Value]` of scalars, as ``scalars`` for arrays: read gives the entries in the
    /// dictionary's order; write is false, storing nothing, unless every value is exactly of the
    /// value type (and no key is escaped, see ``ObjectReference``).
    case scalarDictionary(
        read: (UnsafeFieldBase) -> [(key: String, value: ArchiveScalar)],
        write: (UnsafeMutableFieldBase, ArchiveDictionary) -> Bool)

    /// The accessor for a field of `type` (whose kind is `kind`) at `offset`; nil for other shapes.
    static func make(for type: Any.Type, kind: ValueKind, at offset: Int) -> GraphField? {
        switch kind {
        case let .object(codable):
            return object(codable, type, offset)
        case let .optional(_, .object(codable)):
            return optionalObject(codable, type, offset)
        case let .sequence(_, .object(codable)):
            return objects(codable, type, offset)
        case let .sequence(_, .scalar(codec)), let .dictionary(_, nil, .scalar(codec)):
            return codec.collectionField(type, offset)
        default:
            return nil
        }
    }

    private static func object<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == T.self else { return nil }
        return .object(
            type: T.self,
            read: { RuntimeAccess.read(T.self, at: offset, from: $0) },
            write: { base, object in
                // An object of exactly `T`, as nearly every one is, is stored without a cast: opened
                // as its own type, which is `T` (`as?` in this code, generic over a type known only
                // at run time, looked up the metadata of `T?` at each call, and `as!` went through
                // the runtime's dynamic cast).
                if Swift.type(of: object) == T.self {
                    func storeOpened<Exact: AMCCodable>(_ exact: Exact) { RuntimeAccess.write(exact, at: offset, to: base) }
                    storeOpened(object)
                    return true
                }
                return store(object, as: T.self, at: offset, in: base)
            })
    }

    /// Stores `object` at `offset` of `base` if it is a `T`; apart, so that the metadata of `T?`
    /// its cast needs is not looked up where an object of exactly `T` is stored.
    @inline(never)
    private static func store<T>(_ object: any AMCCodable, as _: T.Type, at offset: Int, in base: UnsafeMutableFieldBase) -> Bool
    {
        guard let typed = object as? T else { return false }
        RuntimeAccess.write(typed, at: offset, to: base)
        return true
    }

    private static func optionalObject<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == T?.self else { return nil }
        return .object(
            type: T.self,
            read: { RuntimeAccess.read(T?.self, at: offset, from: $0) },
            write: { base, object in
                guard let typed = object as? T else { return false }
                RuntimeAccess.write(typed as T?, at: offset, to: base)
                return true
            })
    }

    private static func objects<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == [T].self else { return nil }
        let read: (UnsafeFieldBase, (ObjectIdentifier?, () -> any AMCCodable) throws -> Void) throws -> Void =
            RuntimeAccess.shape(of: T.self) == .class
            ? { base, body in
                try RuntimeAccess.forEachObject(of: [T].self, at: offset, from: base) { identity, element in
                    try body(identity, { element.pointee })
                }
            }
            : { base, body in
                try RuntimeAccess.forEachElement(of: [T].self, at: offset, from: base) { element in try body(nil, { element }) }
            }
        return .objects(
            type: T.self,
            read: read,
            write: { base, count, make in
                var typed: [T] = []
                typed.reserveCapacity(count)
                for index in 0..<count {
                    guard let object = try make(index) else { continue }
                    guard let element = object as? T else { return false }
                    typed.append(element)
                }
                RuntimeAccess.write(typed, at: offset, to: base)
                return true
            })
    }

    /// An array of `Value`s, written by `scalar` and read by `exactValue` (a ``ScalarCodec``'s).
    static func scalars<Value>(
        _: Value.Type, at offset: Int,
        scalar: @escaping (Value) -> ArchiveScalar, exactValue: @escaping (ArchiveValue) -> Value?
    ) -> GraphField {
        .scalars(
            read: { base, body in
                try RuntimeAccess.forEachElement(of: [Value].self, at: offset, from: base) { try body(scalar($0)) }
            },
            write: { base, raws in
                var typed: [Value] = []
                typed.reserveCapacity(raws.count)
                for raw in raws {
                    guard let element = exactValue(raw) else { return false }
                    typed.append(element)
                }
                RuntimeAccess.write(typed, at: offset, to: base)
                return true
            })
    }

    /// A `[String: Value]`, written by `scalar` and read by `exactValue` (a ``ScalarCodec``'s).
    static func scalarDictionary<Value>(
        _: Value.Type, at offset: Int,
        scalar: @escaping (Value) -> ArchiveScalar, exactValue: @escaping (ArchiveValue) -> Value?
    ) -> GraphField {
        .scalarDictionary(
            read: { RuntimeAccess.read([String: Value].self, at: offset, from: $0).map { ($0.key, scalar($0.value)) } },
            write: { base, raw in
                // A one-key `$$ref` stands for `$ref`: the general path unescapes it.
                if raw.count == 1, ObjectReference.isEscapable(raw.entries[0].key, minimumDollars: 2) { return false }
                // Made at its size: `reserveCapacity` on an empty one took a sixth longer.
                var typed = [String: Value](minimumCapacity: raw.count)
                for entry in raw.entries {
                    guard let value = exactValue(entry.value) else { return false }
                    // One hash per entry; a repeated key keeps its first value.
                    if let first = typed.updateValue(value, forKey: entry.key) { typed[entry.key] = first }
                }
                RuntimeAccess.write(typed, at: offset, to: base)
                return true
            })
    }
}
