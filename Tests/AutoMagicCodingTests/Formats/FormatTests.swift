import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

/// Values at the edges of what each format holds.
final class Edges: AMCCodable {
    var int64Min = Int64.min
    var uint64Max = UInt64.max
    var minusZero = -0.0
    var large = 1.7976931348623157e308
    var tiny = Double.leastNonzeroMagnitude
    var float: Float = 0.1
    var unicode = "Grüße, 東京, 😀 and 𝄞"
    var escapes = "quote \" backslash \\ tab \t newline \n return \r less < amp & greater > bell \u{7}"
    var byKey: [String: String] = ["": "empty key", "with \"quotes\" & <angles>": "a", "ümlaut 😀": "b", "line\nbreak": "c"]
    var emptyArray: [Int] = []
    var emptyDictionary: [String: Int] = [:]
    var emptyString = ""
    var date = Date(timeIntervalSince1970: 1_715_938_200)
    var data = Data([0, 1, 2, 253, 254, 255])
    required init() {}
}

@Suite("File formats: JSON, XML and binary property lists, both directions with Foundation")
struct FormatTests {
    init() {
        Fixtures.register()
        AMC.register(Edges.self, Shelf.self)
        Company.registerModel()
    }

    static let formats: [AMCFormat] = [.json, .xmlPropertyList, .binaryPropertyList]

    @Test("An object graph round-trips through each format", arguments: formats, [AMCWriteOptions.compact, .readable])
    func objectGraphsRoundTrip(format: AMCFormat, options: AMCWriteOptions) throws {
        let company = Company.sample()
        let data = try AMC.data(for: company, format: format, options: options)
        #expect(AMCFormat(detecting: data) == format)
        let copy = try #require(try AMC.object(Company.self, from: data))
        #expect(company.differences(from: copy) == [])
        let any = try #require(try AMC.object(from: data) as? Company)
        #expect(company.differences(from: any) == [])
    }

    @Test("Edge values come back exactly", arguments: formats)
    func edgeValuesRoundTrip(format: AMCFormat) throws {
        let edges = Edges()
        let copy = try #require(try AMC.object(Edges.self, from: try AMC.data(for: edges, format: format)))
        #expect(copy.int64Min == .min)
        #expect(copy.uint64Max == .max)
        #expect(copy.minusZero.bitPattern == (-0.0).bitPattern)
        #expect(copy.large == edges.large)
        #expect(copy.tiny == edges.tiny)
        #expect(copy.float == 0.1)
        #expect(copy.unicode == edges.unicode)
        #expect(copy.escapes == edges.escapes)
        #expect(copy.byKey == edges.byKey)
        #expect(copy.emptyArray == [] && copy.emptyDictionary == [:] && copy.emptyString == "")
        #expect(copy.date == edges.date)
        #expect(copy.data == edges.data)
    }

    @Test(
        "Foundation reads what we write to the value of the dictionary representation",
        arguments: [AMCFormat.xmlPropertyList, .binaryPropertyList])
    func foundationReadsOurPropertyLists(format: AMCFormat) throws {
        for object in [Edges() as any AMCCodable, Company.sample(), AllScalars()] {
            // In property order, as the dictionary representation: shared objects are written in
            // full where they come first, so sorted keys would put them elsewhere. Every class
            // named, as there too.
            let options = AMCWriteOptions(prettyPrinted: true, sortedKeys: false, classNames: .everyObject)
            let data = try AMC.data(for: object, format: format, options: options)
            let read = try foundationValue(data, json: false)
            let expected = try object.dictionaryRepresentation()
            #expect(Canonical.text(read) == Canonical.text(expected))
        }
    }

    /// The writer scans strings eight bytes at a time: escapes at every offset within those
    /// words, next to multi-byte characters (whose bytes have the high bit set), come out as
    /// JSON requires and read back; the same strings in a binary property list (UTF-16 from
    /// U+0080 on) read back in Foundation.
    @Test func everyStringIsEscapedWhereverItsEscapesFall() throws {
        let pieces = ["a", "\"", "\\", "\n", "\u{1}", "\u{1F}", " ", "~", "\u{7F}", "é", "東", "😀", "\t", "/", "ÿ", "\u{80}"]
        var state: UInt64 = 7  // a linear congruential generator: the same strings every run
        func nextPiece() -> String {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return pieces[Int(state >> 33) % pieces.count]
        }
        for length in 0..<40 {
            for _ in 0..<20 {
                let text = (0..<length).map { _ in nextPiece() }.joined()
                let data = try DocumentCodec.encode(.array([.string(text)]), format: .json, options: .compact)
                let read = try JSONSerialization.jsonObject(with: Data(data)) as? [String]
                #expect(read == [text], "\(text.debugDescription)")
                #expect(!data.contains(where: { $0 < 0x20 }), "a raw control character in \(text.debugDescription)")
                #expect(try DocumentCodec.parse(Data(data)).value.isSame(as: .array([.string(text)])), "\(text.debugDescription)")
                // The binary writer transcodes to UTF-16 itself: Foundation reads each string back.
                let binary = Data(
                    try DocumentCodec.encode(.array([.string(text)]), format: .binaryPropertyList, options: .compact))
                #expect(try PropertyListSerialization.propertyList(from: binary, format: nil) as? [String] == [text])
            }
        }
    }

