import AMCExample
import AutoMagicCoding
import Foundation

// The `amc` command: argument handling and printing only.

let usages = [
    "demo": """
    amc demo [FOLDER]
      Archive the sample company to FOLDER/company.plist (default: a fresh temporary folder,
      removed afterwards), read it back, and check the copy equals the original field by field.
    """,
    "convert": """
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
    "extract": """
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
    "insert": """
    amc insert KEYPATH --type TYPE [VALUE] FILE [--append] [-o OUT] [-s] [--dates-and-data-as-text]
      Add VALUE at KEYPATH, like plutil -insert: a new key, or an element at an index of an
      array (its count adds at the end; --append adds to the array KEYPATH names). TYPE is
      bool (YES or true), integer, float, string, date (ISO 8601), data (base64), json or
      xml (a fragment, for containers), or dictionary or array (empty; no VALUE). Fails if
      the key has a value already. The file is replaced, atomically, in its own format
      (JSON indented if it was), unless -o writes to OUT (- for standard output).
      References ({"$ref": "#/…"}) to elements after an inserted one are rewritten, so each
      names the object it named.
    """,
    "replace": """
    amc replace KEYPATH --type TYPE [VALUE] FILE [-o OUT] [-s] [--dates-and-data-as-text]
      Put VALUE at KEYPATH in place of what is there (a missing key is added), like plutil
      -replace; TYPE, VALUE and the output as for insert.
    """,
    "remove": """
    amc remove KEYPATH FILE [-o OUT] [-s]
      Remove the value at KEYPATH, like plutil -remove; the output as for insert. Refused,
      listing them, when references name the value or a value inside it; references to later
      elements of an array are rewritten.
    """,
    "lint": """
    amc lint FILE...
      Check that each file is well-formed JSON or property list and that every reference in
      it names an object: prints FILE: OK, or the error with its line and column (or byte
      offset), or each reference that names no object with its key path. Exit status 1 if any
      file fails. FILE - is standard input.
    """,
    "check": """
    amc check FILE... [--unknown-keys]
      Read each file as the example model (Company, Person, Manager, Team, Office) leniently
      and list every problem: unknown classes, wrong types, bad references, newer versions
      and, with --unknown-keys, keys no property reads (with the nearest key). Prints FILE: OK
      or the problems with their key paths. Exit status 1 if any file has one.
    """,
    "print": """
    amc print FILE
      Print a file as a readable tree of class names, keys and values, like plutil -p.
      FILE - is standard input.
    """,
    "style": """
    amc style FILE --check
      Check a stylesheet (JSON or property list): its syntax, its "styles" and each
      "extends". Prints the named styles resolved, with what they extend merged in, or the
      error. Exit status 1 if the stylesheet is bad.
    """,
    "bench": """
    amc bench [--n N] [--models NAME,…] [--json] | amc bench --scale [--models NAME,…]
      | amc bench --hostile | amc bench --plutil [--n N]
      Time our JSON, XML and binary property-list writers and readers against Foundation's
      Codable encoders on several models of N records each (default 20000): company,
      notes, series (N/10 series of 100 samples), folders, forum, graph (people with
      friends anywhere in it), list (a doubly linked list); small times small documents
      per call (settings of 10 fields; a message with a shared contact) and the first call
      for a new type in a fresh process (--first-call-point amc|codable measures one);
      parse times string coding. --models picks some. Build with -c release for meaningful
      figures. --json prints one JSON object instead of a table. --scale times our JSON
      and binary write and read per record at 2000, 20000 and 200000 records (notes and
      folders unless --models says), with the memory each takes, in processes of their own
      (--scale-point MODEL N FORMAT write|read FILE measures one). --hostile times reading
      files made to be costly at 1, 4 and 16 MB, and measures the memory amc lint needs.
      --plutil times amc convert against plutil -convert, whole processes, on an XML
      property list of N records (default 60000, about 32 MB) made into a binary one.
    """,
]
let commandOrder = ["demo", "convert", "extract", "insert", "replace", "remove", "lint", "check", "print", "style", "bench"]
let usage =
    "usage:\n"
    + commandOrder.map { "  " + usages[$0]!.replacingOccurrences(of: "\n", with: "\n  ") }
    .joined(separator: "\n") + "\n  amc --help | amc COMMAND --help"

