import Foundation
import Testing

@testable import AutoMagicCoding

/// The JSON reader's flat document: keys numbered once per document, strings made from the
/// document's bytes as they are read, containers as views of their slots.
@Suite("DocumentTape: JSON parsed into one flat store")
struct DocumentTapeTests {
    private func parse(_ json: String) throws -> ArchiveValue {
        try JSONReader.parse(Data(json.utf8)).value
    }

    private func dictionary(_ value: ArchiveValue) throws -> ArchiveDictionary {
        guard case let .dictionary(dictionary) = value else { throw Refusal.notADictionary(value.summary) }
        return dictionary
    }

    private enum Refusal: Error {
        case notADictionary(String)
    }

    /// More distinct keys than the reader's table of recent keys holds, long keys that share
    /// their length and first and last 8 bytes, and keys with escapes: each is found by its own
    /// bytes, and written back exactly.
    @Test func everyKeyIsFoundByItsOwnBytes() throws {
        let keys =
            (0..<600).map { "key number \($0)" }
            + (0..<40).map { "shared prefix_\($0 % 10)\($0 / 10)_shared suffix" }
            + ["", "k", "quote \" and slash \\", "tab\tin key", "é", "東京", "emoji 😀 key"]
        var json = "{"
        for (index, key) in keys.enumerated() {
            let escaped = key.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\t", with: "\\t")
            json += (index == 0 ? "" : ",") + "\"\(escaped)\":\(index)"
        }
        json += "}"
        let document = try dictionary(try parse(json))
        #expect(document.count == keys.count)
        var hint = 0
        for (index, key) in keys.enumerated() {
            #expect(document.value(forKey: key, hint: &hint)?.isSame(as: .int(Int64(index))) == true, "\(key)")
        }
        // Looked up out of order, past the hint, and for a key that is not there.
        #expect(document["key number 7"]?.isSame(as: .int(7)) == true)
        #expect(document["key number 600"] == nil)
        // Keys keep their exact spelling, whatever String equality would say.
        #expect(document.entries.map { Array($0.key.utf8) } == keys.map { Array($0.utf8) })
        let written = try DocumentCodec.encode(.dictionary(document), format: .json, options: .compact)
        #expect(try dictionary(try JSONReader.parse(Data(written)).value).entries.map(\.key) == keys)
    }

