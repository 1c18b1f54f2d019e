import Foundation
import Testing

@testable import AutoMagicCoding

/// `AMCDocument`: values read, added, changed and removed by key path, as plutil does, in every
/// format, with every other value kept as it was.
@Suite("Documents edited by key path")
struct DocumentEditingTests {
    private static let json = Data(
        #"{"name": "Acme", "people": [{"name": "Ada", "tags": ["a", "b"]}, {"name": "Bob"}], "n": 3}"#.utf8)

    @Test(arguments: AMCFormat.allCases)
    func valuesAreAddedChangedAndRemovedInEveryFormat(format: AMCFormat) throws {
        var document = try AMCDocument(data: try AMC.convert(Self.json, to: format))
        #expect(document.format == format)
        #expect(try document.value(atKeyPath: "people.0.name") == .string("Ada"))
        #expect(try document.value(atKeyPath: "people.0.tags") == .array([.string("a"), .string("b")]))
        #expect(try document.value(atKeyPath: "people.1") == .dictionary(["name": .string("Bob")]))

        try document.insert(.string("Lovelace"), atKeyPath: "people.0.surname")
        try document.insert(.string("first"), atKeyPath: "people.0.tags.0")
        try document.insert(.string("last"), atKeyPath: "people.0.tags.3")  // the count: at the end
        try document.insert(.integer(7), atKeyPath: "people.0.tags", appending: true)
        try document.replace(.bool(true), atKeyPath: "n")
        try document.replace(.float(2.5), atKeyPath: "people.1.score")  // a missing key is added
        try document.remove(atKeyPath: "name")
        try document.insert(.dictionary(["k": .array([])]), atKeyPath: "extra")

        let written = try document.data()
        #expect(try AMC.lint(written) == format)
        let expected = try JSONSerialization.jsonObject(
            with: Data(
                (#"{"people": [{"name": "Ada", "surname": "Lovelace", "tags": ["first", "a", "b", "last", 7]}, "#
                    + #"{"name": "Bob", "score": 2.5}], "n": true, "extra": {"k": []}}"#).utf8))
        #expect(Canonical.text(try foundationValue(written, json: format == .json)) == Canonical.text(expected))
    }

    @Test func aKeyPathThatLeadsNowhereSaysWhereAndWhy() throws {
        var document = try AMCDocument(data: Self.json)
        func failure(_ body: () throws -> Void) -> AMCError? {
            do {
                try body()
                return nil
            } catch let error as AMCError {
                return error
            } catch {
                return nil
            }
        }
        let missing = failure { _ = try document.value(atKeyPath: "people.0.age") }
        #expect(missing?.description == "At \"people[0].age\": no value here: no such key.")
        let past = failure { try document.replace(.integer(1), atKeyPath: "people.5.name") }
        #expect(past?.description == "At \"people[5]\": no value here: past the end of an array of 2.")
        let into = failure { try document.insert(.integer(1), atKeyPath: "n.x") }
        #expect(into?.description == "At \"n\": no value here: \"x\" goes into an integer, not a dictionary or array.")
        let exists = failure { try document.insert(.string("x"), atKeyPath: "name") }
        #expect(exists?.kind == .valueExists && exists?.keyPath == "name")
        let notAnIndex = failure { try document.remove(atKeyPath: "people.first") }
        #expect(notAnIndex?.kind == .keyPathNotFound(reason: "\"first\" is not an index of this array of 2"))
        let wrongType = failure { _ = try document.value(atKeyPath: "n", ofType: "string") }
        #expect(wrongType?.description == "At \"n\": expected a value of type string, found one of type integer.")
        // Nothing was changed by the failures.
        #expect(
            Canonical.text(try foundationValue(try document.data(), json: true))
                == Canonical.text(try foundationValue(Self.json, json: true)))
    }

    @Test func valuesFromTextAsPlutilReadsThem() throws {
        #expect(try AMCDocument.Value(type: "bool", text: "YES") == .bool(true))
        #expect(try AMCDocument.Value(type: "bool", text: "true") == .bool(true))
        #expect(try AMCDocument.Value(type: "bool", text: "no") == .bool(false))
        #expect(try AMCDocument.Value(type: "integer", text: "-42") == .integer(-42))
        #expect(try AMCDocument.Value(type: "float", text: "2.5") == .float(2.5))
        #expect(
            try AMCDocument.Value(type: "date", text: "2001-01-01T00:00:00Z") == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(try AMCDocument.Value(type: "data", text: "/wA=") == .data(Data([0xFF, 0])))
        #expect(
            try AMCDocument.Value(type: "json", text: #"{"a": [1, "x"]}"#)
                == .dictionary(["a": .array([.integer(1), .string("x")])]))
        #expect(
            try AMCDocument.Value(type: "xml", text: "<plist><array><true/><real>1.5</real></array></plist>")
                == .array([.bool(true), .float(1.5)]))
        let notAnInteger = failure { _ = try AMCDocument.Value(type: "integer", text: "1.5") }
        #expect(notAnInteger?.description == "At the root: 1.5 does not fit exactly in Int64.")
        #expect(throws: AMCError.self) { try AMCDocument.Value(type: "json", text: "<plist><true/></plist>") }
        #expect(throws: AMCError.self) { try AMCDocument.Value(type: "color", text: "red") }
    }

    @Test func extractMakesADocumentOfTheValueAndRawTextAsPlutilPrintsIt() throws {
        let plist = try AMC.convert(Self.json, to: .xmlPropertyList)
        var document = try AMCDocument(data: plist)
        let people = try document.extract("people", as: .json, options: .compact)
        #expect(String(decoding: people, as: UTF8.self) == #"[{"name":"Ada","tags":["a","b"]},{"name":"Bob"}]"#)
        #expect(String(decoding: try document.extract("n", as: .json, options: .compact), as: UTF8.self) == "3")
        #expect(try document.value(atKeyPath: "people").rawText == "2")
        #expect(try document.value(atKeyPath: "people.0").rawText == "name\ntags")
        #expect(try document.value(atKeyPath: "n").rawText == "3")

        // A date: JSON refuses it at its key path from the root, unless asked for as text.
        try document.insert(.date(Date(timeIntervalSinceReferenceDate: 0)), atKeyPath: "people.0.born")
        #expect(try document.value(atKeyPath: "people.0.born").rawText == "2001-01-01T00:00:00Z")
        #expect(throws: AMCError.self) { try document.extract("people", as: .json) }
        do {
            _ = try document.extract("people", as: .json)
        } catch let error as AMCError {
            #expect(error.keyPath == "people[0].born")
        }
        let text = try document.extract("people.0", as: .json, options: .compact, textForDatesAndData: true)
        #expect(String(decoding: text, as: UTF8.self) == #"{"name":"Ada","tags":["a","b"],"born":"2001-01-01T00:00:00Z"}"#)
    }

    /// plutil's key-path rules at their edges: `\.` in a key (a backslash before anything else is
    /// itself), the empty key, the array's count for a replacement, integers above `Int64.max`.
    @Test func keysWithDotsTheEmptyKeyTheCountAndLargeIntegers() throws {
        var document = try AMCDocument(data: Data(#"{"com.example.key": {"list": [1, 2]}, "big": 18446744073709551615}"#.utf8))
        #expect(try document.value(atKeyPath: #"com\.example\.key.list.1"#) == .integer(2))
        try document.replace(.integer(3), atKeyPath: #"com\.example\.key.list.2"#)  // the count: added at the end
        #expect(try document.value(atKeyPath: #"com\.example\.key.list"#) == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(throws: AMCError.self) { try document.replace(.integer(9), atKeyPath: #"com\.example\.key.list.4"#) }
        #expect(throws: AMCError.self) { try document.remove(atKeyPath: #"com\.example\.key.list.3"#) }

        // An empty key path is the key "", never the whole document.
        try document.replace(.string("empty"), atKeyPath: "")
        #expect(try document.value(atKeyPath: "") == .string("empty"))
        guard case let .dictionary(entries) = try document.rootValue() else { throw AMCError(.missingClassName) }
        #expect(entries.keys.sorted() == ["", "big", "com.example.key"])

        let big = try document.value(atKeyPath: "big")
        #expect(big == .unsignedInteger(.max) && big.typeName == "integer" && big.rawText == "18446744073709551615")
        let written = try AMCDocument(data: try document.data(format: .binaryPropertyList))
        #expect(try written.value(atKeyPath: "big") == .unsignedInteger(.max))

        try document.insert(.string("x"), atKeyPath: #"back\slash"#)
        #expect(try document.value(atKeyPath: #"back\slash"#) == .string("x"))
        guard case let .dictionary(withSlash) = try document.rootValue() else { throw AMCError(.missingClassName) }
        #expect(withSlash[#"back\slash"#] == .string("x"))

        let appendToNumber = failure { try document.insert(.integer(1), atKeyPath: "big", appending: true) }
        #expect(appendToNumber?.kind == .typeMismatch(expected: "an array to append to", found: "an integer"))
    }

    private func failure(_ body: () throws -> Void) -> AMCError? {
        do {
            try body()
            return nil
        } catch {
            return error as? AMCError
        }
    }

    /// Types and raw text without converting what a value holds: a JSON `null` inside is no
    /// obstacle; the layout a JSON document was read in is the one it is written in.
    @Test func typesRawTextAndTheLayoutOfJSON() throws {
        let compact = Data("{\"list\":[1,null,\"x\"],\"n\":1}\n".utf8)
        var document = try AMCDocument(data: compact)
        #expect(try document.typeName(atKeyPath: "list") == "array")
        #expect(try document.rawText(atKeyPath: "list") == "3")
        #expect(try document.typeName(atKeyPath: "list.1") == "null")
        #expect(throws: AMCError.self) { try document.rawText(atKeyPath: "list", ofType: "dictionary") }
        #expect(String(decoding: try document.extract("list", as: .json, options: .compact), as: UTF8.self) == #"[1,null,"x"]"#)
        try document.replace(.integer(2), atKeyPath: "n")
        #expect(String(decoding: try document.data(), as: UTF8.self) == "{\"list\":[1,null,\"x\"],\"n\":2}\n")

        let indented = try AMCDocument(data: Data("{\n  \"b\": 1,\n  \"a\": 2\n}".utf8))
        #expect(String(decoding: try indented.data(), as: UTF8.self) == "{\n  \"b\": 1,\n  \"a\": 2\n}")
        #expect(try AMCDocument(data: Data("\n{\"a\":1}".utf8)).data() == Data(#"{"a":1}"#.utf8))

        // Text read as string coding reads it, one vocabulary: no silent false.
        #expect(try AMCDocument.Value(type: "bool", text: "on") == .bool(true))
        #expect(try AMCDocument.Value(type: "integer", text: "0x1F") == .integer(31))
        #expect(throws: AMCError.self) { try AMCDocument.Value(type: "bool", text: "maybe") }
    }
}