/// Prints `message` to standard error and exits with `status`.
func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
    exit(status)
}

/// A wrong argument: one line saying what, then the command's usage; exit status 2.
func usageError(_ command: String, _ message: String) -> Never {
    fail("amc \(command): \(message)\nusage: \(usages[command]!)", status: 2)
}

/// The bytes of `path`, or of standard input for `-`; nil when the file cannot be read.
func contents(of path: String) -> Data? {
    path == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try? Data(contentsOf: URL(fileURLWithPath: path))
}

/// Why the file at `path` cannot be read, for a message: no such file, a folder, no permission.
func whyUnreadable(_ path: String) -> String {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return "no such file" }
    if isFolder.boolValue { return "it is a folder" }
    return FileManager.default.isReadableFile(atPath: path) ? "reading failed" : "permission denied"
}

func demo(_ arguments: [String]) -> Never {
    guard arguments.count <= 1 else { usageError("demo", "too many arguments") }
    do {
        let report = try Demo.run(in: arguments.first.map { URL(fileURLWithPath: $0, isDirectory: true) })
        print(report.summary)
        exit(report.differences.isEmpty ? 0 : 1)
    } catch {
        fail("amc demo: \(error)", status: 1)
    }
}

/// Format names `amc` takes: its own, and `plutil`'s.
let formatNames: [String: AMCFormat] = [
    "json": .json, "xml": .xmlPropertyList, "binary": .binaryPropertyList,
    "xml1": .xmlPropertyList, "binary1": .binaryPropertyList,
]

/// The bytes of `path`, or of standard input for `-`.
func readInput(_ path: String, _ command: String) -> Data {
    guard let data = contents(of: path) else { fail("amc \(command): cannot read \(path): \(whyUnreadable(path))", status: 1) }
    return data
}

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

/// Prints `message` to standard error.
func report(_ message: String) {
    FileHandle.standardError.write(Data("\(message)\n".utf8))
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

/// The options of the commands that read one document: its path, and what is left.
struct DocumentArguments {
    var file: String?
    var output: String?
    var silent = false
    var noNewline = false
    var append = false
    var textForDatesAndData = false
    var expect: String?
    var type: String?
    /// The arguments that are not options, in order.
    var positional: [String] = []

    init(_ command: String, _ arguments: [String], options: Set<String>) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--":
                positional.append(contentsOf: rest)  // the rest are values and files, even those starting with -
                rest = []
            case "-o" where options.contains("-o"):
                guard let path = rest.popFirst() else { usageError(command, "-o needs a file name (- for standard output)") }
                output = path
            case "--expect" where options.contains("--expect"):
                guard let name = rest.popFirst() else { usageError(command, "--expect needs a type") }
                expect = name
            case "--type" where options.contains("--type"):
                guard let name = rest.popFirst() else { usageError(command, "--type needs a type") }
                type = name
            case "-s" where options.contains("-s"): silent = true
            case "-n" where options.contains("-n"): noNewline = true
            case "--append" where options.contains("--append"): append = true
            case "--dates-and-data-as-text" where options.contains("--dates-and-data-as-text"): textForDatesAndData = true
            case _ where argument.hasPrefix("-") && argument != "-" && !(argument.dropFirst().first?.isNumber ?? false):
                usageError(command, "unknown option '\(argument)'")
            default:
                positional.append(argument)
            }
        }
    }
}

