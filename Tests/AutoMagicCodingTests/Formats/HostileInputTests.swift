import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

/// The `.malformedData` error that parsing `data` throws; records an issue when it throws
/// something else or nothing.
private func malformed(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> (AMCFormat, AMCError.Location, String)?
{
    let error = expectAMCError(sourceLocation: sourceLocation) { _ = try AMC.lint(data) }
    guard case let .malformedData(format, location, reason)? = error?.kind else {
        if let error { Issue.record("expected malformed data, got \(error)", sourceLocation: sourceLocation) }
        return nil
    }
    return (format, location, reason)
}

private func bytes(_ text: String) -> Data { Data(text.utf8) }

@Suite("Hostile and broken files: an AMCError that says what and where, never a crash")
struct HostileInputTests {
    // MARK: - JSON

    @Test func jsonErrorsGiveLineAndColumn() throws {
        let unterminated = try #require(malformed(bytes("{\n  \"name\": \"Ada\n}")))
        #expect(unterminated.1 == .line(2, column: 11))
        #expect(unterminated.2 == "unterminated string (a line break inside a string must be written \\n)")
        let error = expectAMCError { _ = try AMC.lint(bytes("{\"name\": \"Ada")) }
        #expect(error?.description == "Malformed JSON at line 1, column 10: unterminated string.")

        #expect(malformed(bytes("[1, 2,]"))?.2 == "expected a value, found \"]\"")
        #expect(malformed(bytes("{\"a\" 1}"))?.2 == "expected \":\" after a key, found \"1\"")
        #expect(malformed(bytes("[1] x"))?.2 == "unexpected \"x\" after the document")
        #expect(malformed(bytes("[01]"))?.2 == "a number cannot start with 0")
        #expect(malformed(bytes("[1e999]"))?.2 == "the number 1e999 is out of range")
        #expect(malformed(bytes("[\"a\tb\"]"))?.2 == "a control character (U+0009) inside a string must be escaped")
        #expect(malformed(bytes("[\"\\x\"]"))?.2 == "invalid escape \"\\x\"")
        #expect(malformed(bytes("[\"\\ud800\"]"))?.2 == "a high surrogate \\ud800 must be followed by a low one")
        #expect(malformed(bytes("[tru]"))?.2 == "expected a value, found \"t\"")
        #expect(expectAMCError { _ = try AMC.lint(Data()) }?.kind == .unknownFormat(reason: "the data is empty"))
    }

    @Test func invalidUTF8InJSONIsAnErrorNotAReplacementCharacter() throws {
        let data = try FixtureFiles.data("bad/invalid-utf8.json")
        let error = try #require(malformed(data))
        #expect(error.1 == .line(1, column: 7))
        #expect(error.2 == "invalid UTF-8 (byte 0xC3)")
        // Overlong forms and surrogates encoded in UTF-8 are invalid too.
        #expect(malformed(Data([0x5B, 0x22, 0xC0, 0xAF, 0x22, 0x5D]))?.2 == "invalid UTF-8 (byte 0xC0)")
        #expect(malformed(Data([0x5B, 0x22, 0xED, 0xA0, 0x80, 0x22, 0x5D]))?.2 == "invalid UTF-8 (byte 0xED)")
    }

    @Test("100,000 nested arrays stop before a small stack runs out in every format", arguments: AMCFormat.allCases)
    func absurdNestingStopsAtTheLimit(format: AMCFormat) throws {
        let depth = 100_000
        let data: Data
        switch format {
        case .json:
            data = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        case .xmlPropertyList:
            data = Data(
                ("<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth)
                    + "</plist>").utf8)
        case .binaryPropertyList:
            data = Self.nestedBinaryArrays(depth: depth)
        }
        #expect(AMCFormat(detecting: data) == format)
        // On a 256 KB stack the room left stops it first; where the stack is large, the count
        // limit does (ReleaseChecks: 10,000 levels are deeper than sanitizers can follow).
        let error = try onThread(stackSize: 256 << 10) { amcError { _ = try AMC.lint(data) } }
        guard case let .stackExhausted(depth)? = error?.kind else {
            Issue.record("expected the stack to stop reading, got \(String(describing: error))")
            return
        }
        #expect(depth > StackRoom.unchecked && depth < 10_000)
    }

    @Test func numbersOutOfRangeInPropertyLists() throws {
        let xml = bytes("<plist><array><integer>18446744073709551616</integer></array></plist>")
        // Beyond 64 bits an integer is read as written, for exact types to take or refuse.
        _ = try AMC.lint(xml)
        let read = try #require(
            try AMC.object(
                WideNumber.self,
                from: bytes(#"<plist><dict><key>big</key><integer>18446744073709551616</integer></dict></plist>"#)))
        #expect(read.big == UInt128(UInt64.max) + 1)
        #expect(malformed(bytes("<plist><integer>12a</integer></plist>"))?.2 == "\"12a\" is not an integer")
        #expect(malformed(bytes("<plist><integer>1.0</integer></plist>"))?.2 == "\"1.0\" is not an integer")
        #expect(malformed(bytes("<plist><real>1e</real></plist>"))?.2 == "\"1e\" is not a real number")
        #expect(malformed(bytes("<plist><date>yesterday</date></plist>"))?.2 == "\"yesterday\" is not an ISO 8601 date")
    }

    @Test func xmlErrorsGiveLineAndColumn() throws {
        let unterminated = try #require(malformed(bytes("<plist>\n<dict>\n\t<key>a</key>\n\t<string>never closed")))
        #expect(unterminated.1 == .line(4, column: 10))
        #expect(unterminated.2 == "unterminated <string> element")
        #expect(
            malformed(bytes("<plist><dict><key>a</key></dict></plist>"))?.2
                == "the key \"a\" has no value: expected a value element, found \"</dict></pli\"")
        #expect(
            malformed(bytes("<plist><dict><key>a</key>\n<key>b</key><true/></dict></plist>"))?.2
                == "the key \"a\" has no value: expected a value element, found \"<key>b</key>\"")
        #expect(malformed(bytes("<plist><frobnicate/></plist>"))?.2 == "unknown element <frobnicate>")
        #expect(malformed(bytes("<plist><string>&bogus;</string></plist>"))?.2 == "unknown entity \"&bogus;\"")
        #expect(malformed(bytes("<plist><array></dict></plist>"))?.2 == "expected </array>, found </dict>")
        #expect(malformed(bytes("<plist><array></array x></plist>"))?.2 == "expected \">\" to end </array, found \"x></plist>\"")
        #expect(malformed(bytes("<?xml version=\"1.0\"?><plist><true/>"))?.2 == "expected </plist>, found the end of the data")
        #expect(
            malformed(Data(Array("<plist><string>".utf8) + [0xFF] + Array("</string></plist>".utf8)))?.2
                == "invalid UTF-8 (byte 0xFF)")
    }

    /// XML readers must refuse what is not well-formed (XML 1.0 §1.2); Foundation's skips over
    /// much of it (FilesAndFormats.md: "What differs from Foundation, on purpose").
    @Test func xmlThatIsNotWellFormedIsRefused() throws {
        let body = "<plist version=\"1.0\"><true/></plist>"
        for (document, reason) in [
            ("<?xml revsion=\"1.0\"?>" + body, "unexpected revsion in the XML declaration"),
            (
                "<?xml version=\"1.0\"-8\"?>" + body,
                "expected white space or \"?>\" in the XML declaration, found \"-8\"?><plist \""
            ),
            ("<?xml version=\"2\"?>" + body, "\"2\" is not a valid version in the XML declaration"),
            (
                "<?xml version=\"1.0\" encoding=\"UTF-16\"?>" + body,
                "the XML declaration says \"UTF-16\", but the document has no UTF-16 byte-order mark"
            ),
            (
                "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>" + body,
                "the document is in \"ISO-8859-1\"; only UTF-8 (or ASCII) and UTF-16 are read: convert it to UTF-8"
            ),
            (
                "<?xml encoding=\"UTF-8\" version=\"1.0\"?>" + body,
                "the XML declaration has no version (version=\"1.0\" must come first in it)"
            ),
            ("<?XML version=\"1.0\"?>" + body, "<?XML is not an XML declaration: it is written <?xml, in lower case"),
            ("<!-- a -->\n<?xml version=\"1.0\"?>" + body, "the XML declaration <?xml …?> must come first in the document"),
            (
                "<!DOCTYPE plist PUBLIC \"-//Apple\">" + body,
                "expected white space and a quoted id in the DOCTYPE, found \"><plist vers\""
            ),
            (
                "<!DOCTYPE plist PUBLIC \"-//Apple//<key>\" \"x.dtd\">" + body,
                "\"<\" in the DOCTYPE's public id, which holds letters, digits, white space and -'()+,./:=?;!*#@$_% only"
            ),
            ("<!DOCTYPE>" + body, "expected the root element's name in the DOCTYPE, found \"><plist vers\""),
            (
                "<!-- a -- b -->" + body,
                "\"--\" inside a comment (a comment ends at the first \"--\", which must be followed by \">\")"
            ),
            (
                "<plist version=1.0><true/></plist>",
                "expected a quoted value for version in the <plist> tag, found \"1.0><true/><\""
            ),
            ("<plist><true\u{0}/></plist>", "expected white space, \">\" or \"/>\" in the <true> tag, found \"\u{0}/></plist>\""),
            ("<plist><key\n<key>a</key></plist>", "expected an attribute in the <key> tag, found \"<key>a</key>\""),
            (body + "<!DOCTYPE plist>", "unexpected \"<!DOCTYPE pl\" after the property list"),
            ("<plist><data>SGVsbG8s IHdvcm=k</data></plist>", "the <data> element is not base64"),
        ] {
            #expect(malformed(bytes(document))?.2 == reason, "\(document)")
        }
        // What XML allows: the declaration with every part, a DOCTYPE with an internal subset,
        // attributes in either quotes, comments and processing instructions around the root.
        let allowed =
            "<?xml version=\"1.0\" encoding=\"utf-8\" standalone='yes' ?>\n<!-- c -->\n<?app data?>\n"
            + "<!DOCTYPE plist SYSTEM 'plist.dtd' [<!ENTITY x \"]\">]>\n<plist version='1.0' ><dict><key>a</key><data>SGk=\n</data></dict></plist>\n<!-- end -->"
        #expect(try AMC.lint(bytes(allowed)) == .xmlPropertyList)
        #expect(try AMC.lint(bytes("<?xml version=\"1.0\" encoding=\"US-ASCII\"?>" + body)) == .xmlPropertyList)
        #expect(try AMC.lint(bytes("<?xml version=\"1.0\" encoding=\"UTF8\"?>" + body)) == .xmlPropertyList)
    }

    /// A file that says it is Latin-1 is refused for that, not for the first byte that is not UTF-8.
    @Test func aDocumentInAnotherEncodingIsRefusedForWhatItSaysItIs() throws {
        let latin1 =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist><string>caf".utf8) + [0xE9]
            + Array("</string></plist>".utf8)
        let error = try #require(malformed(Data(latin1)))
        #expect(error.1 == .line(1, column: 21))
        #expect(error.2.hasPrefix("the document is in \"ISO-8859-1\""))
    }

    /// XML 1.0 requires every reader to read UTF-16 (with its byte-order mark).
    @Test func xmlInUTF16IsRead() throws {
        let document =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist version=\"1.0\"><dict>"
            + "<key>name</key><string>Zoë 😀</string><key>n</key><integer>7</integer></dict></plist>\n"
        for bigEndian in [true, false] {
            let units = Array(document.utf16)
            var data = Data(bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE])
            for unit in units {
                data.append(
                    contentsOf: bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)])
            }
            #expect(AMCFormat(detecting: data) == .xmlPropertyList)
            let dictionary = try #require(try DocumentCodec.parse(data).value.swiftValue as? [String: Any])
            #expect(dictionary["name"] as? String == "Zoë 😀")
            #expect(dictionary["n"] as? Int == 7)
            // Its declaration must not say UTF-8; an unpaired surrogate or an odd byte is refused.
            let saysUTF8 =
                Data(data.prefix(2))
                + data.dropFirst(2).replacing(
                    Self.utf16("UTF-16", bigEndian: bigEndian), with: Self.utf16("UTF-8", bigEndian: bigEndian))
            #expect(
                malformed(saysUTF8)?.2
                    == "the XML declaration says \"UTF-8\", but the document is UTF-16 (it starts with a UTF-16 byte-order mark)")
            let lone = Data(data.prefix(4)) + Self.utf16Unit(0xD800, bigEndian: bigEndian) + data.dropFirst(4)
            let surrogate = try #require(malformed(lone))
            #expect(surrogate.1 == .byteOffset(4))
            #expect(surrogate.2 == "invalid UTF-16 (an unpaired surrogate)")
            #expect(malformed(data + Data([0x20]))?.2 == "UTF-16 text of an odd number of bytes")
        }
        // JSON is UTF-8 only (RFC 8259): UTF-16 JSON is told apart from a document of no format.
        let json = Data([0xFF, 0xFE, UInt8(ascii: "["), 0, UInt8(ascii: "]"), 0])
        let error = expectAMCError { _ = try AMC.lint(json) }
        #expect(
            error?.kind
                == .unknownFormat(reason: "the data is UTF-16 text that is not XML; JSON is read in UTF-8 only (RFC 8259)"))
    }

    private static func utf16(_ text: String, bigEndian: Bool) -> Data {
        text.utf16.reduce(into: Data()) { $0 += utf16Unit($1, bigEndian: bigEndian) }
    }

    private static func utf16Unit(_ unit: UInt16, bigEndian: Bool) -> Data {
        bigEndian ? Data([UInt8(unit >> 8), UInt8(unit & 0xFF)]) : Data([UInt8(unit & 0xFF), UInt8(unit >> 8)])
    }

    // MARK: - Binary property lists

    @Test func everyTruncationOfABinaryPlistThrows() throws {
        let data = try AMC.data(for: Self.sample(), format: .binaryPropertyList)
        for length in 0..<data.count {
            #expect(throws: AMCError.self) { _ = try AMC.lint(data.prefix(length)) }
        }
        #expect(try AMC.lint(data) == .binaryPropertyList)
    }

    @Test func corruptingAnyByteOfABinaryPlistNeverCrashes() throws {
        let data = try AMC.data(for: Self.sample(), format: .binaryPropertyList)
        var failures = 0
        for index in 8..<data.count {
            for value: UInt8 in [0x00, 0xFF, data[index] ^ 0x01, data[index] ^ 0x80] {
                var corrupted = data
                corrupted[index] = value
                do {
                    _ = try AMC.lint(corrupted)
                } catch is AMCError {
                    failures += 1
                }
            }
        }
        #expect(failures > 0)
    }

    @Test func aBinaryObjectTableWithACycleThrows() throws {
        // Object 0 is an array whose one element is object 0.
        let data = Self.binary(objects: [[0xA1, 0x00]], top: 0)
        let error = try #require(malformed(data))
        #expect(error.1 == .byteOffset(8))
        #expect(error.2 == "object 0 contains itself")
    }

    /// Objects the offset table lists at one offset are one object: read as Foundation reads them,
    /// parsed at most twice as any shared object is (a string listed 7,679 times is made twice,
    /// not 7,679 times), and a cycle through a second listing is still a cycle.
    @Test func objectsListedAtOneOffsetAreOneObject() throws {
        let data = HostileInput.binaryRepeatedOffsets.data(size: 64 << 10)
        let theirs = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String])
        #expect(theirs.count == 7_679)
        let ours = try #require(try BinaryPlistReader.parse(data).value.swiftValue as? [String])
        #expect(ours == theirs)
        let buffers = Set(
            ours.map { string in string.utf8.withContiguousStorageIfAvailable { UInt(bitPattern: $0.baseAddress) } })
        #expect(buffers.count <= 2)

        // Object 1, listed at object 0's offset, is the array that holds it.
        var cycle = Array("bplist00".utf8) + [0xA1, 0x01]
        let table = cycle.count
        cycle += [8, 8, 0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8)
        cycle += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
        #expect(malformed(Data(cycle))?.2 == "object 0 contains itself")
    }

    @Test func badOffsetsAndReferencesThrowWithTheirPosition() throws {
        let bad = try #require(malformed(try FixtureFiles.data("bad/bad-offset.plist")))
        #expect(bad.2.hasPrefix("the object table"))
        let truncated = try #require(malformed(try FixtureFiles.data("bad/truncated.plist")))
        #expect(truncated.0 == .binaryPropertyList)
        // An array that refers to object 7 of 1.
        #expect(malformed(Self.binary(objects: [[0xA1, 0x07]], top: 0))?.2 == "a reference to object 7 of 1")
        // An array claiming 2^40 elements in a file of a few bytes is refused before any allocation.
        let huge = Self.binary(objects: [[0xAF, 0x13, 0, 0, 0x01, 0, 0, 0, 0, 0]], top: 0)
        #expect(malformed(huge)?.2 == "a count of 1099511627776 runs past the object table")
        // A string whose UTF-16 holds an unpaired surrogate.
        #expect(malformed(Self.binary(objects: [[0x61, 0xD8, 0x00]], top: 0))?.2 == "invalid UTF-16 (an unpaired surrogate)")
        // A low surrogate alone, a high one before a letter, two highs, a low before its high.
        for units: [UInt8] in [
            [0x61, 0xDC, 0x00], [0x62, 0xD8, 0x3D, 0x00, 0x41], [0x62, 0xD8, 0x3D, 0xD8, 0x3D],
            [0x62, 0xDE, 0x00, 0xD8, 0x3D],
        ] {
            #expect(malformed(Self.binary(objects: [units], top: 0))?.2 == "invalid UTF-16 (an unpaired surrogate)", "\(units)")
        }
        // A pair between letters reads as the one character it is.
        let pair = Self.binary(objects: [[0x64, 0x00, 0x41, 0xD8, 0x3D, 0xDE, 0x00, 0x00, 0x42]], top: 0)
        #expect(try DocumentCodec.parse(pair).value.isSame(as: .string("A😀B")))
        #expect(
            malformed(Self.binary(objects: [[0x80, 0x01]], top: 0))?.2 == "UID objects (from NSKeyedArchiver) are not supported")
    }

    @Test func everyOffsetInTheTableIsCheckedEvenOfObjectsNothingUses() throws {
        // Two integers, the top one first; the second's offset (the table's last byte) is garbage.
        var bytes = [UInt8](Self.binary(objects: [[0x10, 0x01], [0x10, 0x02]], top: 0))
        let table = bytes.count - 32 - 2
        bytes[table + 1] = 0xF0
        let error = try #require(malformed(Data(bytes)))
        #expect(error.1 == .byteOffset(table + 1))
        #expect(error.2 == "object 1 has offset 240, outside the object data")
    }

    @Test func bytesBetweenTheOffsetTableAndTheTrailerAreADamagedFile() throws {
        // As CoreFoundation requires (Foundation refuses such a file): found by the differential
        // run over a fuzzing campaign's corpus, where we read files Foundation refused.
        var bytes = [UInt8](Self.binary(objects: [[0x10, 0x01]], top: 0))
        bytes.insert(contentsOf: [0, 0, 0], at: bytes.count - 32)
        let error = try #require(malformed(Data(bytes)))
        #expect(error.1 == .byteOffset(bytes.count - 35))
        #expect(error.2 == "3 bytes lie between the offset table and the trailer")
    }

    @Test func anEmptyUTF16StringReadsAsAnEmptyString() throws {
        // The format allows it, though CoreFoundation writes an empty string as ASCII; Foundation
        // on Linux refuses a file holding one (FilesAndFormats.md: "What differs from Foundation, on purpose").
        let data = Self.binary(objects: [[0xA1, 0x01], [0x60]], top: 0)
        let value = try DocumentCodec.parse(data).value
        guard case let .array(elements) = value, elements.count == 1, case let .string(string) = elements[0] else {
            Issue.record("read as \(value)")
            return
        }
        #expect(string.isEmpty)
    }

    /// Keys equal as `String`s but spelled in other bytes (`é`, and `e` with U+0301; `K`, and the
    /// Kelvin sign, which is ASCII's `K` as a `String`) are one key: a dictionary holding both is
    /// refused in every format, among a few keys and past 16, and keys that only look alike are
    /// not.
    @Test func keysEqualAsStringsAreRepeatedKeysInEveryFormat() throws {
        let (composed, decomposed) = ("caf\u{E9}", "cafe\u{301}")
        func json(_ keys: [String]) -> Data {
            Data(("{" + keys.enumerated().map { "\"\($0.element)\": \($0.offset)" }.joined(separator: ",") + "}").utf8)
        }
        func xml(_ keys: [String]) -> Data {
            Data(("<plist><dict>" + keys.map { "<key>\($0)</key><true/>" }.joined() + "</dict></plist>").utf8)
        }
        func binary(_ keys: [String]) -> Data {
            // Object 0: the dictionary of every key to object 1, `true`; then each key, in ASCII
            // or UTF-16 as writers make them.
            let header: [UInt8] = keys.count < 15 ? [0xD0 | UInt8(keys.count)] : [0xDF, 0x10, UInt8(keys.count)]
            let strings = keys.map { key -> [UInt8] in
                if key.utf8.allSatisfy({ $0 < 0x80 }) { return [0x50 | UInt8(key.utf8.count)] + Array(key.utf8) }
                let units: [UInt8] = key.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
                return [0x60 | UInt8(key.utf16.count)] + units
            }
            let references = keys.indices.map { UInt8($0 + 2) } + Array(repeating: 1, count: keys.count)
            return Self.binary(objects: [header + references, [0x09]] + strings, top: 0)
        }
        let others = (0..<20).map { "k\($0)" }
        let (ascii, kelvin) = ("K", "\u{212A}")
        for keys in [
            [composed, "x", decomposed], others + [decomposed, composed], [ascii, "x", kelvin], others + [kelvin, ascii],
        ] {
            for data in [json(keys), xml(keys), binary(keys)] {
                #expect(malformed(data)?.2.hasSuffix("appears twice in one dictionary") == true)
            }
        }
        for keys in [[composed, "cafe", "caf\u{E8}"], others + [composed, "cafe"], [ascii, "k", "\u{212B}"]] {
            for data in [json(keys), xml(keys), binary(keys)] {
                guard case let .dictionary(entries) = try DocumentCodec.parse(data).value else {
                    Issue.record("not a dictionary")
                    continue
                }
                #expect(entries.count == keys.count)
            }
        }
    }

    /// A key met twice in a binary dictionary is refused, among a few keys and past 16 (where a
    /// set is kept), and containers read again (shared ones, parsed twice before they are kept)
    /// read the same each time, past the room the tape set aside from the containers' counts.
    @Test func aBinaryDictionaryRefusesARepeatedKeyAmongFewOrMany() throws {
        func strings(_ count: Int) -> [[UInt8]] { (0..<count).map { [0x50 + UInt8("k\($0)".utf8.count)] + Array("k\($0)".utf8) } }
        // Object 0: a dictionary of `keys` (object numbers) to object 1, the integer 7; then the strings.
        func dictionary(keys: [Int]) -> Data {
            let header: [UInt8] = keys.count < 15 ? [0xD0 | UInt8(keys.count)] : [0xDF, 0x10, UInt8(keys.count)]
            let references = keys.map { UInt8($0 + 2) } + Array(repeating: 1, count: keys.count)
            return Self.binary(objects: [header + references, [0x10, 0x07]] + strings(20), top: 0)
        }
        #expect(malformed(dictionary(keys: [0, 1, 0]))?.2 == "the key \"k0\" appears twice in one dictionary")
        #expect(malformed(dictionary(keys: Array(0..<20) + [7]))?.2 == "the key \"k7\" appears twice in one dictionary")
        func entries(_ pairs: [(String, ArchiveValue)]) -> ArchiveValue {
            var entries = ArchiveDictionary()
            for (key, value) in pairs { entries.append(key, value) }
            return .dictionary(entries)
        }
        let many = try DocumentCodec.parse(dictionary(keys: Array(0..<20))).value
        #expect(many.isSame(as: entries((0..<20).map { ("k\($0)", .int(7)) })))
        // An array of an array twice, which holds a dictionary twice: objects read again come
        // from their runs, not from whatever was read last.
        let shared = Self.binary(
            objects: [
                [0xA2, 1, 1], [0xA2, 2, 2], [0xD2, 4, 5, 3, 6], [0x10, 0x07], [0x51, 0x61], [0x51, 0x62], [0x10, 0x08],
            ],
            top: 0)
        let pair = ArchiveValue.array(ArchiveArray(Array(repeating: entries([("a", .int(7)), ("b", .int(8))]), count: 2)))
        #expect(try DocumentCodec.parse(shared).value.isSame(as: .array([pair, pair])))
    }

    /// The tape holds at most as many values as the file has room for references: an array of
    /// 100,000 references to one number reads, the same array in two places is refused (read
    /// twice, it is more values than the file has references), and so are arrays that claim the
    /// same block (`HostileInput.binarySiblingClaims`, whose memory `ResourceBoundTests` checks).
    @Test func theTapeHoldsNoMoreValuesThanTheFileHasReferences() throws {
        let count = 100_000
        let numbers: [UInt8] = [0xAF, 0x12] + (0..<4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) }
        let once = Self.binary(objects: [numbers + Array(repeating: 1, count: count), [0x10, 0x07]], top: 0)
        guard case let .array(elements) = try DocumentCodec.parse(once).value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.count == count && elements.allSatisfy { $0.isSame(as: .int(7)) })
        let twice = Self.binary(objects: [[0xA2, 1, 1], numbers + Array(repeating: 2, count: count), [0x10, 0x07]], top: 0)
        #expect(malformed(twice)?.2.hasPrefix("the containers hold more values than the file has room for references") == true)
        let claims = HostileInput.binarySiblingClaims.data(size: 1 << 20)
        #expect(malformed(claims)?.2.hasPrefix("the containers hold more values than the file has room for references") == true)
    }

    /// The room a binary property list's tape sets aside from the containers' counts holds every
    /// value it reads (an array that outgrows its room is copied, and both are held at once):
    /// sets, arrays and dictionaries each read twice, and values that fill the room for
    /// references exactly, the root's slot after them. Each file is read, or refused, as before.
    @Test func aBinaryTapeStaysInTheRoomSetAsideForIt() throws {
        let sets = Self.binary(
            objects: [[0xA2, 1, 1], [0xCF, 0x10, 100] + Array(repeating: 2, count: 100), [0x10, 0x07]], top: 0)
        let dictionaries = Self.binary(
            objects: [[0xA2, 1, 1], [0xD3, 2, 3, 4, 5, 5, 5], [0x51, 0x61], [0x51, 0x62], [0x51, 0x63], [0x10, 0x07]], top: 0)
        // The top array's count (4 bytes) and 70,000 references, an array of 10 referred to twice,
        // and the integer: 70,020 values, as many as the 70,019 bytes of objects have room for.
        let count = 70_000
        let top = [0xAF, 0x12] + (0..<4).map { UInt8(truncatingIfNeeded: count >> (24 - 8 * $0)) } + [1, 1]
        let exact = Self.binary(
            objects: [[0x10, 0x07], [0xAA] + Array(repeating: 0, count: 10), top + Array(repeating: 0, count: count - 2)], top: 2)
        for file in [sets, dictionaries, exact, HostileInput.binaryContainersListedTwice.data(size: 1 << 16)] {
            #expect(BinaryPlistReader.keepsTapeInItsRoom(file))
        }
        func json(_ data: Data) throws -> String {
            String(
                decoding: try DocumentCodec.encode(DocumentCodec.parse(data).value, format: .json, options: .compact),
                as: UTF8.self)
        }
        func numbers(_ count: Int) -> String { Array(repeating: "7", count: count).joined(separator: ",") }
        #expect(try json(sets) == "[[\(numbers(100))],[\(numbers(100))]]")
        #expect(try json(dictionaries) == #"[{"a":7,"b":7,"c":7},{"a":7,"b":7,"c":7}]"#)
        #expect(try json(exact) == "[[\(numbers(10))],[\(numbers(10))],\(numbers(count - 2))]")
    }

    @Test func sharedObjectsCannotExpandWithoutBound() throws {
        // "Billion laughs": each array holds the next one twice; 40 levels would expand to 2^40 values.
        var objects: [[UInt8]] = []
        for level in 0..<40 { objects.append([0xA2, UInt8(level + 1), UInt8(level + 1)]) }
        objects.append([0x10, 0x01])
        let error = try #require(malformed(Self.binary(objects: objects, top: 0)))
        #expect(error.2.hasPrefix("shared objects expand to more than"))
    }

    // MARK: - Helpers

    private static func sample() -> Zoo {
        Fixtures.register()
        let zoo = Zoo()
        let dog = Dog()
        dog.name = "Rex ünïcode 😀"
        zoo.animals = [dog, Cat()]
        return zoo
    }

    /// A binary property list of the given objects (each its marker and payload; references
    /// one byte wide).
    static func binary(objects: [[UInt8]], top: Int) -> Data {
        HostileInput.binaryPropertyList(objects, referenceSize: 1, top: top)
    }

    /// `depth` arrays, each holding the next: object i refers to object i + 1.
    private static func nestedBinaryArrays(depth: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for index in 0..<depth {
            offsets.append(bytes.count)
            if index == depth - 1 {
                bytes.append(0xA0)
            } else {
                bytes.append(0xA1)
                bytes.appendBigEndian(UInt64(index + 1), width: 4)
            }
        }
        let table = bytes.count
        for offset in offsets { bytes.appendBigEndian(UInt64(offset), width: 4) }
        bytes += [0, 0, 0, 0, 0, 0, 4, 4]
        bytes.appendBigEndian(UInt64(depth), width: 8)
        bytes.appendBigEndian(0, width: 8)
        bytes.appendBigEndian(UInt64(table), width: 8)
        return Data(bytes)
    }
}

/// A number wider than property lists' own.
final class WideNumber: AMCCodable {
    var big = UInt128(0)
    required init() {}
}