    /// The reader scans strings (and checks UTF-8) eight bytes at a time: a byte that is not
    /// UTF-8 is refused wherever it falls within those words, and every valid string is read.
    @Test func everyInvalidUTF8ByteIsRefusedWhereverItFalls() throws {
        let pieces: [[UInt8]] = [
            [0x61], [0x20], [0x7E], Array("é".utf8), Array("東".utf8), Array("😀".utf8),
            [0xFF], [0xC0, 0x80], [0x80], [0xE2, 0x82], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        ]
        var state: UInt64 = 11  // a linear congruential generator: the same strings every run
        func nextPiece() -> [UInt8] {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Mostly valid pieces, so that invalid ones fall at every offset of long strings.
            let index = Int(state >> 33) % (pieces.count * 4)
            return index < pieces.count * 3 ? pieces[index % 6] : pieces[index - pieces.count * 3]
        }
        var refused = 0
        for length in 0..<40 {
            for _ in 0..<20 {
                let text = (0..<length).flatMap { _ in nextPiece() }
                let isUTF8 = Array(String(decoding: text, as: UTF8.self).utf8) == text
                let json = Data([UInt8(ascii: "["), UInt8(ascii: "\"")] + text + [UInt8(ascii: "\""), UInt8(ascii: "]")])
                if isUTF8 {
                    let string = String(decoding: text, as: UTF8.self)
                    #expect(try DocumentCodec.parse(json).value.isSame(as: .array([.string(string)])), "\(text)")
                } else {
                    let error = expectAMCError { _ = try DocumentCodec.parse(json) }
                    #expect(error?.description.contains("invalid UTF-8") == true, "\(text)")
                    refused += 1
                }
            }
        }
        #expect(refused > 200)
        // A raw control character is refused at every offset too.
        for offset in 0..<20 {
            var text = [UInt8](repeating: UInt8(ascii: "a"), count: 20)
            text[offset] = 0x01
            let json = Data([UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")])
            let error = expectAMCError { _ = try DocumentCodec.parse(json) }
            #expect(error?.description.contains("control character") == true, "at \(offset)")
        }
    }

    @Test func foundationReadsOurJSON() throws {
        let edges = Edges()
        let data = try AMC.data(for: edges, format: .json)
        let read = try #require(try foundationValue(data, json: true) as? [String: Any])
        var expected = try edges.dictionaryRepresentation()
        expected["date"] = "2024-05-17T09:30:00Z"  // JSON holds dates as ISO 8601 strings
        expected["data"] = edges.data.base64EncodedString()
        expected["uint64Max"] = nil  // JSONSerialization reads integers above Int64.max as Double
        expected["float"] = nil  // and a Float's shortest digits as the nearest Double
        #expect(read["uint64Max"] != nil && read["float"] != nil)
        var comparable = read
        comparable["uint64Max"] = nil
        comparable["float"] = nil
        #expect(Canonical.text(comparable) == Canonical.text(expected))
    }

    @Test(
        "We read every Foundation-made fixture to the value Foundation reads",
        arguments: ["foundation-binary.plist", "foundation-xml.plist", "foundation.json", "handwritten.plist"])
    func weReadFoundationFixtures(name: String) throws {
        let data = try FixtureFiles.data(name)
        let ours = try AMC.dictionary(contentsOf: FixtureFiles.url(name))
        let theirs = try foundationValue(data, json: name.hasSuffix(".json"))
        #expect(Canonical.text(ours) == Canonical.text(theirs))
        #expect(ours.count > 5)
    }

    @Test func theBinaryFixtureUsesWhatTheFormatAllows() throws {
        let data = try FixtureFiles.data("foundation-binary.plist")
        // Foundation wrote 16-byte integers above Int64.max, UTF-16 text, and shared its small
        // numbers and bools between containers (the 1 of both [1, 2, 3] arrays, say).
        #expect(data.contains(0x14))
        #expect(data.contains(where: { $0 & 0xF0 == 0x60 }))
        let dict = try AMC.dictionary(contentsOf: FixtureFiles.url("foundation-binary.plist"))
        #expect(dict["uint64Max"] as? UInt64 == .max)
        #expect(dict["int64Min"] as? Int == .min)
        #expect(dict["int2"] as? Int == 300 && dict["int4"] as? Int == 70_000 && dict["int8"] as? Int == 5_000_000_000)
        #expect(dict["astral"] as? String == "smile 😀, 𝄞 clef")
        #expect((dict["minusZero"] as? Double)?.sign == .minus)
        #expect(dict["sharedStrings"] as? [String] == Array(repeating: "a string every entry shares", count: 3))
        #expect(dict["sharedArrays"] as? [[Int]] == [[1, 2, 3], [1, 2, 3]])
    }

    @Test func ourBinaryWriterSharesRepeatedStrings() throws {
        let company = Company.sample()
        let everyClass = AMCWriteOptions(prettyPrinted: false, sortedKeys: false, classNames: .everyObject)
        let data = try AMC.data(for: company, format: .binaryPropertyList, options: everyClass)
        #expect(data.ranges(of: Data("class".utf8)).count == 1)
        #expect(data.ranges(of: Data("Person".utf8)).count == 1)
        let read = try foundationValue(data, json: false)
        #expect(Canonical.text(read) == Canonical.text(try company.dictionaryRepresentation()))
    }

    /// Thousands of one-off strings (names, random UUIDs) pass through the writer's cache of
    /// recent values; keys and class names stay shared all the same.
    @Test func ourBinaryWriterSharesKeysAndClassNamesAmongManyOneOffStrings() throws {
        let company = Company.sample()
        company.people += (0..<3000).map { Person(name: "Member \($0)", role: .designer) }
        let everyClass = AMCWriteOptions(prettyPrinted: false, sortedKeys: false, classNames: .everyObject)
        let data = try AMC.data(for: company, format: .binaryPropertyList, options: everyClass)
        for shared in ["class", "Person", "Manager", "name", "skills", "designer"] {
            #expect(data.ranges(of: Data(shared.utf8)).count == 1, "\(shared)")
        }
        let read = try #require(try AMC.object(Company.self, from: data))
        #expect(read.people.count == 3004)
        #expect(read.people.last?.name == "Member 2999")
    }

    /// A string repeated at once is written once, and one alike in length and in its first, middle
    /// and last bytes (the same place in the writer's cache of recent strings) is not taken for it.
    @Test func ourBinaryWriterSharesEqualStringsAndOnlyThose() throws {
        let json = Data(#"["aXcYe", "aXcYe", "aZcWe", "aXcYf"]"#.utf8)
        let data = try AMC.convert(json, to: .binaryPropertyList)
        #expect(try BinaryPlistReader.markers(in: data).count == 4)  // the array and three strings
        #expect(
            String(decoding: try AMC.convert(data, to: .json, options: .compact), as: UTF8.self)
                == #"["aXcYe","aXcYe","aZcWe","aXcYf"]"#)
    }

    /// The cache of recent strings starts small and grows as a document meets more strings: a
    /// string repeated at once is shared before the cache grows, while it grows and after.
    @Test func ourBinaryWriterSharesRepeatedStringsAsTheCacheGrows() throws {
        let strings = (0..<200).flatMap { ["value \($0)", "value \($0)"] }
        let json = try JSONSerialization.data(withJSONObject: strings)
        let data = try AMC.convert(json, to: .binaryPropertyList)
        #expect(try BinaryPlistReader.markers(in: data).count == 201)  // the array and 200 strings
        #expect(try foundationValue(data, json: false) as? [String] == strings)
    }

    /// A string of the form `?xyz?xy?` in `text`'s slot of the recent-string cache at `bits`,
    /// though not at `parting` bits (slots follow the length and the first, middle and last bytes).
    static func string(meeting text: String, atBits bits: Int, partingAt parting: Int) -> String? {
        func slot(_ text: String, bits: Int) -> Int {
            ByteView.withBytes(of: text) { StringTable.recentSlot(of: $0, bits: bits) }
        }
        return (0..<26 * 26 * 26).lazy.map { number -> String in
            let letters = [number / 676, number / 26 % 26, number % 26].map { Character(UnicodeScalar(97 + UInt8($0))) }
            return "\(letters[0])xyz\(letters[1])xy\(letters[2])"
        }.first { slot($0, bits: bits) == slot(text, bits: bits) && slot($0, bits: parting) != slot(text, bits: parting) }
    }

    /// A value every object repeats is written once even when a one-off string meets it in the
    /// cache's small start: the cache grows instead of forgetting it.
    @Test func aRepeatedValueIsNotForgottenWhileTheCacheIsSmall() throws {
        // A one-off string in the repeated value's small-cache slot, though not its large one.
        let oneOff = try #require(
            Self.string(meeting: "designer", atBits: StringTable.smallRecentBits, partingAt: StringTable.largeRecentBits))
        let strings = ["designer", oneOff, "designer", "designer"]
        let data = try AMC.convert(try JSONSerialization.data(withJSONObject: strings), to: .binaryPropertyList)
        #expect(data.ranges(of: Data("designer".utf8)).count == 1)
        #expect(try foundationValue(data, json: false) as? [String] == strings)
    }

    /// Two strings that meet in a slot of the small cache grow it to the size where they part,
    /// not to the large cache; two that meet at every size leave it small (the large one would
    /// not hold both either): a small document's few strings do not make and free the large
    /// cache on every write.
    @Test func aCollisionInTheSmallCacheGrowsItOnlyToWhereTheStringsPart() throws {
        let small = StringTable.smallRecentBits
        let other = try #require(Self.string(meeting: "designer", atBits: small, partingAt: small + 1))
        var table = StringTable()
        for (object, text) in ["designer", other].enumerated() {
            let lookup = ByteView.withBytes(of: Array(text.utf8)) { table.lookupRecent($0) }
            #expect(lookup.object == nil)
            table.add(text, at: lookup, object: object)
        }
        #expect(table.recentBits == small + 1)
        let again = ByteView.withBytes(of: Array("designer".utf8)) { table.lookupRecent($0) }
        #expect(again.object == 0)

        // The same length and the same first, middle and last bytes: one slot at every size.
        var dates = StringTable()
        for (object, text) in ["2024-01-05", "2024-03-05"].enumerated() {
            let lookup = ByteView.withBytes(of: Array(text.utf8)) { dates.lookupRecent($0) }
            #expect(lookup.object == nil)
            dates.add(text, at: lookup, object: object)
        }
        #expect(dates.recentBits == small)
        #expect(ByteView.withBytes(of: Array("2024-03-05".utf8)) { dates.lookupRecent($0) }.object == 1)
    }

    /// A writer kept for the next document empties its table: no string of the last document
    /// is found again (its object number would point into the wrong document), whether the
    /// cache was emptied by the slots filled or, once more strings than slots were put in, by
    /// a look at every slot. The cache stays at the size it grew to: the next document of the
    /// same kind would grow it again.
    @Test func anEmptiedStringTableFindsNothingAndKeepsItsSize() throws {
        let small = StringTable.smallRecentBits
        let other = try #require(Self.string(meeting: "designer", atBits: small, partingAt: small + 1))
        func lookup(_ text: String, in table: inout StringTable) -> StringTable.Lookup {
            ByteView.withBytes(of: Array(text.utf8)) { table.lookupRecent($0) }
        }
        var table = StringTable()
        for (object, text) in ["designer", "engineer"].enumerated() {
            table.add(text, at: lookup(text, in: &table), object: object)
        }
        #expect(lookup("designer", in: &table).object == 0 && table.recentBits == small)
        table.removeAll()
        #expect(lookup("designer", in: &table).object == nil && lookup("engineer", in: &table).object == nil)
        #expect(table.recentBits == small)

        table.add("designer", at: lookup("designer", in: &table), object: 0)
        table.add(other, at: lookup(other, in: &table), object: 1)
        #expect(table.recentBits == small + 1)
        table.removeAll()
        #expect(table.recentBits == small + 1)
        #expect(lookup(other, in: &table).object == nil && lookup("designer", in: &table).object == nil)

        // More strings put in than even the large cache has slots.
        let many = (0..<1_100).map { "value \($0)" }
        for (object, text) in many.enumerated() { table.add(text, at: lookup(text, in: &table), object: object) }
        #expect(many.contains { lookup($0, in: &table).object != nil })
        table.removeAll()
        #expect(many.allSatisfy { lookup($0, in: &table).object == nil })
    }

    /// Every repeated number and date is written once, as Foundation's writers do; values of
    /// different kinds or bit patterns (1 and 1.0, 0.0 and -0.0) stay apart.
    @Test func ourBinaryWriterSharesRepeatedNumbersAndDates() throws {
        let json = Data("[7, 7, 7, 2.5, 2.5, 0.0, -0.0, 1, 1.0, 18446744073709551615, 18446744073709551615]".utf8)
        let data = try AMC.convert(json, to: .binaryPropertyList)
        // The array, 7, 2.5, 0.0, -0.0, 1, 1.0 and the 16-byte integer.
        #expect(try BinaryPlistReader.markers(in: data).count == 8)
        let read = try #require(try foundationValue(data, json: false) as? [NSNumber])
        #expect(read.prefix(9).map(\.doubleValue) == [7, 7, 7, 2.5, 2.5, 0, 0, 1, 1])
        #expect(read.suffix(2).map(\.uint64Value) == [.max, .max])
        #expect(read[5].doubleValue.sign == .plus && read[6].doubleValue.sign == .minus)
        let isReal = read.map { ["d", "f"].contains(String(cString: $0.objCType)) }
        #expect(isReal == [false, false, false, true, true, true, true, false, true, false, false])
        #expect(
            String(decoding: try AMC.convert(data, to: .json, options: .compact), as: UTF8.self)
                == "[7,7,7,2.5,2.5,0.0,-0.0,1,1.0,18446744073709551615,18446744073709551615]")

        let day = ArchiveValue.date(Date(timeIntervalSinceReferenceDate: 86_400))
        let dates = Data(
            try DocumentCodec.encode(.array([day, day, .double(86_400), day]), format: .binaryPropertyList, options: .compact))
        #expect(try BinaryPlistReader.markers(in: dates).count == 3)
        #expect(
            try foundationValue(dates, json: false) as? [AnyHashable] == [
                Date(timeIntervalSinceReferenceDate: 86_400), Date(timeIntervalSinceReferenceDate: 86_400), 86_400.0,
                Date(timeIntervalSinceReferenceDate: 86_400),
            ])
    }

