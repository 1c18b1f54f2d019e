import Foundation
import Testing

@testable import AutoMagicCoding

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// How our readers and Foundation's (`JSONSerialization`, `PropertyListSerialization`) compare on
/// one document.
enum Agreement: String, CaseIterable {
    /// Both read it to equal values, or both refuse it.
    case agree
    // The differences FilesAndFormats.md lists under "What differs from Foundation, on purpose". Each is
    // recognised only in its own direction (we refuse and Foundation reads, the other way round,
    // or both read and the values differ) and, where both read, from the values that differ, so
    // that a difference nobody decided about is never filed under one of these.
    /// A key twice in one dictionary: we refuse; Foundation keeps one of the values.
    case repeatedKey
    /// `[1,]` or `{"a":1,}`: RFC 8259 has no trailing comma; we refuse, Foundation on Linux reads it.
    case trailingComma
    /// A number with more digits than a `Double` holds exactly (more than 15, and not an integer
    /// that fits 64 bits): we read the nearest `Double`, Foundation keeps every digit.
    case longNumber
    /// A raw carriage return in XML text: XML's line-end normalisation makes it `\n` when we read.
    case carriageReturnInXML
    /// A date before 1583: the same instant, named in Foundation's Julian calendar there.
    case dateBefore1583
    /// XML that is not well-formed (a malformed declaration, DOCTYPE or tag, `--` in a comment,
    /// text after the root): we refuse it, Foundation's property-list reader skips over much of
    /// it. Recognised by libxml2 (`XMLParser`) refusing it too, or by our reason naming one of
    /// those faults.
    case notWellFormedXML
    /// XML whose declaration names an encoding other than UTF-8 (or ASCII) and UTF-16: we refuse
    /// it, Foundation reads some of them.
    case otherEncoding
    /// A JSON document followed by NUL bytes: RFC 8259 allows only white space after the value;
    /// we refuse, Foundation stops reading at the first NUL.
    case nulAfterJSON
    /// `<!---->`, a well-formed empty comment: we read it, Foundation refuses it and reads the
    /// document without it to what we read.
    case emptyComment
    /// A DOCTYPE whose system id holds `<` or `>`, which XML allows (any character but the
    /// quote): we read it, Foundation refuses it.
    case markupInSystemID
    /// A character reference inside `<data>` (`&#13;`): we resolve it, as XML requires of all
    /// content, and skip the white space it names; Foundation takes its characters as base64.
    case characterReferenceInData
    /// An empty string stored as UTF-16 (`0x60`) in a binary property list: we read it,
    /// Foundation on Linux refuses the file (CoreFoundation writes an empty string as ASCII).
    case emptyUTF16String
    /// A string whose UTF-16 holds an unpaired surrogate, in a binary property list: we refuse
    /// it (no Unicode string holds one), Foundation reads U+FFFD in its place.
    case unpairedSurrogate
    /// A binary property list holding what the document vocabulary has no place for: a
    /// dictionary key that is not a string, or a UID (`NSKeyedArchiver`'s references). We refuse
    /// it, naming the object; Foundation reads it.
    case outsideVocabulary
    /// An integer in a binary property list wider than 64 bits: we read a 16-byte integer as its
    /// 128-bit value and refuse one outside 64 bits (or wider than 16 bytes); Foundation keeps the
    /// low 64 bits, so it reads all bits set as 18446744073709551615 where we read -1.
    case wideInteger
    /// A non-ASCII byte in a binary property list's ASCII string (`0x5_`): we refuse it,
    /// Foundation reads some character for it.
    case nonASCIIByte
    /// `bplist00` followed by less than a trailer: we refuse it as too short, Foundation reads it
    /// as an OpenStep text property list (a bare word is a string there). We read no OpenStep.
    case openStepText
    /// Text Foundation's XML reader refuses and ours reads, for hand-written files: white space
    /// around the number in an `<integer>` or `<real>`, fractional seconds or a time-zone offset
    /// in a `<date>` (ISO 8601 allows both).
    case lenientElementText
    /// An element whose text is not what the element says (minute 83 in a `<date>`, a letter in an
    /// `<integer>`, `=` inside `<data>`): we refuse it, Foundation reads something.
    case invalidElementText
    /// Anything else: a difference nobody has decided about.
    case undecided
}

