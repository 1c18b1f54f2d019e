import Foundation
import Testing

@testable import AutoMagicCoding

/// Encodes `value`, decodes the dictionary back as `T`, and returns both.
func roundTrip<T: AMCCodable>(
    _ value: T, sourceLocation: SourceLocation = #_sourceLocation
) throws -> (dictionary: [String: Any], copy: T) {
    Fixtures.register()
    let dictionary = try value.dictionaryRepresentation()
    let copy = try #require(try AMC.object(T.self, from: dictionary), sourceLocation: sourceLocation)
    return (dictionary, copy)
}

@Suite("Round trips in memory")
struct RoundTripTests {
    @Test func everyScalarKindKeepsItsValue() throws {
        let original = AllScalars()
        let (dict, copy) = try roundTrip(original)
        #expect(dict["class"] as? String == "AllScalars")
        #expect(copy.string == "héllo 🌍")
        #expect(copy.bool == true)
        #expect(copy.int == -42)
        #expect(copy.int8 == -8 && copy.int16 == -16 && copy.int32 == -32)
        #expect(copy.int64 == .min)
        #expect(copy.uint == 7 && copy.uint8 == 255 && copy.uint16 == 16 && copy.uint32 == 32)
        #expect(copy.uint64 == .max)
        #expect(copy.float == 0.1)
        #expect(copy.double == 3.25)
        #expect(copy.cgFloat == 1.5)
        #expect(copy.date == original.date)
        #expect(copy.data == Data([0, 1, 2, 255]))
        #expect(copy.url == original.url)
        #expect(copy.uuid == original.uuid)
        #expect(copy.suit == .spades)
        #expect(copy.level == .high)
        #expect(copy.flags == [.bold, .italic])
        #expect(copy.character == "é")
    }

    /// The types most fields have, each plain and optional, set and `nil`, side by side, in every
    /// format and in a dictionary representation (an optional written as a plain value would
    /// stay `nil`).
    @Test func commonScalarsAndTheirOptionalsComeBackSideBySide() throws {
        AMC.register(SideBySide.self)
        let set = SideBySide()
        (set.string, set.optionalString, set.int, set.optionalInt, set.flag) = ("a", "b", -3, 4, true)
        (set.double, set.optionalDouble, set.bool, set.optionalBool) = (0.5, -2.25, true, false)
        (set.date, set.optionalDate, set.last) = (
            Date(timeIntervalSinceReferenceDate: 7), Date(timeIntervalSinceReferenceDate: -8), 9
        )
        let empty = SideBySide()
        (empty.string, empty.int, empty.double, empty.bool, empty.date, empty.last) = ("", 0, 0, false, .distantPast, 0)
        for original in [set, empty] {
            var copies = [try roundTrip(original).copy]
            for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
                copies.append(try #require(try AMC.object(SideBySide.self, from: AMC.data(for: original, format: format))))
            }
            for copy in copies {
                #expect(copy.string == original.string && copy.optionalString == original.optionalString)
                #expect(copy.int == original.int && copy.optionalInt == original.optionalInt && copy.flag == original.flag)
                #expect(copy.double == original.double && copy.optionalDouble == original.optionalDouble)
                #expect(copy.bool == original.bool && copy.optionalBool == original.optionalBool)
                #expect(copy.date == original.date && copy.optionalDate == original.optionalDate && copy.last == original.last)
            }
        }
    }

    @Test func scalarsAreStoredAsPlainValuesInTheDictionary() throws {
        let dict = try AllScalars().dictionaryRepresentation()
        #expect(dict["url"] as? String == "https://example.com/a?b=c")
        #expect(dict["uuid"] as? String == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
        #expect(dict["suit"] as? String == "spades")
        #expect(dict["level"] as? Int == 9)
        #expect(dict["flags"] as? Int == 3)
        #expect(dict["int8"] as? Int == -8)
        #expect(dict["uint64"] as? UInt64 == .max)
        #expect(dict["date"] as? Date == Date(timeIntervalSince1970: 1_000_000))
        #expect(dict["character"] as? String == "é")
    }

    @Test func nilOptionalsAreLeftOutAndMissingKeysKeepDefaults() throws {
        let empty = Optionals()
        let dict = try empty.dictionaryRepresentation()
        #expect(dict.keys.sorted() == ["class"])

        let full = Optionals()
        full.name = "n"
        full.count = 0
        full.tags = []
        full.child = Optionals()
        full.child?.count = 3
        let (fullDict, copy) = try roundTrip(full)
        #expect(Set(fullDict.keys) == ["class", "name", "count", "tags", "child"])
        #expect(copy.name == "n" && copy.count == 0 && copy.tags == [])
        #expect(copy.child?.count == 3 && copy.child?.name == nil)
    }