    /// A key left out in no-throw mode takes the numbers it wrote with it: a later equal number
    /// is written anew, not shared with one no longer in the file.
    @Test func aNumberOfAKeyLeftOutIsNotSharedLater() throws {
        final class Reading: AMCCodable {
            var bad: [Any] = [7.25, 99, NSObject()]
            var good = 7.25
            var count = 99
            required init() {}
        }
        AMC.register(Reading.self)
        let data = try AMC.withNoThrow { try AMC.data(for: Reading(), format: .binaryPropertyList) }
        let read = try #require(try foundationValue(data, json: false) as? [String: Any])
        #expect(read["bad"] == nil)
        #expect(read["good"] as? Double == 7.25 && read["count"] as? Int == 99)
        #expect(try BinaryPlistReader.markers(in: data).allSatisfy { $0 != 0 })
    }

    /// Keys and class names, found by number once written, go with a key left out too: the
    /// object written after it writes them anew instead of referring to strings no longer in the
    /// file.
    @Test func keysAndClassNamesOfAKeyLeftOutAreWrittenAgain() throws {
        final class Leaf: AMCCodable {
            var label = "leaf"
            required init() {}
        }
        final class Holder: AMCCodable {
            var bad: [Any] = [Leaf(), NSObject()]  // the leaf is written, then the array fails
            var good: Any = Leaf()  // an `Any` place: its class name is written
            required init() {}
        }
        AMC.register(Leaf.self, Holder.self)
        let data = try AMC.withNoThrow { try AMC.data(for: Holder(), format: .binaryPropertyList) }
        let read = try #require(try foundationValue(data, json: false) as? [String: Any])
        #expect(read["bad"] == nil)
        let good = try #require(read["good"] as? [String: Any])
        #expect(good["label"] as? String == "leaf" && good["class"] as? String == "Leaf")
        #expect(try BinaryPlistReader.markers(in: data).allSatisfy { $0 != 0 })
        #expect((try AMC.object(Holder.self, from: data)?.good as? Leaf)?.label == "leaf")
    }