/// The document at `path` (`-`: standard input), or the error and exit status 1.
func readDocument(_ path: String, _ command: String) -> AMCDocument {
    do {
        return try AMCDocument(data: readInput(path, command))
    } catch {
        fail("amc \(command): \(path == "-" ? "standard input" : path): \(explained(error))", status: 1)
    }
}

/// Writes `data` to `target` (`-`: standard output), atomically; says so unless `silent`.
func writeOutput(_ data: Data, to target: String, format: AMCFormat, silent: Bool) throws {
    if target == "-" {
        FileHandle.standardOutput.write(data)
    } else {
        try AMC.write(data: data, to: URL(fileURLWithPath: target))
        if !silent { print("wrote \(target) (\(format), \(data.count) bytes)") }
    }
}

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

/// `amc insert`, `amc replace` and `amc remove`.
func edit(_ command: String, _ arguments: [String]) -> Never {
    let removing = command == "remove"
    var options: Set<String> = ["-o", "-s"]
    if !removing { options.formUnion(["--type", "--dates-and-data-as-text"]) }
    if command == "insert" { options.insert("--append") }
    let parsed = DocumentArguments(command, arguments, options: options)
    let type = parsed.type
    let takesValue = !removing && type != "dictionary" && type != "array"
    if !removing, type == nil { usageError(command, "--type is required") }
    let types = AMCDocument.Value.textTypes + ["dictionary", "array"]
    if let type, !types.contains(type) { usageError(command, "unknown type '\(type)' (\(types.joined(separator: ", ")))") }
    if !takesValue, !removing, parsed.positional.count == 3 { usageError(command, "--type \(type ?? "") takes no value") }
    let needed = takesValue ? 3 : 2
    guard parsed.positional.count == needed else {
        usageError(
            command,
            parsed.positional.count < needed
                ? (takesValue ? "KEYPATH, a value and FILE are needed" : "KEYPATH and FILE are needed") : "one file at a time")
    }
    let keyPath = parsed.positional[0]
    let path = parsed.positional[needed - 1]
    var value: AMCDocument.Value?
    do {
        value =
            switch type {
            case nil: nil
            case "dictionary": .dictionary([:])
            case "array": .array([])
            case let type?: try AMCDocument.Value(type: type, text: parsed.positional[1])
            }
    } catch let error as AMCError {
        // Named where it was to go (and where in a json or xml fragment it went wrong).
        let place = error.keyPath.isEmpty ? keyPath : keyPath + (error.keyPath.hasPrefix("[") ? "" : ".") + error.keyPath
        fail("amc \(command): the value: \(AMCError(error.kind, keyPath: place))", status: 1)
    } catch {
        fail("amc \(command): the value: \(error)", status: 1)
    }
    var document = readDocument(path, command)
    do {
        switch (command, value) {
        case ("insert", let value?): try document.insert(value, atKeyPath: keyPath, appending: parsed.append)
        case (_, let value?): try document.replace(value, atKeyPath: keyPath)
        case (_, nil): try document.remove(atKeyPath: keyPath)
        }
        let data = try document.data(textForDatesAndData: parsed.textForDatesAndData)  // laid out as it was read
        try writeOutput(data, to: parsed.output ?? (path == "-" ? "-" : path), format: document.format, silent: parsed.silent)
        exit(0)
    } catch {
        fail("amc \(command): \(path == "-" ? "standard input" : path): \(explained(error))", status: 1)
    }
}

