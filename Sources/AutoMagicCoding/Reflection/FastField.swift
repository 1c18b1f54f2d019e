import Foundation

/// Typed access to one field whose value is a single scalar in a document (a string, number,
/// bool, date, data, an ``AMCStructCodable`` string, or an optional of one), built once per field
/// so that encoding and decoding it needs no boxing in `Any` and no dynamic casts.
///
/// The decoder only takes this path when the document holds exactly the field's kind of value;
/// for anything else (a string for an `Int`, a bad value) it falls back to the general path,
/// which converts or reports the error with its key path.
struct FastField {
    /// The field's value as a scalar; nil for a `nil` optional (the key is left out).
    let encode: (UnsafeRawPointer) -> ArchiveScalar?
    /// Stores `value` when it is exactly of the field's kind; false (storing nothing) otherwise.
    let decode: (UnsafeMutableRawPointer, ArchiveValue) -> Bool

    /// The accessor for a field of `type` at `offset`; nil for types without a scalar form.
    static func make(for type: Any.Type, at offset: Int) -> FastField? {
        if let scalar = type as? any FastScalar.Type { return make(scalar, at: offset) }
        if let codable = type as? any AMCStructCodable.Type { return make(codable, at: offset) }
        if let optional = type as? any FastOptional.Type { return optional.fastField(at: offset) }
        return nil
    }

    private static func make<T: FastScalar>(_: T.Type, at offset: Int) -> FastField {
        make(ScalarCodec<T>.self, at: offset)
    }

    private static func make<T: AMCStructCodable>(_: T.Type, at offset: Int) -> FastField {
        make(StructCodec<T>.self, at: offset)
    }

    fileprivate static func makeOptional<T: FastScalar>(_: T.Type, at offset: Int) -> FastField {
        makeOptional(ScalarCodec<T>.self, at: offset)
    }

    fileprivate static func makeOptional<T: AMCStructCodable>(_: T.Type, at offset: Int) -> FastField {
        makeOptional(StructCodec<T>.self, at: offset)
    }

    // MARK: - Field access around one conversion

    /// A field of type `Codec.Value`.
    private static func make<Codec: FieldCodec>(_: Codec.Type, at offset: Int) -> FastField {
        let read = RuntimeAccess.reader(Codec.Value.self, at: offset)
        let write = RuntimeAccess.writer(Codec.Value.self, at: offset)
        return FastField(
            encode: { Codec.scalar(read($0)) },
            decode: { base, raw in
                guard let typed = Codec.value(raw) else { return false }
                write(base, typed)
                return true
            })
    }

    /// A field of type `Codec.Value?`: `nil` is left out, and null decodes to `nil`.
    private static func makeOptional<Codec: FieldCodec>(_: Codec.Type, at offset: Int) -> FastField {
        let read = RuntimeAccess.reader(Codec.Value?.self, at: offset)
        let write = RuntimeAccess.writer(Codec.Value?.self, at: offset)
        return FastField(
            encode: { read($0).map { Codec.scalar($0) } },
            decode: { base, raw in
                if case .null = raw {
                    write(base, nil)
                    return true
                }
                guard let typed = Codec.value(raw) else { return false }
                write(base, typed)
                return true
            })
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
        read: (UnsafeRawPointer) -> (any AMCCodable)?,
        write: (UnsafeMutableRawPointer, any AMCCodable) -> Bool)
    /// An array of ``AMCCodable`` values of type `type`: write is false when one is not a `type`.
    case objects(
        type: any AMCCodable.Type,
        read: (UnsafeRawPointer) -> [any AMCCodable],
        write: (UnsafeMutableRawPointer, [any AMCCodable]) -> Bool)
    /// An array of scalars (strings, numbers, dates, data, ``AMCStructCodable`` values): write is
    /// false, storing nothing, unless every element is exactly of the element type (see
    /// ``FastField``).
    case scalars(
        read: (UnsafeRawPointer) -> [ArchiveScalar],
        write: (UnsafeMutableRawPointer, [ArchiveValue]) -> Bool)