    /// Keys that are equal strings but not the same bytes ("café" composed in one type and
    /// decomposed in another) are each written as they are spelled.
    @Test func keysAreWrittenAsSpelledEvenWhenEqualAsStrings() throws {
        final class Composed: AMCCodable {
            var word = 1
            static func amcKey(forProperty name: String) -> String { name == "word" ? "caf\u{E9}" : name }
            required init() {}
        }
        final class Decomposed: AMCCodable {
            var word = 2
            static func amcKey(forProperty name: String) -> String { name == "word" ? "cafe\u{301}" : name }
            required init() {}
        }
        final class Pair: AMCCodable {
            var first = Composed(), second = Decomposed()
            required init() {}
        }
        AMC.register(Composed.self, Decomposed.self, Pair.self)
        let data = try AMC.data(for: Pair(), format: .binaryPropertyList)
        let read = try #require(try foundationValue(data, json: false) as? [String: Any])
        let first = try #require(read["first"] as? [String: Any])
        let second = try #require(read["second"] as? [String: Any])
        #expect(first.keys.map { Array($0.utf8) } == [Array("caf\u{E9}".utf8)])
        #expect(second.keys.map { Array($0.utf8) } == [Array("cafe\u{301}".utf8)])
        let back = try #require(try AMC.object(Pair.self, from: data))
        #expect(back.first.word == 1 && back.second.word == 2)
    }

    /// Round numbers (`m·2^e`, as measured data has them) differ only in their high bits: the
    /// table's first slots must still spread them, or writing them would take quadratic time.
    @Test func numbersThatDifferInHighBitsSpreadOverTheTable() {
        let mask = 8_191
        let values = (0..<4_096).map { Double(2 * ($0 % 64) + 1) * Double(sign: .plus, exponent: $0 / 64, significand: 1) }
        let slots = Set(values.map { NumberTable.slot(kind: 0x23, bits: $0.bitPattern, mask: mask) })
        // A random spread fills about 79% as many slots as values here.
        #expect(Set(values).count == values.count && slots.count > values.count * 7 / 10)
        let integers = Set((0..<4_096).map { NumberTable.slot(kind: 0x10, bits: UInt64($0) << 40, mask: mask) })
        #expect(integers.count > 4_096 * 7 / 10)
    }

    /// Full, the table of numbers finds every value it holds; then, when fewer than one value in
    /// eight was met again, it starts again from the next one. Kinds stay apart (the integer 17 is
    /// not the `Double` 17).
    @Test func theTableOfNumbersStartsAgainWhenFewValuesRepeat() {
        var numbers = NumberTable()
        for value in 0..<NumberTable.startingLimit {
            let (found, slot) = numbers.lookup(kind: 0x10, bits: UInt64(value))
            #expect(found == nil)
            numbers.add(kind: 0x10, bits: UInt64(value), object: value, slot: slot)
        }
        #expect(numbers.lookup(kind: 0x10, bits: 17).object == 17)
        #expect(numbers.lookup(kind: 0x10, bits: UInt64(NumberTable.startingLimit - 1)).object == NumberTable.startingLimit - 1)
        #expect(numbers.lookup(kind: 0x23, bits: Double(17).bitPattern).object == nil)
        let slot = numbers.lookup(kind: 0x23, bits: Double(17).bitPattern).slot
        numbers.add(kind: 0x23, bits: Double(17).bitPattern, object: 9_999, slot: slot)
        #expect(numbers.lookup(kind: 0x10, bits: 17).object == nil)
        #expect(numbers.lookup(kind: 0x23, bits: Double(17).bitPattern).object == 9_999)
    }

    /// A writer kept for the next document empties its table of numbers, small (kept made) or
    /// grown: no value of the last document is found again, and values added after are found.
    @Test func anEmptiedTableOfNumbersFindsNothingOfTheLastDocument() {
        for count in [3, 40, 5_000] {
            var numbers = NumberTable()
            func add(_ values: Range<Int>) {
                for value in values {
                    let slot = numbers.lookup(kind: 0x23, bits: Double(value).bitPattern).slot
                    numbers.add(kind: 0x23, bits: Double(value).bitPattern, object: value, slot: slot)
                }
            }
            add(0..<count)
            #expect(numbers.lookup(kind: 0x23, bits: Double(count - 1).bitPattern).object == count - 1)
            numbers.removeAll()
            #expect((0..<count).allSatisfy { numbers.lookup(kind: 0x23, bits: Double($0).bitPattern).object == nil })
            add(count..<(count + 20))
            #expect((count..<(count + 20)).allSatisfy { numbers.lookup(kind: 0x23, bits: Double($0).bitPattern).object == $0 })
            #expect(numbers.lookup(kind: 0x23, bits: Double(0).bitPattern).object == nil)
        }
    }

    /// When one value in eight was met again, the full table grows on, twice as large, and keeps
    /// every value; full again with fewer repeats than that, it starts again.
    @Test func theTableOfNumbersGrowsWhileValuesRepeat() {
        var numbers = NumberTable()
        func add(_ values: Range<Int>) {
            for value in values {
                let slot = numbers.lookup(kind: 0x10, bits: UInt64(value)).slot
                numbers.add(kind: 0x10, bits: UInt64(value), object: value, slot: slot)
            }
        }
        let limit = NumberTable.startingLimit
        add(0..<limit)
        for value in stride(from: 0, to: limit, by: 8) { _ = numbers.lookup(kind: 0x10, bits: UInt64(value)) }
        add(limit..<(2 * limit))
        #expect((0..<(2 * limit)).allSatisfy { numbers.lookup(kind: 0x10, bits: UInt64($0)).object == $0 })
        // Every value has been met again now: the table grows on once more.
        add((2 * limit)..<(2 * limit + 1))
        #expect(numbers.lookup(kind: 0x10, bits: 0).object == 0)
        // Full at 16,384 with a quarter met again: on.
        add((2 * limit + 1)..<(4 * limit + 1))
        #expect(numbers.lookup(kind: 0x10, bits: 1).object == 1)
        // Full at 32,768 and at 65,536, with 8,193 met again: on; at 131,072: start again.
        add((4 * limit + 1)..<(16 * limit + 1))
        #expect(numbers.lookup(kind: 0x10, bits: 3).object == 3)
        add((16 * limit + 1)..<(32 * limit + 1))
        #expect(numbers.lookup(kind: 0x10, bits: 2).object == nil)
        #expect(numbers.lookup(kind: 0x10, bits: UInt64(32 * limit)).object == 32 * limit)
    }

