import Foundation
import Testing

@testable import AutoMagicCoding

private func readPastTheEnd() {
    ByteView.withBytes(of: [1, 2, 3] as [UInt8]) { _ = $0[3] }
}

private func readBeforeTheStart() {
    ByteView.withBytes(of: "abc") { _ = $0[-1] }
}

private func viewPastTheEnd() {
    ByteView.withBytes(of: Data([1, 2])) { _ = $0.view(1..<3) }
}

private func wordPastTheEnd() {
    ByteView.withBytes(of: Array(0..<9) as [UInt8]) { _ = $0.word(at: 2) }
}

private func byteBeyondTheRoom() {
    _ = ByteView.makeString(capacity: 2) { room in
        for byte in Array("abc".utf8) { room.append(byte) }
    }
}

private func fourBytesBeyondTheRoom() {
    _ = ByteView.makeString(capacity: 20) { room in
        room.append(0x61)
        for _ in 0..<5 { room.append(four: 0x6463_6261) }
    }
}

private func bigEndianBeyondTheRoom() {
    var bytes: [UInt8] = []
    bytes.appendWritten(capacity: 5) { room in
        room.append(0x01)
        room.appendBigEndian(0x0203_0405_0607, width: 6)
    }
}

@Suite("ByteView: the one bounds-checked view of raw bytes")
struct ByteViewTests {
    @Test func readsDataArraysAndStrings() {
        ByteView.withBytes(of: Data([0xCA, 0xFE, 0xBA, 0xBE])) { bytes in
            #expect(bytes.count == 4 && bytes[0] == 0xCA && bytes[3] == 0xBE)
            #expect(bytes.bigEndian(at: 0, width: 4) == 0xCAFE_BABE)
            #expect(bytes.bigEndian(at: 1, width: 2) == 0xFEBA)
            #expect(bytes.data(1..<3) == Data([0xFE, 0xBA]))
        }
        ByteView.withBytes(of: "Grüße, <b>") { bytes in
            #expect(bytes.count == 12)  // UTF-8 bytes
            #expect(bytes.string(0..<7) == "Grüße")
            #expect(bytes.matches("<b>", at: 9) && !bytes.matches("<b>", at: 10) && !bytes.matches("<b>", at: -1))
            #expect(bytes.firstOffset(of: "<", from: 0, to: bytes.count) == 9)
            #expect(bytes.firstOffset(of: "<b>", from: 0, to: 11) == nil)  // would end past `to`
            var copy: [UInt8] = [0x21]
            bytes.append(7..<9, to: &copy)
            #expect(copy == [0x21, 0x2C, 0x20])
        }
    }

    @Test func aViewOfARangeCountsFromZeroAndASliceKeepsItsOffsets() {
        ByteView.withBytes(of: [10, 11, 12, 13, 14] as [UInt8]) { bytes in
            let view = bytes.view(2..<5)
            #expect(view.count == 3 && view[0] == 12 && Array(view) == [12, 13, 14])
            let slice = bytes[2..<5]
            #expect(slice.startIndex == 2 && slice.first == 12 && slice.firstIndex(of: 13) == 3)
            #expect(bytes.view(5..<5).isEmpty)
        }
    }

