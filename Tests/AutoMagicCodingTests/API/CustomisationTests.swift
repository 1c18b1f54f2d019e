import Foundation
import Testing

@testable import AutoMagicCoding

final class Renamed: AMCCodable {
    static var amcClassName: String { "LegacyName" }
    var v = 1
    required init() {}
}

/// Keys that differ from one instance of the type to the next: odd serial numbers leave
/// `detail` out.
final class KeysByInstance: AMCCodable {
    nonisolated(unsafe) static var made = 0
    nonisolated(unsafe) static var keysAsked = 0
    let serial: Int
    var name = "", detail = ""
    var amcKeys: [String] {
        Self.keysAsked += 1
        return serial.isMultiple(of: 2) ? ["name", "detail"] : ["name"]
    }
    required init() {
        Self.made += 1
        serial = Self.made
    }
}

/// A shelf of ``KeysByInstance`` and of objects that keep the default keys, side by side.
final class KeysShelf: AMCCodable {
    var items: [KeysByInstance] = []
    var plain: [Shelf] = []
    required init() {}
}

@Suite("Customisation points and the class registry")
struct CustomisationTests {
    init() { Fixtures.register() }

    @Test func amcKeysChoosesAndOrdersFieldsAndSubclassesExtendIt() throws {
        let child = ConfiguredChild()
        child.kept = 10
        child.skipped = 20
        child.extra = "e"
        let dict = try child.dictionaryRepresentation()
        #expect(Set(dict.keys) == ["class", "kept", "extra"])
        let copy = try #require(
            try AMC.object(
                Configured.self,
                from: [
                    "class": "ConfiguredChild", "kept": 3,
                    "skipped": 4, "extra": "z",
                ]))
        #expect(copy is ConfiguredChild)
        #expect(copy.kept == 3 && copy.skipped == 2)
        #expect((copy as? ConfiguredChild)?.extra == "z!")
        #expect(copy.decodedCount == 1)
    }

    /// `amcKeys` is asked of every object, once, not once per type: objects of one type in a row
    /// may each have keys of their own, both ways, beside objects of a type that keeps the default.
    @Test func amcKeysIsAskedOfEveryObjectEvenInARunOfOneType() throws {
        AMC.register(KeysByInstance.self, KeysShelf.self, Shelf.self)
        let shelf = KeysShelf()
        for index in 0..<4 {
            let item = KeysByInstance()
            (item.name, item.detail) = ("n\(index)", "d\(index)")
            shelf.items.append(item)
            shelf.plain.append(Shelf())
        }
        KeysByInstance.keysAsked = 0
        let written = try #require(try shelf.dictionaryRepresentation()["items"] as? [[String: Any]])
        #expect(KeysByInstance.keysAsked == 4)
        #expect(written.map { $0["detail"] as? String } == shelf.items.map { $0.serial.isMultiple(of: 2) ? $0.detail : nil })

        let entries: [[String: Any]] = (0..<4).map { ["class": "KeysByInstance", "name": "m\($0)", "detail": "e\($0)"] }
        KeysByInstance.keysAsked = 0
        let read = try #require(try AMC.object(KeysShelf.self, from: ["class": "KeysShelf", "items": entries]))
        #expect(KeysByInstance.keysAsked == 4)
        #expect(read.items.map(\.detail) == read.items.enumerated().map { $1.serial.isMultiple(of: 2) ? "e\($0)" : "" })
        #expect(read.items.map(\.name) == ["m0", "m1", "m2", "m3"])
    }

    @Test func amcDidDecodeRunsAfterEveryFieldIsSet() throws {
        let copy = try #require(try AMC.object(Configured.self, from: ["kept": 1]))
        #expect(copy.decodedCount == 1)
    }

    @Test func aKeyInAmcKeysThatIsNoStoredPropertyThrowsOnEncode() {
        let error = expectAMCError { _ = try WrongKeys().dictionaryRepresentation() }
        #expect(error == AMCError(.unknownKey(key: "imaginary", typeName: "WrongKeys"), keyPath: "imaginary"))
        #expect(error?.description == "At \"imaginary\": WrongKeys has no stored property \"imaginary\".")
    }

    @Test func amcClassNameIsWrittenAndRegisteredUnderThatName() throws {
        AMC.register(Renamed.self)
        let dict = try Renamed().dictionaryRepresentation()
        #expect(dict["class"] as? String == "LegacyName")
        #expect(try AMC.object(from: ["class": "LegacyName", "v": 5]) is Renamed)
    }

    @Test func defaultClassNameIsTheUnqualifiedTypeName() {
        #expect(Dog.amcClassName == "Dog")
        #expect(Point3.amcClassName == "Point3")
    }

    @Test func unregisteredClassesAreNeverInstantiatedFromData() {
        let before = Unregistered.instances
        let topLevel = expectAMCError { _ = try AMC.object(from: ["class": "Unregistered", "x": 1]) }
        #expect(topLevel == AMCError(.unregisteredClass(className: "Unregistered")))
        #expect(
            topLevel?.description == "At the root: class \"Unregistered\" is not registered; "
                + "call AMC.register(Unregistered.self) before decoding it.")
        _ = try? AMC.object(Zoo.self, from: ["star": ["class": "Unregistered"], "anything": [["class": "Unregistered"]]])
        _ = try? AMC.object(Animal.self, from: ["class": "Unregistered"])
        #expect(Unregistered.instances == before)
    }

    @Test func theStaticallyExpectedTypeIsInstantiatedWithoutRegistration() throws {
        let object = try AMC.object(UnregisteredButExpected.self, from: ["class": "UnregisteredButExpected", "x": 4])
        #expect(object?.x == 4)
    }

    @Test func topLevelDecodingOfAnUnrelatedOrMissingClassThrows() {
        let unrelated = expectAMCError { _ = try AMC.object(Dog.self, from: ["class": "Cat"]) }
        #expect(unrelated == AMCError(.unrelatedClass(className: "Cat", expected: "Dog")))
        let missing = expectAMCError { _ = try AMC.object(from: ["name": "x"]) }
        #expect(missing == AMCError(.missingClassName))
        let notAString = expectAMCError { _ = try AMC.object(from: ["class": 5]) }
        #expect(notAString?.kind == .typeMismatch(expected: "a class name string under \"class\"", found: "the number 5"))
    }

    @Test func registrationIsSafeFromManyThreadsAtOnce() async throws {
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for _ in 0..<200 {
                        AMC.register(Dog.self, Cat.self)
                        _ = try? AMC.object(from: ["class": "Dog"])
                    }
                }
            }
        }
        #expect(try AMC.object(from: ["class": "Cat"]) is Cat)
    }
}

