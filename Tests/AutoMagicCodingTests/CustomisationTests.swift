import Foundation
import Testing
@testable import AutoMagicCoding

final class Renamed: AMCCodable {
    static var amcClassName: String { "LegacyName" }
    var v = 1
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
        let copy = try #require(try AMC.object(Configured.self, from: ["class": "ConfiguredChild", "kept": 3,
                                                                        "skipped": 4, "extra": "z"]))
        #expect(copy is ConfiguredChild)
        #expect(copy.kept == 3 && copy.skipped == 2)
        #expect((copy as? ConfiguredChild)?.extra == "z!")
        #expect(copy.decodedCount == 1)
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
        #expect(topLevel?.description == "At the root: class \"Unregistered\" is not registered; "
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
