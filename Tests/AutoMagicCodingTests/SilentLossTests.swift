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

    // MARK: - Errors name the file

    static func scratchFile(_ name: String, _ contents: String? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent(name)
        if let contents { try Data(contents.utf8).write(to: url) }
        return url
    }

    @Test func everyErrorOfAFunctionThatTookAURLNamesTheFile() throws {
        let malformed = try Self.scratchFile("broken.json", #"{"class": "Gamer", "name": "#)
        defer { try? FileManager.default.removeItem(at: malformed.deletingLastPathComponent()) }
        let badValue = try Self.scratchFile("bad.json", #"{"class": "Gamer", "name": ["not", "a", "string"]}"#)
        defer { try? FileManager.default.removeItem(at: badValue.deletingLastPathComponent()) }
        let array = try Self.scratchFile("array.json", "[1, 2]")
        defer { try? FileManager.default.removeItem(at: array.deletingLastPathComponent()) }
        let unwritable = try Self.scratchFile("out.plist")
        defer { try? FileManager.default.removeItem(at: unwritable.deletingLastPathComponent()) }

        let failures: [(URL, AMCError?)] = [
            (malformed, expectAMCError { _ = try AMC.read(Gamer.self, from: malformed) }),
            (malformed, expectAMCError { _ = try AMC.read(from: malformed) }),
            (badValue, expectAMCError { _ = try AMC.read(Gamer.self, from: badValue) }),
            (badValue, expectAMCError { _ = try AMCArchiver().read(from: badValue) }),
            (array, expectAMCError { _ = try AMC.dictionary(contentsOf: array) }),
            (malformed, expectAMCError { _ = try AMC.lenientRead(Gamer.self, from: malformed) }),
            (unwritable, expectAMCError { try AMC.write(dictionary: ["gap": NSNull()], to: unwritable) }),
            (unwritable, expectAMCError { try AMC.write(Unwritable(), to: unwritable) }),
        ]
        for (url, error) in failures {
            #expect(error?.file == url.path)
            #expect(error?.description.hasPrefix("In \(url.path)") == true, "\(String(describing: error))")
        }
        #expect(failures[2].1?.keyPath == "name")
        // Lenient reading lists its problems with the file too.
        let report = try AMC.lenientRead(Gamer.self, from: badValue)
        #expect(report.problems.map(\.error.file) == [badValue.path])
        // And no-throw mode reports the error naming it.
        let heard = swallowed(matching: "") { _ = try? AMC.read(Gamer.self, from: badValue) }
        #expect(heard.map(\.file) == [badValue.path])
    }
}

/// A property that cannot be archived.
final class Unwritable: AMCCodable {
    var action: () -> Void = {}
    required init() {}
}