enum Shop {
    final class Item: AMCCodable {
        var price = 0
        required init() {}
    }
}

enum Quest {
    final class Item: AMCCodable {
        var power = 0
        required init() {}
    }
}

final class Inventory: AMCCodable {
    var things: [Any] = []
    required init() {}
}

extension CustomisationTests {
    /// `Shop.Item` and `Quest.Item` are both `"Item"` by default: reported when registered,
    /// and never decoded as each other.
    @Test func twoTypesWithOneClassNameAreReportedAndNeverDecodedAsEachOther() throws {
        let registry = AMCRegistry()
        let reported = heard { registry.register(Shop.Item.self, Quest.Item.self, Inventory.self) }
        #expect(reported.map(\.kind) == [.ambiguousClassName(className: "Item", typeNames: ["Shop.Item", "Quest.Item"])])
        var archiver = AMCArchiver()
        archiver.registry = registry
        let data: [String: Any] = ["class": "Inventory", "things": [["class": "Item", "price": 3]]]
        let error = expectAMCError { _ = try archiver.object(from: data) }
        #expect(error?.keyPath == "things[0]")
        #expect(
            error?.description == "At \"things[0]\": class name \"Item\" is used by Shop.Item and Quest.Item; "
                + "give each its own static var amcClassName (\"ShopItem\", say).")
        // Where the type is known, it decides.
        #expect(try archiver.object(Shop.Item.self, from: ["class": "Item", "price": 3])?.price == 3)
        #expect(registry.type(named: "Item") == nil && registry.type(named: "Inventory") == Inventory.self)
        // Registering the same type again is no collision.
        #expect(heard { registry.register(Inventory.self) }.isEmpty)
    }
}