    /// A container whose values outnumber everything else held hands its waiting array over to
    /// the tape, the others moving instead: with finished containers before it, inside open
    /// ones, one after another, in JSON and XML (the binary reader sets each container's run
    /// aside, and is held to the same document); each value stays where it belongs.
    @Test func largeContainersClosingAfterOthersKeepEveryValue() throws {
        func numbers(_ count: Int, from first: Int) -> String {
            "[" + (first..<(first + count)).map(String.init).joined(separator: ",") + "]"
        }
        let json = """
            {"a": [], "b": {"x": [1, 2, 3], "big": \(numbers(5_000, from: 0)), "after": ["s", {"deep": \(numbers(9_000, from: 7))}]},
             "c": \(numbers(20_000, from: 3)), "d": [[], \(numbers(4_096, from: 1))], "e": {"last": true}}
            """
        let expected = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? NSDictionary
        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let data = try AMC.convert(Data(json.utf8), to: format)
            let back = try DocumentCodec.encode(try DocumentCodec.parse(data).value, format: .json, options: .compact)
            #expect(try JSONSerialization.jsonObject(with: Data(back)) as? NSDictionary == expected, "\(format)")
        }
    }

    /// Many keys met again and again, in other orders, each come back as themselves: keys that
    /// share a place in the reader's table of recent keys (hundreds in 256 places), and long keys
    /// alike in length and in their first and last 8 bytes.
    @Test func keysMetAgainAreFoundAmongManyAlike() throws {
        let keys = (0..<600).map { "k\($0)" } + ["aaaaaaaaXbbbbbbbbb", "aaaaaaaaYbbbbbbbbb"]
        func object(_ order: [String]) -> String {
            "{" + order.map { #""\#($0)": "\#($0)""# }.joined(separator: ",") + "}"
        }
        let orders = [
            keys, keys.reversed(), keys.enumerated().sorted { ($0.offset * 7) % 13 < ($1.offset * 7) % 13 }.map(\.element),
        ]
        guard case let .array(objects) = try parse("[" + orders.map(object).joined(separator: ",") + "]") else {
            Issue.record("not an array")
            return
        }
        for (order, read) in zip(orders, objects) {
            let entries = try dictionary(read).entries
            #expect(entries.map(\.key) == order)
            #expect(entries.allSatisfy { $0.value.string == $0.key })
        }
    }

    /// Keys met again are found in the table of recent keys, without making their strings again,
    /// also two keys whose places there are a pair ("name" and "size", each the other's second
    /// place), which pushed each other out at every object.
    @Test func keysSharingAPairOfPlacesAreBothKept() {
        let bytes = Array(#""name""size""lang""#.utf8)
        let (name, size, other) = (1..<5, 7..<11, 13..<17)
        let first = KeyTable.Reserved.allCases.count
        ByteView.withBytes(of: bytes) { view in
            var table = KeyTable()
            for _ in 0..<100 {
                #expect(table.number(of: name, in: view) == first)
                #expect(table.number(of: size, in: view) == first + 1)
                #expect(table.number(of: other, in: view) == first + 2)
            }
            #expect(table.keys.dropFirst(first) == ["name", "size", "lang"])
            #expect(table.stringsMade == 3)
        }
    }

    /// A few keys are found by a look at each, more through a hash table: every key keeps its
    /// number across the change, and each distinct key's string is made once.
    @Test func keysKeepTheirNumbersAsTheTableGrows() {
        let names = (0..<40).map { "key\($0)" }
        let bytes = Array(names.joined().utf8)
        var ranges: [Range<Int>] = []
        for name in names { ranges.append((ranges.last?.upperBound ?? 0)..<((ranges.last?.upperBound ?? 0) + name.utf8.count)) }
        let first = KeyTable.Reserved.allCases.count
        ByteView.withBytes(of: bytes) { view in
            var table = KeyTable()
            for round in 0..<3 {
                for (number, range) in ranges.enumerated() where round > 0 || number < 10 {
                    #expect(table.number(of: range, in: view) == first + number)
                }
                for (number, range) in ranges.enumerated() { #expect(table.number(of: range, in: view) == first + number) }
            }
            #expect(Array(table.keys.dropFirst(first)) == names)
            #expect(table.stringsMade <= 2 * names.count)
            #expect(
                table.number(of: "key7") == first + 7 && table.number(of: "key39") == first + 39
                    && table.number(of: "new") == first + 40)
        }
    }

    /// The keys the format gives a meaning of its own have the same numbers in every table, new
    /// or kept, and are found by them in a document of each format: a dictionary read from JSON,
    /// an XML or a binary property list gives the same value for each, asked by number or by
    /// string, whether the key is there or not.
    @Test func reservedKeysAreFoundByTheirNumbersInEveryFormat() throws {
        for table in [KeyTable(), KeyTable.reused()] {
            #expect(Array(table.keys.prefix(KeyTable.Reserved.allCases.count)) == KeyTable.Reserved.allCases.map(\.key))
            table.recycle()
        }
        let documents: [[String: Any]] = [
            ["class": "Note", "$versions": ["Note": 2], "$nil": ["title"], "$objects": [["class": "Tag"]], "text": "hi"],
            ["text": "no reserved key", "class_": "not the class key", "$ref_": 1],
            ["$ref": "#/a"],
        ]
        for document in documents {
            let written = [
                ("JSON", try JSONSerialization.data(withJSONObject: document)),
                ("XML", try PropertyListSerialization.data(fromPropertyList: document, format: .xml, options: 0)),
                ("binary", try PropertyListSerialization.data(fromPropertyList: document, format: .binary, options: 0)),
            ]
            for (format, data) in written {
                let parsed = try dictionary(try DocumentCodec.parse(data).value)
                #expect(parsed.tapeRun != nil)
                for reserved in KeyTable.Reserved.allCases {
                    let (byNumber, byString) = (parsed[reserved: reserved], parsed[reserved.key])
                    #expect((byNumber == nil) == (byString == nil), "\(reserved.key) in \(format)")
                    #expect(
                        byNumber.map { "\($0.swiftValue)" } == byString.map { "\($0.swiftValue)" }
                            && byNumber.map { "\($0.swiftValue)" } == document[reserved.key].map { "\($0)" },
                        "\(reserved.key) in \(format)")
                }
                #expect(parsed[reserved: .className]?.string == document["class"] as? String)
            }
        }
    }

    /// A document's key that is the same `String` as a field's key but has other bytes (the
    /// Kelvin sign for "K", a decomposed "é") fills that field, objects and arrays of them too.
    @Test func aKeyEqualToAFieldsKeyFillsItWhateverItsBytes() throws {
        let json = #"{"\u212A": {"value": 3}, "cafe\u0301": [{"value": 4}], "plain": 5}"#
        let thermometer = try #require(try AMC.object(Thermometer.self, from: Data(json.utf8)))
        #expect(thermometer.K.value == 3 && thermometer.café.map(\.value) == [4] && thermometer.plain == 5)
    }

    /// The same key in every object of a document keeps the spelling each object gave it.
    @Test func aKeySpelledTwoWaysKeepsEachSpelling() throws {
        let document = try parse(#"[{"caf\u00e9":1},{"cafe\u0301":2},{"café":3}]"#)
        guard case let .array(elements) = document else {
            Issue.record("not an array")
            return
        }
        let spellings = try elements.map { try dictionary($0).entries[0].key.unicodeScalars.count }
        #expect(spellings == [4, 5, 4])
    }

    /// Strings come from the document's bytes, or from the escapes' text; numbers and literals
    /// keep their kind; containers nest.
    @Test func valuesComeBackAsTheyWereWritten() throws {
        let value = try parse(
            #"{"a":["x","y\n\"z\"",-9223372036854775808,18446744073709551615,1.5,true,false,null,{},[]],"b":{"c":"東京"}}"#)
        let expected: ArchiveValue = .dictionary(
            {
                var dictionary = ArchiveDictionary()
                dictionary.append(
                    "a",
                    .array([
                        .string("x"), .string("y\n\"z\""), .int(.min), .uint(.max), .double(1.5), .bool(true), .bool(false),
                        .null,
                        .dictionary(ArchiveDictionary()), .array([]),
                    ]))
                var inner = ArchiveDictionary()
                inner.append("c", .string("東京"))
                dictionary.append("b", .dictionary(inner))
                return dictionary
            }())
        #expect(value.isSame(as: expected))
        #expect(expected.isSame(as: value))
    }

    /// Appending to a dictionary read from a document copies its entries first; the document's
    /// view is unchanged.
    @Test func appendingToADocumentsDictionaryLeavesTheDocumentAlone() throws {
        let document = try dictionary(try parse(#"{"a":1,"b":2}"#))
        var copy = document
        copy.append("c", .int(3))
        #expect(copy.entries.map(\.key) == ["a", "b", "c"])
        #expect(document.entries.map(\.key) == ["a", "b"])
        #expect(copy["b"]?.isSame(as: .int(2)) == true)
    }

    /// The XML reader's tape: text as the file has it where nothing in it needs a change, the
    /// resolved text where it does; dates and data as values.
    @Test func xmlTextIsTheFilesOwnOrResolved() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>plain</key><string>as it is, 東京</string>
            <key>a&amp;b</key><string>x &lt; y</string>
            <key>cdata</key><string><![CDATA[<c>]]> and <!-- a comment --> more</string>
            <key>lines</key><string>one\r\ntwo</string>
            <key/><string/>
            <key>when</key><date>2025-09-19T18:40:00Z</date>
            <key>bytes</key><data>AAEC/w==</data>
            <key>list</key><array><integer>-3</integer><real>2.5</real><true/><array/><dict/></array>
            </dict></plist>
            """
        let value = try XMLPlistReader.parse(Data(xml.utf8)).value
        var expected = ArchiveDictionary()
        expected.append("plain", .string("as it is, 東京"))
        expected.append("a&b", .string("x < y"))
        expected.append("cdata", .string("<c> and  more"))
        expected.append("lines", .string("one\ntwo"))
        expected.append("", .string(""))
        expected.append("when", .date(Date(timeIntervalSince1970: 1_758_307_200)))
        expected.append("bytes", .data(Data([0, 1, 2, 255])))
        expected.append("list", .array([.int(-3), .double(2.5), .bool(true), .array([]), .dictionary(ArchiveDictionary())]))
        #expect(value.isSame(as: .dictionary(expected)), "\(value.swiftValue)")
        #expect(try dictionary(value).entries.map(\.key) == ["plain", "a&b", "cdata", "lines", "", "when", "bytes", "list"])
    }
}

private final class Thermometer: AMCCodable {
    // Named by the keys the test needs, which a document may spell with other bytes.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    var K = Reading()
    // swift-format-ignore: IdentifiersMustBeASCII
    var café: [Reading] = []
    var plain = 0
    required init() {}
}

private final class Reading: AMCCodable {
    var value = 0
    required init() {}
}