/// One value that our reading and Foundation's hold differently.
private struct Mismatch {
    /// Where, as a key path; empty for the top.
    var path: String
    /// Ours; nil where the two differ in shape (an array's count, a dictionary's keys).
    var ours: ArchiveValue?
    var theirs: Any

    var description: String {
        let place = path.isEmpty ? "the top" : path
        return "\(place): \(ours.map(describe) ?? "a different shape") and \(describe(theirs))"
    }
}

/// Compares `ours`, our reading of `data`, with Foundation's, and when they differ, says which
/// documented difference it is.
func compareWithFoundation(_ data: Data, ours: Result<ArchiveValue, Error>) -> (Agreement, String) {
    let isJSON = AMCFormat(detecting: data) == .json
    let theirs = foundationReading(of: data, isJSON: isJSON)
    switch (ours, theirs) {
    case (.failure, .failure):
        return (.agree, "both refuse")
    case let (.success(value), .success(their)):
        var mismatches: [Mismatch] = []
        collectDifferences(value, their, path: "", into: &mismatches)
        guard let first = mismatches.first else { return (.agree, "equal") }
        let kinds = Set(mismatches.map { explain($0, in: data, isJSON: isJSON) })
        let agreement = kinds.count == 1 ? kinds.first! : .undecided
        return (agreement, "values differ at \(mismatches.count) places, first \(first.description)")
    case let (.failure(error), .success(their)):
        return (explainRefusal(error, of: data, isJSON: isJSON, theirs: their), "we refuse, Foundation reads: \(error)")
    case let (.success(value), .failure(error)):
        return (explainTheirRefusal(of: data, ours: value, isJSON: isJSON), "we read, Foundation refuses: \(error)")
    }
}

/// Foundation's reading of `data`, on a thread with room for deep documents: its readers recurse
/// without a limit.
private func foundationReading(of data: Data, isJSON: Bool) -> Result<Any, Error> {
    Result {
        try onThread(stackSize: 16 << 20) {
            isJSON
                ? try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
                : try PropertyListSerialization.propertyList(from: data, format: nil)
        }
    }
}

/// The documented difference that makes us refuse what Foundation reads, or `.undecided`.
private func explainRefusal(_ error: Error, of data: Data, isJSON: Bool, theirs: Any) -> Agreement {
    guard case let .malformedData(_, _, reason)? = (error as? AMCError)?.kind else { return .undecided }
    if reason.contains("appears twice in one dictionary") { return .repeatedKey }
    if AMCFormat(detecting: data) == .binaryPropertyList {
        switch reason {
        case "invalid UTF-16 (an unpaired surrogate)": return .unpairedSurrogate
        case "a dictionary key that is not a string", "UID objects (from NSKeyedArchiver) are not supported":
            return .outsideVocabulary
        case "a 128-bit integer that does not fit in 64 bits": return .wideInteger
        case "a non-ASCII byte in an ASCII string": return .nonASCIIByte
        default:
            if reason.hasPrefix("an integer of "), reason.hasSuffix(" bytes") { return .wideInteger }
            if reason.hasPrefix("too short for a binary property list"), theirs is String { return .openStepText }
            return .undecided
        }
    }
    if isJSON {
        if reason == "expected a value, found \"]\"" || reason == "expected a key string, found \"}\"" {
            return .trailingComma
        }
        return reason == "unexpected byte 0x00 after the document" ? .nulAfterJSON : .undecided
    }
    let elementText = [
        " is not an ISO 8601 date", " is not an integer", " does not fit in 64 bits", " is not a real number",
        "the <data> element is not base64",
    ]
    if elementText.contains(where: reason.hasSuffix) { return .invalidElementText }
    if reason.hasPrefix("the document is in "), reason.hasSuffix("convert it to UTF-8") { return .otherEncoding }
    let wellFormedness = ["XML declaration", "DOCTYPE", " tag", "inside a comment", "after the property list"]
    if wellFormedness.contains(where: reason.contains) || !XMLParser(data: data).parse() { return .notWellFormedXML }
    return .undecided
}