    @Test func threeLevelHierarchyKeepsEveryLevelsFieldsInOrder() throws {
        let dog = Dog()
        dog.name = "Rex"
        dog.secretValue = 7
        dog.legs = 3
        dog.breed = "collie"
        #expect(dog.amcKeys == ["name", "secret", "legs", "breed"])
        let (dict, copy) = try roundTrip(dog)
        #expect(dict["class"] as? String == "Dog")
        #expect(copy.name == "Rex" && copy.secretValue == 7 && copy.legs == 3 && copy.breed == "collie")
    }

    @Test func baseTypedPropertiesAndElementsDecodeAsTheNamedSubclass() throws {
        let zoo = Zoo()
        let dog = Dog()
        dog.breed = "pug"
        let cat = Cat()
        cat.indoor = false
        zoo.star = dog
        zoo.animals = [cat, dog, Animal()]
        zoo.byName = ["tom": cat]
        zoo.nested = [[dog], [], [cat, cat]]
        let (_, copy) = try roundTrip(zoo)
        #expect((copy.star as? Dog)?.breed == "pug")
        #expect(copy.animals.map { String(describing: type(of: $0)) } == ["Cat", "Dog", "Animal"])
        #expect((copy.byName["tom"] as? Cat)?.indoor == false)
        #expect(copy.nested.map(\.count) == [1, 0, 2])
        #expect(copy.nested[2][1] is Cat)
    }

    @Test func typesWithMoreThanSixtyFourFieldsDecodeEveryField() throws {
        AMC.register(Wide.self, Node.self)
        let wide = Wide()
        wide.f0 = 1
        wide.f63 = 63
        wide.f64 = 64
        wide.f69 = 69
        wide.late = "late"
        wide.lateChild = Node.chain(length: 2)
        wide.lateTags = ["a", "b"]
        var (dict, copy) = try roundTrip(wide)
        #expect([copy.f0, copy.f63, copy.f64, copy.f69] as [Int] == [1, 63, 64, 69])
        #expect(copy.late == "late" && copy.lateTags == ["a", "b"])
        #expect(copy.lateChild?.next?.value == 1)
        dict["f68"] = "0x10"  // converted on the general path, past the first pass
        dict["f2"] = "7"
        copy = try #require(try AMC.object(Wide.self, from: dict))
        #expect(copy.f68 == 16 && copy.f2 == 7)
        dict["f66"] = "many"
        let error = expectAMCError { _ = try AMC.object(Wide.self, from: dict) }
        #expect(error?.keyPath == "f66")
        // Through files: a parsed document's fields are found by key number, past 64 too, `let`s
        // among them.
        for format in [AMCFormat.json, .binaryPropertyList] {
            let data = try AMC.data(for: wide, format: format)
            let file = try #require(try AMC.object(Wide.self, from: data))
            #expect(file.lateID == wide.lateID, "\(format)")
            var altered = try #require(
                format == .json
                    ? try JSONSerialization.jsonObject(with: data) as? [String: Any]
                    : try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
            altered["lateKind"] = "narrow"
            let alteredData =
                format == .json
                ? try JSONSerialization.data(withJSONObject: altered)
                : try PropertyListSerialization.data(fromPropertyList: altered, format: .binary, options: 0)
            let contradicted = expectAMCError { _ = try AMC.object(Wide.self, from: alteredData) }
            #expect(contradicted?.kind == .unrestorableLet(key: "lateKind", typeName: "Wide"), "\(format)")
            #expect([file.f0, file.f63, file.f64, file.f69] as [Int] == [1, 63, 64, 69], "\(format)")
            #expect(file.late == "late" && file.lateTags == ["a", "b"] && file.lateChild?.next?.value == 1, "\(format)")
        }
    }