func lint(_ arguments: [String]) -> Never {
    guard !arguments.isEmpty else { usageError("lint", "no files") }
    if let option = arguments.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
        usageError("lint", "unknown option '\(option)'")
    }
    if arguments.filter({ $0 == "-" }).count > 1 { usageError("lint", "standard input (-) can be read once") }
    var failed = false
    for path in arguments {
        let name = path == "-" ? "<stdin>" : path
        guard let data = contents(of: path) else {
            print("\(path): cannot read the file: \(whyUnreadable(path))")
            failed = true
            continue
        }
        do {
            try AMC.lint(data)
            print("\(name): OK")
        } catch {
            print("\(name): \(error)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}

func check(_ arguments: [String]) -> Never {
    let files = arguments.filter { $0 != "--unknown-keys" }
    if let option = files.first(where: { $0.hasPrefix("-") }) { usageError("check", "unknown option '\(option)'") }
    guard !files.isEmpty else { usageError("check", "no files") }
    Company.registerModel()
    var failed = false
    for path in files {
        do {
            let report = try AMC.lenientObject(
                from: readInput(path, "check"), reportingUnknownKeys: arguments.contains("--unknown-keys"))
            guard !report.problems.isEmpty else {
                print("\(path): OK, a \(type(of: report.object).amcClassName)")
                continue
            }
            failed = true
            let count = report.problems.count
            print("\(path): \(count == 1 ? "1 problem" : "\(count) problems") in a \(type(of: report.object).amcClassName)")
            for problem in report.problems { print("  \(problem)") }
        } catch {
            failed = true
            print("\(path): \(error)")
        }
    }
    exit(failed ? 1 : 0)
}

func style(_ arguments: [String]) -> Never {
    let files = arguments.filter { $0 != "--check" }
    if let option = files.first(where: { $0.hasPrefix("-") }) { usageError("style", "unknown option '\(option)'") }
    guard arguments.contains("--check") else { usageError("style", "--check is required") }
    guard files.count == 1, let path = files.first else { usageError("style", files.isEmpty ? "no file" : "one file at a time") }
    do {
        let sheet = try AMCStylesheet(contentsOf: URL(fileURLWithPath: path))
        print("\(path): OK, \(sheet.entries.count) key-path entries, \(sheet.styles.count) named styles")
        if !sheet.styles.isEmpty { print(sheet.printedStyles) }
        exit(0)
    } catch {
        fail("amc style: \(error)", status: 1)
    }
}

func printTree(_ arguments: [String]) -> Never {
    guard arguments.count == 1, let path = arguments.first else {
        usageError("print", arguments.isEmpty ? "no file" : "one file at a time")
    }
    if path.hasPrefix("-"), path != "-" { usageError("print", "unknown option '\(path)'") }
    do {
        print(try AMC.printedTree(of: readInput(path, "print")), terminator: "")
        exit(0)
    } catch {
        fail("amc print: \(path): \(error)", status: 1)
    }
}

func bench(_ arguments: [String]) -> Never {
    var records = 20_000
    var json = false
    var hostile = false
    var scale = false
    var againstPlutil = false
    var models: Set<String>?
    if arguments.first == "--scale-point" { scalePoint(Array(arguments.dropFirst())) }
    if arguments.first == "--first-call-point" { firstCallPoint(Array(arguments.dropFirst())) }
    var rest = arguments[...]
    while let argument = rest.popFirst() {
        switch argument {
        case "--n":
            guard let value = rest.popFirst().flatMap(Int.init), value > 0 else {
                usageError("bench", "--n needs a positive number")
            }
            records = value
        case "--models":
            let names = Set((rest.popFirst() ?? "").split(separator: ",").map(String.init))
            guard !names.isEmpty, names.isSubset(of: Benchmark.modelNames) else {
                usageError("bench", "--models takes names from \(Benchmark.modelNames.joined(separator: ", "))")
            }
            models = names
        case "--json":
            json = true
        case "--hostile":
            hostile = true
        case "--scale":
            scale = true
        case "--plutil":
            againstPlutil = true
        default:
            usageError("bench", "unknown argument '\(argument)'")
        }
    }
    do {
        if hostile {
            guard arguments.count == 1 else { usageError("bench", "--hostile takes no other option") }
            print(try Benchmark.hostile(amc: Bundle.main.executablePath ?? CommandLine.arguments[0]))
            exit(0)
        }
        if againstPlutil {
            guard !json, !hostile, !scale, models == nil else { usageError("bench", "--plutil takes only --n") }
            guard let plutil = ConvertBenchmark.plutil else {
                fail("amc bench: no plutil on the PATH to compare with", status: 1)
            }
            let program = Bundle.main.executablePath ?? CommandLine.arguments[0]
            let count = arguments.contains("--n") ? records : ConvertBenchmark.defaultRecords
            print(try ConvertBenchmark.run(amc: program, plutil: plutil, records: count))
            exit(0)
        }
        if scale {
            let program = Bundle.main.executablePath ?? CommandLine.arguments[0]
            guard !json, records == 20_000, !arguments.contains("--n") else { usageError("bench", "--scale takes only --models") }
            let chosen = models.map { ScaleBenchmark.modelNames.filter($0.contains) } ?? ScaleBenchmark.defaultModels
            guard models.map({ $0.isSubset(of: ScaleBenchmark.modelNames) }) ?? true else {
                usageError("bench", "--scale measures \(ScaleBenchmark.modelNames.joined(separator: ", "))")
            }
            print(try ScaleBenchmark.run(amc: program, models: chosen))
            exit(0)
        }
        var report = try Benchmark.run(records: records, models: models)
        if models?.contains(Benchmark.smallName) ?? true {
            let program = Bundle.main.executablePath ?? CommandLine.arguments[0]
            report.rows += try FirstCallBenchmark.run(amc: program, processes: report.repetitions)
        }
        print(json ? report.json : report.table)
        exit(0)
    } catch {
        fail("amc bench: \(error)", status: 1)
    }
}

/// `amc bench --scale-point MODEL N json|binary write|read FILE`: one measurement of
/// `ScaleBenchmark`, printed as one line of JSON.
func scalePoint(_ arguments: [String]) -> Never {
    guard arguments.count == 5, let records = Int(arguments[1]), records > 0, ["json", "binary"].contains(arguments[2]),
        ["write", "read"].contains(arguments[3])
    else {
        usageError("bench", "--scale-point takes MODEL N json|binary write|read FILE")
    }
    do {
        let point = try ScaleBenchmark.point(
            model: arguments[0], records: records,
            format: arguments[2] == "json" ? .json : .binaryPropertyList,
            write: arguments[3] == "write", file: URL(fileURLWithPath: arguments[4]))
        print(point.json)
        exit(0)
    } catch {
        fail("amc bench: \(error)", status: 1)
    }
}

/// `amc bench --first-call-point amc|codable`: one measurement of `FirstCallBenchmark`, in a
/// process that has not archived anything yet: the microseconds of each of its steps.
func firstCallPoint(_ arguments: [String]) -> Never {
    guard arguments.count == 1, ["amc", "codable"].contains(arguments[0]) else {
        usageError("bench", "--first-call-point takes amc or codable")
    }
    do {
        print(try FirstCallBenchmark.point(side: arguments[0]).map { String(format: "%.1f", $0) }.joined(separator: " "))
        exit(0)
    } catch {
        fail("amc bench: \(error)", status: 1)
    }
}

var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(usage, status: 2) }
arguments.removeFirst()
if ["--help", "-h", "help"].contains(command) {
    print(usage)
    exit(0)
}
guard usages[command] != nil else { fail("amc: unknown command '\(command)'\n\(usage)", status: 2) }
if arguments.prefix(while: { $0 != "--" }).contains(where: { $0 == "--help" || $0 == "-h" }) {
    print("usage: \(usages[command]!)")
    exit(0)
}
switch command {
case "demo": demo(arguments)
case "convert": convert(arguments)
case "extract": extract(arguments)
case "insert", "replace", "remove": edit(command, arguments)
case "lint": lint(arguments)
case "check": check(arguments)
case "print": printTree(arguments)
case "style": style(arguments)
default: bench(arguments)
}
