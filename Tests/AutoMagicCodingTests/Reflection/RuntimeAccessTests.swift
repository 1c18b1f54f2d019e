import Foundation
import Testing

@testable import AutoMagicCoding

private class Base {
    var a: Int8 = 1
    let b = "bee"
    weak var w: Base?
    init() {}
}

private final class Derived: Base {
    var c: Double = 2.5
    private var d: [Int] = [1, 2]
    lazy var e: Int = 3
    var dValue: [Int] { d }
}

private protocol Named: AnyObject {
    var label: String { get }
}

private class Target: Named {
    let label: String
    init(_ label: String) { self.label = label }
}

/// One field of every reference ownership, in a superclass, a generic subclass and a struct.
private class Owners {
    var strong = Target("strong")
    weak var weakTarget: Target?
    init() {}
}

private final class GenericOwners<T>: Owners {
    var value: T?
    unowned var owner: Target
    unowned var maybe: Target?
    unowned(unsafe) var bare: Target?
    weak var named: (any Named)?
    weak var anything: AnyObject?
    init(_ owner: Target) {
        self.owner = owner
        super.init()
    }
}

private struct WeakPair {
    var number = 1
    weak var target: Target?
}

/// A class with an array of objects of a superclass, a string and a number.
private final class ObjectShelf {
    var items: [Base] = [Base()]
    var title = "old"
    var count = 1
    init() {}
}

private struct Plain {
    var x: Int16 = 7
    var y: String? = "why"
    let z: UInt64 = .max
    var any: Any = 5
}

@Suite("RuntimeAccess: the only unsafe code")
struct RuntimeAccessTests {
    @Test func fieldsListSuperclassFieldsFirstWithVarAndStrongness() {
        let fields = RuntimeAccess.fields(of: Derived.self)
        #expect(fields.map(\.name) == ["a", "b", "w", "c", "d", "$__lazy_storage_$_e"])
        #expect(fields.map(\.isVar) == [true, false, true, true, true, true])
        #expect(fields.map(\.isStrong) == [true, true, false, true, true, true])
        #expect(fields[0].type == Int8.self && fields[1].type == String.self && fields[2].type == Optional<Base>.self)
        #expect(Set(fields.map(\.offset)).count == fields.count)
        #expect(fields.allSatisfy { $0.offset >= MemoryLayout<Int>.size * 2 })  // after the object header
    }

