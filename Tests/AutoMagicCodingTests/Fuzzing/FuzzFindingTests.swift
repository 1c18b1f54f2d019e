import Foundation
import Testing

@testable import AutoMagicCoding

/// What the fuzzer found, each kept fixed: the input (a fixture under `Fixtures/fuzz/` where it
/// is bytes) and the error it must give instead of a crash, a file we cannot read back, or a
/// silent choice.
@Suite("Fuzz findings")
struct FuzzFindingTests {
    final class Child: AMCCodable {
        var id = 0
        var label = ""
        required init() {}
    }

    struct ValueChild: AMCCodable {
        var id = 0
        var label = ""
    }

    final class Layer: AMCCodable {
        var cornerRadius = 0.0
        var name = ""
        required init() {}
    }

    final class Badge: AMCCodable {
        var layer = Layer()
        required init() {}
    }

    /// The dictionary a document holds, as `AMC.dictionary(contentsOf:)` reads a file.
    static func dictionary(_ data: Data) throws -> [String: Any] {
        try #require(try DocumentCodec.parse(data).value.swiftValue as? [String: Any])
    }

    /// Finding 1: objects a config or a style makes are filled through their concrete type.
    @Test func configsAndStylesFillTheObjectsTheyMake() throws {
        let config = AMCConfig(dictionary: ["child": ["id": 42, "label": "x"]])
        let child = try #require(try config.value(Child.self, forKeyPath: "child"))
        #expect((child.id, child.label) == (42, "x"))
        let value = try #require(try config.value(ValueChild.self, forKeyPath: "child"))
        #expect((value.id, value.label) == (42, "x"))
        let badge = Badge()
        try badge.apply(style: ["layer": ["cornerRadius": "4", "name": "x"]])
        #expect((badge.layer.cornerRadius, badge.layer.name) == (4, "x"))
    }