    /// In a file: 10,000 distinct integers, then 0 to 99 fifty times over. No integer of the first
    /// 10,000 was met again, so the table started again twice on the way, and 0 to 99 are written
    /// once more, then shared: 10,101 objects with the array. Foundation reads every value back.
    @Test func numbersThatDoNotRepeatAreForgotten() throws {
        let values = Array(0..<10_000) + (0..<5_000).map { $0 % 100 }
        let document = ArchiveValue.array(ArchiveArray(values.map { ArchiveValue.int(Int64($0)) }))
        let bytes = try DocumentCodec.encode(document, format: .binaryPropertyList, options: .compact)
        let objectCount = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        #expect(objectCount == 10_101)
        let read = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [Int]
        #expect(read == values)
    }

    /// Prices drawn from 10,000 distinct values, repeating far apart, as a user's sales would:
    /// every repeat is shared however many distinct values come between (one object per distinct
    /// value and the array, as `PropertyListEncoder` writes them).
    @Test func numbersThatRepeatAreSharedHoweverFarApart() throws {
        var seed: UInt64 = 7
        let values = (0..<40_000).map { _ in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 100 + Int(seed >> 33) % 10_000
        }
        let document = ArchiveValue.array(ArchiveArray(values.map { ArchiveValue.int(Int64($0)) }))
        let bytes = try DocumentCodec.encode(document, format: .binaryPropertyList, options: .compact)
        let objectCount = bytes[(bytes.count - 24)..<(bytes.count - 16)].reduce(0) { $0 << 8 | Int($1) }
        #expect(objectCount == Set(values).count + 1)
        let read = try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? [Int]
        #expect(read == values)
    }

    /// Offsets and references take the fewest bytes that hold them (3 for a file of 100 KB), as
    /// Foundation writes them, and Foundation reads them.
    @Test func offsetsAndReferencesTakeTheFewestBytes() throws {
        let strings = (0..<5_000).map { "a one-off string \($0)" }
        let data = try AMC.convert(try JSONSerialization.data(withJSONObject: strings), to: .binaryPropertyList)
        let trailer = data.count - 32
        #expect(data[data.startIndex + trailer + 6] == 3)  // the offset size
        #expect(data[data.startIndex + trailer + 7] == 2)  // the reference size: 5,001 objects
        #expect(try foundationValue(data, json: false) as? [String] == strings)
    }

    /// Past 65,536 objects, references take 3 bytes whatever comes next, and the writer writes
    /// each container as it ends instead of holding every reference to the end: the containers
    /// of the last records lie before those of the first, which waited. Foundation reads both.
    @Test func containersPastTheNarrowWidthsAreWrittenAsTheyEnd() throws {
        let records = (0..<25_000).map { ["name": "record \($0)", "size": $0, "tags": ["tag \($0)"]] as [String: Any] }
        let data = try AMC.convert(try JSONSerialization.data(withJSONObject: records), to: .binaryPropertyList)
        let table = BinaryTable(data)
        #expect(table.refSize == 3 && table.objectCount > 125_000)
        let markers = try BinaryPlistReader.markers(in: data)
        let dictionaries = markers.indices.filter { markers[$0] & 0xF0 == 0xD0 }
        try #require(dictionaries.count == 25_000)
        #expect(table.offsets[dictionaries[24_999]] < table.offsets[dictionaries[0]])
        let read = try #require(try foundationValue(data, json: false) as? [[String: Any]])
        #expect(Canonical.text(read) == Canonical.text(records))
    }

    /// A key left out in no-throw mode may take with it containers written as they ended (past
    /// 65,536 objects): the file then holds only what is left, and reads.
    @Test func aKeyLeftOutPastTheNarrowWidthsLeavesAFileThatReads() throws {
        final class Crowd: AMCCodable {
            var bad: [Any] = [(0..<70_000).map { "one-off \($0)" }, NSObject()]  // the inner array ends, then `bad` fails
            var good = ["kept", "too"]
            required init() {}
        }
        AMC.register(Crowd.self)
        let data = try AMC.withNoThrow { try AMC.data(for: Crowd(), format: .binaryPropertyList) }
        let table = BinaryTable(data)
        #expect(table.objectCount < 20)
        let read = try #require(try foundationValue(data, json: false) as? [String: Any])
        #expect(read["bad"] == nil && read["good"] as? [String] == ["kept", "too"])
    }

