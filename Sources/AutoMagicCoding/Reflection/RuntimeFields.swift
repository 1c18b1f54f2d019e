// The only file in the package that touches the Swift runtime's reflection entry points and raw
// memory. Everything else asks it for a type's stored fields and for typed loads and stores.
//
// The three `swift_reflectionMirror_recursive*` functions are the ones the standard library's own
// `_forEachField(of:options:body:)` is built on (stdlib/public/core/ReflectionMirror.swift). They
// list a type's stored fields, superclass fields first for classes, with their static types,
// offsets from the start of the value (for classes: from the start of the object, header
// included), and whether each is a `var` and a strong reference.
//
// How a non-strong field holds its reference (`weak`, `unowned`, `unowned(unsafe)`) the entry
// points do not say; the field records of the type's context descriptor do (the stable ABI's
// `FieldDescriptor`, the same records those entry points read): the mangled type name of such a
// field ends in `Xw`, `Xo` or `Xu`. Writing one goes through a one-field struct of the same
// ownership, so the compiler picks the runtime calls.

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

@_silgen_name("swift_getTypeContextDescriptor")
private func _runtimeContextDescriptor(_ type: Any.Type) -> UnsafeRawPointer?

/// How a stored field holds a class instance.
enum ReferenceOwnership: Equatable {
    /// A value, or a strong reference.
    case strong
    /// `weak`: nil once nothing else holds the object.
    case weak
    /// `unowned` (`unowned(safe)`): must not outlive the object.
    case unowned
    /// `unowned(unsafe)`: a bare pointer.
    case unmanaged
}

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
    /// How the field holds its reference: `.strong` for strong fields; nil for a non-strong field
    /// whose type's field records could not be read.
    let ownership: ReferenceOwnership?
}

extension RuntimeField {
    /// The same field under another name.
    func renamed(_ name: String) -> RuntimeField {
        RuntimeField(name: name, type: type, offset: offset, isVar: isVar, isStrong: isStrong, ownership: ownership)
    }
}

/// The coarse shape of a type, from its runtime metadata kind.
enum RuntimeTypeShape: Equatable {
    case `class`, `struct`, `enum`, optional, tuple, function, existential, metatype, other
}

/// Where a struct value or class instance's fields are, for reading: what field offsets count
/// from. Opaque outside `Reflection/`; valid only inside ``RuntimeAccess/withFieldBase(of:_:)``.
struct UnsafeFieldBase {
    /// Read only in this file: every typed load goes through `RuntimeAccess`.
    fileprivate let address: UnsafeRawPointer

    /// Whether the fields are read from `object` itself (a class instance's are).
    ///
    /// ```swift
    /// RuntimeAccess.withFieldBase(of: note) { $0.isAddress(of: note) }   // true
    /// ```
    func isAddress(of object: AnyObject) -> Bool {
        address == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
    }
}