    @Test func structFieldsHaveLayoutOffsets() {
        let fields = RuntimeAccess.fields(of: Plain.self)
        #expect(fields.map(\.name) == ["x", "y", "z", "any"])
        #expect(
            fields.map(\.offset) == [
                MemoryLayout<Plain>.offset(of: \.x)!, MemoryLayout<Plain>.offset(of: \.y)!,
                MemoryLayout<Plain>.offset(of: \.z)!, MemoryLayout<Plain>.offset(of: \.any)!,
            ])
        #expect(fields.map(\.isVar) == [true, true, false, true])
    }

    @Test func nonNominalTypesHaveNoFields() {
        #expect(RuntimeAccess.fields(of: Optional<Int>.self).isEmpty)
        #expect(RuntimeAccess.fields(of: (Int, Int).self).isEmpty)
        #expect(RuntimeAccess.fields(of: Any.self).isEmpty)
        #expect(RuntimeAccess.fields(of: (() -> Void).self).isEmpty)
    }

    @Test func shapes() {
        #expect(RuntimeAccess.shape(of: Derived.self) == .class)
        #expect(RuntimeAccess.shape(of: Plain.self) == .struct)
        #expect(RuntimeAccess.shape(of: Suit.self) == .enum)
        #expect(RuntimeAccess.shape(of: Optional<Int>.self) == .optional)
        #expect(RuntimeAccess.shape(of: (Int, String).self) == .tuple)
        #expect(RuntimeAccess.shape(of: (() -> Void).self) == .function)
        #expect(RuntimeAccess.shape(of: Any.self) == .existential)
        #expect(RuntimeAccess.shape(of: (any AMCCodable).self) == .existential)
        #expect(RuntimeAccess.shape(of: AnyObject.self) == .existential)
        #expect(RuntimeAccess.shape(of: Int.Type.self) == .metatype)
    }

    private func load<Root>(_ field: RuntimeField, in instance: Root) -> Any {
        RuntimeAccess.withFieldBase(of: instance) { RuntimeAccess.load(field.type, at: field.offset, from: $0) }
    }

    @Test func loadReadsEveryStrongFieldOfClassesAndStructs() {
        let object = Derived()
        let fields = RuntimeAccess.fields(of: Derived.self)
        #expect(load(fields[0], in: object) as? Int8 == 1)
        #expect(load(fields[1], in: object) as? String == "bee")
        #expect(load(fields[3], in: object) as? Double == 2.5)
        #expect(load(fields[4], in: object) as? [Int] == [1, 2])

        let plain = Plain()
        let plainFields = RuntimeAccess.fields(of: Plain.self)
        #expect(load(plainFields[1], in: plain) as? String? == "why")
        #expect(load(plainFields[2], in: plain) as? UInt64 == .max)
        #expect(load(plainFields[3], in: plain) as? Int == 5)
    }

    /// The encoder walks an array of objects in place: every element, in order, each still held
    /// by the array alone once the walk is over (nothing copied out is kept or leaked), by the
    /// generic walk and by the one for arrays of class instances.
    @Test func forEachElementWalksAnArrayFieldInPlace() {
        let owner = Derived()
        let fields = RuntimeAccess.fields(of: Derived.self)
        var seen: [Int] = []
        RuntimeAccess.withFieldBase(of: owner) { base in
            RuntimeAccess.forEachElement(of: [Int].self, at: fields[4].offset, from: base) { seen.append($0) }
        }
        #expect(seen == [1, 2])

        let folder = Folder()
        folder.items = (0..<3).map { index in
            let item = Item()
            item.title = "item \(index)"
            return item
        }
        let offset = RuntimeAccess.fields(of: Folder.self).first { $0.name == "items" }!.offset
        var titles: [String] = []
        RuntimeAccess.withFieldBase(of: folder) { base in
            RuntimeAccess.forEachElement(of: [Item].self, at: offset, from: base) { titles.append($0.title) }
        }
        #expect(titles == ["item 0", "item 1", "item 2"])
        // The walk for arrays of class instances reads the same elements, in the same order,
        // each with its own identity.
        var walked: [ObjectIdentifier] = []
        var identities: [ObjectIdentifier] = []
        RuntimeAccess.withFieldBase(of: folder) { base in
            RuntimeAccess.forEachObject(of: [Item].self, at: offset, from: base) { identity, item in
                walked.append(ObjectIdentifier(item.pointee))
                identities.append(identity)
            }
        }
        #expect(walked == folder.items.map(ObjectIdentifier.init))
        #expect(identities == walked)
        weak let first = folder.items[0]
        folder.items = []
        #expect(first == nil)
    }

    @Test func theFieldBaseOfAClassInstanceIsTheObjectItself() {
        let object = Derived()
        #expect(RuntimeAccess.withFieldBase(of: object) { $0.isAddress(of: object) })
        #expect(!RuntimeAccess.withFieldBase(of: object) { $0.isAddress(of: Derived()) })
        #expect(RuntimeAccess.identity(of: object) == ObjectIdentifier(object))
        #expect(RuntimeAccess.identity(of: Plain()) == nil)
    }

    /// An object held as `AnyObject` and given back as its class, or a superclass, is the same
    /// object, kept alive by what holds it; a value is refused before anything is cast.
    @Test func anObjectHeldAsAnyObjectComesBackAsItself() async {
        weak var released: Derived?
        var held: [AnyObject] = []
        var identity: ObjectIdentifier?
        do {
            let object = Derived()
            released = object
            identity = ObjectIdentifier(object)
            held.append(RuntimeAccess.object(of: object))
            held.append(RuntimeAccess.object(of: object as Base))  // added as its superclass
        }
        #expect(released != nil && held.allSatisfy { ObjectIdentifier($0) == identity })
        do {
            let derived = RuntimeAccess.instance(Derived.self, of: held[0])
            let base = RuntimeAccess.instance(Base.self, of: held[1])
            #expect(ObjectIdentifier(derived) == identity && ObjectIdentifier(base) == identity)
            #expect(derived.c == 2.5 && base.b == "bee")
            held.removeAll()
            #expect(released != nil)  // `derived` and `base` still hold it
        }
        #expect(released == nil)  // and nothing else does: none of the casts kept it
        await #expect(processExitsWith: .failure) { _ = RuntimeAccess.object(of: Plain()) }
    }

    /// Fields of a class instance read and written by offset, and objects appended to its
    /// array of a superclass as `AnyObject`s: the array reads back as its own type, holds each
    /// object once, and releases them with itself.
    @Test func fieldsOfAnObjectAreReadWrittenAndAppendedToInPlace() throws {
        let fields = RuntimeAccess.fields(of: ObjectShelf.self)
        let items = try #require(fields.first { $0.name == "items" }).offset
        let title = try #require(fields.first { $0.name == "title" }).offset
        let count = try #require(fields.first { $0.name == "count" }).offset
        weak var released: Derived?
        do {
            let shelf = ObjectShelf()
            #expect(RuntimeAccess.read(String.self, at: title, of: shelf) == "old")
            RuntimeAccess.write("new title, longer than a small string", at: title, of: shelf)
            RuntimeAccess.write(7, at: count, of: shelf)
            #expect(shelf.title == "new title, longer than a small string" && shelf.count == 7)
            let object = Derived()
            released = object
            var asked = 0
            var full = 0
            for _ in 0..<5 {
                if shelf.items.count == shelf.items.capacity { full += 1 }
                RuntimeAccess.append(object, toObjectArrayAt: items, of: shelf) {
                    asked += 1
                    return 4
                }
                // Room for 4, given when it was first full, is there at once.
                if asked == 1 { #expect(shelf.items.capacity >= 4) }
            }
            var root = shelf
            RuntimeAccess.append(Base(), toObjectArrayAt: items, in: &root)
            #expect(shelf.items.count == 7 && shelf.items[1...5].allSatisfy { $0 === object })
            #expect(shelf.items[6].b == "bee" && (shelf.items[1] as? Derived)?.c == 2.5)
            // Room is asked only when the array is full.
            #expect(asked == full && asked >= 1)
        }
        #expect(released == nil)
    }

    /// A root whose static type is an existential (a generic parameter bound to `any AMCCodable`;
    /// Swift opens a plain existential argument by itself) would have its box written as if it
    /// were the value: field access traps instead.
    @Test func fieldAccessThroughAnExistentialTraps() async {
        await #expect(processExitsWith: .failure) { storeIntoFirst(of: [Point3()] as [any AMCCodable]) }
        await #expect(processExitsWith: .failure) { readFirst(of: [Point3()] as [Any]) }
        // Opened, the same value is written as itself.
        var opened: any AMCCodable = Point3()
        #expect(RuntimeAccess.store(4.0, as: Double.self, at: 0, in: &opened))
        #expect((opened as? Point3)?.x == 4)
    }

    @Test func storeWritesClassFieldsInPlaceAndReleasesTheOldValue() {
        var object = Derived()
        let fields = RuntimeAccess.fields(of: Derived.self)
        weak var released: Base?
        do {
            let old = Base()
            released = old
            RuntimeAccess.store([old], as: [Int].self, at: 0, in: &object).expectFalse()
            #expect(RuntimeAccess.store([9, 8], as: fields[4].type, at: fields[4].offset, in: &object))
            #expect(object.dValue == [9, 8])
        }
        #expect(released == nil)
        #expect(RuntimeAccess.store(Int8(-3), as: fields[0].type, at: fields[0].offset, in: &object))
        #expect(object.a == -3)
        // A value of another type is refused and nothing is written.
        #expect(!RuntimeAccess.store("no", as: fields[3].type, at: fields[3].offset, in: &object))
        #expect(object.c == 2.5)
    }

    @Test func storeWritesStructFieldsIncludingOptionalsAndExistentials() {
        var plain = Plain()
        let fields = RuntimeAccess.fields(of: Plain.self)
        #expect(RuntimeAccess.store(Int16(-1), as: fields[0].type, at: fields[0].offset, in: &plain))
        #expect(RuntimeAccess.store(String?.none as Any, as: fields[1].type, at: fields[1].offset, in: &plain))
        #expect(RuntimeAccess.store("wrapped", as: fields[3].type, at: fields[3].offset, in: &plain))
        #expect(plain.x == -1 && plain.y == nil && plain.any as? String == "wrapped")
        #expect(RuntimeAccess.store("some", as: fields[1].type, at: fields[1].offset, in: &plain))
        #expect(plain.y == "some")
    }

    /// A value of exactly the field's type is stored without `as?`; one that `as?` makes the
    /// field's type (a subclass, a value into an optional, into an existential) still is, and one
    /// it does not is refused.
    @Test func storeTakesWhatTheFieldsTypeHolds() {
        final class Holder {
            var base: Base = Base()
            var maybe: Base?
            var any: Any = 0
        }
        var holder = Holder()
        let fields = RuntimeAccess.fields(of: Holder.self)
        let derived = Derived()
        #expect(RuntimeAccess.store(derived, as: fields[0].type, at: fields[0].offset, in: &holder))
        #expect(RuntimeAccess.store(derived, as: fields[1].type, at: fields[1].offset, in: &holder))
        #expect(RuntimeAccess.store(derived, as: fields[2].type, at: fields[2].offset, in: &holder))
        #expect(holder.base === derived && holder.maybe === derived && holder.any as? Derived === derived)
        let base = Base()
        #expect(RuntimeAccess.store(base, as: fields[0].type, at: fields[0].offset, in: &holder) && holder.base === base)
        #expect(!RuntimeAccess.store(Plain(), as: fields[0].type, at: fields[0].offset, in: &holder))
        #expect(holder.base === base)
        // An optional of exactly the field's type, nil, takes the exact path.
        #expect(RuntimeAccess.store(Base?.none as Any, as: fields[1].type, at: fields[1].offset, in: &holder))
        #expect(holder.maybe == nil)
    }

    @Test func fieldRecordsSayHowEachReferenceIsHeld() {
        let fields = RuntimeAccess.fields(of: GenericOwners<Int>.self)
        #expect(fields.map(\.name) == ["strong", "weakTarget", "value", "owner", "maybe", "bare", "named", "anything"])
        #expect(fields.map(\.ownership) == [.strong, .weak, .strong, .unowned, .unowned, .unmanaged, .weak, .weak])
        #expect(RuntimeAccess.fields(of: WeakPair.self).map(\.ownership) == [.strong, .weak])
        #expect(RuntimeAccess.fields(of: Derived.self).map(\.ownership) == [.strong, .strong, .weak, .strong, .strong, .strong])
    }

    @Test func storeReferenceAssignsAsThePropertyWould() throws {
        let first = Target("first")
        var object = GenericOwners<String>(first)
        let fields = Dictionary(uniqueKeysWithValues: RuntimeAccess.fields(of: GenericOwners<String>.self).map { ($0.name, $0) })
        func store(_ target: AnyObject, _ name: String) -> Bool {
            let field = fields[name]!
            return RuntimeAccess.storeReference(
                target, as: field.type, ownership: field.ownership!, at: field.offset, in: &object)
        }
        weak var released: Target?
        do {
            let second = Target("second")
            released = second
            for name in ["weakTarget", "owner", "maybe", "bare", "named", "anything"] { #expect(store(second, name), "\(name)") }
            #expect(object.weakTarget === second && object.owner === second && object.maybe === second)
            #expect(object.bare === second && object.named?.label == "second" && object.anything === second)
            for name in ["owner", "maybe", "bare"] { #expect(store(first, name)) }
        }
        // None of them kept the object alive; the weak ones read nil now.
        #expect(released == nil && object.weakTarget == nil && object.named == nil && object.anything == nil)
        #expect(object.owner === first && object.maybe === first && object.bare === first)
        // An object of another type, or a strong field, is refused and nothing is written.
        #expect(!store(Owners(), "owner") && object.owner === first)
        let strong = fields["strong"]!
        #expect(!RuntimeAccess.storeReference(first, as: strong.type, ownership: .strong, at: strong.offset, in: &object))
        #expect(object.strong.label == "strong")
    }

    @Test func loadReferenceReadsAsThePropertyWould() throws {
        let first = Target("first")
        let second = Target("second")
        let object = GenericOwners<String>(first)
        object.weakTarget = second
        object.named = second
        object.anything = second
        object.maybe = first
        object.bare = first
        let fields = Dictionary(uniqueKeysWithValues: RuntimeAccess.fields(of: GenericOwners<String>.self).map { ($0.name, $0) })
        func load(_ name: String) -> AnyObject? {
            let field = fields[name]!
            return RuntimeAccess.withFieldBase(of: object) { base in
                RuntimeAccess.loadReference(ownership: field.ownership!, at: field.offset, from: base)
            }
        }
        // weak (a class, a class-bound protocol, AnyObject), unowned, unowned optional, unowned(unsafe).
        for name in ["weakTarget", "named", "anything"] { #expect(load(name) === second, "\(name)") }
        for name in ["owner", "maybe", "bare"] { #expect(load(name) === first, "\(name)") }
        #expect(load("strong") == nil)  // not a weak or unowned field
        object.maybe = nil
        object.weakTarget = nil
        #expect(load("maybe") == nil && load("weakTarget") == nil)
        withExtendedLifetime((first, second)) {}
    }

    @Test func storeReferenceWritesStructsInPlace() throws {
        let target = Target("t")
        var pair = WeakPair()
        let field = try #require(RuntimeAccess.fields(of: WeakPair.self).last)
        #expect(RuntimeAccess.storeReference(target, as: field.type, ownership: .weak, at: field.offset, in: &pair))
        #expect(pair.target === target && pair.number == 1)
        withExtendedLifetime(target) {}
    }

    @Test func weakFieldsAreReadThroughMirror() {
        let plan = TypePlan.of(ReadOnly.self)
        let object = ReadOnly()
        let friend = Node()
        object.weakFriend = friend
        let field = try! #require(plan.fieldsByName["weakFriend"])
        #expect(!field.isWritable)
        #expect((field.value(in: object) as? Node?)??.value == 0)
        withExtendedLifetime(friend) {}
    }
}

private func storeIntoFirst<T>(of items: [T]) {
    var items = items
    _ = RuntimeAccess.store(1.0, as: Double.self, at: 0, in: &items[0])
}

private func readFirst<T>(of items: [T]) {
    RuntimeAccess.withFieldBase(of: items[0]) { _ in }
}

extension Bool {
    fileprivate func expectFalse(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!self, sourceLocation: sourceLocation)
    }
}
