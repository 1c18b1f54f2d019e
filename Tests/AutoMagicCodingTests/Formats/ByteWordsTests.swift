import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Word-at-a-time text tests: the same answers as a look at each byte")
struct ByteWordsTests {
    /// Bytes next to the ones that matter: below, at and above the control range, `"` and `\`,
    /// and bytes of non-ASCII text.
    private static let bytes: [UInt8] = [
        0x00, 0x01, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF,
    ]

    @Test func theFirstByteThatNeedsALookIsFoundExactly() {
        var state: UInt64 = 1
        for _ in 0..<200_000 {
            var word: UInt64 = 0
            var expected = 8
            for offset in 0..<8 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let byte = Self.bytes[Int(state >> 33) % Self.bytes.count]
                word |= UInt64(byte) << (8 * offset)
                if expected == 8, byte < 0x20 || byte == 0x22 || byte == 0x5C { expected = offset }
            }
            #expect(ByteWords.plainJSONBytes(word) == expected, "\(String(word, radix: 16))")
            #expect(ByteWords.mayNeedJSONEscape(word) == (expected < 8))
        }
    }

    /// Strings with an escape, a quote or a non-ASCII character at every place in and around a
    /// word read as Foundation reads them.
    @Test func jsonStringsReadTheSameWhereverTheirEscapesFall() throws {
        for length in 0..<20 {
            for place in 0...length {
                for special in [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "😀"] {
                    let text = String(repeating: "a", count: place) + special + String(repeating: "b", count: length - place)
                    let json = Data("[\"\(text)\", \"\(text)x\"]".utf8)
                    let ours = try DocumentCodec.parse(json).value
                    let theirs = try #require(try JSONSerialization.jsonObject(with: json) as? [String])
                    guard case let .array(values) = ours, values.count == 2 else {
                        Issue.record("\(text): \(ours)")
                        continue
                    }
                    #expect(values.map(\.string) == theirs.map { $0 }, "\(text)")
                }
            }
        }
    }
}