/// ``UnsafeFieldBase`` for writing; valid only inside ``RuntimeAccess/withMutableFieldBase(of:_:)``.
struct UnsafeMutableFieldBase {
    /// Read only in this file: every typed store goes through `RuntimeAccess`.
    fileprivate let address: UnsafeMutableRawPointer
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
        // How non-strong fields hold their references: read from the field records when one is met.
        var declared: [ReferenceOwnership]?
        var declaredRead = false
        for index in 0..<count {
            var metadata = FieldReflectionMetadata()
            let fieldType = _runtimeFieldMetadata(type, index: index, fieldMetadata: &metadata)
            defer { metadata.freeFunc?(metadata.name) }
            let name = metadata.name.map { String(cString: $0) } ?? ""
            var ownership: ReferenceOwnership? = .strong
            if !metadata.isStrong {
                if !declaredRead {
                    declared = declaredOwnerships(of: type, count: count)
                    declaredRead = true
                }
                // Records that call a non-strong field strong disagree with the runtime: unknown.
                ownership = declared.flatMap { $0[index] == .strong ? nil : $0[index] }
            }
            fields.append(
                RuntimeField(
                    name: name,
                    type: fieldType,
                    offset: _runtimeFieldOffset(type, index: index),
                    isVar: metadata.isVar,
                    isStrong: metadata.isStrong,
                    ownership: ownership
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
    static func withFieldBase<Root, R>(of instance: Root, _ body: (UnsafeFieldBase) throws -> R) rethrows -> R {
        let shape = shape(of: Root.self)
        if shape == .class {
            return try withExtendedLifetime(instance) {
                try body(UnsafeFieldBase(address: unsafeBitCast(instance, to: UnsafeRawPointer.self)))
            }
        }
        precondition(shape == .struct, "field access needs the concrete struct type, not \(Root.self)")
        var copy = instance
        return try withUnsafeBytes(of: &copy) { try body(UnsafeFieldBase(address: $0.baseAddress!)) }
    }

    /// ``withFieldBase(of:_:)`` for an instance known only as `any AMCCodable`: opened here, so
    /// that code generic over something else (the encoder's sink) need not be generic over the
    /// instance's type too, and can be specialised.
    static func withFieldBase<R>(ofAny instance: any AMCCodable, _ body: (UnsafeFieldBase) throws -> R) throws -> R {
        func open<Root: AMCCodable>(_ instance: Root) throws -> R { try withFieldBase(of: instance, body) }
        return try open(instance)
    }

    /// Whether two arrays share one buffer: the same array handed out twice, not two equal ones
    /// (nonempty arrays only; every empty one may share the same buffer).
    ///
    /// ```swift
    /// let keys = ["a"]
    /// RuntimeAccess.sharesStorage(keys, keys)   // true
    /// RuntimeAccess.sharesStorage(keys, ["a"])  // false
    /// ```
    static func sharesStorage<Element>(_ first: [Element], _ second: [Element]) -> Bool {
        guard !first.isEmpty, !second.isEmpty else { return false }
        return first.withUnsafeBufferPointer { first in second.withUnsafeBufferPointer { $0.baseAddress == first.baseAddress } }
    }

    /// ``identity(of:)`` of an instance known only as `any AMCCodable`.
    static func identity(ofAny instance: any AMCCodable) -> ObjectIdentifier? {
        func open<Root: AMCCodable>(_ instance: Root) -> ObjectIdentifier? { identity(of: instance) }
        return open(instance)
    }

    /// An instance of the class `Root` (or of a subclass), as `AnyObject`: the reference itself,
    /// without the cast to `AnyObject`, which goes through the runtime's boxing of any value.
    static func object<Root>(of instance: Root) -> AnyObject {
        precondition(shape(of: Root.self) == .class, "\(Root.self) is not a class")
        return unsafeBitCast(instance, to: AnyObject.self)
    }

    /// ``object(of:)`` of an instance known only as `any AMCCodable`; nil for a value.
    static func object(ofAny instance: any AMCCodable) -> AnyObject? {
        func open<Root: AMCCodable>(_ instance: Root) -> AnyObject? {
            shape(of: Root.self) == .class ? unsafeBitCast(instance, to: AnyObject.self) : nil
        }
        return open(instance)
    }

    /// ``object(of:)`` back: `object`, an instance of the class `Root` (or of a subclass).
    static func instance<Root>(_: Root.Type, of object: AnyObject) -> Root {
        assert(shape(of: Root.self) == .class && object is Root)
        return unsafeBitCast(object, to: Root.self)
    }

    /// The identity of a class instance (nil for a value): `ObjectIdentifier` of the object.
    static func identity<Root>(of instance: Root) -> ObjectIdentifier? {
        // The reference's bits are the object's identity; no retain, unlike a cast to AnyObject.
        shape(of: Root.self) == .class ? unsafeBitCast(instance, to: ObjectIdentifier.self) : nil
    }

    /// Reads the field of static type `type` at `offset` from `base` (see `withFieldBase`), boxed.
    /// Only for strong fields: `weak`/`unowned` storage is read via `Mirror`.
    static func load(_ type: Any.Type, at offset: Int, from base: UnsafeFieldBase) -> Any {
        func load<T>(_: T.Type) -> Any { (base.address + offset).load(as: T.self) }
        return load(type)
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
        of instance: inout Root, _ body: (UnsafeMutableFieldBase) throws -> R
    ) rethrows -> R {
        let shape = shape(of: Root.self)
        if shape == .class {
            return try withExtendedLifetime(instance) {
                try body(UnsafeMutableFieldBase(address: unsafeBitCast(instance, to: UnsafeMutableRawPointer.self)))
            }
        }
        precondition(shape == .struct, "field access needs the concrete struct type, not \(Root.self)")
        return try withUnsafeMutableBytes(of: &instance) { try body(UnsafeMutableFieldBase(address: $0.baseAddress!)) }
    }

    /// The strong field of type `T` at `offset` from `base` (see `withFieldBase`): no boxing, no
    /// casts.
    @inline(__always)
    static func read<T>(_: T.Type, at offset: Int, from base: UnsafeFieldBase) -> T {
        base.address.load(fromByteOffset: offset, as: T.self)
    }

    /// Calls `body` with each element of the `[T]` field at `offset` of `base`, in order, without
    /// copying the array's elements (see `withFieldBase`). The walk holds the array itself, so a
    /// `body` that changes the field does not free what is being walked.
    @inline(__always)
    static func forEachElement<T>(of _: [T].Type, at offset: Int, from base: UnsafeFieldBase, _ body: (T) throws -> Void) rethrows
    {
        try base.address.advanced(by: offset).assumingMemoryBound(to: [T].self).pointee.withUnsafeBufferPointer { elements in
            for element in elements { try body(element) }
        }
    }

    /// As `forEachElement`, for an array of class instances (`T` must be a class: the caller
    /// checks, see `shape(of:)`): `body` gets each element's identity and where the element is,
    /// so that a caller that has met the object before reads nothing more (loading an element, even
    /// to hand it over, retains it, which touches the object). The array is read as an
    /// `[AnyObject]`, which has the same layout (one buffer of references, whatever their class),
    /// so that generic code walking the field of a type known only at run time does not look the
    /// metadata of `[T]` and its iterator up on each walk. Objective-C platforms take
    /// `forEachElement`: there, an array bridged from `NSArray` may check its elements' type
    /// lazily, which this walk would skip.
    @inline(__always)
    static func forEachObject<T>(
        of type: [T].Type, at offset: Int, from base: UnsafeFieldBase, _ body: (ObjectIdentifier, UnsafePointer<T>) throws -> Void
    ) rethrows {
        #if canImport(ObjectiveC)
            try forEachElement(of: type, at: offset, from: base) { element in
                try withUnsafePointer(to: element) { try body(ObjectIdentifier(element as AnyObject), $0) }
            }
        #else
            assert(shape(of: T.self) == .class, "forEachObject walks arrays of class instances only, not of \(T.self)")
            try base.address.load(fromByteOffset: offset, as: [AnyObject].self).withUnsafeBufferPointer { references in
                guard let start = references.baseAddress else { return }
                for index in references.indices {
                    // An identity is the object's address, which the reference holds.
                    let address = UnsafeRawPointer(start + index).load(as: UnsafeRawPointer.self)
                    try body(
                        unsafeBitCast(address, to: ObjectIdentifier.self),
                        UnsafeRawPointer(start + index).assumingMemoryBound(to: T.self))
                }
            }
        #endif
    }

    /// Writes the `var` field of type `T` at `offset` from `base` (see `withMutableFieldBase`),
    /// releasing the previous value.
    @inline(__always)
    static func write<T>(_ value: T, at offset: Int, to base: UnsafeMutableFieldBase) {
        (base.address + offset).assumingMemoryBound(to: T.self).pointee = value
    }

    /// Writes `value` into the `var` field of static type `type` at `offset` from `base` (see
    /// `withMutableFieldBase`), releasing the previous value. False, writing nothing, when
    /// `value` is not of that type.
    static func store(_ value: Any, as type: Any.Type, at offset: Int, to base: UnsafeMutableFieldBase) -> Bool {
        storeValue(value, as: type, to: base.address + offset)
    }

    /// The object the strong field at `offset` from `base` holds: a field whose type is a Swift
    /// class, or an optional of one (one pointer, nil for `nil`); nothing else may be read so.
    static func object(at offset: Int, from base: UnsafeMutableFieldBase) -> AnyObject? {
        (base.address + offset).load(as: AnyObject?.self)
    }

    /// Runs `body` on the strong `var` field of type `T` at `offset` of `instance` (a class
    /// instance or a struct value of the concrete type `Root`), in place: an array appended to
    /// there is not copied.
    static func modify<Root, T, R>(_: T.Type, at offset: Int, in instance: inout Root, _ body: (inout T) throws -> R) rethrows
        -> R
    {
        try withMutableFieldBase(of: &instance) { base in
            try body(&(base.address + offset).assumingMemoryBound(to: T.self).pointee)
        }
    }

    /// The strong field of type `T` at `offset` of the class instance `object`.
    static func read<T>(_: T.Type, at offset: Int, of object: AnyObject) -> T {
        withExtendedLifetime(object) { fieldBase(of: object).address.load(fromByteOffset: offset, as: T.self) }
    }

    /// Writes the `var` field of type `T` at `offset` of the class instance `object`, releasing
    /// the previous value.
    static func write<T>(_ value: T, at offset: Int, of object: AnyObject) {
        withExtendedLifetime(object) { write(value, at: offset, to: fieldBase(of: object)) }
    }

    /// Appends `object` to the array field at `offset` of `instance` (a class instance or a struct
    /// value of the concrete type `Root`), an array of a class `object` is an instance of (the
    /// caller checks). The array is changed as an `[AnyObject]`, which has the same layout, so
    /// that code not specialised for the element type appends without generic array code.
    /// Not for Objective-C platforms (callers append as the array's own type there): an array
    /// bridged from `NSArray` may check its elements' type lazily.
    static func append<Root>(_ object: AnyObject, toObjectArrayAt offset: Int, in instance: inout Root) {
        modify([AnyObject].self, at: offset, in: &instance) { $0.append(object) }
    }

    /// ``append(_:toObjectArrayAt:in:)`` to a field of the class instance `owner`. When the array
    /// is full, `room` (asked then only) says how many elements it is expected to hold, and when
    /// that is more than it holds, it grows to that at once rather than by doubling.
    static func append(_ object: AnyObject, toObjectArrayAt offset: Int, of owner: AnyObject, room: () -> Int) {
        withExtendedLifetime(owner) {
            let array = (fieldBase(of: owner).address + offset).assumingMemoryBound(to: [AnyObject].self)
            if array.pointee.count == array.pointee.capacity {
                let wanted = room()
                if wanted > array.pointee.count { array.pointee.reserveCapacity(wanted) }
            }
            array.pointee.append(object)
        }
    }

    /// Where `object`'s fields are, for writing; valid while `object` is alive.
    static func fieldBase(of object: AnyObject) -> UnsafeMutableFieldBase {
        UnsafeMutableFieldBase(address: Unmanaged.passUnretained(object).toOpaque())
    }

    /// Where the fields of the struct stored in place at `offset` from `base` are; valid while
    /// `base` is.
    static func inlineBase(at offset: Int, of base: UnsafeMutableFieldBase) -> UnsafeMutableFieldBase {
        UnsafeMutableFieldBase(address: base.address + offset)
    }

    /// The instance whose fields `base` locates, of its concrete type `T`: the object itself
    /// for a class, a copy of the value for a struct.
    static func instance<T>(_: T.Type, at base: UnsafeMutableFieldBase) -> T {
        guard shape(of: T.self) == .class else { return base.address.load(as: T.self) }
        // A reference to a reference: the object is retained as any other copy of it is.
        return unsafeBitCast(Unmanaged<AnyObject>.fromOpaque(base.address).takeUnretainedValue(), to: T.self)
    }

    /// Sets the `weak` field at `offset` of `instance` to nil, as an assignment of nil would.
    static func clearWeakReference<Root>(at offset: Int, in instance: inout Root) {
        withMutableFieldBase(of: &instance) { base in
            (base.address + offset).assumingMemoryBound(to: WeakReference.self).pointee.object = nil
        }
    }

    /// Stores `object` into the `weak`, `unowned` or `unowned(unsafe)` field of static type
    /// `type` (an optional or not, of a class or a class-bound protocol) at `offset` of the class
    /// instance or struct value `instance`, as an assignment to the property would. Returns false,
    /// writing nothing, when `object` is not of that type or `ownership` is `.strong`.
    static func storeReference<Root>(
        _ object: AnyObject, as type: Any.Type, ownership: ReferenceOwnership, at offset: Int, in instance: inout Root
    ) -> Bool {
        guard ownership != .strong else { return false }
        return withMutableFieldBase(of: &instance) { base in
            let pointer = base.address + offset
            let wrapped = (type as? any OptionalContainer.Type)?.wrappedType ?? type
            func store<Wrapped>(_: Wrapped.Type) -> Bool {
                // The strong value the field would hold: the reference, then the witness tables of
                // a protocol type, which reference storage keeps after the reference too.
                guard let value = object as? Wrapped else { return false }
                return withUnsafeBytes(of: value) { bytes in
                    let word = MemoryLayout<UInt>.size
                    guard bytes.count >= word, bytes.load(as: UInt.self) == UInt(bitPattern: ObjectIdentifier(object)) else {
                        return false  // not a single reference (a struct, say)
                    }
                    switch ownership {
                    case .weak: pointer.assumingMemoryBound(to: WeakReference.self).pointee.object = object
                    case .unowned: pointer.assumingMemoryBound(to: UnownedReference.self).pointee.object = object
                    case .unmanaged: pointer.assumingMemoryBound(to: UnmanagedReference.self).pointee.object = object
                    case .strong: return false
                    }
                    (pointer + word).copyMemory(from: bytes.baseAddress! + word, byteCount: bytes.count - word)
                    return true
                }
            }
            return store(wrapped)
        }
    }

    /// The object the `weak`, `unowned` or `unowned(unsafe)` field at `offset` of `base` refers
    /// to, read as the property would be (nil for none); nil too when `ownership` is `.strong`.
    /// The reference is the field's first word whatever its type (see ``storeReference``).
    static func loadReference(ownership: ReferenceOwnership, at offset: Int, from base: UnsafeFieldBase) -> AnyObject? {
        let pointer = base.address + offset
        switch ownership {
        case .weak: return pointer.assumingMemoryBound(to: WeakReference.self).pointee.object
        case .unowned: return pointer.assumingMemoryBound(to: UnownedReference.self).pointee.object
        case .unmanaged: return pointer.assumingMemoryBound(to: UnmanagedReference.self).pointee.object
        case .strong: return nil
        }
    }

    // MARK: - Private

    private struct WeakReference { weak var object: AnyObject? }
    private struct UnownedReference { unowned(safe) var object: AnyObject? }
    private struct UnmanagedReference { unowned(unsafe) var object: AnyObject? }

    /// The ownership of each of the `count` fields `swift_reflectionMirror_recursive*` list for
    /// `type` (superclass fields first), from the field records of its context descriptor and its
    /// superclasses'; nil when they cannot be read or do not add up to `count`.
    private static func declaredOwnerships(of type: Any.Type, count: Int) -> [ReferenceOwnership]? {
        var chain: [Any.Type] = [type]
        if shape(of: type) == .class, let someClass = type as? AnyClass {
            var superclass: AnyClass? = _getSuperclass(someClass)
            while let current = superclass, shape(of: current) == .class, _runtimeFieldCount(current) > 0 {
                chain.insert(current, at: 0)
                superclass = _getSuperclass(current)
            }
        }
        var ownerships: [ReferenceOwnership] = []
        for member in chain {
            // TypeContextDescriptor: flags, parent, name, access function, then its fields.
            guard let descriptor = _runtimeContextDescriptor(member), let records = relativeTarget(descriptor + 16) else {
                return nil
            }
            // FieldDescriptor: type name, superclass, kind (16 bits), record size (16 bits),
            // number of records (32 bits), then each record: flags, type name, field name.
            let recordSize = Int(records.load(fromByteOffset: 10, as: UInt16.self))
            let recordCount = Int(records.load(fromByteOffset: 12, as: UInt32.self))
            guard recordSize >= 12, ownerships.count + recordCount <= count else { return nil }
            for index in 0..<recordCount {
                let typeName = relativeTarget(records + 16 + index * recordSize + 4)
                ownerships.append(typeName.map(ownership(ofMangledName:)) ?? .strong)
            }
        }
        return ownerships.count == count ? ownerships : nil
    }

    /// The address a 32-bit relative pointer at `address` points to; nil for 0.
    private static func relativeTarget(_ address: UnsafeRawPointer) -> UnsafeRawPointer? {
        let offset = address.load(as: Int32.self)
        return offset == 0 ? nil : address + Int(offset)
    }

    /// The ownership a field's mangled type name ends with (`Xw`, `Xo`, `Xu`). The name ends at
    /// a 0 byte; bytes 0x01–0x17 start a symbolic reference with a 4-byte payload, 0x18–0x1F one
    /// with a pointer-sized payload, which may contain any byte.
    private static func ownership(ofMangledName name: UnsafeRawPointer) -> ReferenceOwnership {
        var position = 0
        var previous: UInt8 = 0
        var last: UInt8 = 0
        while position < 4096 {
            let byte = name.load(fromByteOffset: position, as: UInt8.self)
            switch byte {
            case 0:
                guard previous == UInt8(ascii: "X") else { return .strong }
                switch last {
                case UInt8(ascii: "w"): return .weak
                case UInt8(ascii: "o"): return .unowned
                case UInt8(ascii: "u"): return .unmanaged
                default: return .strong
                }
            case 0x01...0x17:
                position += 1 + 4
                (previous, last) = (0, 0)
            case 0x18...0x1F:
                position += 1 + MemoryLayout<UInt>.size
                (previous, last) = (0, 0)
            default:
                position += 1
                (previous, last) = (last, byte)
            }
        }
        return .strong
    }

    private static func storeValue(_ value: Any, as type: Any.Type, to pointer: UnsafeMutableRawPointer) -> Bool {
        // A value of exactly the field's type (the common case) is taken out of its box as what
        // it is, with no cast: `as?` looks up `T?`'s metadata, and either cast goes through the
        // runtime's general casting.
        func store<Value>(_ value: Value) -> Bool {
            guard Value.self == type else { return false }
            pointer.assumingMemoryBound(to: Value.self).pointee = value
            return true
        }
        if _openExistential(value, do: store) { return true }
        func storeOther<T>(_: T.Type) -> Bool { storeConverted(value, as: T.self, to: pointer) }
        return storeOther(type)
    }

    /// `storeValue` for a value of another type than the field's, which `as?` may still make
    /// one (a subclass, an optional's wrapped value, an existential).
    @inline(never)
    private static func storeConverted<T>(_ value: Any, as _: T.Type, to pointer: UnsafeMutableRawPointer) -> Bool {
        guard let typed = value as? T else { return false }
        pointer.assumingMemoryBound(to: T.self).pointee = typed
        return true
    }
}