    /// A writer whose containers are written as they end from 256 objects on (2-byte references)
    /// writes a graph of a few hundred objects both ways in one file; one that outgrows 2 bytes
    /// too is written again from the start with 3-byte references, over what it passed on.
    @Test(arguments: [300, 15_000])
    func aGraphOutgrowingItsReferencesIsWrittenAgainWider(people: Int) throws {
        let company = Company.sample()
        company.people += (0..<people).map { Person(name: "Member \($0)", role: .designer) }
        let drain = ByteDrain()
        let rest = try DocumentCodec.encode(
            company, with: BinaryPlistWriter(capacity: 4096, inlineWidth: 2), options: .compact, archiver: AMCArchiver(),
            drain: drain)
        let data = drain.data + rest
        let table = BinaryTable(data)
        #expect(table.refSize == (table.objectCount < 65_536 ? 2 : 3))
        #expect(people == 300 ? table.objectCount < 65_536 : table.objectCount > 65_536)
        let expected = try AMC.data(for: company, format: .binaryPropertyList, options: .compact)
        #expect(
            Canonical.text(try foundationValue(data, json: false)) == Canonical.text(try foundationValue(expected, json: false)))
        #expect(data.count == expected.count)
    }

    /// Canonically equivalent strings are equal to Swift, yet each comes back with its own bytes
    /// (here the same accents in the two orders, so even their lengths agree).
    @Test(arguments: [AMCFormat.binaryPropertyList, .xmlPropertyList, .json])
    func equivalentStringsKeepTheirOwnBytes(format: AMCFormat) throws {
        let company = Company()
        company.people = ["a\u{301}\u{316}bbbbbb", "a\u{316}\u{301}bbbbbb"].map { Person(name: $0, role: .engineer) }
        #expect(company.people[0].name == company.people[1].name)
        let read = try #require(try AMC.object(Company.self, from: AMC.data(for: company, format: format)))
        #expect(read.people.map { Array($0.name.unicodeScalars) } == company.people.map { Array($0.name.unicodeScalars) })
    }

    @Test(
        "Foundation reads each fixture as we write it back",
        arguments: [
            ("foundation-binary.plist", AMCFormat.binaryPropertyList), ("foundation-binary.plist", .xmlPropertyList),
            ("foundation-xml.plist", .binaryPropertyList), ("foundation.json", .json), ("foundation.json", .binaryPropertyList),
            ("handwritten.plist", .xmlPropertyList),
        ])
    func foundationReadsFixturesWeRewrite(name: String, format: AMCFormat) throws {
        let original = try foundationValue(try FixtureFiles.data(name), json: name.hasSuffix(".json"))
        let converted = try AMC.convert(try FixtureFiles.data(name), to: format)
        #expect(AMCFormat(detecting: converted) == format)
        let read = try foundationValue(converted, json: format == .json)
        #expect(Canonical.text(read) == Canonical.text(original))
    }

    @Test func theHandwrittenPlistReadsEntitiesCDATAAndComments() throws {
        let dict = try AMC.dictionary(contentsOf: FixtureFiles.url("handwritten.plist"))
        #expect(dict["entities"] as? String == "<tag> & \"quoted\" 'single'")
        #expect(dict["references"] as? String == "AB😀 café")
        #expect(dict["cdata"] as? String == "<not a tag> & not an entity")
        #expect(dict["mixed"] as? String == "one <two> three")
        #expect(dict["hex"] as? Int == 31)
        #expect(dict["real"] as? Double == -1500)
        let list = try #require(dict["list"] as? [Any])
        #expect(list.count == 6)
        #expect(list[3] as? Data == Data("Hello, world".utf8))
    }

    @Test func prettyJSONUsesTwoSpacesAndSortedKeys() throws {
        let node = Optionals()
        node.name = "a \"b\""
        node.count = 2
        node.tags = []
        let pretty = String(decoding: try AMC.data(for: node, format: .json, options: .readable), as: UTF8.self)
        #expect(
            pretty == """
                {
                  "class": "Optionals",
                  "count": 2,
                  "name": "a \\"b\\"",
                  "tags": []
                }

                """)
        let compact = String(decoding: try AMC.data(for: node, format: .json), as: UTF8.self)
        #expect(compact == #"{"class":"Optionals","name":"a \"b\"","count":2,"tags":[]}"#)
    }

    @Test func xmlIsLaidOutAsFoundationLaysItOut() throws {
        let node = Optionals()
        node.count = -3
        node.tags = ["<x>"]
        let xml = String(decoding: try AMC.data(for: node, format: .xmlPropertyList, options: .readable), as: UTF8.self)
        #expect(
            xml == """
                <?xml version="1.0" encoding="UTF-8"?>
                <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
                <plist version="1.0">
                <dict>
                \t<key>class</key>
                \t<string>Optionals</string>
                \t<key>count</key>
                \t<integer>-3</integer>
                \t<key>tags</key>
                \t<array>
                \t\t<string>&lt;x&gt;</string>
                \t</array>
                </dict>
                </plist>

                """)
    }

    @Test func jsonHoldsDatesAsISOStringsAndDataAsBase64() throws {
        let edges = Edges()
        let text = String(decoding: try AMC.data(for: edges, format: .json), as: UTF8.self)
        #expect(text.contains(#""date":"2024-05-17T09:30:00Z""#))
        #expect(text.contains(#""data":"AAEC/f7/""#))
        let fractional = Edges()
        fractional.date = Date(timeIntervalSince1970: 1_715_938_200.25)
        let copy = try #require(try AMC.object(Edges.self, from: try AMC.data(for: fractional, format: .json)))
        #expect(copy.date == fractional.date)
    }

    /// JSON holds a double as Swift's shortest text for it, whole numbers included, with and
    /// without the writer's shortcut for them (below 2⁵³, not -0).
    @Test(arguments: [
        15.0, -15.0, 0.0, -0.0, 1.25, 1e15, 9_007_199_254_740_991, 9_007_199_254_740_992, 9_007_199_254_740_994,
        9_999_999_999_999_998, 1e16, -1e16, 123_456_789.0, 0.1, .leastNonzeroMagnitude, Double(Int64.max),
        .greatestFiniteMagnitude,
    ])
    func jsonWritesADoubleAsItsShortestText(value: Double) throws {
        var bytes: [UInt8] = []
        bytes.appendShortest(value)
        #expect(String(decoding: bytes, as: UTF8.self) == value.description)
        let data = try DocumentCodec.encode(.array([.double(value)]), format: .json, options: .compact)
        #expect(String(decoding: data, as: UTF8.self) == "[\(value.description)]")
    }

    /// Numbers of a few decimals, which the writers spell without `description`, and dates of a
    /// fraction of a second: the same digits as `description`, over many numbers of each shape
    /// (a fixed seed, so that a failure repeats).
    @Test func numbersOfAFewDecimalsAreWrittenAsTheirDescription() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11
        }
        var values: [Double] = []
        for _ in 0..<40_000 {
            let decimals = Int(next() % 12) + 1
            let power = (0..<decimals).reduce(1.0) { product, _ in product * 10 }
            values.append(Double(next() % (1 << UInt64(next() % 51 + 1))) / power)  // n / 10^k
            values.append(Double(bitPattern: 0x3F50_0000_0000_0000 + next() % 0x0130_0000_0000_0000))  // 0.001 ..< 2^50
        }
        values += [0.001, 0.1, 0.5, 0.3, 1.25, 1e15 + 0.5, 0x1p50 - 0.5, 0x1p52 + 1.5, 0.000_999_9]
        for value in values + values.map(-) {
            var bytes: [UInt8] = []
            bytes.appendShortest(value)
            #expect(String(decoding: bytes, as: UTF8.self) == value.description)
            guard value > 0, value < 1e10, value.rounded(.down) != value, !value.description.contains("e") else { continue }
            let text = try #require(ISODate.string(from: Date(timeIntervalSinceReferenceDate: value)))
            let fraction = value.description.split(separator: ".")[1]
            #expect(text.hasSuffix(".\(fraction)Z"), "\(text) for \(value.description)")
        }
    }

    @Test func theFormatIsToldFromTheBytesNeverTheName() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let misnamed = folder.file("really-json.plist")
        try AMC.write(Company.sample(), to: misnamed, format: .json)
        #expect(try AMC.read(Company.self, from: misnamed) != nil)
        #expect(AMCFormat(detecting: Data("  \n[1]".utf8)) == .json)
        #expect(AMCFormat(detecting: Data("\u{FEFF}<?xml version=\"1.0\"?><plist/>".utf8)) == .xmlPropertyList)
        #expect(AMCFormat(detecting: Data("bplist00".utf8)) == .binaryPropertyList)
        #expect(AMCFormat(detecting: Data("hello".utf8)) == nil)
        #expect(AMCFormat(detecting: Data()) == nil)
        #expect(AMCFormat(pathExtension: "JSON") == .json)
        #expect(AMCFormat(pathExtension: "plist") == .xmlPropertyList)
        #expect(AMCFormat(pathExtension: "txt") == nil)
    }

    @Test func writingInfersTheFormatFromTheExtensionOnly() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try AMC.write(Edges(), to: folder.file("a.json"))
        try AMC.write(Edges(), to: folder.file("b.plist"))
        #expect(AMCFormat(detecting: try Data(contentsOf: folder.file("a.json"))) == .json)
        #expect(AMCFormat(detecting: try Data(contentsOf: folder.file("b.plist"))) == .xmlPropertyList)
        let error = expectAMCError { try AMC.write(Edges(), to: folder.file("c.txt")) }
        #expect(
            error?.kind
                == .unknownFormat(reason: "\"c.txt\" has no .json or .plist extension; pass format: to say how to write it"))
        #expect(folder.contents == ["a.json", "b.plist"])
    }

    @Test func dictionariesWriteAndReadLikeAMCsFileMethods() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let company = Company.sample()
        let dict = try company.dictionaryRepresentation()
        for format in Self.formats {
            let url = folder.file("company-\(format.rawValue)")
            try AMC.write(dictionary: dict, to: url, format: format)
            let read = try AMC.dictionary(contentsOf: url)
            let copy = try #require(try AMC.object(from: read) as? Company)
            #expect(company.differences(from: copy) == [])
        }
        let error = expectAMCError {
            try AMC.write(dictionary: ["point": CGPoint(x: 1, y: 2)], to: folder.file("x.plist"))
        }
        #expect(error?.keyPath == "point")
        let nullFile = folder.file("y.plist")
        let null = expectAMCError { try AMC.write(dictionary: ["gap": NSNull()], to: nullFile) }
        #expect(
            null
                == AMCError(
                    .unsupportedType(typeName: "null", reason: "property lists have no null"), keyPath: "gap", file: nullFile.path
                ))
    }

    @Test func jsonRefusesInfinityAndNaNWithTheKeyPath() {
        let edges = Edges()
        edges.large = .infinity
        let error = expectAMCError { _ = try AMC.data(for: edges, format: .json) }
        #expect(error == AMCError(.unsupportedType(typeName: "Double", reason: "JSON cannot hold inf"), keyPath: "large"))
        #expect(error?.description == "At \"large\": cannot archive a value of type Double: JSON cannot hold inf.")
    }

    @Test("Arrays of numbers, strings and struct strings keep every element", arguments: AMCFormat.allCases)
    func scalarArraysRoundTrip(format: AMCFormat) throws {
        let shelf = Shelf()
        shelf.samples = [1.5, -0.0, 1e-300, -7]
        shelf.labels = ["", "Grüße", "😀"]
        shelf.versions = [Version(major: 1, minor: 2), Version(major: 10, minor: 0)]
        let copy = try #require(try AMC.object(Shelf.self, from: AMC.data(for: shelf, format: format)))
        #expect(copy.samples.map(\.bitPattern) == shelf.samples.map(\.bitPattern))
        #expect(copy.labels == shelf.labels)
        #expect(copy.versions == shelf.versions)
    }

    @Test func aBadArrayElementIsNamedByItsIndex() {
        let shelf = Shelf()
        shelf.samples = [1, .nan]
        let error = expectAMCError { _ = try AMC.data(for: shelf, format: .json) }
        #expect(error == AMCError(.unsupportedType(typeName: "Double", reason: "JSON cannot hold nan"), keyPath: "samples[1]"))
    }

    @Test func aBadFieldIsNamedByItsKeyPathAndNoThrowModeLeavesOnlyItOut() throws {
        let nan = AMCError(.unsupportedType(typeName: "Double", reason: "JSON cannot hold nan"), keyPath: "layer.cornerRadius")
        let label = Label()
        label.text = "Kept"
        label.layer.cornerRadius = .nan
        #expect(expectAMCError { _ = try AMC.data(for: label, format: .json) } == nan)
        let data = try AMC.withNoThrow { try AMC.data(for: label, format: .json) }
        let read = try #require(try foundationValue(data, json: true) as? [String: Any])
        #expect(read["text"] as? String == "Kept")
        #expect((read["layer"] as? [String: Any])?["cornerRadius"] == nil)
        #expect((read["layer"] as? [String: Any])?["contentMode"] != nil)
    }

    @Test("Infinity and NaN survive property lists", arguments: [AMCFormat.xmlPropertyList, .binaryPropertyList])
    func propertyListsHoldInfinityAndNaN(format: AMCFormat) throws {
        let edges = Edges()
        edges.large = -.infinity
        edges.minusZero = .nan
        let data = try AMC.data(for: edges, format: format)
        let copy = try #require(try AMC.object(Edges.self, from: data))
        #expect(copy.large == -.infinity)
        #expect(copy.minusZero.isNaN)
        let foundation = try #require(try foundationValue(data, json: false) as? [String: Any])
        #expect(foundation["large"] as? Double == -.infinity)
    }

    /// `<real>` and `<integer>` text: white space (Unicode's, as Foundation trims it) around the
    /// number, the words Foundation writes in any case, and nothing else.
    @Test func xmlNumbersReadWithTheirWhiteSpaceAndWords() throws {
        func read(_ element: String) throws -> ArchiveValue {
            let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><array>\(element)</array></plist>"
            guard case let .array(values) = try DocumentCodec.parse(Data(xml.utf8)).value else { return .null }
            return values.first ?? .null
        }
        #expect(try read("<real> 1.5\n</real>").isSame(as: .double(1.5)))
        #expect(try read("<real>-2.5e3</real>").isSame(as: .double(-2500)))
        #expect(try read("<real>\u{A0}-0\u{3000}</real>").isSame(as: .double(-0.0)))
        #expect(try read("<integer>\u{2003}7\t</integer>").isSame(as: .int(7)))
        #expect(try read("<real>+Infinity</real>").isSame(as: .double(.infinity)))
        #expect(try read("<real> -INF </real>").isSame(as: .double(-.infinity)))
        guard case let .double(nan) = try read("<real>NaN</real>") else {
            Issue.record("no NaN")
            return
        }
        #expect(nan.isNaN)
        for bad in ["<real>--5</real>", "<real>1.5x</real>", "<real>-</real>", "<real>in f</real>", "<integer>1.5</integer>"] {
            #expect(expectAMCError { _ = try read(bad) } != nil, "\(bad)")
        }
    }

    @Test func noThrowModeLeavesOutTheKeyThatFailsInEveryFormat() throws {
        let edges = Edges()
        edges.large = .nan
        let data = try AMC.withNoThrow { try AMC.data(for: edges, format: .json, options: .readable) }
        let read = try #require(try foundationValue(data, json: true) as? [String: Any])
        #expect(read["large"] == nil)
        #expect(read["tiny"] as? Double == .leastNonzeroMagnitude)
    }

    @Test func convertKeepsEveryValueAndNeedsNoRegistration() throws {
        let json = Data(#"{"class": "NeverRegistered", "list": [1, 2.5, "x", true, null, {}], "n": -7}"#.utf8)
        #expect(
            Canonical.text(try foundationValue(try AMC.convert(json, to: .json), json: true))
                == Canonical.text(try foundationValue(json, json: true)))
        let error = expectAMCError { _ = try AMC.convert(json, to: .binaryPropertyList) }  // null has no plist form
        #expect(error?.keyPath == "list[4]")
        let withoutNull = Data(#"{"class": "NeverRegistered", "list": [1, 2.5, "x", true, {}], "n": -7}"#.utf8)
        let roundTrip = try AMC.convert(try AMC.convert(withoutNull, to: .xmlPropertyList), to: .json)
        #expect(
            Canonical.text(try foundationValue(roundTrip, json: true))
                == Canonical.text(try foundationValue(withoutNull, json: true)))
    }

    /// JSON has no dates and no data: converting a property list that holds them refuses with the
    /// key path, as plutil does, unless asked for text (ISO 8601 strings and base64).
    @Test(arguments: [AMCFormat.xmlPropertyList, .binaryPropertyList])
    func dateAndDataInJSONOnlyWhenAskedFor(from format: AMCFormat) throws {
        let plist = try AMC.convert(
            Data(#"{"name": "x", "log": [{"n": 1}, {"n": 2}]}"#.utf8), to: format)
        var document = try #require(try foundationValue(plist, json: false) as? [String: Any])
        document["log"] = [["n": 1], ["n": 2, "at": Date(timeIntervalSinceReferenceDate: 0)]]
        let withDate = try PropertyListSerialization.data(
            fromPropertyList: document, format: format == .binaryPropertyList ? .binary : .xml, options: 0)
        let error = expectAMCError { _ = try AMC.convert(withDate, to: .json) }
        #expect(error?.keyPath == "log[1].at")
        #expect(error?.description.contains("JSON has no dates") == true)

        document["log"] = [["n": 1], ["n": 2]]
        document["thumbnail"] = Data([0xFF, 0x00])
        let withData = try PropertyListSerialization.data(
            fromPropertyList: document, format: format == .binaryPropertyList ? .binary : .xml, options: 0)
        #expect(expectAMCError { _ = try AMC.convert(withData, to: .json) }?.keyPath == "thumbnail")

        // Asked for, they become text; the other formats keep them as they are.
        let text = try #require(
            try foundationValue(try AMC.convert(withDate, to: .json, textForDatesAndData: true), json: true) as? [String: Any])
        #expect((text["log"] as? [[String: Any]])?[1]["at"] as? String == "2001-01-01T00:00:00Z")
        let data = try #require(
            try foundationValue(try AMC.convert(withData, to: .json, textForDatesAndData: true), json: true) as? [String: Any])
        #expect(data["thumbnail"] as? String == "/wA=")
        let xml = try #require(
            try foundationValue(try AMC.convert(withDate, to: .xmlPropertyList), json: false) as? [String: Any])
        #expect((xml["log"] as? [[String: Any]])?[1]["at"] as? Date == Date(timeIntervalSinceReferenceDate: 0))
    }
}