/// The documented difference that makes Foundation refuse what we read, or `.undecided`.
private func explainTheirRefusal(of data: Data, ours: ArchiveValue, isJSON: Bool) -> Agreement {
    guard !isJSON else { return .undecided }
    if AMCFormat(detecting: data) == .binaryPropertyList {
        return (try? BinaryPlistReader.markers(in: data))?.contains(0x60) == true ? .emptyUTF16String : .undecided
    }
    let text = String(decoding: data, as: UTF8.self)
    if text.contains("<!---->") {
        let without = Data(text.replacingOccurrences(of: "<!---->", with: "").utf8)
        var mismatches: [Mismatch] = []
        if case let .success(theirs) = foundationReading(of: without, isJSON: false) {
            collectDifferences(ours, theirs, path: "", into: &mismatches)
            if mismatches.isEmpty { return .emptyComment }
        }
    }
    if lenientElementText(in: text) { return .lenientElementText }
    if let doctype = text.range(of: "<!DOCTYPE") {
        let declaration = text[doctype.upperBound...].prefix { $0 != "\n" }
        if declaration.drop(while: { $0 != "\"" }).contains(where: { $0 == "<" || $0 == ">" }) { return .markupInSystemID }
    }
    return .undecided
}

/// The documented difference one value shows where both read the document, or `.undecided`.
private func explain(_ mismatch: Mismatch, in data: Data, isJSON: Bool) -> Agreement {
    switch (mismatch.ours, mismatch.theirs) {
    case let (.int(ours)?, theirs as NSNumber) where ours < 0 && theirs.stringValue == String(UInt64(bitPattern: ours)):
        // A negative 16-byte integer, which Foundation reads as its low 64 bits, unsigned.
        let markers = (try? BinaryPlistReader.markers(in: data)) ?? []
        return markers.contains(0x14) ? .wideInteger : .undecided
    case let (ours?, theirs as NSNumber):
        // A number of more than 15 digits in the document, and the two values apart only by the
        // rounding of those digits, not a misread.
        guard case let .double(value) = ours, longestNumber(in: data) > 15 else { return .undecided }
        let apart = (value - theirs.doubleValue).magnitude
        return apart <= max(value.magnitude, 1) * 1e-9 ? .longNumber : .undecided
    case let (.string(ours)?, theirs as String):
        return !isJSON && theirs.contains("\r") && normalisingLineEnds(theirs) == ours ? .carriageReturnInXML : .undecided
    case (.data?, is Data):
        let text = String(decoding: data, as: UTF8.self)
        return !isJSON && elementContents("data", in: text).contains { $0.contains("&#") }
            ? .characterReferenceInData : .undecided
    case let (.date(ours)?, theirs as Date):
        return ours.timeIntervalSinceReferenceDate < -13_197_600_000 && theirs != ours ? .dateBefore1583 : .undecided
    default:
        return .undecided
    }
}

/// Whether an `<integer>` or `<real>` of `text` has white space around its number, or a `<date>`
/// fractional seconds or a time-zone offset.
private func lenientElementText(in text: String) -> Bool {
    let numbers = elementContents("integer", in: text) + elementContents("real", in: text)
    let spaced = numbers.contains { $0.first?.isWhitespace == true || $0.last?.isWhitespace == true }
    let preciseDate = elementContents("date", in: text).contains { date in
        date.contains(".") || date.contains(",") || date.drop { $0 != "T" }.contains { $0 == "+" || $0 == "-" }
    }
    return spaced || preciseDate
}

/// The text of each `<element>…</element>` of `text`.
private func elementContents(_ element: String, in text: String) -> [Substring] {
    text.components(separatedBy: "<\(element)>").dropFirst().compactMap {
        $0.components(separatedBy: "</\(element)>").first?[...]
    }
}

