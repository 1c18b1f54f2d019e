import AutoMagicCoding
import Foundation

let convertCommand = Command(
    name: "convert",
    usage: """
        amc convert FILE... --to json|xml|binary [-o OUT | -e EXT] [-r] [-s] [--dates-and-data-as-text]
          Convert JSON, XML or binary property-list files, like plutil -convert (which names the
          formats json, xml1 and binary1: amc takes those too). Each file is replaced by its
          conversion, atomically, unless -o writes one file's to OUT or -e writes each next to
          its file with the extension EXT. FILE or OUT - is standard input or output (standard
          input converts to standard output unless -o says otherwise). JSON is compact unless -r
          (readable: indented, keys sorted). JSON has no dates and no data: a file holding them is
          refused, naming the key path, unless --dates-and-data-as-text writes them as ISO 8601
          strings and base64. A file that fails is reported and the others are still converted
          (exit status 1). -s: print nothing on success.
        """,
    run: convert)

func convert(_ arguments: [String]) -> Never {
    var inputs: [String] = []
    var output: String?
    var pathExtension: String?
    var format: AMCFormat?
    var readable = false
    var silent = false
    var textForDatesAndData = false
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--to":
            guard let name = rest.popFirst() else { usageError("convert", "--to needs json, xml or binary") }
            guard let named = formatNames[name] else {
                usageError("convert", "unknown format '\(name)' (json, xml or binary; plutil's xml1 and binary1)")
            }
            format = named
        case "-o":
            guard let path = rest.popFirst() else { usageError("convert", "-o needs a file name (- for standard output)") }
            output = path
        case "-e":
            guard let name = rest.popFirst(), !name.isEmpty, !name.hasPrefix("-") else {
                usageError("convert", "-e needs an extension")
            }
            pathExtension = name
        case "-r": readable = true
        case "-s": silent = true
        case "--dates-and-data-as-text": textForDatesAndData = true
        case _ where argument.hasPrefix("-") && argument != "-":
            usageError("convert", "unknown option '\(argument)'")
        default:
            inputs.append(argument)
        }
    }
    guard !inputs.isEmpty else { usageError("convert", "no input file") }
    guard let format else { usageError("convert", "--to is required") }
    if output != nil, pathExtension != nil { usageError("convert", "-o and -e cannot be used together") }
    if output != nil, inputs.count > 1 { usageError("convert", "-o takes one input file") }
    if inputs.filter({ $0 == "-" }).count > 1 || (inputs.contains("-") && inputs.count > 1) {
        usageError("convert", "standard input (-) is converted alone")
    }
    let options = readable || format != .json ? AMCWriteOptions.readable : .compact
    var failed = false
    for input in inputs {
        // Where it goes: -o, next to the input with -e, standard output for standard input, else in place.
        let target = output ?? (input == "-" ? "-" : pathExtension.map { extensionPath(input, $0) } ?? input)
        do {
            guard let data = contents(of: input) else {
                report("amc convert: cannot read \(input): \(whyUnreadable(input))")
                failed = true
                continue
            }
            let converted = try AMC.convert(data, to: format, options: options, textForDatesAndData: textForDatesAndData)
            if target == "-" {
                FileHandle.standardOutput.write(converted)
            } else {
                try AMC.write(data: converted, to: URL(fileURLWithPath: target))
                if !silent { print("wrote \(target) (\(format), \(converted.count) bytes)") }
            }
        } catch {
            // The other files are still converted, as plutil does; the exit status says one failed.
            report("amc convert: \(input == "-" ? "standard input" : input): \(explained(error))")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}

/// `error`'s description, with the option that lets JSON take dates and data where it refused them.
func explained(_ error: Error) -> String {
    if let error = error as? AMCError, case let .unsupportedType(typeName, _) = error.kind,
        typeName == "date" || typeName == "data"
    {
        return "\(error) (amc: --dates-and-data-as-text)"
    }
    return "\(error)"
}

/// `path` with its extension replaced by `pathExtension`, as plutil's `-e` names its output.
func extensionPath(_ path: String, _ pathExtension: String) -> String {
    (path as NSString).deletingPathExtension + "." + pathExtension
}
