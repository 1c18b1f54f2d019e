import AMCExample
import AutoMagicCoding
import Foundation

let benchCommand = Command(
    name: "bench",
    usage: """
        amc bench [--n N] [--models NAME,…] [--json] | amc bench --scale [--models NAME,…]
          | amc bench --hostile | amc bench --plutil [--n N]
          Time our JSON, XML and binary property-list writers and readers against Foundation's
          Codable encoders on several models of N records each (default 20000): company,
          notes, series (N/10 series of 100 samples), folders, forum, graph (people with
          friends anywhere in it), list (a doubly linked list); small times small documents
          per call (settings of 10 fields; a message with a shared contact) and the first call
          for a new type in a fresh process (--first-call-point amc|codable measures one);
          markup times AMCMarkup reading and building N/2 elements of pharmacy cells against
          XMLParser, and setting properties from strings against converting them; parse times
          string coding. --models picks some. Build with -c release for meaningful
          figures. --json prints one JSON object instead of a table. --scale times our JSON
          and binary write and read per record at 2000, 20000 and 200000 records (notes and
          folders unless --models says), with the memory each takes, in processes of their own
          (--scale-point MODEL N FORMAT write|read FILE measures one). --hostile times reading
          files made to be costly at 1, 4 and 16 MB, and measures the memory amc lint needs.
          --plutil times amc convert against plutil -convert, whole processes, on an XML
          property list of N records (default 60000, about 32 MB) made into a binary one.
        """,
    run: bench)

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
