import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import AutoMagicCoding

/// How our readers and Foundation's (`JSONSerialization`, `PropertyListSerialization`) compare on
/// one document.
enum Agreement: String, CaseIterable {
    /// Both read it to equal values, or both refuse it.
    case agree
    // The differences README lists under "Where we differ from Foundation, on purpose"; each is
    // recognised from the document, so that an unlisted difference is never filed under one.
    /// A key twice in one dictionary: we refuse; Foundation keeps one of the values.
    case repeatedKey
    /// `[1,]` or `{"a":1,}`: RFC 8259 has no trailing comma; Foundation on Linux accepts one.
    case trailingComma
    /// A number with more digits than a `Double` holds exactly (more than 15, and not an integer
    /// that fits 64 bits): we read the nearest `Double`, Foundation keeps every digit.
    case longNumber
    /// A raw carriage return in XML text: XML's line-end normalisation makes it `\n`.
    case carriageReturnInXML
    /// A date before 1583: the same instant, named in Foundation's Julian calendar there.
    case dateBefore1583
    /// XML that is not well-formed (a malformed declaration, DOCTYPE or tag, `--` in a comment,
    /// text after the root): we refuse it, Foundation's property-list reader skips over much of
    /// it. Recognised by libxml2 (`XMLParser`) refusing it too, or by our reason naming one of
    /// those faults.
    case notWellFormedXML
    /// A JSON document followed by NUL bytes: RFC 8259 allows only white space after the value;
    /// Foundation stops reading at the first NUL.
    case nulAfterJSON
    /// `<!---->`, a well-formed empty comment: Foundation refuses it.
    case emptyComment
    /// A DOCTYPE whose system id holds `<` or `>`, which XML allows (any character but the
    /// quote): Foundation refuses it.
    case markupInSystemID
    /// An element whose text is not what the element says (minute 83 in a `<date>`, a letter in an
    /// `<integer>`, `=` inside `<data>`): we refuse it, Foundation reads something.
    case invalidElementText
    /// Anything else: a difference nobody has decided about.
    case undecided
}

/// Compares our reading of `data` with Foundation's, and when they differ, says which documented
/// difference it is.
func compareWithFoundation(_ data: Data) -> (Agreement, String) {
    let ours: Result<ArchiveValue, Error> = Result { try DocumentCodec.parse(data).value }
    let isJSON = AMCFormat(detecting: data) == .json
    // Foundation's readers recurse without a limit: on a thread with room for deep documents.
    let theirs: Result<Any, Error> = Result {
        try onThread(stackSize: 16 << 20) {
            isJSON ? try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                : try PropertyListSerialization.propertyList(from: data, format: nil)
        }
    }
    let difference: String
    switch (ours, theirs) {
    case (.failure, .failure):
        return (.agree, "both refuse")
    case let (.success(value), .success(their)):
        guard let mismatch = firstDifference(value, their, path: "") else { return (.agree, "equal") }
        difference = "values differ at \(mismatch)"
    case let (.failure(error), .success):
        difference = "we refuse, Foundation reads: \(error)"
    case let (.success, .failure(error)):
        difference = "we read, Foundation refuses: \(error)"
    }
    return (explain(data, isJSON: isJSON, ours: ours), difference)
}

/// The documented difference `data` shows, or `.undecided`.
private func explain(_ data: Data, isJSON: Bool, ours: Result<ArchiveValue, Error>) -> Agreement {
    if case let .failure(error as AMCError) = ours, case let .malformedData(_, _, reason) = error.kind {
        if reason.contains("appears twice in one dictionary") { return .repeatedKey }
        if !isJSON, [" is not an ISO 8601 date", " is not an integer that fits in 64 bits", " is not a real number",
                     "the <data> element is not base64"].contains(where: reason.hasSuffix) {
            return .invalidElementText
        }
        let wellFormedness = ["XML declaration", "DOCTYPE", " tag", "inside a comment", "after the property list"]
        if !isJSON, !XMLParser(data: data).parse() || wellFormedness.contains(where: reason.contains) { return .notWellFormedXML }
        if isJSON, reason == "expected a value, found \"]\"" || reason == "expected a key string, found \"}\"" {
            return .trailingComma
        }
        if isJSON, reason == "unexpected byte 0x00 after the document" { return .nulAfterJSON }
    }
    let text = String(decoding: data, as: UTF8.self)
    if longestNumber(in: data) > 15 { return .longNumber }
    if !isJSON, text.contains("<!---->") { return .emptyComment }
    if !isJSON, let doctype = text.range(of: "<!DOCTYPE") {
        let declaration = text[doctype.upperBound...].prefix { $0 != "\n" }
        if declaration.drop(while: { $0 != "\"" }).contains(where: { $0 == "<" || $0 == ">" }) { return .markupInSystemID }
    }
    if !isJSON, data.contains(0x0D) { return .carriageReturnInXML }
    if case let .success(value) = ours, hasDate(value, before: -13_197_600_000) { return .dateBefore1583 }
    return .undecided
}

