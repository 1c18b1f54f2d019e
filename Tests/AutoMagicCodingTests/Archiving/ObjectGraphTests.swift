import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Object graphs: shared objects, cycles and weak references come back as they were")
struct ObjectGraphTests {
    init() { AMC.register(Player.self, Squad.self, Folder.self, Item.self, Holder.self, Keeper.self) }

    static let formats = [AMCFormat.json, .xmlPropertyList, .binaryPropertyList]

    /// `object` through `format` (sorted keys, as files are written) and back.
    func roundTrip<T: AMCCodable>(_ object: T, _ format: AMCFormat, archiver: AMCArchiver = AMCArchiver()) throws -> T {
        let data = try archiver.data(for: object, format: format, options: .readable)
        return try #require(try archiver.object(T.self, from: data))
    }

    @Test(arguments: formats)
    func aSharedObjectComesBackOnceWhereverItIs(format: AMCFormat) throws {
        let squad = Squad()
        let ada = Player("Ada")
        let bob = Player("Bob")
        squad.roster = [ada, bob]
        squad.captain = ada  // sorted keys write "captain" first: the roster refers forward to it
        squad.vice = ada
        squad.groups = [[bob], [ada, bob]]
        let copy = try roundTrip(squad, format)
        #expect(copy.captain === copy.roster[0] && copy.vice === copy.roster[0])
        #expect(copy.groups[0][0] === copy.roster[1] && copy.groups[1][0] === copy.roster[0])
        #expect(copy.roster.map(\.name) == ["Ada", "Bob"])
        copy.captain?.name = "Ada L."
        #expect(copy.roster[0].name == "Ada L.")
    }

    /// Each reader notes a reference however deep it is (the decoder walks the document for
    /// references only then), and only a reference: a tree, or a key escaped as `$$ref`, has none.
    @Test(arguments: formats)
    func everyReaderNotesAReferenceWhereverItIs(format: AMCFormat) throws {
        let squad = Squad()
        let ada = Player("Ada")
        squad.anything = [["deep": [Player("Bob"), ada]]]
        squad.lookup = ["again": ada]
        let shared = try AMC.data(for: squad, format: format, options: .readable)
        #expect(try DocumentCodec.parse(shared).holdsReferences)
        let copy = try #require(try AMC.object(Squad.self, from: shared))
        let deep = try #require((copy.anything.first as? [String: Any])?["deep"] as? [Any])
        #expect(copy.lookup["again"] as? Player === deep[1] as? Player)

        let tree = Squad()
        tree.roster = [Player("Ada"), Player("Ada")]
        tree.notes = ["$ref": "#/roster/0"]
        let unshared = try AMC.data(for: tree, format: format, options: .readable)
        #expect(try !DocumentCodec.parse(unshared).holdsReferences)
        let back = try #require(try AMC.object(Squad.self, from: unshared))
        #expect(back.roster[0] !== back.roster[1] && back.notes == ["$ref": "#/roster/0"])
    }

    @Test(arguments: formats)
    func cyclesAndSelfReferencesComeBackAsCycles(format: AMCFormat) throws {
        let squad = Squad()
        let a = Player("A")
        let b = Player("B")
        let me = Player("Me")
        a.friend = b
        b.friend = a
        me.friend = me
        squad.roster = [a, me]
        let copy = try roundTrip(squad, format)
        #expect(copy.roster[0].friend?.friend === copy.roster[0])
        #expect(copy.roster[1].friend === copy.roster[1])
        a.friend = nil
        me.friend = nil
    }

    @Test(arguments: formats)
    func cyclesThroughAnyAndDictionariesOfAny(format: AMCFormat) throws {
        let squad = Squad()
        let ada = Player("Ada")
        squad.anything = [squad, ada, [ada]]
        squad.lookup = ["self": squad, "ada": ada, "nested": ["again": ada]]
        let copy = try roundTrip(squad, format)
        #expect(copy.anything.first as? Squad === copy)
        let first = try #require(copy.anything[1] as? Player)
        #expect((copy.anything[2] as? [Any])?.first as? Player === first)
        #expect(copy.lookup["self"] as? Squad === copy && copy.lookup["ada"] as? Player === first)
        #expect((copy.lookup["nested"] as? [String: Any])?["again"] as? Player === first)
        squad.anything = []
        squad.lookup = [:]
    }

