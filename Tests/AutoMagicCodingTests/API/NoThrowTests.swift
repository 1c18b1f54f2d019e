import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("No-throw mode")
struct NoThrowTests {
    init() { Fixtures.register() }

    @Test func dictionaryRepresentationLeavesOutWhatItCannotEncode() throws {
        let shapes = WithUnsupported()
        var dict: [String: Any] = [:]
        let errors = try swallowed(matching: "") {
            dict = try shapes.dictionaryRepresentation()
        }
        #expect(Set(dict.keys) == ["class", "name"])
        #expect(errors == [AMCError(.unsupportedStruct(typeName: "Unsupported", operation: .encode), keyPath: "bad")])
    }

    @Test func aFailureInsideAFieldDropsTheInnermostObjectsField() throws {
        let zoo = Zoo()
        let pair = Pair()
        pair.name = "p"
        pair.other = pair
        zoo.anything = ["fine", pair]
        zoo.table = ["ok": 1, "closure": { () -> Void in }]
        var dict: [String: Any] = [:]
        var tree = AMCArchiver()  // where a cycle is an error
        tree.graphMode = .tree
        let errors = try swallowed(matching: "") { dict = try tree.dictionaryRepresentation(of: zoo) }
        pair.other = nil
        // The cycle is cut at the pair's own field; the rest of the array stays.
        let anything = try #require(dict["anything"] as? [Any])
        #expect(anything.first as? String == "fine")
        let encodedPair = try #require(anything.last as? [String: Any])
        #expect(encodedPair["name"] as? String == "p" && encodedPair["other"] == nil)
        // A value with no enclosing object of its own drops the whole field of the zoo.
        #expect(dict["table"] == nil)
        #expect(dict["class"] as? String == "Zoo")
        #expect(errors.map(\.keyPath) == ["anything[1].other", "table.closure"])
        #expect(errors.first?.kind == .referenceCycle(typeName: "Pair"))
    }

    /// A write done again from the start (a `weak` reference to an object written later, or a
    /// binary property list that outgrows its references' width) meets the same errors again:
    /// each is reported once all the same.
    @Test func aWriteDoneAgainReportsEachErrorOnce() throws {
        final class Target: AMCCodable {
            var label = "leaf"
            required init() {}
        }
        final class Forward: AMCCodable {
            var bad: [Any] = [NSObject()]
            weak var later: Target?  // written before the leaf it points to: the write is planned first
            var leaf = Target()
            var labels: [String] = []
            required init() {}
        }
        AMC.register(Target.self, Forward.self)
        let forward = Forward()
        forward.later = forward.leaf
        let planned = try swallowed(matching: "bad") { _ = try AMC.data(for: forward, format: .json) }
        #expect(planned.map(\.keyPath) == ["bad[0]"])

        // 2-byte references written as containers end, from 256 objects on: 70,000 labels outgrow
        // them, and the document is written again with 3-byte ones.
        forward.labels = (0..<70_000).map { "label \($0)" }
        var data = Data()
        let wider = try swallowed(matching: "bad") {
            let drain = ByteDrain()
            let rest = try DocumentCodec.encode(
                forward, with: BinaryPlistWriter(capacity: 4096, inlineWidth: 2), options: .compact,
                archiver: AMCArchiver(), drain: drain)
            data = drain.data + rest
        }
        #expect(wider.map(\.keyPath) == ["bad[0]"])
        let read = try #require(try AMC.object(Forward.self, from: data))
        #expect(read.labels.count == 70_000 && read.later === read.leaf)
    }

    @Test func decodingReturnsNilAndReportsEachAMCExceptionCase() throws {
        var results: [Any?] = []
        let errors = try swallowed(matching: "") {
            results.append(try AMC.object(from: ["class": "NeverRegisteredAnywhere"]))
            results.append(try AMC.object(from: ["no": "class"]))
            results.append(try AMC.object(Node.self, from: ["value": ["class": "Node"]]))
            results.append(try AMC.object(Dog.self, from: ["class": "Cat"]))
            results.append(try AMC.object(WithUnsupported.self, from: ["bad": "x"]))
        }
        #expect(results.count == 5)
        #expect(results.allSatisfy { $0 == nil })
        #expect(
            errors.map(\.kind) == [
                .unregisteredClass(className: "NeverRegisteredAnywhere"),
                .missingClassName,
                .typeMismatch(expected: "a number of type Int", found: "a dictionary of class \"Node\""),
                .unrelatedClass(className: "Cat", expected: "Dog"),
                .unsupportedStruct(typeName: "Unsupported", operation: .decode),
            ])
    }

    @Test func casesThatNeverThrowBehaveTheSameInBothModes() throws {
        let data: [String: Any] = ["value": 2, "next": "scalar", "unknown": 1]
        var strict: Node?
        let reported = try heard { strict = try AMC.object(Node.self, from: data) }
        var lenient: Node?
        let errors = try swallowed(matching: "") { lenient = try AMC.object(Node.self, from: data) }
        #expect(errors == reported && errors.map(\.keyPath) == ["next"])  // reported, in both modes alike
        for node in [try #require(strict), try #require(lenient)] {
            #expect(node.value == 2 && node.next == nil && node.children.isEmpty)
        }
    }

    @Test func loadValueDoesNothingInsteadOfThrowing() throws {
        let object = ReadOnly()
        let errors = try swallowed(matching: "") {
            try object.loadValue(forKey: "missing", from: ["missing": 1])
            try object.loadValue(forKey: "fixed", from: ["fixed": "changed"])
            try object.loadValue(forKey: "mutable", from: ["mutable": "NaN-ish"])
        }
        #expect(object.fixed == "initial" && object.mutable == 1)
        #expect(errors.map(\.keyPath) == ["missing", "fixed", "mutable"])
    }

    @Test func noThrowIsScopedToTheTask() async throws {
        async let other: Bool = {
            do {
                _ = try AMC.object(from: ["class": "NeverRegisteredAnywhere"])
                return false
            } catch {
                return true
            }
        }()
        try await AMC.withNoThrow {
            try await Task.sleep(nanoseconds: 1_000_000)
            #expect(try AMC.object(from: ["class": "NeverRegisteredAnywhere"]) == nil)
        }
        #expect(await other)
        #expect(AMC.noThrow == false)
        #expect(throws: AMCError.self) { try AMC.object(from: ["class": "NeverRegisteredAnywhere"]) }
    }

    @Test func processWideNoThrowDefault() async {
        await #expect(processExitsWith: .success) {
            AMC.noThrow = true
            let result = try? AMC.object(from: ["class": "NeverRegisteredAnywhere"])
            let dict = try? WithUnsupported().dictionaryRepresentation()
            exit(result == nil && dict?["name"] as? String == "n" && dict?["bad"] == nil ? 0 : 1)
        }
    }
}
