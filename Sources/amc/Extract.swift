import AutoMagicCoding
import Foundation

let extractCommand = Command(
    name: "extract",
    usage: """
        amc extract KEYPATH json|xml|binary|raw FILE [--expect TYPE] [-o OUT] [-n]
          [--dates-and-data-as-text]
          Print the value at KEYPATH (keys joined by dots; a number picks an array's element) as
          a document of its own, or raw, like plutil -extract: a string as it is, a number, true
          or false, a date in ISO 8601, data in base64, a dictionary's keys one per line, an
          array's count. --expect TYPE (bool, integer, float, string, date, data, dictionary,
          array) fails unless the value is of that type. A reference ({"$ref": "#/…"}) stands for
          the object it names, on the way and at the end (its own key $ref aside). -o writes to
          OUT instead of standard output; -n leaves out the newline after a raw value. FILE - is
          standard input.
        """,
    run: extract)

func extract(_ arguments: [String]) -> Never {
    let parsed = DocumentArguments(
        "extract", arguments, options: ["-o", "--expect", "-n", "-s", "--dates-and-data-as-text"])
    guard parsed.positional.count == 3 else {
        usageError("extract", parsed.positional.count < 3 ? "KEYPATH, a format and FILE are needed" : "one file at a time")
    }
    let (keyPath, formatName, path) = (parsed.positional[0], parsed.positional[1], parsed.positional[2])
    guard formatName == "raw" || formatNames[formatName] != nil else {
        usageError("extract", "unknown format '\(formatName)' (json, xml, binary or raw; plutil's xml1 and binary1)")
    }
    let types = AMCDocument.Value.typeNames
    if let expect = parsed.expect, !types.contains(expect) {
        usageError("extract", "unknown type '\(expect)' (\(types.joined(separator: ", ")))")
    }
    let document = readDocument(path, "extract")
    do {
        let raw = try document.rawText(atKeyPath: keyPath, ofType: parsed.expect)  // the path and the type checked
        let output: Data
        if let format = formatNames[formatName] {
            output = try document.extract(
                keyPath, as: format, options: format == .json ? .compact : .readable,
                textForDatesAndData: parsed.textForDatesAndData)
        } else {
            output = Data((raw + (parsed.noNewline ? "" : "\n")).utf8)
        }
        try writeOutput(output, to: parsed.output ?? "-", format: formatNames[formatName] ?? .json, silent: true)
        exit(0)
    } catch {
        fail("amc extract: \(path == "-" ? "standard input" : path): \(explained(error))", status: 1)
    }
}
