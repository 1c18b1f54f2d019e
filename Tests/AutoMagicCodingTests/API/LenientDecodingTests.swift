import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Lenient decoding")
struct LenientDecodingTests {
    init() { Evolution.register() }

    /// One problem of every kind.
    static var document: [String: Any] {
        [
            "class": "Gadget",
            "name": "Widget",
            "nmae": "typo",
            "sizes": [1, "two", 3],
            "parts": [
                ["class": "GadgetPart", "label": "cog", "weight": 1.5],
                ["class": "Sprocket", "label": "?"],
                ["class": "GadgetPart", "label": "bolt", "weight": "heavy"],
            ],
            "spare": ["$ref": "#/parts/9"],
            "kind": "doohickey",
            "$versions": ["Gadget": 1, "GadgetPart": 4],
        ]
    }

    @Test(arguments: AMCFormat.allCases)
    func keepsWhatItCanAndListsEveryProblem(format: AMCFormat) throws {
        let data = try AMC.convert(try JSONSerialization.data(withJSONObject: Self.document), to: format)
        let report = try AMC.lenientObject(Gadget.self, from: data, reportingUnknownKeys: true)
        let gadget = report.object
        #expect(gadget.name == "Widget")
        #expect(gadget.sizes == [1, 3])
        #expect(gadget.parts.map(\.label) == ["cog", "bolt"])
        #expect(gadget.parts.map(\.weight) == [1.5, 0])  // the bad weight keeps its initial value
        #expect(gadget.spare == nil)
        #expect(
            report.problems.map(\.description) == [
                "At \"nmae\": no property of Gadget reads the key \"nmae\" — did you mean \"name\"? (value: \"typo\")",
                "At \"sizes[1]\": expected a number of type Int, found the string \"two\". (value: \"two\")",
                "At \"parts[0]\": GadgetPart was written by version 4 of the type, newer than the version 3 this code knows "
                    + "(lenient decoding, AMC.lenientObject, reads what this version understands). (value: 4)",
                "At \"parts[1]\": class \"Sprocket\" is not registered; call AMC.register(Sprocket.self) before decoding it. "
                    + "(value: a dictionary of class \"Sprocket\")",
                "At \"parts[2].weight\": expected a number of type Double, found the string \"heavy\". (value: \"heavy\")",
                "At \"spare\": the reference \"#/parts/9\" names no object: nothing is there (its first step leads somewhere, "
                    + "the next does not). (value: {\"$ref\": \"#/parts/9\"})",
                "At \"kind\": Gadget.kind is a let that every new Gadget gives the same value, which release builds may build "
                    + "into the code, so the archive's other value cannot be restored: make it a var (or, for a struct, "
                    + "conform to Codable instead: its init(from:) sets lets). (value: \"doohickey\")",
            ])
        #expect(report.problems[1].value as? String == "two")
        #expect(
            report.problems.map(\.keyPath) == ["nmae", "sizes[1]", "parts[0]", "parts[1]", "parts[2].weight", "spare", "kind"])
    }

    @Test func unknownKeysAreReportedOnlyWhenAskedFor() throws {
        let report = try AMCArchiver().lenientObject(Gadget.self, from: Self.document)
        #expect(!report.problems.contains { if case .unusedKey = $0.kind { true } else { false } })
        #expect(report.problems.count == 6)
    }

    @Test func strictDecodingStillThrowsTheFirstProblem() throws {
        let error = try #require(throws: AMCError.self) { try AMC.object(Gadget.self, from: Self.document) }
        #expect(error.keyPath == "sizes[1]")
        // A document without problems decodes the same both ways, with an empty list.
        let clean: [String: Any] = [
            "class": "Gadget", "name": "Fine", "sizes": [2], "parts": [["class": "GadgetPart", "label": "x"]],
        ]
        let report = try AMCArchiver().lenientObject(Gadget.self, from: clean, reportingUnknownKeys: true)
        #expect(report.problems.isEmpty)
        #expect(report.object.parts.map(\.label) == ["x"])
    }

    @Test func whatCannotBeSteppedOverStillThrows() throws {
        // No object at all.
        #expect(throws: AMCError.self) { try AMC.lenientObject(Gadget.self, from: Data("[1, 2]".utf8)) }
        #expect(throws: AMCError.self) { try AMC.lenientObject(Gadget.self, from: Data("{\"class\": ".utf8)) }
        #expect(throws: AMCError.self) { try AMCArchiver().lenientObject(Gadget.self, from: ["class": "Sprocket"]) }
    }

    @Test func untypedLenientDecodingNamesTheRootClass() throws {
        let data = try JSONSerialization.data(withJSONObject: Self.document)
        let report = try AMC.lenientObject(from: data)
        #expect(report.object is Gadget)
        #expect(report.problems.count == 6)
    }
}