    /// The accessor for a field of `type` (whose kind is `kind`) at `offset`; nil for other shapes.
    static func make(for type: Any.Type, kind: ValueKind, at offset: Int) -> GraphField? {
        switch kind {
        case let .object(codable):
            return object(codable, type, offset)
        case let .optional(_, .object(codable)):
            return optionalObject(codable, type, offset)
        case let .sequence(_, .object(codable)):
            return objects(codable, type, offset)
        case let .sequence(container, _):
            if let scalar = container.elementType as? any FastScalar.Type { return scalars(scalar, type, offset) }
            if let codable = container.elementType as? any AMCStructCodable.Type { return scalars(codable, type, offset) }
            return nil
        default:
            return nil
        }
    }

    private static func object<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == T.self else { return nil }
        let read = RuntimeAccess.reader(T.self, at: offset)
        let write = RuntimeAccess.writer(T.self, at: offset)
        return .object(type: T.self, read: { read($0) }, write: { base, object in
            guard let typed = object as? T else { return false }
            write(base, typed)
            return true
        })
    }

    private static func optionalObject<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == T?.self else { return nil }
        let read = RuntimeAccess.reader(T?.self, at: offset)
        let write = RuntimeAccess.writer(T?.self, at: offset)
        return .object(type: T.self, read: { read($0) }, write: { base, object in
            guard let typed = object as? T else { return false }
            write(base, typed)
            return true
        })
    }

    private static func objects<T: AMCCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == [T].self else { return nil }
        let read = RuntimeAccess.reader([T].self, at: offset)
        let write = RuntimeAccess.writer([T].self, at: offset)
        return .objects(type: T.self, read: { read($0).map { $0 } }, write: { base, objects in
            var typed: [T] = []
            typed.reserveCapacity(objects.count)
            for object in objects {
                guard let element = object as? T else { return false }
                typed.append(element)
            }
            write(base, typed)
            return true
        })
    }

    private static func scalars<T: FastScalar>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        scalars(ScalarCodec<T>.self, type, offset)
    }

    private static func scalars<T: AMCStructCodable>(_: T.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        scalars(StructCodec<T>.self, type, offset)
    }

    private static func scalars<Codec: FieldCodec>(_: Codec.Type, _ type: Any.Type, _ offset: Int) -> GraphField? {
        guard type == [Codec.Value].self else { return nil }
        let read = RuntimeAccess.reader([Codec.Value].self, at: offset)
        let write = RuntimeAccess.writer([Codec.Value].self, at: offset)
        return .scalars(read: { read($0).map(Codec.scalar) }, write: { base, raws in
            var typed: [Codec.Value] = []
            typed.reserveCapacity(raws.count)
            for raw in raws {
                guard let element = Codec.value(raw) else { return false }
                typed.append(element)
            }
            write(base, typed)
            return true
        })
    }
}

/// How one type becomes a document scalar and back, for ``FastField``.
private protocol FieldCodec {
    associatedtype Value
    static func scalar(_ value: Value) -> ArchiveScalar
    /// The value when `raw` is exactly one; nil sends the field down the general path.
    static func value(_ raw: ArchiveValue) -> Value?
}

private enum ScalarCodec<Value: FastScalar>: FieldCodec {
    static func scalar(_ value: Value) -> ArchiveScalar { Value.fastScalar(value) }
    static func value(_ raw: ArchiveValue) -> Value? { Value(fastValue: raw) }
}

/// A struct as its string; a string it refuses goes down the general path, which reports it.
private enum StructCodec<Value: AMCStructCodable>: FieldCodec {
    static func scalar(_ value: Value) -> ArchiveScalar { .string(value.amcStringValue) }
    static func value(_ raw: ArchiveValue) -> Value? {
        guard case let .string(string) = raw else { return nil }
        return try? Value(amcStringValue: string)
    }
}

