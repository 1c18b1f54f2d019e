import Foundation
import Testing

@testable import AutoMagicCoding

/// People with friends anywhere in the graph and shared tags, in teams they point back to.
final class SocialNetwork: AMCCodable {
    var teams: [SocialTeam] = []
    var tags: [SocialTag] = []
    required init() {}
}

final class SocialTeam: AMCCodable {
    var name = ""
    var members: [SocialPerson] = []
    required init() {}
}

final class SocialPerson: AMCCodable {
    var name = ""
    var friends: [SocialPerson] = []
    var tags: [SocialTag] = []
    weak var team: SocialTeam?
    required init() {}
}

final class SocialTag: AMCCodable {
    var name = ""
    required init() {}
}

/// A doubly linked list, as Swift models write one.
final class ChainList: AMCCodable {
    var head: ChainLink?
    var count = 0
    required init() {}
}

final class ChainLink: AMCCodable {
    var value = 0
    var next: ChainLink?
    weak var previous: ChainLink?
    required init() {}
}

/// A link that hashes by its value, as value-like classes do, and whose list checks itself
/// once decoded.
final class ValueLink: AMCCodable, Hashable {
    var value = 0
    var next: ValueLink?
    var lesson: Lesson?
    weak var previous: ValueLink?
    required init() {}

    static func == (left: ValueLink, right: ValueLink) -> Bool { left.value == right.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value) }
}

final class ValueChain: AMCCodable {
    var head: ValueLink?
    var favourites: Set<ValueLink> = []
    /// What `amcDidDecode` saw: the values along the chain.
    var seen: [Int] = []
    required init() {}

    func amcDidDecode() throws {
        seen = Array(sequence(first: head, next: { $0?.next }).compactMap { $0?.value })
    }

    /// `count` links; `favourites` every tenth.
    convenience init(count: Int) {
        self.init()
        var last: ValueLink?
        for value in 0..<count {
            let link = ValueLink()
            link.value = value
            link.previous = last
            if let last { last.next = link } else { head = link }
            if value % 10 == 0 { favourites.insert(link) }
            last = link
        }
    }
}

/// Graphs of any shape: an object whose place would be deeper than the object table's bound
/// makes the whole graph go in the table, so references stay short and nesting shallow.
@Suite("The object table: graphs of any shape, short references, shallow nesting")
struct ObjectTableTests {
    static let formats: [AMCFormat] = [.json, .xmlPropertyList, .binaryPropertyList]

    init() {
        AMC.register(SocialNetwork.self, SocialTeam.self, SocialPerson.self, SocialTag.self, ChainList.self, ChainLink.self)
        AMC.register(ValueChain.self, ValueLink.self, Lesson.self)
    }

    /// `people` people in teams of ten, each with four friends drawn from everyone and three of
    /// `tags` tags, from a fixed seed.
    static func network(people: Int, tags tagCount: Int = 20) -> SocialNetwork {
        var seed: UInt64 = 0x2545_F491_4F6C_DD1D
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let network = SocialNetwork()
        network.tags = (0..<tagCount).map { index in
            let tag = SocialTag()
            tag.name = "tag \(index)"
            return tag
        }
        let everyone = (0..<people).map { index in
            let person = SocialPerson()
            person.name = "person \(index)"
            return person
        }
        for (index, person) in everyone.enumerated() {
            if index % 10 == 0 {
                let team = SocialTeam()
                team.name = "team \(index / 10)"
                network.teams.append(team)
            }
            network.teams[network.teams.count - 1].members.append(person)
            person.team = network.teams.last
            person.friends = (0..<4).map { _ in everyone[random(people)] }
            person.tags = (0..<3).map { _ in network.tags[random(tagCount)] }
        }
        return network
    }

    static func chain(_ count: Int) -> ChainList {
        let list = ChainList()
        list.count = count
        var last: ChainLink?
        for value in 0..<count {
            let link = ChainLink()
            link.value = value
            link.previous = last
            if let last { last.next = link } else { list.head = link }
            last = link
        }
        return list
    }

