import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Errors: key paths, cycles, nesting limits")
struct ErrorTests {
    init() { Fixtures.register() }

    @Test func keyPathsNameEveryStepFromTheRoot() {
        let zoo: [String: Any] = [
            "animals": [["class": "Dog"], ["class": "Dog"], ["class": "Dog"], ["class": "Dog", "legs": "many"]]
        ]
        let error = expectAMCError { _ = try AMC.object(Zoo.self, from: zoo) }
        #expect(error?.keyPath == "animals[3].legs")
        #expect(error?.description == "At \"animals[3].legs\": expected a number of type Int, found the string \"many\".")
        let nested = expectAMCError {
            _ = try AMC.object(Zoo.self, from: ["byName": ["rex": ["class": "Dog", "name": 5]]])
        }
        #expect(nested == AMCError(.typeMismatch(expected: "a string", found: "the number 5"), keyPath: "byName.rex.name"))
    }

    /// In tree mode; in graph mode (the default) a cycle is written as a reference.
    @Test func aReferenceCycleThrowsInTreeModeInsteadOfOverflowingTheStack() {
        let a = Pair()
        let b = Pair()
        a.other = b
        b.other = a
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let error = expectAMCError { _ = try tree.dictionaryRepresentation(of: a) }
        #expect(error == AMCError(.referenceCycle(typeName: "Pair"), keyPath: "other.other"))
        #expect(
            error?.description
                == "At \"other.other\": reference cycle: this Pair is already being encoded higher up the graph.")
        b.other = nil
        a.other = nil
    }

    @Test func aSelfReferenceInACollectionIsACycleInTreeMode() {
        let node = Node()
        node.children = [Node(), node]
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let error = expectAMCError { _ = try tree.dictionaryRepresentation(of: node) }
        #expect(error?.kind == .referenceCycle(typeName: "Node"))
        #expect(error?.keyPath == "children[1]")
        node.children = []
    }

    @Test func nestingAtTheLimitWorksAndDeeperThrowsOnEncode() throws {
        // Every object and every collection is one level. An archiver's own limit is checked the
        // same way as AMC.maximumDepth (DepthTests checks that one and the stack's).
        var archiver = AMCArchiver()
        archiver.maximumDepth = 300
        func chain(_ length: Int) -> Pair {
            let head = Pair()
            var current = head
            for _ in 1..<length {
                let next = Pair()
                current.other = next
                current = next
            }
            return head
        }
        let atLimit = chain(300)
        let dict = try archiver.dictionaryRepresentation(of: atLimit)
        let copy = try #require(try archiver.object(Pair.self, from: dict))
        var length = 1
        var current = copy
        while let next = current.other {
            length += 1
            current = next
        }
        #expect(length == 300)

        // Graph mode writes a longer chain in its object table, nested no deeper than the table is;
        // tree mode nests every object where it is, and stops at the limit.
        let longer = try #require(try archiver.object(Pair.self, from: try archiver.dictionaryRepresentation(of: chain(301))))
        #expect(Array(sequence(first: longer, next: { $0.other })).count == 301)
        archiver.graphMode = .tree
        let error = expectAMCError { _ = try archiver.dictionaryRepresentation(of: chain(301)) }
        #expect(error?.kind == .nestingTooDeep(limit: 300))
        #expect(error?.keyPath == Array(repeating: "other", count: 300).joined(separator: "."))
    }

    @Test func absurdNestingThrowsOnDecode() throws {
        // 12,000 levels, made and released on a large stack, decoded on a 256 KB one: the room
        // left stops it (ReleaseChecks checks the count limit, deeper than sanitizers follow).
        let errors = try onThread(stackSize: 64 << 20) {
            var nested: Any = [1]
            for _ in 0..<12_000 { nested = [nested] }
            var deepObject: [String: Any] = ["class": "Node"]
            for _ in 0..<12_000 { deepObject = ["class": "Node", "next": deepObject] }
            return try onThread(stackSize: 256 << 10) {
                [
                    amcError { _ = try AMC.object(Zoo.self, from: ["anything": nested]) },
                    amcError { _ = try AMC.object(Node.self, from: deepObject) },
                ]
            }
        }
        for error in errors {
            guard case .stackExhausted? = error?.kind else {
                Issue.record("expected the stack to stop decoding, got \(String(describing: error))")
                continue
            }
        }
    }

    @Test func nilInsideAnArrayIsReported() {
        final class Holder: AMCCodable {
            var values: [Int?] = [1, nil]
            required init() {}
        }
        let error = expectAMCError { _ = try Holder().dictionaryRepresentation() }
        #expect(error?.keyPath == "values[1]")
        #expect(
            error?.kind
                == .unsupportedType(
                    typeName: "Optional<Int>",
                    reason: "nil inside an array or a dictionary cannot be archived (property lists have no null)"))
    }

    /// A key type with no string form.
    struct Point3Key: Hashable {
        var x = 0, y = 0, z = 0
    }

    @Test func unsupportedValuesNameTheirType() {
        final class Holder: AMCCodable {
            var handler: () -> Void = {}
            var byPoint: [Point3Key: String] = [:]
            required init() {}
        }
        final class OnlyHandler: AMCCodable {
            var handler: () -> Void = {}
            required init() {}
        }
        let error = expectAMCError { _ = try OnlyHandler().dictionaryRepresentation() }
        #expect(error?.keyPath == "handler")
        #expect(
            error?.kind
                == .unsupportedType(
                    typeName: "() -> ()",
                    reason: "a closure is code, not data: make it a computed property or leave it out of amcKeys"))
        let encodeError = expectAMCError {
            let holder = Holder()
            holder.handler = {}
            _ = try holder.dictionaryRepresentation()
        }
        #expect(encodeError?.keyPath == "handler")
        let dictError = expectAMCError {
            let holder = Holder()
            try holder.loadValue(forKey: "byPoint", from: ["byPoint": ["1": "x"]])
        }
        #expect(
            dictError
                == AMCError(
                    .unsupportedType(
                        typeName: "Dictionary<Point3Key, String>",
                        reason:
                            "its keys, of type Point3Key, have no string form (keys can be strings, numbers, UUIDs, enums with raw values)"
                    ),
                    keyPath: "byPoint"))
    }

    @Test func hookErrorsThatAreNotAMCErrorsAreWrapped() {
        final class Picky: AMCCodable {
            struct Refused: Error {}
            var v = 0
            required init() {}
            func amcDidDecode() throws { if v < 0 { throw Refused() } }
        }
        let error = expectAMCError { _ = try AMC.object(Picky.self, from: ["v": -1]) }
        #expect(error == AMCError(.hookFailed(hook: "amcDidDecode", typeName: "Picky", reason: "Refused()")))
    }

    /// In a document with references, hooks run once every object is filled: a failing one is
    /// still reported at its own object's place, whichever objects were filled before and after.
    @Test func aHookThatFailsInADocumentWithReferencesIsReportedAtItsObjectsPlace() {
        final class Part: AMCCodable {
            struct Refused: Error {}
            var v = 0
            required init() {}
            func amcDidDecode() throws { if v < 0 { throw Refused() } }
        }
        final class Whole: AMCCodable {
            var main = Part()
            var parts: [Part] = []
            var spare = Part()
            required init() {}
        }
        let document: [String: Any] = [
            "main": ["$ref": "#/parts/0"], "parts": [["v": 1], ["v": 2], ["v": -1]], "spare": ["v": 3],
        ]
        let error = expectAMCError { _ = try AMC.object(Whole.self, from: document) }
        #expect(error == AMCError(.hookFailed(hook: "amcDidDecode", typeName: "Part", reason: "Refused()"), keyPath: "parts[2]"))
    }
}