    @Test(arguments: formats)
    func theFileSaysWhereEachSharedObjectIs(format: AMCFormat) throws {
        let squad = Squad()
        let ada = Player("Ada")
        squad.groups = [[], [Player("x"), Player("y"), ada]]
        squad.roster = [ada]
        let file = try write(squad, format)
        defer { try? FileManager.default.removeItem(at: file) }
        let dictionary = try AMC.dictionary(contentsOf: file)
        // Sorted keys: "groups" comes before "roster", so Ada is written in the nested array.
        #expect((dictionary["roster"] as? [[String: String]]) == [["$ref": "#/groups/1/2"]])
        // A tree has no references at all.
        let tree = Squad()
        tree.roster = [Player("a"), Player("b")]
        let treeText = String(decoding: try AMC.data(for: tree, format: .json), as: UTF8.self)
        #expect(!treeText.contains("$ref"))
    }

    /// (Ten thousand under a sanitizer: see `TestScale`.)
    @Test func aHundredThousandReferencesToOneObjectCostWhatTheObjectsDo() throws {
        let count = TestScale.count(100_000, sanitized: 10_000)
        let shared = Player("shared")
        shared.payload = String(repeating: "x", count: 1_000)
        let squad = Squad()
        squad.roster = (0..<count).map { Player("p\($0)") }
        for player in squad.roster { player.friend = shared }
        for format in Self.formats {
            let data = try AMC.data(for: squad, format: format)
            // A couple of hundred bytes an object at most (XML is wordy), not the 1 KB object again.
            #expect(data.count < count * (format == .xmlPropertyList ? 250 : 120), "\(format): \(data.count) bytes")
            let copy = try #require(try AMC.object(Squad.self, from: data))
            #expect(copy.roster.count == count)
            #expect(copy.roster.allSatisfy { $0.friend === copy.roster[0].friend })
            #expect(copy.roster[0].friend?.payload.count == 1_000)
        }
    }

    @Test(arguments: formats)
    func treeModeWritesEveryOccurrenceInFullAndRefusesCycles(format: AMCFormat) throws {
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let squad = Squad()
        let ada = Player("Ada")
        squad.roster = [ada, ada]
        let copy = try roundTrip(squad, format, archiver: tree)
        #expect(copy.roster[0] !== copy.roster[1] && copy.roster.map(\.name) == ["Ada", "Ada"])
        ada.friend = ada
        #expect(expectAMCError { _ = try tree.data(for: squad, format: format) }?.kind == .referenceCycle(typeName: "Player"))
        ada.friend = nil
    }

    // MARK: - weak and unowned

    @Test(arguments: formats)
    func weakParentAndDelegatePointersComeBack(format: AMCFormat) throws {
        let folder = Folder()
        folder.name = "Docs"
        let first = Item()
        let second = Item()
        (first.title, second.title) = ("a", "b")
        folder.items = [first, second]
        for item in folder.items { (item.parent, item.observer, item.anyOwner) = (folder, folder, folder) }
        first.delegate = second  // a sibling written after it
        let copy = try roundTrip(folder, format)
        #expect(copy.items.map(\.title) == ["a", "b"])
        #expect(copy.items.allSatisfy { $0.parent === copy && $0.observer === copy && $0.anyOwner === copy })
        #expect(copy.items[0].delegate === copy.items[1] && copy.items[1].delegate == nil)
        #expect(copy.items[0].observer?.name == "Docs")  // through the protocol's witness table
        let text = try AMC.dictionaryRepresentation(folder)
        let items = try #require(text["items"] as? [[String: Any]])
        #expect(items[0]["parent"] as? [String: String] == ["$ref": "#"])
        #expect(items[0]["delegate"] as? [String: String] == ["$ref": "#/items/1"])
        withExtendedLifetime(folder) {}
    }