extension FormatTests {
    /// A binary property list holding one UTF-16 string object of `units`, made by hand (so any
    /// units can be in it, unpaired surrogates too).
    private static func utf16Plist(_ units: [UInt16]) -> Data {
        var bytes = Array("bplist00".utf8)
        bytes += units.count < 15 ? [0x60 | UInt8(units.count)] : [0x6F, 0x10, UInt8(units.count)]
        for unit in units { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
        let table = bytes.count
        bytes.append(8)  // the offset of object 0
        bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 1] + [UInt8](repeating: 0, count: 8)
        bytes += (0..<8).map { UInt8(truncatingIfNeeded: table >> (56 - 8 * $0)) }
        return Data(bytes)
    }

    /// UTF-16 strings are transcoded four ASCII characters at a time where they can be: every
    /// kind of character (two and three bytes of UTF-8, a surrogate pair, `U+0080` and `U+0100`,
    /// whose high or low byte alone looks like ASCII) at every place around those blocks reads
    /// as the string its units make.
    @Test func utf16StringsReadAsTheirUnitsWhereverTheirCharactersFall() throws {
        let characters: [[UInt16]] = [
            [0x80], [0xE9], [0x100], [0x7FF], [0x800], [0x6771], [0xFFFD], [0xD83D, 0xDCDD], [0x4100], [0x00],
        ]
        let ascii = Array("abcdefghij".utf16)
        for character in characters {
            for before in 0...9 {
                for after in 0...9 {
                    let units = Array(ascii.prefix(before)) + character + ascii.suffix(after) + character
                    let read = try BinaryPlistReader.parse(Self.utf16Plist(units)).value
                    #expect(read.string == String(decoding: units, as: UTF16.self), "\(units)")
                }
            }
        }
        // A long one, with each kind among runs of ASCII.
        let long = (0..<200).flatMap { (index: Int) -> [UInt16] in
            index % 7 == 3 ? characters[index % characters.count] : [ascii[index % ascii.count]]
        }
        #expect(try BinaryPlistReader.parse(Self.utf16Plist(long)).value.string == String(decoding: long, as: UTF16.self))
    }