/// The most digits in one number of the text (a run of digits and points).
private func longestNumber(in data: Data) -> Int {
    var longest = 0, digits = 0
    for byte in data {
        if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
            digits += 1
            longest = max(longest, digits)
        } else if byte != UInt8(ascii: ".") {
            digits = 0
        }
    }
    return longest
}

private func hasDate(_ value: ArchiveValue, before seconds: Double) -> Bool {
    switch value {
    case let .date(date): return date.timeIntervalSinceReferenceDate < seconds
    case let .array(values): return values.contains { hasDate($0, before: seconds) }
    case let .dictionary(dictionary): return dictionary.entries.contains { hasDate($0.value, before: seconds) }
    default: return false
    }
}

/// Whether our number equals Foundation's: compared as text, or as `Double` when Foundation holds
/// a floating-point number (NSNumber's integer accessors trap on values they cannot hold).
private func sameNumber(_ ours: ArchiveValue, _ number: NSNumber) -> Bool {
    let isFloat = ["d", "f"].contains(String(cString: number.objCType))
    switch ours {
    case let .int(value):
        return isFloat ? number.doubleValue == Double(value) : number.stringValue == String(value)
    case let .uint(value):
        return isFloat ? number.doubleValue == Double(value) : number.stringValue == String(value)
    case let .double(value):
        return number.doubleValue == value || (value.isNaN && number.doubleValue.isNaN)
    case let .bool(value):
        return number.doubleValue == (value ? 1.0 : 0.0)
    default:
        return false
    }
}

/// Where `ours` and `theirs` first differ, as a key path and the two values; nil when equal.
private func firstDifference(_ ours: ArchiveValue, _ theirs: Any, path: String) -> String? {
    let place = path.isEmpty ? "the top" : path
    let same: Bool
    switch ours {
    case let .string(string):
        same = (theirs as? String) == string
    case .int, .uint, .double, .bool:
        same = (theirs as? NSNumber).map { sameNumber(ours, $0) } ?? false
    case let .date(date):
        same = (theirs as? Date) == date
    case let .data(bytes):
        same = (theirs as? Data) == bytes
    case .null:
        same = theirs is NSNull
    case let .array(values):
        guard let array = theirs as? [Any], array.count == values.count else {
            return "\(place): an array of \(values.count) and \(type(of: theirs))"
        }
        for (index, value) in values.enumerated() {
            if let difference = firstDifference(value, array[index], path: "\(path)[\(index)]") { return difference }
        }
        return nil
    case let .dictionary(dictionary):
        guard let their = theirs as? [String: Any], their.count == dictionary.count else {
            return "\(place): a dictionary of \(dictionary.count) and \(type(of: theirs))"
        }
        for entry in dictionary.entries {
            guard let value = their[entry.key] else { return "\(place): no \(entry.key.debugDescription) in Foundation's" }
            let key = path.isEmpty ? entry.key : "\(path).\(entry.key)"
            if let difference = firstDifference(entry.value, value, path: key) { return difference }
        }
        return nil
    case .foreign:
        same = false
    }
    return same ? nil : "\(place): \(describe(ours)) and \(describe(theirs))"
}

/// A value for a message; a date as its seconds from 2001 (Foundation's `Date.description`
/// traps on dates far from now).
private func describe(_ value: Any) -> String {
    if let date = value as? Date { return "date \(date.timeIntervalSinceReferenceDate)" }
    if case let .date(date)? = value as? ArchiveValue { return "date \(date.timeIntervalSinceReferenceDate)" }
    return "\(value)"
}