    /// The same people, friends and tags, and every weak team pointing at the decoded team.
    static func expectSameNetwork(
        _ read: SocialNetwork, as written: SocialNetwork, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let people = written.teams.flatMap(\.members)
        let readPeople = read.teams.flatMap(\.members)
        #expect(readPeople.map(\.name) == people.map(\.name), sourceLocation: sourceLocation)
        guard readPeople.count == people.count else { return }
        let index = Dictionary(uniqueKeysWithValues: readPeople.enumerated().map { (ObjectIdentifier($1), $0) })
        let writtenIndex = Dictionary(uniqueKeysWithValues: people.enumerated().map { (ObjectIdentifier($1), $0) })
        let tagIndex = Dictionary(uniqueKeysWithValues: read.tags.enumerated().map { (ObjectIdentifier($1), $0) })
        let writtenTagIndex = Dictionary(uniqueKeysWithValues: written.tags.enumerated().map { (ObjectIdentifier($1), $0) })
        var mismatches = 0
        for (readPerson, person) in zip(readPeople, people) {
            // Friends and tags are the very objects the network holds, not copies.
            if readPerson.friends.map({ index[ObjectIdentifier($0)] })
                != person.friends.map({ writtenIndex[ObjectIdentifier($0)] })
            {
                mismatches += 1
            }
            if readPerson.tags.map({ tagIndex[ObjectIdentifier($0)] })
                != person.tags.map({ writtenTagIndex[ObjectIdentifier($0)] })
            {
                mismatches += 1
            }
            if readPerson.team == nil || !(readPerson.team!.members.contains { $0 === readPerson }) { mismatches += 1 }
        }
        #expect(mismatches == 0, sourceLocation: sourceLocation)
    }

    /// The links' values in order, and whether every `previous` is the link before.
    static func walk(_ list: ChainList) -> (values: [Int], previousRight: Bool) {
        var values: [Int] = []
        var previousRight = true
        var before: ChainLink?
        var current = list.head
        while let link = current {
            values.append(link.value)
            if link.previous !== before { previousRight = false }
            before = link
            current = link.next
        }
        return (values, previousRight)
    }

    /// Every `$ref` in a document, and how deep its containers nest.
    static func references(in value: Any, depth: Int = 0, into pointers: inout [String]) -> Int {
        if let dictionary = value as? [String: Any] {
            if let pointer = dictionary["$ref"] as? String { pointers.append(pointer) }
            return dictionary.values.map { references(in: $0, depth: depth + 1, into: &pointers) }.max() ?? depth + 1
        }
        if let array = value as? [Any] {
            return array.map { references(in: $0, depth: depth + 1, into: &pointers) }.max() ?? depth + 1
        }
        return depth
    }

    @Test(arguments: formats)
    func aSocialGraphComesBackWithShortReferencesAndShallowNesting(format: AMCFormat) throws {
        let network = Self.network(people: 300)
        let data = try AMC.data(for: network, format: format)
        let read = try #require(try AMC.object(SocialNetwork.self, from: data))
        Self.expectSameNetwork(read, as: network)

        let dictionary = try network.dictionaryRepresentation()
        var pointers: [String] = []
        let depth = Self.references(in: dictionary, into: &pointers)
        #expect(depth <= 8)  // root, table, entry, friends, reference, its pointer
        #expect(!pointers.isEmpty && pointers.allSatisfy { $0 == "#" || $0.hasPrefix("#/$objects/") })
        #expect(pointers.map(\.count).max()! <= "#/$objects/999".count)
    }

    @Test(arguments: formats)
    func aLinkedListLongerThanTheStackAllowsNestingRoundTrips(format: AMCFormat) throws {
        // 10,000 links nested would need far more than this 2 MB thread (AddressSanitizer counts
        // 8 KB a level: the first try, as deep as the bound, needs that much).
        let list = Self.chain(10_000)
        defer { Self.unlink(list) }
        let (values, previousRight) = try onThread(stackSize: 2 << 20) {
            let data = try AMC.data(for: list, format: format)
            let read = try #require(try AMC.object(ChainList.self, from: data))
            defer { Self.unlink(read) }
            return Self.walk(read)
        }
        #expect(values == Array(0..<10_000))
        #expect(previousRight)
    }

    /// A million links on a main thread's stack in a debug build (minutes: `AMC_LONG_LIST=1`;
    /// ReleaseChecks runs it in a release build on every CI run).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["AMC_LONG_LIST"] != nil), arguments: formats)
    func aListOfAMillionLinksRoundTripsOnAnEightMegabyteStack(format: AMCFormat) throws {
        let list = Self.chain(1_000_000)
        defer { Self.unlink(list) }
        let (values, previousRight) = try onThread(stackSize: 8 << 20) {
            let read = try #require(try AMC.object(ChainList.self, from: try AMC.data(for: list, format: format)))
            defer { Self.unlink(read) }
            return Self.walk(read)
        }
        #expect(values.count == 1_000_000 && values.last == 999_999)
        #expect(previousRight)
    }