    /// A surrogate without its other half is refused wherever it falls among blocks of ASCII.
    @Test func anUnpairedSurrogateIsRefusedWhereverItFalls() {
        let ascii = Array("abcdefghij".utf16)
        for lone: [UInt16] in [[0xD800], [0xDC00], [0xDBFF, 0x41], [0xDFFF, 0xD800]] {
            for before in 0...9 {
                for after in [0, 1, 5] {
                    let units = Array(ascii.prefix(before)) + lone + ascii.prefix(after)
                    let error = expectAMCError { _ = try BinaryPlistReader.parse(Self.utf16Plist(units)) }
                    #expect(error?.description.contains("invalid UTF-16 (an unpaired surrogate)") == true, "\(units)")
                }
            }
        }
    }
}

/// The trailer and offset table of a binary property list, read by hand (to see where the writer
/// put each object).
private struct BinaryTable {
    let refSize: Int
    let objectCount: Int
    let offsets: [Int]

    init(_ data: Data) {
        let bytes = [UInt8](data)
        func number(at start: Int, width: Int) -> Int { bytes[start..<start + width].reduce(0) { $0 << 8 | Int($1) } }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        refSize = Int(bytes[trailer + 7])
        objectCount = number(at: trailer + 8, width: 8)
        let table = number(at: trailer + 24, width: 8)
        offsets = (0..<objectCount).map { number(at: table + $0 * offsetSize, width: offsetSize) }
    }
}
