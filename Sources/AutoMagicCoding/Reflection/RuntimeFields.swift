// The only file in the package that touches the Swift runtime's reflection entry points and raw
// memory. Everything else asks it for a type's stored fields and for typed loads and stores.
//
// The three `swift_reflectionMirror_recursive*` functions are the ones the standard library's own
// `_forEachField(of:options:body:)` is built on (stdlib/public/core/ReflectionMirror.swift). They
// list a type's stored fields, superclass fields first for classes, with their static types,
// offsets from the start of the value (for classes: from the start of the object, header
// included), and whether each is a `var` and a strong reference.

/// Mirrors the layout of the standard library's `_FieldReflectionMetadata`.
private struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong: Bool = false
    var isVar: Bool = false
}

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func _runtimeFieldCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func _runtimeFieldMetadata(
    _ type: Any.Type,
    index: Int,
    fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>
) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func _runtimeFieldOffset(_ type: Any.Type, index: Int) -> Int

@_silgen_name("swift_getMetadataKind")
private func _runtimeMetadataKind(_ type: Any.Type) -> UInt

/// One stored field of a struct or class, as the runtime describes it.
struct RuntimeField: @unchecked Sendable {
    /// The declared name (`$__lazy_storage_$_x` for `lazy var x`, `_x` for a wrapped `x`).
    let name: String
    /// The declared (static) type.
    let type: Any.Type
    /// Byte offset from the start of the struct, or of the object for classes.
    let offset: Int
    /// `var` (writable by the decoder) or `let`.
    let isVar: Bool
    /// False for `weak` and `unowned` references, whose storage is not a plain value of `type`.
    let isStrong: Bool
}

/// The coarse shape of a type, from its runtime metadata kind.
enum RuntimeTypeShape: Equatable {
    case `class`, `struct`, `enum`, optional, tuple, function, existential, metatype, other
}

/// Where a struct value or class instance's fields are, for reading: what field offsets count
/// from. Opaque outside `Reflection/`; valid only inside ``RuntimeAccess/withFieldBase(of:_:)``.
struct FieldBase {
    /// Only `RuntimeAccess` and its tests read it.
    let address: UnsafeRawPointer
}

/// ``FieldBase`` for writing; valid only inside ``RuntimeAccess/withMutableFieldBase(of:_:)``.
struct MutableFieldBase {
    /// Only `RuntimeAccess` and its tests read it.
    let address: UnsafeMutableRawPointer
}

/// Typed access to raw memory and runtime metadata. The rest of the package never sees a pointer
/// except through these functions.
enum RuntimeAccess {
    /// The stored fields of `type`, superclass fields first; empty for non-nominal types.
    static func fields(of type: Any.Type) -> [RuntimeField] {
        switch shape(of: type) {
        case .struct, .class: break
        default: return []
        }
        let count = _runtimeFieldCount(type)
        guard count > 0 else { return [] }
        var fields: [RuntimeField] = []
        fields.reserveCapacity(count)
        for index in 0..<count {
            var metadata = FieldReflectionMetadata()
            let fieldType = _runtimeFieldMetadata(type, index: index, fieldMetadata: &metadata)
            defer { metadata.freeFunc?(metadata.name) }
            let name = metadata.name.map { String(cString: $0) } ?? ""
            fields.append(RuntimeField(
                name: name,
                type: fieldType,
                offset: _runtimeFieldOffset(type, index: index),
                isVar: metadata.isVar,
                isStrong: metadata.isStrong
            ))
        }
        return fields
    }

    /// The runtime's metadata kind of `type`, reduced to what the archiver distinguishes.
    static func shape(of type: Any.Type) -> RuntimeTypeShape {
        switch _runtimeMetadataKind(type) {
        case 0x200: return .struct
        case 0x201: return .enum
        case 0x202: return .optional
        case 0x301: return .tuple
        case 0x302: return .function
        case 0x303: return .existential
        case 0x304, 0x306: return .metatype
        case 0, 0x203, 0x305: return .class
        case let kind where kind > 0x7FF: return .class  // an isa pointer: an Objective-C class
        default: return .other
        }
    }

