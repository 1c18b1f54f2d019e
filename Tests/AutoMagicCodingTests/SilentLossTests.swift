import Foundation
import Testing

@testable import AutoMagicCoding

/// A player whose optionals start with values: a nil saved must come back nil, not the default.
final class Gamer: AMCCodable {
    var name = "Ada"
    var title: String? = "Novice"
    var lastLogin: Date? = Date(timeIntervalSinceReferenceDate: 700_000_000)
    var score: Int? = 0
    var mentor: Gamer?
    var sidekick: GamerBadge? = GamerBadge()
    var nickname: String?
    required init() {}
}

final class GamerBadge: AMCCodable {
    var label = "first steps"
    required init() {}
}

@Suite("What you save is what you load: nils, edits next to references, limits, long numbers")
struct SilentLossTests {
    init() { AMC.register(Gamer.self, GamerBadge.self) }

    static let formats: [AMCFormat] = [.json, .xmlPropertyList, .binaryPropertyList]

    @Test(arguments: formats)
    func aNilOptionalWithAnInitialValueComesBackNil(format: AMCFormat) throws {
        let player = Gamer()
        player.title = nil
        player.lastLogin = nil
        player.score = nil
        player.sidekick = nil
        let read = try #require(try AMC.object(Gamer.self, from: try AMC.data(for: player, format: format)))
        #expect(read.title == nil)
        #expect(read.lastLogin == nil)
        #expect(read.score == nil)
        #expect(read.sidekick == nil)
        #expect(read.name == "Ada")

        let fromDictionary = try #require(try AMC.object(Gamer.self, from: try player.dictionaryRepresentation()))
        #expect(fromDictionary.title == nil && fromDictionary.lastLogin == nil && fromDictionary.sidekick == nil)
    }

    @Test(arguments: formats)
    func valuesInOptionalsWithInitialValuesStillComeBack(format: AMCFormat) throws {
        let player = Gamer()
        player.title = "Champion"
        player.score = 12
        player.nickname = "A"
        let read = try #require(try AMC.object(Gamer.self, from: try AMC.data(for: player, format: format)))
        #expect(read.title == "Champion")
        #expect(read.score == 12)
        #expect(read.nickname == "A")
        #expect(read.sidekick?.label == "first steps")
    }

    @Test func aNilIsNullInJSONAndListedUnderNilInPropertyLists() throws {
        let player = Gamer()
        player.title = nil
        player.score = nil
        let json = String(decoding: try AMC.data(for: player, format: .json, options: .readable), as: UTF8.self)
        #expect(json.contains(#""title": null"#))
        #expect(json.contains(#""score": null"#))
        // Optionals that start at nil are left out, as they always were.
        #expect(!json.contains("nickname") && !json.contains("mentor") && !json.contains("$nil"))
        let dictionary = try player.dictionaryRepresentation()
        #expect(dictionary["$nil"] as? [String] == ["title", "score"])
        #expect(dictionary["title"] == nil)
        // A dictionary representation stays a property list.
        #expect(PropertyListSerialization.propertyList(dictionary, isValidFor: .binary))
    }

    @Test func optionalsThatStartAtNilLeaveTheFileAsItWas() throws {
        let item = Item()
        item.title = "x"
        let json = String(decoding: try AMC.data(for: item, format: .json), as: UTF8.self)
        #expect(!json.contains("null") && !json.contains("$nil"))
    }

    @Test func aFileWithoutTheKeyStillGetsTheInitialValue() throws {
        // Written before the property existed, or by hand: the key is missing, not nil.
        let read = try #require(
            try AMC.object(Gamer.self, from: Data(#"{"class": "Gamer", "name": "Bo"}"#.utf8)))
        #expect(read.title == "Novice")
        #expect(read.name == "Bo")
    }

    @Test func aMalformedNilListIsAnErrorWithItsKeyPath() throws {
        let notAnArray = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": "title"])
        }
        #expect(notAnArray?.keyPath == "$nil")
        let notAKey = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": ["title", 3]])
        }
        #expect(notAKey?.keyPath == "$nil[1]")
        // A property that is not optional cannot be nil.
        let notOptional = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": ["name"]])
        }
        #expect(notOptional?.keyPath == "name")
    }
}