    @Test(arguments: formats)
    func unownedAndInheritedWeakPropertiesComeBack(format: AMCFormat) throws {
        let keeper = Keeper()
        let home = Folder()
        let work = Folder()
        (home.name, work.name) = ("home", "work")
        keeper.folders = [home, work]
        (keeper.weakFolder, keeper.owner, keeper.maybeOwner, keeper.bare) = (work, home, work, home)
        let copy = try roundTrip(keeper, format)
        #expect(copy.folders.map(\.name) == ["home", "work"])
        #expect(copy.weakFolder === copy.folders[1] && copy.owner === copy.folders[0])
        #expect(copy.maybeOwner === copy.folders[1] && copy.bare === copy.folders[0])
        // Decoding leaves the folders held once each, by the array, as before the round trip.
        weak let decodedWork = copy.folders[1]
        copy.folders.removeLast()
        #expect(decodedWork == nil && copy.weakFolder == nil)
        withExtendedLifetime(keeper) {}
    }

    @Test func aWeakReferenceToAnObjectOutsideTheArchiveIsLeftOut() throws {
        let outside = Folder()
        let item = Item()
        item.parent = outside
        let dictionary = try item.dictionaryRepresentation()
        #expect(dictionary["parent"] == nil && dictionary["title"] as? String == "")
        let copy = try #require(try AMC.object(Item.self, from: dictionary))
        #expect(copy.parent == nil)
        withExtendedLifetime(outside) {}
    }

    @Test func aWeakOrUnownedPropertyKeepsOnlyWhatTheDocumentHoldsElsewhere() throws {
        // A reference to a place no property keeps (an unknown key), or a whole object in the
        // weak property itself: in memory, the object would be gone at once.
        let loose: [String: Any] = ["class": "Item", "stray": ["class": "Folder"], "parent": ["$ref": "#/stray"]]
        let whole: [String: Any] = ["class": "Item", "parent": ["class": "Folder", "name": "gone"]]
        for dictionary in [loose, whole] {
            var copy: Item?
            let reports = try heard { copy = try AMC.object(Item.self, from: dictionary) }
            #expect(copy != nil && copy?.parent == nil)
            #expect(reports.map(\.keyPath) == ["parent"])
        }
        // An unowned property would dangle: an error, not a crash later.
        let unowned = expectAMCError {
            _ = try AMC.object(
                Keeper.self, from: ["class": "Keeper", "stray": ["class": "Folder"], "owner": ["$ref": "#/stray"]])
        }
        #expect(unowned?.keyPath == "owner")
        #expect(unowned?.description.contains("nothing else in the document holds the object it names") == true)
        // Not an object at all.
        let number = expectAMCError { _ = try AMC.object(Item.self, from: ["class": "Item", "parent": 3]) }
        #expect(number?.kind == .typeMismatch(expected: "a reference to a Folder ({\"$ref\": \"#/…\"})", found: "the number 3"))
    }

    // MARK: - Your own "$ref"

    @Test(arguments: formats)
    func aDictionaryOfYourOwnWithARefKeyRoundTripsUnchanged(format: AMCFormat) throws {
        let squad = Squad()
        squad.lookup = ["link": ["$ref": "#/roster/0"], "double": ["$$ref": "x"], "wide": ["$ref": "#", "other": 1]]
        squad.notes = ["$ref": "#/roster"]
        squad.roster = [Player("Ada")]
        let copy = try roundTrip(squad, format)
        #expect(copy.lookup["link"] as? [String: String] == ["$ref": "#/roster/0"])
        #expect(copy.lookup["double"] as? [String: String] == ["$$ref": "x"])
        #expect((copy.lookup["wide"] as? [String: Any])?["$ref"] as? String == "#")
        #expect(copy.notes == ["$ref": "#/roster"])
    }

