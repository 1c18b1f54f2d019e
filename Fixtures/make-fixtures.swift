// Regenerates the Foundation-made fixtures: swift Fixtures/make-fixtures.swift (from the package root).
// The files are committed; the tests check that AutoMagicCoding reads each to the value Foundation
// reads, and that Foundation reads what AutoMagicCoding writes.
import Foundation

let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "Fixtures")

let shared = "a string every entry shares"
let sharedArray: [Any] = [1, 2, 3]
var everything: [String: Any] = [
    "int1": 7, "int2": 300, "int4": 70_000, "int8": 5_000_000_000, "negative": -1,
    "int64Min": Int64.min, "int64Max": Int64.max, "uint64Max": UInt64.max,
    "minusZero": -0.0, "large": 1e300, "tiny": Double.leastNonzeroMagnitude, "pi": 3.141592653589793, "float": Float(0.1),
    "yes": true, "no": false,
    "ascii": "plain", "latin": "Grüße aus Köln", "astral": "smile 😀, 𝄞 clef", "cjk": "東京",
    "escapes": "quote \" backslash \\ tab \t newline \n less < amp & greater >",
    "key with \"quotes\", <angles> & ümlauts": "value",
    "emptyString": "", "emptyArray": [Any](), "emptyDictionary": [String: Any](),
    "sharedStrings": [shared, shared, shared], "sharedArrays": [sharedArray, sharedArray],
    "nested": ["level1": ["level2": ["level3": [1, "two", 3.5, false]]]],
    "longArray": (0..<40).map { $0 * 1000 },
    "longString": String(repeating: "0123456789", count: 30),
]
let jsonSafe = everything
everything["date"] = Date(timeIntervalSinceReferenceDate: 700_000_000)
everything["data"] = Data((0..<64).map { UInt8($0 * 3 % 256) })

for (name, format) in [
    ("foundation-binary.plist", PropertyListSerialization.PropertyListFormat.binary),
    ("foundation-xml.plist", .xml),
] {
    let data = try PropertyListSerialization.data(fromPropertyList: everything, format: format, options: 0)
    try data.write(to: folder.appendingPathComponent(name))
}
var json = jsonSafe
json["uint64Max"] = nil  // JSONSerialization writes it, but reads it back as a Double
json["float"] = nil
let jsonData = try JSONSerialization.data(withJSONObject: json, options: [.prettyPrinted, .sortedKeys])
try jsonData.write(to: folder.appendingPathComponent("foundation.json"))

// Known-bad files for `amc lint`, made from a small good binary property list.
let small = try PropertyListSerialization.data(fromPropertyList: ["a": [1, 2], "b": "c"], format: .binary, options: 0)
try small.prefix(small.count - 10).write(to: folder.appendingPathComponent("bad/truncated.plist"))
var badOffset = small
badOffset[badOffset.count - 1] = 0xFF  // the offset table's offset points past the end
try badOffset.write(to: folder.appendingPathComponent("bad/bad-offset.plist"))
try Data("{\"name\": \"unterminated\n}".utf8).write(to: folder.appendingPathComponent("bad/unterminated.json"))
try Data([0x7B, 0x22, 0x61, 0x22, 0x3A, 0x22, 0xC3, 0x28, 0x22, 0x7D]).write(
    to: folder.appendingPathComponent("bad/invalid-utf8.json"))
print("wrote fixtures to \(folder.path)")