    @Test func writesEveryByteToAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let path = folder.file("out.bin").path
        let descriptor = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(descriptor >= 0)
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        #expect(ByteView.withBytes(of: bytes) { $0.write(to: descriptor) })
        close(descriptor)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(bytes))
        #expect(!ByteView.withBytes(of: bytes) { $0.write(to: -1) })
    }

    @Test func anOffsetOutsideTheViewTrapsInsteadOfReadingOtherMemory() async {
        await #expect(processExitsWith: .failure) { readPastTheEnd() }
        await #expect(processExitsWith: .failure) { readBeforeTheStart() }
        await #expect(processExitsWith: .failure) { viewPastTheEnd() }
        await #expect(processExitsWith: .failure) { wordPastTheEnd() }
        await #expect(processExitsWith: .failure) { byteBeyondTheRoom() }
        await #expect(processExitsWith: .failure) { fourBytesBeyondTheRoom() }
        await #expect(processExitsWith: .failure) { bigEndianBeyondTheRoom() }
    }

    /// Bytes put together in room on the stack, then appended at once: widths 0 to 8 big-endian,
    /// room left over left out, and room larger than the stack keeps (on the heap).
    @Test func bytesWrittenInRoomAreAppendedAsWritten() {
        var bytes: [UInt8] = [0xFF]
        bytes.appendWritten(capacity: 64) { room in
            for width in 0...8 { room.appendBigEndian(0x0102_0304_0506_0708, width: width) }
            room.append(0xAA)
            #expect(room.count == 37)
        }
        let expected: [UInt8] = [0xFF] + (0...8).flatMap { width in Array([1, 2, 3, 4, 5, 6, 7, 8].suffix(width)) } + [0xAA]
        #expect(bytes == expected)
        var large: [UInt8] = []
        large.appendWritten(capacity: 1 << 20) { room in
            for value in 0..<(1 << 18) { room.appendBigEndian(UInt64(value), width: 4) }
        }
        #expect(large.count == 1 << 20 && large[4..<8] == [0, 0, 0, 1] && large.suffix(4) == [0, 3, 0xFF, 0xFF])
        var none: [UInt8] = [7]
        none.appendWritten(capacity: 0) { _ in }
        #expect(none == [7])
    }

    /// A string's bytes are its UTF-8, whether it is stored inline (up to 15 bytes) or in storage
    /// of its own, ASCII or not, made whole or from part of another string (every one of them
    /// native here: the copy for strings without contiguous UTF-8 is Darwin's bridged strings');
    /// an array's bytes appended borrowed are all of them, in order, empty arrays alike.
    @Test func stringsAndArraysGiveTheirBytesWhereTheyAre() {
        let strings = [
            "", "abc", "fifteen bytes!!", "sixteen bytes!!!", String(repeating: "Grüße ", count: 40),
            String("a part of a longer string, taken out".dropFirst(2).prefix(30)), "🦆" + String(repeating: "x", count: 20),
        ]
        for string in strings {
            #expect(ByteView.withBytes(of: string) { Array($0) } == Array(string.utf8), "\(string)")
        }
        var bytes: [UInt8] = []
        bytes.append(bytesOf: [])
        #expect(bytes.isEmpty)
        bytes.append(bytesOf: [1, 2])
        bytes.append(bytesOf: Array(0..<200))
        #expect(bytes == [1, 2] + Array(0..<200))
    }

    /// A string made in its own storage: bytes one at a time and four at a time (lowest first),
    /// room left over left out, small and large strings alike; invalid UTF-8 becomes U+FFFD.
    @Test func aStringIsMadeOfTheBytesWrittenInItsRoom() {
        #expect(ByteView.makeString(capacity: 0) { _ in } == "")
        let short = ByteView.makeString(capacity: 8) { room in
            room.append(0x68)
            room.append(four: 0x6F6C_6C65)
        }
        #expect(short == "hello")
        let long = ByteView.makeString(capacity: 64) { room in
            for _ in 0..<10 { room.append(four: 0x6463_6261) }
            for byte in Array("é!".utf8) { room.append(byte) }
            #expect(room.count == 43)
        }
        #expect(long == String(repeating: "abcd", count: 10) + "é!")
        #expect(ByteView.makeString(capacity: 1) { $0.append(0xFF) } == "\u{FFFD}")
    }

    /// What the decoder asks to tell the default `amcKeys` from an override: one array handed
    /// out twice shares its buffer; an equal array, a copy changed, or an empty one do not.
    @Test func sharedStorageIsTheSameArrayNotAnEqualOne() {
        let keys = ["name", "size"]
        let again = keys
        var changed = keys
        changed[0] = "name"
        #expect(RuntimeAccess.sharesStorage(keys, again))
        #expect(!RuntimeAccess.sharesStorage(keys, ["name", "size"]))
        #expect(!RuntimeAccess.sharesStorage(keys, changed))
        #expect(!RuntimeAccess.sharesStorage([String](), []))
    }

    @Test func lineFeedsAreCountedInEveryRangeWhereverTheyFall() {
        // Line feeds beside every other byte value, at every position a word read may start at.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let bytes = (0..<70).map { _ in Bool.random(using: &generator) ? ASCII.lineFeed : UInt8.random(in: 0...255) }
            ByteView.withBytes(of: bytes) { view in
                for lower in 0..<20 {
                    for upper in lower...bytes.count {
                        let feeds = (lower..<upper).filter { bytes[$0] == ASCII.lineFeed }
                        let counted = view.lineFeeds(in: lower..<upper)
                        #expect(counted.count == feeds.count && counted.lineStart == feeds.last.map { $0 + 1 })
                    }
                }
            }
        }
    }

    @Test func startTagsAndEqualSignsAreCountedWhereverTheyFall() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<</!?=a ".utf8)
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in alphabet.randomElement(using: &generator)! }
            let startTags = bytes.indices.filter {
                bytes[$0] == UInt8(ascii: "<") && ($0 + 1 == bytes.count || !"/!?".utf8.contains(bytes[$0 + 1]))
            }
            let counted = ByteView.withBytes(of: bytes) { $0.markupCounts() }
            #expect(counted.startTags == startTags.count)
            #expect(counted.equalSigns == bytes.filter { $0 == UInt8(ascii: "=") }.count)
        }
    }

    @Test func aWordIsEightBytesLowestFirst() {
        ByteView.withBytes(of: Array(0..<10) as [UInt8]) { bytes in
            #expect(bytes.word(at: 0) == 0x0706_0504_0302_0100)
            #expect(bytes.word(at: 2) == 0x0908_0706_0504_0302)
        }
    }

    /// What the key table and the tape read: a word of fewer bytes (zeros above, also at the
    /// very end of a view), bytes compared with another view's, and a copy of them all.
    @Test func partialWordsComparisonsAndCopies() {
        ByteView.withBytes(of: Array(1...10) as [UInt8]) { bytes in
            #expect(bytes.word(at: 0, count: 3) == 0x03_0201)
            #expect(bytes.word(at: 7, count: 3) == 0x0A_0908)  // fewer than 8 bytes left
            #expect(bytes.word(at: 2, count: 8) == bytes.word(at: 2))
            #expect(bytes.word(at: 10, count: 0) == 0)
            ByteView.withBytes(of: [3, 4, 5] as [UInt8]) { other in
                #expect(bytes.bytes(2..<5, equal: other))
                #expect(!bytes.bytes(1..<4, equal: other))
                #expect(!bytes.bytes(2..<6, equal: other))
            }
            #expect(bytes.copied == Array(1...10))
        }
    }

    /// References and offsets of every width a binary property list uses, most significant
    /// byte first.
    @Test func aRangeIsASCIIUnlessOneOfItsOwnBytesIsHigh() {
        // Every length across a word boundary, a high byte at each place in, just before and just
        // after the range, the view ending with the range or going on.
        for length in 0...19 {
            for high in -1...length {
                for tail in [0, 9] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 1 + length + tail)
                    if high >= 0, 1 + high < bytes.count { bytes[1 + high] = 0xC3 }
                    let inside = high >= 0 && high < length
                    ByteView.withBytes(of: bytes) { view in
                        #expect(view.isASCII(1..<(1 + length)) == !inside, "length \(length), high byte at \(high)")
                    }
                }
            }
        }
    }

    @Test func bigEndianFieldsOfEveryWidth() {
        for width in 0...8 {
            var bytes: [UInt8] = [0xEE]
            bytes.appendBigEndian(0x0102_0304_0506_0708, width: width)
            #expect(bytes == [0xEE] + Array([1, 2, 3, 4, 5, 6, 7, 8].suffix(width)), "\(width)")
        }
    }

    /// README and HowItWorks.md: all unsafe code of the library is in `Reflection/RuntimeFields.swift`,
    /// `Internal/ByteView.swift` and `Internal/StackRoom.swift` (`Reflection/RuntimeSelfTest.swift`
    /// declares an `unowned(unsafe)` canary field, and nothing else unsafe); the benchmark's one
    /// C pointer is in `Benchmark/AllocatedBytes.swift`.
    @Test func noOtherSourceFileTouchesRawMemory() throws {
        let sources = FixtureFiles.folder.deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        #expect(files.count > 40)
        // The field base's type names say what it is; using one is no raw memory access.
        let unsafe = try files.filter {
            try String(contentsOf: $0, encoding: .utf8).replacingOccurrences(of: "UnsafeMutableFieldBase", with: "")
                .replacingOccurrences(of: "UnsafeFieldBase", with: "").lowercased().contains("unsafe")
        }
        .map { $0.pathComponents.suffix(2).joined(separator: "/") }.sorted()
        #expect(
            unsafe == [
                "Benchmark/AllocatedBytes.swift", "Internal/ByteView.swift", "Internal/StackRoom.swift",
                "Reflection/RuntimeFields.swift",
                "Reflection/RuntimeSelfTest.swift",
            ])
        let canary = try String(
            contentsOf: sources.appendingPathComponent("AutoMagicCoding/Reflection/RuntimeSelfTest.swift"), encoding: .utf8)
        #expect(canary.components(separatedBy: "unsafe").count == 2)
    }
}