@Suite("Our readers and Foundation's, file by file")
struct DifferentialTests {
    /// The folders compared: the fuzzing seeds and the fixtures, and those named in
    /// `AMC_DIFFERENTIAL_DIRS` (colon-separated: a long campaign's corpus, `Fuzz/.build/corpus/…`).
    static var folders: [URL] {
        let root = FixtureFiles.folder.deletingLastPathComponent()
        var folders = ["FuzzJSON", "FuzzXML", "FuzzBinary", "FuzzConfig", "FuzzStyles", "FuzzObjects"].map {
            root.appendingPathComponent("Fuzz/Corpus/\($0)")
        }
        folders += [FixtureFiles.folder, FixtureFiles.folder.appendingPathComponent("fuzz")]
        let extra = ProcessInfo.processInfo.environment["AMC_DIFFERENTIAL_DIRS"] ?? ""
        folders += extra.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        return folders
    }

    @Test func everyDifferenceFromFoundationIsOneReadmeNames() throws {
        var counts: [Agreement: Int] = [:]
        var files = 0
        for folder in Self.folders {
            let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            for name in names {
                let url = folder.appendingPathComponent(name)
                var isFolder: ObjCBool = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
                let data = try Data(contentsOf: url)
                guard AMCFormat(detecting: data) != nil, Self.foundationCanRead(data) else { continue }
                files += 1
                let (agreement, detail) = compareWithFoundation(data)
                counts[agreement, default: 0] += 1
                if agreement == .undecided { Issue.record("\(url.path): \(detail)") }
            }
        }
        let summary: [String] = Agreement.allCases.compactMap { agreement in
            guard let count = counts[agreement] else { return nil }
            return "\(agreement.rawValue) \(count)"
        }
        print("compared \(files) files with Foundation: \(summary.joined(separator: ", "))")
        #expect(files > 20)
    }

    /// Whether Foundation's readers can be given `data` without crashing this process: they
    /// recurse without a limit, so documents nested deeper than 500 levels are left out (ours refuse
    /// those past `AMC.maximumDepth`: `HostileInputTests`, `DepthTests`).
    static func foundationCanRead(_ data: Data) -> Bool {
        // Foundation on Linux crashes on some binary plists holding a set (a `0xC` object); ours
        // reads a set as an array (README: "Where we differ from Foundation").
        if AMCFormat(detecting: data) == .binaryPropertyList, holdsSet(data) { return false }
        do {
            return depth(of: try DocumentCodec.parse(data).value) < 500
        } catch let error as AMCError {
            guard case let .malformedData(_, _, reason) = error.kind else { return true }
            return !reason.contains("levels deep")
        } catch {
            return true
        }
    }

    /// Whether a binary property list's object table has a set in it; false when the trailer or
    /// table is malformed (then ours refuses the file, and Foundation can be asked too).
    private static func holdsSet(_ data: Data) -> Bool {
        let bytes = [UInt8](data)
        guard bytes.count >= 40 else { return false }
        let trailer = bytes.count - 32
        func number(_ start: Int, _ width: Int) -> Int {
            bytes[start..<(start + width)].reduce(0) { $0 << 8 | Int($1) }
        }
        let offsetSize = Int(bytes[trailer + 6])
        guard (1...8).contains(offsetSize), bytes[trailer + 8..<trailer + 11].allSatisfy({ $0 == 0 }),
              bytes[trailer + 24..<trailer + 27].allSatisfy({ $0 == 0 }) else { return false }
        let count = number(trailer + 8, 8), table = number(trailer + 24, 8)
        guard count <= (trailer - min(table, trailer)) / offsetSize else { return false }
        return (0..<count).contains { index in
            let offset = number(table + index * offsetSize, offsetSize)
            return (0..<bytes.count).contains(offset) && bytes[offset] >> 4 == 0xC
        }
    }

    private static func depth(of value: ArchiveValue) -> Int {
        switch value {
        case let .array(values): 1 + (values.map(depth).max() ?? 0)
        case let .dictionary(dictionary): 1 + (dictionary.entries.map { depth(of: $0.value) }.max() ?? 0)
        default: 0
        }
    }
}