    @Test func heterogeneousCollectionsOfCollectionsOfObjects() throws {
        let zoo = Zoo()
        let dog = Dog()
        dog.name = "d"
        zoo.anything = [1, "two", 3.5, true, [dog, ["deep": [Cat()]]], ["plain": 1], Data([9])]
        zoo.table = ["dogs": [dog], "n": 2, "inner": ["x": "y"]]
        let (_, copy) = try roundTrip(zoo)
        #expect(copy.anything.count == 7)
        #expect(copy.anything[0] as? Int == 1)
        #expect(copy.anything[1] as? String == "two")
        #expect(copy.anything[2] as? Double == 3.5)
        #expect(copy.anything[3] as? Bool == true)
        let inner = try #require(copy.anything[4] as? [Any])
        #expect((inner[0] as? Dog)?.name == "d")
        let deep = try #require(inner[1] as? [String: Any])
        #expect((deep["deep"] as? [Any])?.first is Cat)
        #expect((copy.anything[5] as? [String: Any])?["plain"] as? Int == 1)
        #expect(copy.anything[6] as? Data == Data([9]))
        #expect(((copy.table["dogs"] as? [Any])?.first as? Dog)?.name == "d")
        #expect((copy.table["inner"] as? [String: Any])?["x"] as? String == "y")
    }

    @Test func setsAndNestedStructs() throws {
        let zoo = Zoo()
        zoo.uniqueNumbers = [3, 1, 2]
        let (dict, copy) = try roundTrip(zoo)
        #expect((dict["uniqueNumbers"] as? [Int])?.sorted() == [1, 2, 3])
        #expect(copy.uniqueNumbers == [1, 2, 3])

        var settings = Settings()
        settings.volume = 11
        settings.point = Point3(x: 1, y: 2, z: 3)
        let (settingsDict, settingsCopy) = try roundTrip(settings)
        #expect((settingsDict["point"] as? [String: Any])?["class"] as? String == "Point3")
        #expect(settingsCopy == settings)
    }

    @Test func customCollections() throws {
        let library = Library()
        library.playlist = Playlist(amcElements: ["x", "y", "z"])
        library.roster = Roster(amcEntries: ["a": 1, "b": 2])
        let (dict, copy) = try roundTrip(library)
        #expect(dict["playlist"] as? [String] == ["x", "y", "z"])
        #expect(dict["roster"] as? [String: Int] == ["a": 1, "b": 2])
        #expect(copy.playlist.songs == ["x", "y", "z"])
        #expect(copy.roster == Roster(amcEntries: ["a": 1, "b": 2]))
    }

    @Test func repeatedObjectsAreEncodedAtEachPlace() throws {
        let shared = Node()
        shared.value = 5
        let root = Node()
        root.children = [shared, shared]
        let (_, copy) = try roundTrip(root)
        #expect(copy.children.map(\.value) == [5, 5])
    }

    @Test func tenThousandObjectGraph() throws {
        let root = Node()
        root.children = (0..<10_000).map { index in
            let node = Node()
            node.value = index
            return node
        }
        let (_, copy) = try roundTrip(root)
        #expect(copy.children.count == 10_000)
        #expect(copy.children.map(\.value) == Array(0..<10_000))
    }

    @Test func loadValueSetsOneFieldOnClassesAndStructs() throws {
        let node = Node()
        try node.loadValue(forKey: "value", from: ["value": 17, "next": ["value": 1]])
        #expect(node.value == 17)
        #expect(node.next == nil)
        try node.loadValue(forKey: "next", from: ["value": 17, "next": ["class": "Node", "value": 1]])
        #expect(node.next?.value == 1)
        try node.loadValue(forKey: "children", from: [:])
        #expect(node.children.isEmpty)

        var settings = Settings()
        try settings.loadValue(forKey: "volume", from: ["volume": "8"])
        #expect(settings.volume == 8)
    }

    @Test func objectFromDictionaryPicksTheRegisteredClass() throws {
        Fixtures.register()
        let any = try AMC.object(from: ["class": "Cat", "name": "Tom", "indoor": false])
        let cat = try #require(any as? Cat)
        #expect(cat.name == "Tom" && cat.indoor == false)
        let noClass = try AMC.object(Dog.self, from: ["breed": "pug"])
        #expect(noClass?.breed == "pug")
        let sub = try AMC.object(Animal.self, from: ["class": "Dog", "breed": "pug"])
        #expect((sub as? Dog)?.breed == "pug")
    }
}

/// Each common scalar type beside its optional (`nil` at first), the plain ones set to values
/// other than their defaults (see `commonScalarsAndTheirOptionalsComeBackSideBySide`).
final class SideBySide: AMCCodable {
    var string = "x", optionalString: String?
    var int = 1, optionalInt: Int?
    var flag = false
    var double = 1.5, optionalDouble: Double?
    var bool = false, optionalBool: Bool?
    var date = Date(timeIntervalSinceReferenceDate: 1), optionalDate: Date?
    var last: Int8 = 5
    required init() {}
}
