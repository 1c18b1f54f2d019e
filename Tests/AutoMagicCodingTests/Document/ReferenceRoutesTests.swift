import Foundation
import Testing

@testable import AutoMagicCoding

/// The tree of places on the way to what references name, which the decoder follows as it goes
/// down: each step leads where its pointer's segment does, and nowhere else.
@Suite("The routes to what references name")
struct ReferenceRoutesTests {
    /// The place at the end of `components`, when every step is on a route, and its pointer.
    private func pointer(_ routes: ObjectReference.Routes, _ components: [KeyPathTracker.Component]) -> String? {
        var place = ObjectReference.Routes.root
        for component in components {
            guard let next = routes.place(after: place, component) else { return nil }
            place = next
        }
        return routes.pointer(of: place)
    }

    @Test func aStepLeadsWhereItsSegmentDoesAsAKeyOrACanonicalIndex() {
        var routes = ObjectReference.Routes()
        routes.add("#/people/2/friends/0")
        routes.add("#/people/10")
        routes.add("#/owner")
        #expect(pointer(routes, [.key("people"), .index(2), .key("friends"), .index(0)]) == "#/people/2/friends/0")
        #expect(pointer(routes, [.key("people"), .index(10)]) == "#/people/10")
        #expect(pointer(routes, [.key("owner")]) == "#/owner")
        // A dictionary's key "2" is the same segment as the index.
        #expect(pointer(routes, [.key("people"), .key("2")]) == "#/people/2")
        #expect(pointer(routes, [.key("people"), .index(1)]) == nil)
        #expect(pointer(routes, [.key("owner"), .key("name")]) == nil)
        #expect(pointer(routes, [.key("Owner")]) == nil)
        #expect(pointer(routes, []) == "#")
    }

    /// Routes are a value: places added to a copy, from places both hold, and past the number of
    /// steps looked at one by one, lead on in the copy only.
    @Test func placesAddedToACopyLeadOnInTheCopyOnly() {
        var routes = ObjectReference.Routes()
        routes.add("#/people/0")
        var copy = routes
        for index in 1...12 { copy.add("#/people/\(index)") }
        copy.add("#/owner")
        #expect(pointer(copy, [.key("people"), .index(12)]) == "#/people/12" && pointer(copy, [.key("owner")]) == "#/owner")
        #expect(pointer(routes, [.key("people"), .index(0)]) == "#/people/0")
        #expect(pointer(routes, [.key("people"), .index(1)]) == nil)
        #expect(pointer(routes, [.key("people"), .index(12)]) == nil)
        #expect(pointer(routes, [.key("owner")]) == nil)
        routes.add("#/people/1/name")
        #expect(pointer(routes, [.key("people"), .index(1), .key("name")]) == "#/people/1/name")
        #expect(pointer(copy, [.key("people"), .index(1), .key("name")]) == nil)
    }

    @Test func routesToNothingLeadNowhereFromTheRoot() {
        let routes = ObjectReference.Routes()
        #expect(routes.place(after: ObjectReference.Routes.root, .key("owner")) == nil)
        #expect(routes.place(after: ObjectReference.Routes.root, .index(0)) == nil)
        #expect(pointer(routes, []) == "#")
    }