    /// A file written by hand (`Fixtures/graph.json`) reads into the graph it describes.
    @Test func theGraphFixtureReadsIntoOneCycle() throws {
        let squad = try #require(try AMC.read(Squad.self, from: FixtureFiles.url("graph.json")))
        let ada = try #require(squad.captain)
        #expect(squad.roster[0] === ada && ada.friend === squad.roster[1] && squad.roster[1].friend === ada)
        #expect(squad.lookup["note"] as? [String: String] == ["$ref": "a dictionary of your own with one $ref key, escaped"])
        // Converting keeps references (and escaped keys) as they are.
        let fixture = try FixtureFiles.data("graph.json")
        for format in Self.formats {
            let converted = try AMC.convert(fixture, to: format)
            #expect(
                Canonical.text(try foundationValue(try AMC.convert(converted, to: .json), json: true))
                    == Canonical.text(try foundationValue(fixture, json: true)), "\(format)")
        }
    }

    // MARK: - Hostile references

    @Test func hostileReferencesAreErrorsNamingWhatIsWrong() throws {
        func decode(_ roster: [Any], extra: [String: Any] = [:]) -> AMCError? {
            var dictionary: [String: Any] = ["class": "Squad", "roster": roster]
            dictionary.merge(extra) { $1 }
            return expectAMCError { _ = try AMC.object(Squad.self, from: dictionary) }
        }
        let player: [String: Any] = ["class": "Player", "name": "p"]
        func reason(_ error: AMCError?) -> String? {
            guard case let .invalidReference(_, reason)? = error?.kind else { return nil }
            return reason
        }
        #expect(reason(decode([["$ref": "#/nowhere"]]))?.hasPrefix("nothing is there") == true)
        #expect(reason(decode([player, ["$ref": "#/roster/7"]]))?.hasPrefix("nothing is there") == true)
        #expect(reason(decode([player, ["$ref": "#/roster/0/name"]])) == "it names the string \"p\", not an object")
        #expect(reason(decode([["$ref": "#/roster/1"], ["$ref": "#/roster/0"]])) == "it names another reference")
        #expect(reason(decode([["$ref": "#/roster/~2"]]))?.hasPrefix("it is not a JSON Pointer") == true)
        #expect(reason(decode([["$ref": "#roster"]]))?.hasPrefix("it is not a JSON Pointer") == true)
        let deep = "#" + String(repeating: "/roster", count: 5_000)
        #expect(reason(decode([["$ref": deep]]))?.hasPrefix("nothing is there") == true)
        // A reference to an object of a class the place cannot hold.
        let wrongClass = decode([["$ref": "#/captain"]], extra: ["captain": ["class": "Folder"]])
        #expect(wrongClass?.keyPath == "roster[0]")
        #expect(wrongClass?.kind == .unrelatedClass(className: "Folder", expected: "Player"))
        // A reference without "#" where an object belongs is a broken reference, not an empty object.
        #expect(reason(decode([["$ref": "roster/0"]])) == "its value must be a string starting with \"#\"")
        #expect(
            decode([["$ref": 3]])?.kind
                == .typeMismatch(expected: "a reference: a \"$ref\" string starting with \"#\"", found: "the number 3"))
        #expect(
            reason(decode([player, ["$ref": "#/roster/0/nothing/deeper"]]))
                == "nothing is there (its first 2 steps lead somewhere, the next does not)")
        // References in weak fields are checked as strong ones are.
        let weak = expectAMCError {
            _ = try AMC.object(
                Folder.self, from: ["class": "Folder", "items": [["class": "Item", "parent": ["$ref": "#/nowhere"]]]])
        }
        #expect(weak?.keyPath == "items[0].parent")
        #expect(reason(weak)?.hasPrefix("nothing is there") == true)
        let wrongWeak = expectAMCError {
            _ = try AMC.object(
                Folder.self,
                from: ["class": "Folder", "name": "f", "items": [["class": "Item", "parent": ["$ref": "#/items/0"]]]])
        }
        #expect(wrongWeak?.kind == .unrelatedClass(className: "Item", expected: "Folder"))
        // The key path names the reference.
        #expect(
            decode([player, ["$ref": "#/x"]])?.description.hasPrefix("At \"roster[1]\": the reference \"#/x\" names no object")
                == true)
    }

    @Test func referencesToOneObjectAreDecodedOnce() throws {
        let roster = (0..<2_000).map { _ in ["$ref": "#/captain"] as [String: Any] }
        let squad = try #require(
            try AMC.object(Squad.self, from: ["roster": roster, "captain": ["class": "Player", "name": "c"]]))
        #expect(squad.roster.count == 2_000 && squad.roster.allSatisfy { $0 === squad.captain })
    }

    private func write(_ object: any AMCCodable, _ format: AMCFormat) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "graph-\(UUID().uuidString).\(format.pathExtension)")
        try AMC.write(object, to: url, format: format)
        return url
    }
}

extension AMC {
    /// The dictionary representation of `object`, for the tests' eyes.
    static func dictionaryRepresentation(_ object: any AMCCodable) throws -> [String: Any] {
        try object.dictionaryRepresentation()
    }
}