/// The most digits in one number of the text (a run of digits and points).
private func longestNumber(in data: Data) -> Int {
    var longest = 0
    var digits = 0
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

/// `text` with XML's line-end normalisation: `\r\n` and a lone `\r` become `\n`.
private func normalisingLineEnds(_ text: String) -> String {
    text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
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

/// Every value where `ours` and `theirs` differ, appended to `mismatches`.
private func collectDifferences(_ ours: ArchiveValue, _ theirs: Any, path: String, into mismatches: inout [Mismatch]) {
    let same: Bool
    switch ours {
    case let .string(string):
        same = (theirs as? String) == string
    case .int, .uint, .double, .bool:
        same = (theirs as? NSNumber).map { sameNumber(ours, $0) } ?? false
    case let .longNumber(text):
        // Ours keeps the digits; Foundation's reader has a `Decimal` or the nearest double.
        same =
            (theirs as? NSNumber).map {
                $0.decimalValue == Decimal(string: text) || $0.doubleValue == DecimalText.double(text.utf8)
            }
            ?? false
    case let .date(date):
        let seconds = date.timeIntervalSinceReferenceDate
        same = (theirs as? Date).map { $0 == date || (seconds.isNaN && $0.timeIntervalSinceReferenceDate.isNaN) } ?? false
    case let .data(bytes):
        same = (theirs as? Data) == bytes
    case .null:
        same = theirs is NSNull
    case let .array(values):
        guard let array = theirs as? [Any], array.count == values.count else {
            return mismatches.append(Mismatch(path: path, ours: nil, theirs: theirs))
        }
        for (index, value) in values.enumerated() {
            collectDifferences(value, array[index], path: "\(path)[\(index)]", into: &mismatches)
        }
        return
    case let .dictionary(dictionary):
        guard let their = theirs as? [String: Any], their.count == dictionary.count else {
            return mismatches.append(Mismatch(path: path, ours: nil, theirs: theirs))
        }
        for entry in dictionary.entries {
            let key = path.isEmpty ? entry.key : "\(path).\(entry.key)"
            // A key Foundation holds with a raw carriage return is paired by its normalised form,
            // and the two keys are a mismatch of their own.
            let theirKey =
                their[entry.key] != nil
                ? entry.key
                : their.keys.first { $0.contains("\r") && normalisingLineEnds($0) == entry.key }
            guard let theirKey else { return mismatches.append(Mismatch(path: path, ours: nil, theirs: theirs)) }
            if theirKey != entry.key { mismatches.append(Mismatch(path: key, ours: .string(entry.key), theirs: theirKey)) }
            collectDifferences(entry.value, their[theirKey]!, path: key, into: &mismatches)
        }
        return
    case .foreign:
        same = false
    }
    if !same { mismatches.append(Mismatch(path: path, ours: ours, theirs: theirs)) }
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
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else {
                    continue
                }
                let data = try Data(contentsOf: url)
                guard AMCFormat(detecting: data) != nil else { continue }
                let ours = Result { try DocumentCodec.parse(data).value }
                guard Self.foundationCanRead(data, ours: ours) else { continue }
                files += 1
                let (agreement, detail) = compareWithFoundation(data, ours: ours)
                counts[agreement, default: 0] += 1
                if agreement == .undecided { Issue.record("\(url.path): \(detail.debugDescription)") }
            }
        }
        let summary: [String] = Agreement.allCases.compactMap { agreement in
            guard let count = counts[agreement] else { return nil }
            return "\(agreement.rawValue) \(count)"
        }
        print("compared \(files) files with Foundation: \(summary.joined(separator: ", "))")
        #expect(files > 20)
    }

    /// Whether Foundation's readers can be given `data`, which ours read as `ours`, without
    /// crashing this process: they recurse without a limit, so documents nested deeper than 500
    /// levels are left out (ours refuse those past `AMC.maximumDepth`: `HostileInputTests`,
    /// `DepthTests`).
    static func foundationCanRead(_ data: Data, ours: Result<ArchiveValue, Error>) -> Bool {
        // Foundation on Linux crashes on some binary plists holding a set (a `0xC_` object); ours
        // reads a set as an array (FilesAndFormats.md: "What differs from Foundation, on purpose"). A table ours
        // refuses is given to Foundation too.
        if AMCFormat(detecting: data) == .binaryPropertyList,
            let markers = try? BinaryPlistReader.markers(in: data), markers.contains(where: { $0 >> 4 == 0xC })
        {
            return false
        }
        switch ours {
        case let .success(value):
            return depth(of: value) < 500
        case let .failure(error):
            guard case let .malformedData(_, _, reason)? = (error as? AMCError)?.kind else { return true }
            return !reason.contains("levels deep")
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