    /// A document whose references name the places another's did, in the same order, has that
    /// one's targets; one that names others, or the same in another order, its own.
    @Test func targetsOfTheSamePointersInTheSameOrderAreTheOnesBefore() throws {
        func document(_ pointers: [String]) throws -> ArchiveValue {
            let json = "{\"a\": {}, \"b\": {}, \"refs\": [\(pointers.map { "{\"$ref\": \"\($0)\"}" }.joined(separator: ", "))]}"
            return try JSONReader.parse(Data(json.utf8)).value
        }
        let first = ObjectReference.targets(in: try document(["#/a", "#/b"]))
        let same = ObjectReference.targets(in: try document(["#/a", "#/b"]), reusing: first)
        #expect(same.pointers == ["#/a", "#/b"] && pointer(same.routes, [.key("b")]) == "#/b")
        let other = ObjectReference.targets(in: try document(["#/a"]), reusing: first)
        #expect(other.pointers == ["#/a"] && pointer(other.routes, [.key("b")]) == nil)
        let none = ObjectReference.targets(in: try document([]), reusing: first)
        #expect(none.namesNothing)
        // More pointers than are compared: a set of them, never the ones before.
        let many = (0..<40).map { _ in "#/a" } + ["#/b"]
        let manyFirst = ObjectReference.targets(in: try document(many))
        #expect(!manyFirst.areFew && manyFirst.pointers == ["#/a", "#/b"])
        let manyAgain = ObjectReference.targets(in: try document(Array(many.dropLast())), reusing: manyFirst)
        #expect(manyAgain.pointers == ["#/a"])
    }

    /// A whole document read into a tape is looked through slot by slot; a part of one, or a
    /// document made of Swift values, is walked: each finds the same references, and only those.
    @Test func aDocumentLookedThroughAndOneWalkedFindTheSameReferences() throws {
        let json = """
            {"e": {}, "a": {"$ref": "#/b"}, "b": {"c": [{"$ref": "#/e"}, {"$ref": 5}, {"$ref": "b"}],
             "d": {"$ref": "#/a", "x": 1}, "f": {}}, "g": [{"h": {"$ref": "#/b/c/0"}}]}
            """
        let parsed = try JSONReader.parse(Data(json.utf8)).value
        var path = KeyPathTracker()
        let walked = try ArchiveValue.converting(
            try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]), path: &path)
        #expect(ObjectReference.targets(in: parsed).pointers == ["#/b", "#/e", "#/b/c/0"])
        #expect(ObjectReference.targets(in: walked).pointers == ["#/b", "#/e", "#/b/c/0"])
        guard case let .dictionary(root) = parsed, let part = root["g"] else {
            Issue.record("the document has no \"g\"")
            return
        }
        #expect(ObjectReference.targets(in: part).pointers == ["#/b/c/0"])
        #expect(ObjectReference.targets(in: try JSONReader.parse(Data(##"{"$ref": "#"}"##.utf8)).value).pointers == ["#"])
        #expect(ObjectReference.targets(in: try JSONReader.parse(Data(#"{"a": {}}"#.utf8)).value).namesNothing)
    }

    @Test func escapedSegmentsMatchTheirKeysAndKeepTheirTextInThePointer() {
        var routes = ObjectReference.Routes()
        routes.add("#/a~1b/c~0d")
        routes.add("#/x/01")
        routes.add("#/y/~2/z")
        #expect(pointer(routes, [.key("a/b"), .key("c~d")]) == "#/a~1b/c~0d")
        #expect(pointer(routes, [.key("a~1b")]) == nil)
        // "01" is a key, never index 1.
        #expect(pointer(routes, [.key("x"), .key("01")]) == "#/x/01")
        #expect(pointer(routes, [.key("x"), .index(1)]) == nil)
        // A malformed escape: the places before it are routes, nothing leads on from there.
        #expect(pointer(routes, [.key("y")]) == "#/y")
        #expect(pointer(routes, [.key("y"), .key("~2")]) == nil)
    }

    /// A place many references pass looks its steps up rather than at each: the same answers.
    @Test func aPlaceWithManyStepsLeadsWhereEachSegmentDoes() {
        var routes = ObjectReference.Routes()
        for index in stride(from: 0, to: 100, by: 2) { routes.add("#/items/\(index)") }
        routes.add("#/items/name")
        for index in 0..<100 {
            #expect(pointer(routes, [.key("items"), .index(index)]) == (index.isMultiple(of: 2) ? "#/items/\(index)" : nil))
        }
        #expect(pointer(routes, [.key("items"), .key("40")]) == "#/items/40")
        #expect(pointer(routes, [.key("items"), .key("name")]) == "#/items/name")
        #expect(pointer(routes, [.key("items"), .key("other")]) == nil)
    }

    /// Decoding follows references into a wide array: each shared object is the one decoded at
    /// its place.
    @Test func referencesIntoAWideArrayNameTheObjectsThere() throws {
        AMC.register(SocialNetwork.self, SocialTeam.self, SocialPerson.self, SocialTag.self)
        var members = (0..<20).map { #"{"name": "p\#($0)"}"# }
        members.append(
            contentsOf: (0..<20).map {
                ##"{"name": "again", "friends": [{"$ref": "#/teams/0/members/\##($0)"}]}"##
            })
        let json = #"{"class": "SocialNetwork", "teams": [{"name": "t", "members": [\#(members.joined(separator: ","))]}]}"#
        let network = try #require(try AMC.object(SocialNetwork.self, from: Data(json.utf8)))
        let people = network.teams[0].members
        #expect(people.count == 40)
        for index in 0..<20 { #expect(people[20 + index].friends.first === people[index]) }
    }
}