/// Optionals of fast scalars are fast too.
protocol FastOptional {
    static func fastField(at offset: Int) -> FastField?
}

extension Optional: FastOptional {
    static func fastField(at offset: Int) -> FastField? {
        if let scalar = Wrapped.self as? any FastScalar.Type { return open(scalar, offset) }
        if let codable = Wrapped.self as? any AMCStructCodable.Type { return open(codable, offset) }
        return nil
    }

    // Opening the existential metatypes; `Wrapped` is the type they hold.
    private static func open<T: FastScalar>(_: T.Type, _ offset: Int) -> FastField {
        FastField.makeOptional(T.self, at: offset)
    }

    private static func open<T: AMCStructCodable>(_: T.Type, _ offset: Int) -> FastField {
        FastField.makeOptional(T.self, at: offset)
    }
}

// MARK: - Scalars

/// A type that is one document scalar: how it is written, and which document values are exactly
/// one of it (with no conversion the general path would have to judge).
protocol FastScalar {
    static func fastScalar(_ value: Self) -> ArchiveScalar
    init?(fastValue: ArchiveValue)
}

extension String: FastScalar {
    static func fastScalar(_ value: String) -> ArchiveScalar { .string(value) }
    init?(fastValue: ArchiveValue) {
        guard case let .string(string) = fastValue else { return nil }
        self = string
    }
}

extension Bool: FastScalar {
    static func fastScalar(_ value: Bool) -> ArchiveScalar { .bool(value) }
    init?(fastValue: ArchiveValue) {
        guard case let .bool(bool) = fastValue else { return nil }
        self = bool
    }
}

extension Double: FastScalar {
    static func fastScalar(_ value: Double) -> ArchiveScalar { .double(value) }
    init?(fastValue: ArchiveValue) {
        switch fastValue {
        case let .double(double): self = double
        case let .int(int): self.init(exactly: int)
        default: return nil
        }
    }
}

extension Float: FastScalar {
    static func fastScalar(_ value: Float) -> ArchiveScalar { .float(value) }
    init?(fastValue: ArchiveValue) {
        guard case let .double(double) = fastValue else { return nil }
        self.init(double)
        guard isFinite || !double.isFinite else { return nil }  // overflow: the general path reports it
    }
}

extension CGFloat: FastScalar {
    static func fastScalar(_ value: CGFloat) -> ArchiveScalar { .double(Double(value)) }
    init?(fastValue: ArchiveValue) {
        guard let double = Double(fastValue: fastValue) else { return nil }
        self.init(double)
    }
}

extension Date: FastScalar {
    static func fastScalar(_ value: Date) -> ArchiveScalar { .date(value) }
    init?(fastValue: ArchiveValue) {
        guard case let .date(date) = fastValue else { return nil }
        self = date
    }
}

extension Data: FastScalar {
    static func fastScalar(_ value: Data) -> ArchiveScalar { .data(value) }
    init?(fastValue: ArchiveValue) {
        guard case let .data(data) = fastValue else { return nil }
        self = data
    }
}

/// Integers of every width: written as signed when they fit `Int64`; read only when the number
/// fits exactly.
protocol FastInteger: FastScalar, FixedWidthInteger {}

extension FastInteger {
    static func fastScalar(_ value: Self) -> ArchiveScalar {
        if let signed = Int64(exactly: value) { return .int(signed) }
        return .uint(UInt64(truncatingIfNeeded: value))
    }

    init?(fastValue: ArchiveValue) {
        switch fastValue {
        case let .int(int): self.init(exactly: int)
        case let .uint(uint): self.init(exactly: uint)
        default: return nil
        }
    }
}

extension Int: FastInteger {}
extension Int8: FastInteger {}
extension Int16: FastInteger {}
extension Int32: FastInteger {}
extension Int64: FastInteger {}
extension UInt: FastInteger {}
extension UInt8: FastInteger {}
extension UInt16: FastInteger {}
extension UInt32: FastInteger {}
extension UInt64: FastInteger {}