    /// Finding 2: a date with no ISO 8601 form (1e300 seconds, NaN, -infinity) in a 57-byte
    /// binary plist: printed, and refused with the key path by the text formats, never a trap.
    @Test(arguments: ["date-1e300.plist", "date-nan.plist", "date-minus-infinity.plist"])
    func aDateWithNoTextFormIsRefusedNotATrap(file: String) throws {
        let data = try FixtureFiles.data("fuzz/" + file)
        let seconds = try #require((try Self.dictionary(data)["d"] as? Date)?.timeIntervalSinceReferenceDate)
        #expect(try AMC.printedTree(of: data) == "{\n  d = date \(seconds) seconds from 2001\n}\n")
        for format in [AMCFormat.json, .xmlPropertyList] {
            // (JSON gets its dates as text only when asked; see dateAndDataInJSONOnlyWhenAskedFor.)
            let error = try #require(throws: AMCError.self) { try AMC.convert(data, to: format, textForDatesAndData: true) }
            #expect(
                error.description == "At \"d\": cannot archive a value of type Date: a date \(seconds) seconds from 2001 "
                    + "has no ISO 8601 form (JSON and XML property lists write dates within ±31 million years; binary property "
                    + "lists hold any).")
        }
        // The binary format holds it, bit for bit.
        let binary = try Self.dictionary(try AMC.convert(data, to: .binaryPropertyList))
        #expect((binary["d"] as? Date)?.timeIntervalSinceReferenceDate.bitPattern == seconds.bitPattern)
    }

    /// Finding 3: years outside 0…9999 are written as Foundation reads them, and read back.
    @Test(arguments: [
        (1e12, "33689-09-27T01:46:40Z"), (-1e11, "-1168-02-16T14:13:20Z"), (-63_145_699_200, "-0001-12-30T00:00:00Z"),
        (-63_114_076_800, "0000-12-30T00:00:00Z"), (252_423_993_600, "10000-01-01T00:00:00Z"),
    ])
    func yearsOutsideFourDigitsRoundTrip(seconds: Double, text: String) throws {
        let date = Date(timeIntervalSinceReferenceDate: seconds)
        #expect(ISODate.string(from: date) == text)
        #expect(ISODate.date(from: text) == date)
        var document = ArchiveDictionary()
        document.append("d", .date(date))
        let plist = Data(try DocumentCodec.encode(.dictionary(document), format: .binaryPropertyList, options: .compact))
        let xml = try AMC.convert(plist, to: .xmlPropertyList)
        #expect(String(decoding: xml, as: UTF8.self).contains("<date>\(text)</date>"))
        #expect(try AMC.lint(xml) == .xmlPropertyList)
        #expect(try Self.dictionary(xml)["d"] as? Date == date)
        if seconds > -13_197_600_000 {  // after 1582: Foundation's calendar is Julian before
            let foundation = try PropertyListSerialization.propertyList(from: xml, format: nil) as? [String: Any]
            #expect(foundation?["d"] as? Date == date)
        }
    }

    /// Finding 4: references and offsets wide enough for CoreFoundation at every size around
    /// the 1-byte limits (256 objects; object data ending at byte 255, 256, 257).
    @Test func binaryPlistsAroundTheOneByteLimitsReadInFoundation() throws {
        for count in 250...260 {
            let data = try AMC.convert(
                try JSONSerialization.data(withJSONObject: (0..<count).map { $0 + 1000 }), to: .binaryPropertyList)
            let read = try PropertyListSerialization.propertyList(from: data, format: nil) as? [Int]
            #expect(read == (0..<count).map { $0 + 1000 }, "\(count) integers")
        }
        for length in 220...260 {
            let text = String(repeating: "a", count: length)
            let data = try AMC.convert(try JSONSerialization.data(withJSONObject: [text]), to: .binaryPropertyList)
            #expect(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String] == [text], "\(length)")
        }
    }

    /// Finding 5: 2 KB of shared objects, 400 levels deep, would print and convert to 82 MB of
    /// XML and 164 MB of JSON; the output stops at its budget instead. (On a thread with room for
    /// the depth, as a main thread has.)
    @Test func sharedObjectsCannotAmplifyTheOutput() throws {
        let data = try FixtureFiles.data("fuzz/shared-expansion.plist")
        #expect(data.count == 2_114)
        let limit = OutputBudget.limit(forInput: data.count)
        #expect(limit == 64 << 20)
        let kinds = try onThread(stackSize: 16 << 20) {
            [
                try #require(throws: AMCError.self) { try AMC.printedTree(of: data) }.kind,
                try #require(throws: AMCError.self) { try AMC.convert(data, to: .json) }.kind,
                try #require(throws: AMCError.self) { try AMC.convert(data, to: .xmlPropertyList) }.kind,
            ]
        }
        #expect(kinds == Array(repeating: .outputTooLarge(limit: limit), count: 3))
        // Compact output has no indentation to multiply: within the budget.
        let compact = try onThread(stackSize: 16 << 20) { try AMC.convert(data, to: .json, options: .compact).count }
        #expect(compact < limit)
    }

    /// Finding 6: a repeated key is refused by every reader, so the object decoder, dictionaries
    /// and configs cannot disagree on which value wins.
    @Test func aRepeatedKeyIsRefusedEverywhere() throws {
        AMC.register(Child.self)
        let url = FixtureFiles.url("fuzz/repeated-key.json")
        let data = try Data(contentsOf: url)
        let expected = "Malformed JSON at line 1, column 41: the key \"label\" appears twice in one dictionary."
        #expect(throws: AMCError.self) { try AMC.object(Child.self, from: data) }
        let errors = [
            try #require(throws: AMCError.self) { try AMC.object(Child.self, from: data) },
            try #require(throws: AMCError.self) { try AMC.dictionary(contentsOf: url) },
            try #require(throws: AMCError.self) { try AMCConfig(contentsOf: url) },
        ]
        #expect(errors.map { $0.inFile(nil).description } == [expected, expected, expected])
        let xml = Data(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>a</key><integer>1</integer><key>a</key><integer>2</integer></dict></plist>
            """.utf8)
        let xmlError = try #require(throws: AMCError.self) { try AMC.lint(xml) }
        #expect(
            xmlError.description
                == "Malformed XML property list at line 2, column 60: the key \"a\" appears twice in one dictionary.")
        // Past 16 keys the check keeps a set; a repeat there is found too.
        let many = "{" + (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ", ") + ", \"k7\": 0}"
        let manyError = try #require(throws: AMCError.self) { try AMC.lint(Data(many.utf8)) }
        guard case let .malformedData(_, _, reason) = manyError.kind else {
            Issue.record("\(manyError)")
            return
        }
        #expect(reason == "the key \"k7\" appears twice in one dictionary")
    }

    /// Foundation writes a carriage return in an XML string as a raw byte, which XML's line-end
    /// normalisation reads as a line feed (FilesAndFormats.md says so); our writer escapes it, and keeps it.
    /// Found by the differential run: `Double(_:)` stops at a NUL byte, so a `<real>` of
    /// `0.1`, NUL, garbage read as 0.1; Foundation refuses it, and so do we now.
    @Test func aNulByteInARealIsNotTheEndOfTheNumber() throws {
        let xml = Data("<plist><real>0.1\u{0} 00014901555554E551612</real></plist>".utf8)
        let error = expectAMCError { _ = try AMC.lint(xml) }
        #expect(
            error?.description
                == "Malformed XML property list at line 1, column 8: \"0.1\u{0} 00014901555554E551612\" is not a real number.")
        // String coding scans numbers itself, so it refuses the same string.
        #expect(throws: AMCError.self) { try AMC.value(Double.self, from: "0.1\u{0}5") }
    }

    /// Found by the differential run: `Int(_:radix:)` takes a sign, so `0x+a` read as 10 and the
    /// character reference `&#x+41;` as "A"; Foundation refuses both, and so do we now.
    @Test func noSignInsideHexadecimalNumbersOrCharacterReferences() throws {
        let integer = expectAMCError { _ = try AMC.lint(Data("<plist><integer>0x+a999a</integer></plist>".utf8)) }
        #expect(integer?.description == "Malformed XML property list at line 1, column 8: \"0x+a999a\" is not an integer.")
        let reference = expectAMCError { _ = try AMC.lint(Data("<plist><string>&#x+41;</string></plist>".utf8)) }
        #expect(reference?.description == "Malformed XML property list at line 1, column 16: unknown entity \"&#x+41;\".")
        #expect(throws: AMCError.self) { try AMC.value(Int.self, from: "0x-5") }
        #expect(try AMC.value(Int.self, from: "-0x1F") == -31)
        #expect(try AMC.lint(Data("<plist><string>&#x41;&#66;</string></plist>".utf8)) == .xmlPropertyList)
    }

    @Test func carriageReturnsInXMLStrings() throws {
        let foundation = try PropertyListSerialization.data(fromPropertyList: ["s": "a\rb\r\nc"], format: .xml, options: 0)
        #expect(try Self.dictionary(foundation)["s"] as? String == "a\nb\nc")
        let ours = try AMC.convert(try JSONSerialization.data(withJSONObject: ["s": "a\rb\r\nc"]), to: .xmlPropertyList)
        #expect(String(decoding: ours, as: UTF8.self).contains("<string>a&#13;b&#13;\nc</string>"))
        #expect(try Self.dictionary(ours)["s"] as? String == "a\rb\r\nc")
        #expect(
            (try PropertyListSerialization.propertyList(from: ours, format: nil) as? [String: Any])?["s"] as? String
                == "a\rb\r\nc")
    }

    /// A JSON integer of 400 digits, converted to an XML property list (a `<real>` of its digits)
    /// and converted again, stays those digits: the XML reader read a `<real>` beyond a double's
    /// range as infinity.
    @Test func aLongIntegerConvertsToXMLAndBackAsWritten() throws {
        let digits = "7890123454" + String(repeating: "0", count: 390)
        let xml = try AMC.convert(Data(digits.utf8), to: .xmlPropertyList, options: .compact)
        #expect(try AMC.convert(xml, to: .xmlPropertyList, options: .compact) == xml)
        #expect(String(decoding: try AMC.convert(xml, to: .json), as: UTF8.self).hasPrefix(digits))
    }

    final class Gauge: AMCCodable {
        var ratio = 1.0
        required init() {}
    }

    final class Scale: AMCCodable {
        var marks: [Double: String] = [:]
        required init() {}
    }

    /// Found by the markup builder's target: `ratio="1e1300"` set infinity, which the markup
    /// writer wrote as `inf`, which nothing reads. A decimal string beyond a type's range is out
    /// of range, as it is in JSON, and infinity and NaN are refused where only text can hold them.
    @Test func aNumberStringBeyondARangeIsAnErrorAndInfinityIsNotWrittenAsText() throws {
        #expect(
            expectAMCError { _ = try AMC.value(Double.self, from: "1e1300") }?.kind
                == .valueOutOfRange(value: "1e1300", typeName: "Double"))
        #expect(
            expectAMCError { _ = try AMC.value(Float.self, from: "-1e39") }?.kind
                == .valueOutOfRange(value: "-1e+39", typeName: "Float"))
        #expect(throws: AMCError.self) { _ = try AMC.value(Int.self, from: "1e1300") }
        #expect(try AMC.value(Double.self, from: "1e300") == 1e300)

        let builder = AMCMarkupBuilder()
        builder.archiver.registry.register(Gauge.self)
        let markup = try AMCMarkup(string: #"<Gauge ratio="1e1300"/>"#)
        let built = expectAMCError { _ = try markup.build(Gauge.self, using: builder) }
        #expect(built?.description.contains("1e1300 does not fit exactly in Double") == true)

        var writer = AMCMarkupWriter()
        writer.archiver = builder.archiver
        for value in [Double.infinity, -.infinity, .nan] {
            let gauge = Gauge()
            gauge.ratio = value
            #expect(expectAMCError { _ = try writer.markup(of: gauge) }?.keyPath == "/Gauge/@ratio")
            let keyed = Scale()
            keyed.marks = [value: "edge"]
            for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
                #expect(throws: AMCError.self) { _ = try AMC.data(for: keyed, format: format) }
            }
        }
        final class Calendar: AMCCodable {
            var days: [Date: String] = [:]
            required init() {}
        }
        let calendar = Calendar()
        calendar.days = [Date(timeIntervalSinceReferenceDate: .infinity): "never"]
        #expect(throws: AMCError.self) { _ = try AMC.data(for: calendar, format: .binaryPropertyList) }
        // A font's size prints as "inf", which read back as part of its name.
        for size in [Double.infinity, .nan] {
            let text = AMCFont(name: "Helvetica", size: size).amcStringValue
            #expect(
                expectAMCError { _ = try AMCFont(amcStringValue: text) }?.kind
                    == .valueOutOfRange(value: size.isNaN ? "nan" : "inf", typeName: "AMCFont size"))
        }
        #expect(try AMCFont(amcStringValue: "Helvetica Bold 14") == AMCFont(name: "Helvetica", size: 14, isBold: true))
        let finite = Scale()
        finite.marks = [0.5: "half"]
        let copy = try #require(try AMC.object(Scale.self, from: try AMC.data(for: finite, format: .json)))
        #expect(copy.marks == [0.5: "half"])
        let gauge = Gauge()
        gauge.ratio = 2.5
        #expect(try writer.markup(of: gauge).contains(#"ratio="2.5""#))
    }
}