    /// Runs `body` with the address that field offsets count from: the object itself for a class
    /// instance, a copy of the value for a struct. `Root` must be the concrete type, not an
    /// existential (open it first): anything else traps, rather than reading the existential's
    /// box as if it were the value.
    static func withFieldBase<Root, R>(of instance: Root, _ body: (FieldBase) throws -> R) rethrows -> R {
        let shape = shape(of: Root.self)
        if shape == .class {
            return try withExtendedLifetime(instance) {
                try body(FieldBase(address: unsafeBitCast(instance, to: UnsafeRawPointer.self)))
            }
        }
        precondition(shape == .struct, "field access needs the concrete struct type, not \(Root.self)")
        var copy = instance
        return try withUnsafeBytes(of: &copy) { try body(FieldBase(address: $0.baseAddress!)) }
    }

    /// The identity of a class instance (nil for a value): `ObjectIdentifier` of the object.
    static func identity<Root>(of instance: Root) -> ObjectIdentifier? {
        // The reference's bits are the object's identity; no retain, unlike a cast to AnyObject.
        shape(of: Root.self) == .class ? unsafeBitCast(instance, to: ObjectIdentifier.self) : nil
    }

    /// Reads the field of static type `type` at `offset` from `base` (see `withFieldBase`), boxed.
    /// Only for strong fields: `weak`/`unowned` storage is read via `Mirror`.
    static func load(_ type: Any.Type, at offset: Int, from base: FieldBase) -> Any {
        func load<T>(_: T.Type) -> Any { (base.address + offset).load(as: T.self) }
        return _openExistential(type, do: load)
    }

    /// Writes `value` into the `var` field of static type `type` at `offset` of `instance` (a class
    /// instance or a struct value of the concrete type `Root`), releasing the previous value.
    /// Returns false, writing nothing, when `value` is not of that type.
    static func store<Root>(_ value: Any, as type: Any.Type, at offset: Int, in instance: inout Root) -> Bool {
        let shape = shape(of: Root.self)
        if shape == .class {
            return withExtendedLifetime(instance) {
                storeValue(value, as: type, to: unsafeBitCast(instance, to: UnsafeMutableRawPointer.self) + offset)
            }
        }
        precondition(shape == .struct, "field access needs the concrete struct type, not \(Root.self)")
        return withUnsafeMutableBytes(of: &instance) { bytes in
            storeValue(value, as: type, to: bytes.baseAddress! + offset)
        }
    }

    /// Runs `body` with the address that field offsets count from, for writing: the object for a
    /// class instance, the value itself (in place) for a struct.
    static func withMutableFieldBase<Root, R>(
        of instance: inout Root, _ body: (MutableFieldBase) throws -> R
    ) rethrows -> R {
        let shape = shape(of: Root.self)
        if shape == .class {
            return try withExtendedLifetime(instance) {
                try body(MutableFieldBase(address: unsafeBitCast(instance, to: UnsafeMutableRawPointer.self)))
            }
        }
        precondition(shape == .struct, "field access needs the concrete struct type, not \(Root.self)")
        return try withUnsafeMutableBytes(of: &instance) { try body(MutableFieldBase(address: $0.baseAddress!)) }
    }

    /// The strong field of type `T` at `offset` from `base` (see `withFieldBase`): no boxing, no
    /// casts.
    @inline(__always)
    static func read<T>(_: T.Type, at offset: Int, from base: FieldBase) -> T {
        base.address.load(fromByteOffset: offset, as: T.self)
    }

    /// Writes the `var` field of type `T` at `offset` from `base` (see `withMutableFieldBase`),
    /// releasing the previous value.
    @inline(__always)
    static func write<T>(_ value: T, at offset: Int, to base: MutableFieldBase) {
        (base.address + offset).assumingMemoryBound(to: T.self).pointee = value
    }

    // MARK: - Private

    private static func storeValue(_ value: Any, as type: Any.Type, to pointer: UnsafeMutableRawPointer) -> Bool {
        func store<T>(_: T.Type) -> Bool {
            guard let typed = value as? T else { return false }
            pointer.assumingMemoryBound(to: T.self).pointee = typed
            return true
        }
        return _openExistential(type, do: store)
    }
}
