import Foundation
import Testing

@testable import AutoMagicCoding

/// Runs `body`, expecting an `AMCError`, and returns it.
func expectAMCError(
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) -> AMCError? {
    do {
        try body()
        Issue.record("expected an AMCError, nothing was thrown", sourceLocation: sourceLocation)
    } catch let error as AMCError {
        return error
    } catch {
        Issue.record("expected an AMCError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

@Suite("Decoding rules: numbers, strings, AMC's exception cases")
struct DecodingRulesTests {
    init() { Fixtures.register() }

    @Test func numbersConvertBetweenWidthsWhenTheyFitExactly() throws {
        let scalars = try #require(
            try AMC.object(
                AllScalars.self,
                from: [
                    "double": 3, "uint8": 200, "float": 2, "int64": UInt64(5), "cgFloat": Float(0.5), "int": 7.0,
                ]))
        #expect(scalars.double == 3)
        #expect(scalars.uint8 == 200)
        #expect(scalars.float == 2)
        #expect(scalars.int64 == 5)
        #expect(scalars.cgFloat == 0.5)
        #expect(scalars.int == 7)
    }

    @Test(arguments: [
        ("uint8", 300 as any Sendable, "300", "UInt8"),
        ("int", 1.5 as any Sendable, "1.5", "Int"),
        ("int8", -129 as any Sendable, "-129", "Int8"),
        ("uint", -1 as any Sendable, "-1", "UInt"),
        ("int64", UInt64.max as any Sendable, "18446744073709551615", "Int64"),
        ("float", 1e300 as any Sendable, "1e+300", "Float"),
    ])
    func numbersThatDoNotFitThrow(key: String, value: any Sendable, shown: String, typeName: String) {
        let error = expectAMCError { _ = try AMC.object(AllScalars.self, from: [key: value]) }
        #expect(error == AMCError(.valueOutOfRange(value: shown, typeName: typeName), keyPath: key))
    }

    @Test func archivesRefuseABooleanForANumberAndANumberForABoolean() {
        // As `Codable` does: `true` is not 1 in an archive, nor 1 `true`.
        for (key, value) in [("int", true), ("double", false), ("uint8", true), ("float", true)] as [(String, Any)] {
            let error = expectAMCError { _ = try AMC.object(AllScalars.self, from: [key: value]) }
            #expect(error?.keyPath == key)
            guard case let .typeMismatch(_, found)? = error?.kind else {
                Issue.record("expected a type mismatch, got \(String(describing: error))")
                continue
            }
            #expect(found.hasPrefix("the bool"))
        }
        for value in [1, 0, 2] {
            let error = expectAMCError { _ = try AMC.object(AllScalars.self, from: ["bool": value]) }
            #expect(error == AMCError(.typeMismatch(expected: Bool.expectation, found: "the number \(value)"), keyPath: "bool"))
        }
        // In every format: JSON's true is a Boolean.
        let json = Data(#"{"class": "AllScalars", "int": true}"#.utf8)
        #expect(expectAMCError { _ = try AMC.object(AllScalars.self, from: json) }?.keyPath == "int")
    }

    @Test func stringsHoldingNumbersAndBoolsDecodeAsKeyValueCodingDoes() throws {
        let scalars = try #require(
            try AMC.object(
                AllScalars.self,
                from: [
                    "int": "10", "double": " 2.5 ", "uint8": "0xff", "bool": "no", "int16": "yes", "float": "1e2",
                ]))
        #expect(scalars.int == 10)
        #expect(scalars.double == 2.5)
        #expect(scalars.uint8 == 255)
        #expect(scalars.bool == false)
        #expect(scalars.int16 == 1)
        #expect(scalars.float == 100)
        for word in ["yes", "YES", "true", "On", "1"] {
            #expect(try AMC.object(AllScalars.self, from: ["bool": word])?.bool == true)
        }
        for word in ["no", "False", "off", "0"] {
            #expect(try AMC.object(AllScalars.self, from: ["bool": word])?.bool == false)
        }
    }

    @Test func unparsableStringsThrowWithTheString() {
        let error = expectAMCError { _ = try AMC.object(AllScalars.self, from: ["int": "ten"]) }
        #expect(
            error
                == AMCError(
                    .typeMismatch(expected: "a number of type Int", found: "the string \"ten\""),
                    keyPath: "int"))
        let boolError = expectAMCError { _ = try AMC.object(AllScalars.self, from: ["bool": "maybe"]) }
        #expect(
            boolError?.kind
                == .typeMismatch(
                    expected: "a Bool (true or false, or a string yes/no, true/false, on/off, 1/0)", found: "the string \"maybe\""
                ))
    }

    /// The decoder finds each field of a document's object by the number its reader gave the key,
    /// once per key and type: keys in any order, six types met in turn (more than it keeps maps
    /// for), the same key naming fields at different places in different types, keys a type does
    /// not read, and a key equal to a field's only as a `String` (the Kelvin sign for `K`).
    @Test(arguments: [PropertyListSerialization.PropertyListFormat?.none, .binary, .xml])
    func fieldsAreFoundByTheirKeysInAnyOrderAcrossTypes(plist: PropertyListSerialization.PropertyListFormat?) throws {
        AMC.register(KeyedShelf.self, KeyedItem.self, KeyedA.self, KeyedB.self, KeyedC.self, KeyedD.self)
        func item(_ n: Int) -> String {
            let kelvin = n.isMultiple(of: 2) ? "\u{212A}" : "K"
            return #"{"\#(kelvin)": \#(n), "d": {"class": "KeyedD", "name": "d\#(n)", "k": \#(n * 4)}, "extra": [1],"#
                + #" "c": {"name": "c\#(n)", "class": "KeyedC", "k": "\#(n * 3)"}, "class": "KeyedItem","#
                + #" "b": {"flag": true, "k": \#(n * 2), "class": "KeyedB", "name": "b\#(n)"},"#
                + #" "a": {"class": "KeyedA", "name": "a\#(n)", "k": \#(n)}, "name": "item\#(n)"}"#
        }
        // Keys numbered first, so that the objects' keys come late among the document's.
        let index = (0..<300).map { #""w\#($0)": \#($0)"# }.joined(separator: ", ")
        let json =
            #"{"class": "KeyedShelf", "index": {"# + index + #"}, "items": ["#
            + (1...6).map(item).joined(separator: ", ") + "]}"
        var data = Data(json.utf8)
        if let plist {
            data = try PropertyListSerialization.data(
                fromPropertyList: JSONSerialization.jsonObject(with: data), format: plist, options: 0)
        }
        let shelf = try #require(try AMC.object(KeyedShelf.self, from: data))
        #expect(shelf.index.count == 300 && shelf.index["w299"] == 299)
        #expect(shelf.items.count == 6)
        for (offset, item) in shelf.items.enumerated() {
            let n = offset + 1
            #expect(item.name == "item\(n)" && item.K == n)
            #expect(item.a?.name == "a\(n)" && item.a?.k == n)
            #expect(item.b?.name == "b\(n)" && item.b?.k == Double(n * 2) && item.b?.flag == true)
            #expect(item.c?.name == "c\(n)" && item.c?.k == "\(n * 3)")
            #expect(item.d?.name == "d\(n)" && item.d?.k == n * 4 && item.d?.missing == "kept")
        }
    }

    /// A type's map of key numbers to fields is as large as the keys its objects had, however high
    /// their numbers: a map new to a type once cost the document's count of keys, and with more
    /// types than the decoder keeps maps for, reading grew with the square of the document.
    @Test func aTypesKeyMapFollowsItsKeysNotTheirNumbers() {
        var map = KeyFieldMap()
        var resolved: [Int] = []
        for number in [5, 4_000_000_000, 123_456] {
            #expect(
                map.field(ofKey: number) {
                    resolved.append($0)
                    return Int32($0 % 7)
                } == Int32(number % 7))
        }
        #expect(map.field(ofKey: 4_000_000_000) { _ in 99 } == Int32(4_000_000_000 % 7))
        #expect(resolved == [5, 4_000_000_000, 123_456] && map.capacity == 16)
        // Many keys (1,003 in all): each found again, in a map at most half full.
        let many = (0..<1_000).map { $0 * 7_919 + 3 }
        for number in many { _ = map.field(ofKey: number) { _ in KeyFieldMap.noField } }
        #expect(many.allSatisfy { number in map.field(ofKey: number) { _ in 0 } == KeyFieldMap.noField })
        #expect(map.capacity == 2_048)
    }

    @Test func unknownDictionaryKeysAreIgnored() throws {
        let node = try AMC.object(Node.self, from: ["class": "Node", "value": 3, "colour": "red", "zzz": [1]])
        #expect(node?.value == 3)
    }

    @Test func anObjectWhereAScalarBelongsThrows() {
        let error = expectAMCError {
            _ = try AMC.object(Node.self, from: ["value": ["class": "Node", "value": 1]])
        }
        #expect(
            error?.description
                == "At \"value\": expected a number of type Int, found a dictionary of class \"Node\".")
    }

    @Test func aScalarWhereAnObjectBelongsLeavesThePropertyUnsetAndIsReported() throws {
        var node: Node?
        let reported = try heard { node = try AMC.object(Node.self, from: ["value": 1, "next": "not an object"]) }
        #expect(node?.value == 1)
        #expect(node?.next == nil)
        #expect(
            reported.map(\.description) == [
                "At \"next\": expected a dictionary describing a Node, found the string \"not an object\"."
            ])
        // An element of a collection is never left out.
        #expect(
            expectAMCError { _ = try AMC.object(Node.self, from: ["children": [5, ["value": 2]]]) }?.description
                == "At \"children[0]\": expected a dictionary describing a Node, found the number 5.")
    }

    @Test func anObjectOfAnUnrelatedClassLeavesThePropertyUnsetAndIsReported() throws {
        var zoo: Zoo?
        let reported = try heard { zoo = try AMC.object(Zoo.self, from: ["star": ["class": "Node", "value": 1]]) }
        #expect(zoo != nil && zoo?.star == nil)
        #expect(reported == [AMCError(.unrelatedClass(className: "Node", expected: "Animal"), keyPath: "star")])
        // In a collection: an error, never a shorter array.
        let unrelated = expectAMCError {
            _ = try AMC.object(Zoo.self, from: ["animals": [["class": "Dog"], ["class": "Node"], ["class": "Cat"]]])
        }
        #expect(unrelated == AMCError(.unrelatedClass(className: "Node", expected: "Animal"), keyPath: "animals[1]"))
        let unknown = expectAMCError {
            _ = try AMC.object(Zoo.self, from: ["animals": [["class": "Dog"], ["class": "Unicorn"]]])
        }
        #expect(
            unknown?.description
                == "At \"animals[1]\": class \"Unicorn\" is not registered; call AMC.register(Unicorn.self) before decoding it.")
        #expect(
            expectAMCError { _ = try AMC.object(Zoo.self, from: ["table": ["a": ["class": "Unicorn"]]]) }?.keyPath == "table.a")
        #expect(
            expectAMCError { _ = try AMC.object(Zoo.self, from: ["star": ["class": "Unicorn"]]) }?.kind
                == .unregisteredClass(className: "Unicorn"))
    }

    @Test func aRegisteredSubclassIsDecodedForABaseTypedProperty() throws {
        let zoo = try AMC.object(Zoo.self, from: ["star": ["class": "Dog", "breed": "husky"]])
        #expect((zoo?.star as? Dog)?.breed == "husky")
    }

    @Test func letsAreEncodedAndOnlyThoseMadePerInstanceDecoded() throws {
        let object = ReadOnly()
        let friend = Node()
        friend.value = 9
        object.weakFriend = friend
        let dict = try object.dictionaryRepresentation()
        #expect(dict["fixed"] as? String == "initial")
        // weak and unowned: references to objects in the archive (written later here), or left out.
        #expect(dict["weakFriend"] == nil)
        #expect((dict["owner"] as? [String: Any])?["$ref"] as? String == "#/keeper")
        #expect((dict["keeper"] as? [String: Any])?["class"] as? String == "Node")

        // `keeper` is a new object in each instance: restored, and `owner` points at it again.
        let round = try #require(try AMC.object(ReadOnly.self, from: dict))
        #expect(round.owner === round.keeperForTests && round.owner.value == 0)
        // `fixed` is the same in every new instance: never written; another value is an error.
        var copy: ReadOnly?
        let reports = try heard {
            copy = try AMC.object(ReadOnly.self, from: ["fixed": "initial", "mutable": 2, "weakFriend": ["class": "Node"]])
        }
        #expect(copy?.fixed == "initial" && copy?.mutable == 2)
        #expect(copy?.weakFriend == nil && reports.map(\.keyPath) == ["weakFriend"])  // nothing else holds it
        let changed = expectAMCError { _ = try AMC.object(ReadOnly.self, from: ["fixed": "changed"]) }
        #expect(changed == AMCError(.unrestorableLet(key: "fixed", typeName: "ReadOnly"), keyPath: "fixed"))
        withExtendedLifetime(friend) {}
    }

    @Test func weakReferenceToAFreedObjectIsLeftOut() throws {
        let object = ReadOnly()
        do {
            let friend = Node()
            object.weakFriend = friend
        }
        let dict = try object.dictionaryRepresentation()
        #expect(dict["weakFriend"] == nil)
    }

    @Test func loadValueErrors() {
        let object = ReadOnly()
        let unknown = expectAMCError { try object.loadValue(forKey: "nope", from: ["nope": 1]) }
        #expect(unknown == AMCError(.unknownKey(key: "nope", typeName: "ReadOnly"), keyPath: "nope"))
        let readOnly = expectAMCError { try object.loadValue(forKey: "fixed", from: ["fixed": "x"]) }
        #expect(readOnly == AMCError(.readOnlyKey(key: "fixed", typeName: "ReadOnly"), keyPath: "fixed"))
        #expect(object.fixed == "initial")
        // A key the dictionary lacks does nothing, even for a read-only property.
        #expect(throws: Never.self) { try object.loadValue(forKey: "fixed", from: [:]) }
    }

    @Test func nullForAnOptionalSetsNil() throws {
        let object = Optionals()
        object.name = "set"
        try object.loadValue(forKey: "name", from: ["name": NSNull()])
        #expect(object.name == nil)
    }

    @Test func foundationNumbersAndBoolsDecode() throws {
        let json = Data(#"{"int": 4, "bool": true, "double": 2.5, "uint64": 18446744073709551615}"#.utf8)
        let dict = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        let scalars = try #require(try AMC.object(AllScalars.self, from: dict))
        #expect(scalars.int == 4 && scalars.bool && scalars.double == 2.5 && scalars.uint64 == .max)

        let zoo = try #require(try AMC.object(Zoo.self, from: ["table": dict]))
        #expect(zoo.table["bool"] as? Bool == true)
        #expect(zoo.table["int"] as? Int == 4)
    }

    @Test func collectionsOfTheWrongShapeThrow() {
        let error = expectAMCError { _ = try AMC.object(Zoo.self, from: ["uniqueNumbers": "1,2"]) }
        #expect(
            error
                == AMCError(
                    .typeMismatch(expected: "an array", found: "the string \"1,2\""),
                    keyPath: "uniqueNumbers"))
        let elementError = expectAMCError { _ = try AMC.object(Zoo.self, from: ["uniqueNumbers": [1, "x"]]) }
        #expect(elementError?.keyPath == "uniqueNumbers[1]")
    }

    @Test func anyTypedValuesNamingAnUnregisteredClassThrow() {
        let error = expectAMCError {
            _ = try AMC.object(Zoo.self, from: ["anything": [1, ["class": "Unregistered", "x": 1]]])
        }
        #expect(error == AMCError(.unregisteredClass(className: "Unregistered"), keyPath: "anything[1]"))
    }
}