    /// A long chain released link by link, not by a recursion as deep as the chain.
    static func unlink(_ list: ChainList) {
        var current = list.head
        list.head = nil
        while let link = current {
            current = link.next
            link.next = nil
        }
    }

    @Test func aTreeWithinTheBoundIsWrittenNestedAsBefore() throws {
        // A chain as deep as the bound allows is nested where it is, the one reference naming it.
        let list = Self.chain(ObjectTable.maximumDepth)
        let json = String(
            decoding: try AMC.data(for: list, format: .json, options: AMCWriteOptions(prettyPrinted: false, sortedKeys: true)),
            as: UTF8.self)
        #expect(!json.contains(ObjectTable.key))
        #expect(json.contains(##""previous":{"$ref":"#/head/next/next"##))
        let longer = Self.chain(ObjectTable.maximumDepth + 1)
        let table = String(
            decoding: try AMC.data(for: longer, format: .json, options: AMCWriteOptions(prettyPrinted: false, sortedKeys: true)),
            as: UTF8.self)
        #expect(
            table.hasPrefix(
                ##"{"class":"ChainList","count":33,"head":{"$ref":"#/$objects/0"},"$objects":[{"class":"ChainLink","next":{"$ref":"#/$objects/1"},"value":0},"##
            ))
        #expect(
            table.contains(
                ##"{"class":"ChainLink","next":{"$ref":"#/$objects/2"},"previous":{"$ref":"#/$objects/0"},"value":1}"##))
        #expect(table.hasSuffix(##"{"class":"ChainLink","previous":{"$ref":"#/$objects/31"},"value":32}]}"##))
    }

    @Test(arguments: formats)
    func aStructRootHoldsTheTableToo(format: AMCFormat) throws {
        struct Holder: AMCCodable {
            var list = ChainList()
            var lists: [ChainList] = []
        }
        var holder = Holder()
        holder.list = Self.chain(40)
        holder.lists = [holder.list, Self.chain(3)]
        let read = try #require(try AMC.object(Holder.self, from: try AMC.data(for: holder, format: format)))
        #expect(Self.walk(read.list).values == Array(0..<40) && Self.walk(read.list).previousRight)
        #expect(read.lists.first === read.list && Self.walk(read.lists[1]).values == [0, 1, 2])
    }

    @Test(arguments: formats)
    func setsAndDidDecodeSeeFilledObjects(format: AMCFormat) throws {
        // The set's links hash by value: hashed before they were filled, they would be one.
        let chain = ValueChain(count: 50)
        let read = try #require(try AMC.object(ValueChain.self, from: try AMC.data(for: chain, format: format)))
        #expect(Set(read.favourites.map(\.value)) == Set(stride(from: 0, to: 50, by: 10)))
        #expect(read.seen == Array(0..<50))  // every link was filled when the hook ran
    }

    @Test func noThrowModeLeavesOutAnEntryItCannotWriteAndReportsItOnce() throws {
        let chain = ValueChain(count: 40)
        var link = chain.head
        for _ in 0..<35 { link = link?.next }
        link?.lesson = Lesson()  // a property named "class": this link cannot be written
        var dictionary: [String: Any] = [:]
        let errors = try swallowed(matching: "") { dictionary = try chain.dictionaryRepresentation() }
        #expect(errors.map(\.kind) == [.reservedKey(key: "class", typeName: "Lesson")])
        // (The set's links come first in the table, in the set's order: not the same in every run.)
        #expect(errors.first.map { $0.keyPath.hasPrefix("$objects[") && $0.keyPath.hasSuffix("].lesson") } == true)
        let read = try #require(try AMC.object(ValueChain.self, from: dictionary))
        #expect(read.seen == Array(0..<40))
    }

    @Test func theTableIsTheSameInEveryFormat() throws {
        let network = Self.network(people: 40)
        let expected = try network.dictionaryRepresentation()
        for format in Self.formats {
            for options in [AMCWriteOptions.compact, .readable] {
                let data = try AMC.data(for: network, format: format, options: options)
                let read = try #require(try AMC.object(SocialNetwork.self, from: data))
                #expect(NSDictionary(dictionary: try read.dictionaryRepresentation()).isEqual(to: expected), "\(format)")
            }
        }
    }

