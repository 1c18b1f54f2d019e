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
        #expect(fields.map(\.offset) == [
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
        #expect(load(plainFields[1], in: plain) as? Optional<String> == "why")
        #expect(load(plainFields[2], in: plain) as? UInt64 == .max)
        #expect(load(plainFields[3], in: plain) as? Int == 5)
    }

    @Test func theFieldBaseOfAClassInstanceIsTheObjectItself() {
        let object = Derived()
        let base = RuntimeAccess.withFieldBase(of: object) { $0.address }
        #expect(base == UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
        #expect(RuntimeAccess.identity(of: object) == ObjectIdentifier(object))
        #expect(RuntimeAccess.identity(of: Plain()) == nil)
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
    _ = RuntimeAccess.withFieldBase(of: items[0]) { $0.address }
}

private extension Bool {
    func expectFalse(sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!self, sourceLocation: sourceLocation)
    }
}