extension DecodingRulesTests {
    /// JSON has no dates, data or UUIDs: their strings are read on the typed path when exact, and
    /// through the general conversion (trimmed) otherwise, with the key path of a bad one.
    @Test func datesDataAndUUIDsReadFromTheirStringsExactOrTrimmed() throws {
        let uuid = "E621E1F8-C36C-495A-93FC-0C247A3E6E5A"
        for (date, data, id) in [("2001-01-01T00:00:01.5Z", "AAEC", uuid), (" 2001-01-01T00:00:01.5Z\\n", "AAEC", " \(uuid) ")] {
            let json = #"{"class": "AllScalars", "date": "\#(date)", "data": "\#(data)", "uuid": "\#(id)"}"#
            let scalars = try #require(try AMC.object(AllScalars.self, from: Data(json.utf8)))
            #expect(scalars.date == Date(timeIntervalSinceReferenceDate: 1.5))
            #expect(scalars.data == Data([0, 1, 2]))
            #expect(scalars.uuid == UUID(uuidString: uuid))
        }
        // Either case, as `UUID(uuidString:)` reads it; a dash out of place or a letter past F is no UUID.
        let lower = try #require(
            try AMC.object(AllScalars.self, from: Data(#"{"class": "AllScalars", "uuid": "\#(uuid.lowercased())"}"#.utf8)))
        #expect(lower.uuid == UUID(uuidString: uuid))
        let misplaced = "E621E1F8-C36C-495A-93FC0-C247A3E6E5A"
        let notHex = "E621E1F8-C36C-495A-93FC-0C247A3E6E5G"
        for (key, bad) in [
            ("date", "2001-13-01T00:00:00Z"), ("uuid", "E621E1F8"), ("uuid", misplaced), ("uuid", notHex), ("data", "A=B"),
        ] {
            let json = #"{"class": "AllScalars", "\#(key)": "\#(bad)"}"#
            let error = expectAMCError { _ = try AMC.object(AllScalars.self, from: Data(json.utf8)) }
            #expect(error?.keyPath == key)
        }
    }
}

/// Dictionaries of scalars, which the archiver reads and writes through typed accessors.
final class Tally: AMCCodable {
    var counts: [String: Int] = [:]
    var labels: [String: String] = [:]
    required init() {}
}

@Suite("Dictionaries of scalars keep every decoding rule")
struct ScalarDictionaryTests {
    init() { AMC.register(Tally.self) }

    @Test func valuesConvertAndAnEscapedReferenceKeyIsUnescaped() throws {
        let json = #"{"class": "Tally", "counts": {"a": "10", "b": 2}, "labels": {"$$ref": "x"}}"#
        let tally = try #require(try AMC.object(Tally.self, from: Data(json.utf8)))
        #expect(tally.counts == ["a": 10, "b": 2])
        #expect(tally.labels == ["$ref": "x"])
    }

    @Test func aValueThatDoesNotConvertIsAnErrorAtItsKey() {
        let json = #"{"class": "Tally", "counts": {"a": 1, "b": "ten"}}"#
        let error = expectAMCError { _ = try AMC.object(Tally.self, from: Data(json.utf8)) }
        #expect(error?.keyPath == "counts.b")
    }

    @Test func aOneKeyDictionaryNamedLikeAReferenceRoundTrips() throws {
        let tally = Tally()
        tally.labels = ["$ref": "#/counts"]
        tally.counts = ["x": 1, "y": -2]
        let data = try AMC.data(for: tally, format: .json)
        #expect(String(decoding: data, as: UTF8.self).contains(#""$$ref""#))
        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let copy = try #require(try AMC.object(Tally.self, from: try AMC.data(for: tally, format: format)))
            #expect(copy.labels == tally.labels)
            #expect(copy.counts == tally.counts)
        }
    }
}

/// Six types that share keys at different places (see `fieldsAreFoundByTheirKeysInAnyOrderAcrossTypes`).
final class KeyedShelf: AMCCodable {
    var index: [String: Int] = [:]
    var items: [KeyedItem] = []
    required init() {}
}

final class KeyedItem: AMCCodable {
    var a: KeyedA?, b: KeyedB?, c: KeyedC?, d: KeyedD?
    var name = ""
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// Named so that its key, "K", is equal as a `String` to the Kelvin sign.
    var K = 0
    required init() {}
}

final class KeyedA: AMCCodable {
    var name = "", k = 0
    required init() {}
}

final class KeyedB: AMCCodable {
    var k = 0.0, flag = false, name = ""
    required init() {}
}

final class KeyedC: AMCCodable {
    var k = "", name = ""
    required init() {}
}

final class KeyedD: AMCCodable {
    var missing = "kept", k = 0, name = ""
    required init() {}
}