    @Test func aBinaryFileHoldsOneReferenceForEachEntryAndFoundationReadsIt() throws {
        let network = Self.network(people: 300)
        let data = try AMC.data(for: network, format: .binaryPropertyList)
        let expected = try network.dictionaryRepresentation()
        var pointers: [String] = []
        _ = Self.references(in: expected, into: &pointers)
        let entries = Set(pointers.filter { $0 != "#" })
        #expect(pointers.count > 2 * entries.count)  // friends and tags are referred to again and again
        // Each entry's pointer is in the file once: every reference to it is one shared dictionary.
        let prefix = Array("#/$objects/".utf8)
        let written = data.indices.filter { data[$0...].starts(with: prefix) }.count
        #expect(written == entries.count)
        let foundations = try PropertyListSerialization.propertyList(from: data, format: nil)
        #expect((foundations as? NSDictionary)?.isEqual(to: expected) == true)
    }

    @Test func noThrowModeForgetsTheReferencesOfAFieldItLeavesOut() throws {
        // `mixed` refers to a person first, then fails: written again in `later`, the person's
        // reference must be made anew, not the binary file's left-out one.
        final class Mixed: AMCCodable {
            var list = ChainList()
            var mixed: [Any] = []
            var later: [SocialPerson] = []
            required init() {}
        }
        let person = SocialPerson()
        person.name = "Ada"
        let holder = Mixed()
        holder.list = Self.chain(100)  // deeper than the bound: the table is used
        holder.mixed = [person, { () in }]
        holder.later = [person, person]
        let data = try AMC.withNoThrow { try AMC.data(for: holder, format: .binaryPropertyList) }
        AMC.register(Mixed.self)
        let read = try #require(try AMC.object(Mixed.self, from: data))
        #expect(read.mixed.isEmpty)
        #expect(read.later.map(\.name) == ["Ada", "Ada"])
        #expect(read.later[0] === read.later[1])
        #expect(ObjectTableTests.walk(read.list).values == Array(0..<100))
    }

    @Test func noThrowModeLeavesOutAFailingFieldAndTheObjectsOnlyItMet() throws {
        // A closure field of the root is refused: the table holds no entry nothing refers to.
        final class Refusing: AMCCodable {
            var people: [SocialPerson] = []
            var closure: () -> Void = {}
            required init() {}
        }
        let network = Self.network(people: 60)
        let holder = Refusing()
        holder.people = network.teams.flatMap(\.members)
        let dictionary = try AMC.withNoThrow { try holder.dictionaryRepresentation() }
        #expect(dictionary["closure"] == nil)
        let table = try #require(dictionary[ObjectTable.key] as? [Any])
        var pointers: [String] = []
        _ = Self.references(in: dictionary, into: &pointers)
        #expect(Set(pointers).count == table.count)
    }
}

/// Documents an older version wrote, and documents made to mislead.
@Suite("The object table: old documents and hostile tables")
struct ObjectTableReadingTests {
    init() {
        AMC.register(SocialNetwork.self, SocialTeam.self, SocialPerson.self, SocialTag.self, ChainList.self, ChainLink.self)
    }

    static func fixture(_ name: String) throws -> Data {
        try FixtureFiles.data("graphs/\(name)")
    }

    @Test func aSocialGraphThePreviousVersionNestedDeepReadsBack() throws {
        // Written before the object table existed: friends nested in friends, long pointers.
        let data = try Self.fixture("social-nested.json")
        #expect(String(decoding: data, as: UTF8.self).contains("/friends/"))
        let read = try #require(try AMC.object(SocialNetwork.self, from: data))
        ObjectTableTests.expectSameNetwork(read, as: ObjectTableTests.network(people: 60))
    }

    @Test func aLinkedListThePreviousVersionNestedReadsBack() throws {
        let read = try #require(try AMC.object(ChainList.self, from: try Self.fixture("chain-nested.json")))
        let (values, previousRight) = ObjectTableTests.walk(read)
        #expect(values == Array(0..<100))
        #expect(previousRight)
    }

    @Test func followingAChainOfReferencesNeedsNoStackForEachLink() throws {
        // 100,000 table entries (10,000 under a sanitizer, still far more than the stack could
        // take a level each), each referring to the next: read on a 256 KB thread.
        let count = TestScale.count(100_000, sanitized: 10_000)
        var entries: [Any] = []
        for value in 0..<count {
            var link: [String: Any] = ["class": "ChainLink", "value": value]
            if value + 1 < count { link["next"] = ["$ref": "#/$objects/\(value + 1)"] }
            if value > 0 { link["previous"] = ["$ref": "#/$objects/\(value - 1)"] }
            entries.append(link)
        }
        let document: [String: Any] = [
            "class": "ChainList", "count": count, "head": ["$ref": "#/$objects/0"], "$objects": entries,
        ]
        let data = try JSONSerialization.data(withJSONObject: document)
        let (values, previousRight) = try onThread(stackSize: 256 << 10) {
            let read = try #require(try AMC.object(ChainList.self, from: data))
            defer { ObjectTableTests.unlink(read) }
            return ObjectTableTests.walk(read)
        }
        #expect(values == Array(0..<count))
        #expect(previousRight)
    }

    @Test func hostileTablesAreErrorsNamingWhatIsWrong() throws {
        func decode(_ table: Any) throws -> ChainList? {
            let document: [String: Any] = ["class": "ChainList", "head": ["$ref": "#/$objects/0"], "$objects": table]
            return try AMC.object(ChainList.self, from: try JSONSerialization.data(withJSONObject: document))
        }
        func error(_ table: Any) -> AMCError? { amcError { _ = try decode(table) } }
        /// The first entry, whose `next` refers to `pointer`.
        func linkTo(_ pointer: String) -> [String: Any] { ["class": "ChainLink", "value": 0, "next": ["$ref": pointer]] }
        let link: [String: Any] = ["class": "ChainLink", "value": 1]

        // An entry no reference names: never decoded unseen.
        let unreferenced = error([link, link])
        #expect(unreferenced?.keyPath == "$objects[1]")
        #expect(
            unreferenced?.kind
                == .typeMismatch(expected: "an object that a reference names", found: "an entry no reference names"))
        // A table that is not an array.
        #expect(
            error(["0": link])?.kind == .typeMismatch(expected: "an array of objects (the object table)", found: "a dictionary"))
        #expect(error("links")?.keyPath == "$objects")
        // References to the table itself, to a value inside an entry, past its end.
        let toTable = error([linkTo("#/$objects")])
        #expect(toTable?.kind == .invalidReference(pointer: "#/$objects", reason: "it names an array, not an object"))
        #expect(toTable?.keyPath == "$objects[0].next")
        let toValue = error([linkTo("#/$objects/0/value")])
        #expect(toValue?.kind == .invalidReference(pointer: "#/$objects/0/value", reason: "it names the number 0, not an object"))
        #expect(error([linkTo("#/$objects/1")])?.keyPath == "$objects[0].next")
        // An entry of a class the place cannot hold, not registered, or without a class (the
        // table declares no type).
        #expect(error([["class": "SocialTag"]])?.kind == .unrelatedClass(className: "SocialTag", expected: "ChainLink"))
        #expect(error([["class": "Nowhere"]])?.kind == .unregisteredClass(className: "Nowhere"))
        #expect(
            error([["value": 1]])?.kind
                == .invalidReference(pointer: "#/$objects/0", reason: "it names a dictionary without \"class\""))
        // Entries that name only each other: nothing reaches them.
        let island = error([link, linkTo("#/$objects/2"), linkTo("#/$objects/1")])
        #expect(island?.keyPath == "$objects[1]")
        #expect(
            island?.kind
                == .typeMismatch(expected: "an object that a reference names", found: "an entry nothing in the document reaches"))

        // Accepted: a reference to an object nested inside an entry names that object.
        var nested = linkTo("#/$objects/0/next")
        nested["next"] = link
        var inside = nested
        inside["previous"] = ["$ref": "#/$objects/0/next"]
        let read = try #require(try decode([inside]))
        #expect(read.head?.next?.value == 1)
        #expect(read.head?.previous === read.head?.next)
    }

    @Test func anUnownedCycleThroughTheTableStillNeedsAnOwner() throws {
        // A weak previous pointing at an entry that nothing holds strongly reads back nil, and
        // reading does not keep it.
        let document: [String: Any] = [
            "class": "ChainList", "head": ["$ref": "#/$objects/0"],
            "$objects": [
                ["class": "ChainLink", "value": 0, "previous": ["$ref": "#/$objects/1"]],
                ["class": "ChainLink", "value": 1],
            ],
        ]
        let read = try AMC.withNoThrow {
            try AMC.object(ChainList.self, from: try JSONSerialization.data(withJSONObject: document))
        }
        #expect(read?.head?.value == 0)
        #expect(read?.head?.previous == nil)
    }
}
