import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("The amc tool, end to end")
struct CommandLineTests {
    /// As plutil: in place by default (atomically), `-o` elsewhere, `-e` beside the input with
    /// another extension, `-` for standard input and output, plutil's format names too.
    @Test func convertReplacesTheFileOrWritesWhereToldAndFoundationAgrees() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let input = folder.file("fixture.plist")
        try FileManager.default.copyItem(at: FixtureFiles.url("foundation-binary.plist"), to: input)
        let original = Canonical.text(try foundationValue(try Data(contentsOf: input), json: false))

        let (status, output, _) = try AMCBinary.run(["convert", input.path, "--to", "xml", "-o", folder.file("out.plist").path])
        #expect(status == 0)
        #expect(output.hasPrefix("wrote \(folder.file("out.plist").path) (XML property list, "))
        #expect(Canonical.text(try foundationValue(try Data(contentsOf: folder.file("out.plist")), json: false)) == original)

        // In place, with plutil's name for the format; nothing else is written.
        let (inPlace, _, _) = try AMCBinary.run(["convert", input.path, "--to", "xml1", "-s"], in: folder.url)
        #expect(inPlace == 0)
        #expect(try AMC.lint(try Data(contentsOf: input)) == .xmlPropertyList)
        #expect(Canonical.text(try foundationValue(try Data(contentsOf: input), json: false)) == original)
        #expect(folder.contents == ["fixture.plist", "out.plist"])

        // JSON has no dates: refused with the key path, then written as text when asked for.
        let (refused, _, refusal) = try AMCBinary.run(["convert", input.path, "--to", "json", "-e", "json"])
        #expect(refused == 1)
        // (The first of them in the file: its keys are sorted now.)
        #expect(
            refusal.hasPrefix("amc convert: \(input.path): At \"data\": cannot archive a value of type data: JSON has no data"))
        #expect(folder.contents == ["fixture.plist", "out.plist"])
        let (asked, _, _) = try AMCBinary.run(["convert", input.path, "--to", "json", "-e", "json", "--dates-and-data-as-text"])
        #expect(asked == 0)
        let json = try #require(
            try foundationValue(try Data(contentsOf: folder.file("fixture.json")), json: true) as? [String: Any])
        #expect(json["latin"] as? String == "Grüße aus Köln")
        #expect(json["date"] is String)

        // Standard input to standard output, in binary1: what the library makes of the same bytes.
        let jsonFile = try Data(contentsOf: folder.file("fixture.json"))
        let (piped, bytes, _) = try AMCBinary.runForData(["convert", "-", "--to", "binary1"], input: jsonFile)
        #expect(piped == 0)
        #expect(bytes == (try AMC.convert(jsonFile, to: .binaryPropertyList)))
        let (toOut, printed, _) = try AMCBinary.run([
            "convert", folder.file("fixture.json").path, "--to", "json", "-r", "-o", "-",
        ])
        #expect(toOut == 0)
        #expect(printed == String(decoding: try AMC.convert(jsonFile, to: .json, options: .readable), as: UTF8.self))
        #expect(folder.contents == ["fixture.json", "fixture.plist", "out.plist"])

        // Several files: one that fails is reported, the others are still converted.
        let (some, _, why) = try AMCBinary.run([
            "convert", input.path, folder.file("fixture.json").path, "--to", "json", "-e", "out",
        ])
        #expect(some == 1)
        #expect(why.contains("\(input.path): At \"data\"") && why.hasSuffix("(amc: --dates-and-data-as-text)\n"))
        #expect(folder.contents == ["fixture.json", "fixture.out", "fixture.plist", "out.plist"])
    }

    /// The same files converted by Foundation's `plutil` (in the toolchain) and by `amc` are the
    /// same documents, in every direction plutil converts; both refuse property lists with dates
    /// or data as JSON.
    @Test(.enabled(if: ConvertBenchmark.plutil != nil, "the toolchain has no plutil to compare with"))
    func plutilAndAmcConvertToTheSameDocuments() throws {
        let plutil = try #require(ConvertBenchmark.plutil)
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let inputs = ["foundation.json", "foundation-xml.plist", "foundation-binary.plist", "handwritten.plist", "graph.json"]
        var refused: [String] = []
        for name in inputs {
            for format in ["json", "xml1", "binary1"] {
                let source = FixtureFiles.url(name)
                let theirs = folder.file("plutil-\(format)-\(name)")
                let ours = folder.file("amc-\(format)-\(name)")
                let run = Process()
                run.executableURL = URL(fileURLWithPath: plutil)
                run.arguments = ["-convert", format, "-o", theirs.path, source.path]
                run.standardError = Pipe()
                try run.run()
                run.waitUntilExit()
                let (status, _, error) = try AMCBinary.run(["convert", source.path, "--to", format, "-o", ours.path])
                #expect((status == 0) == (run.terminationStatus == 0), "\(name) to \(format): \(error)")
                guard status == 0, run.terminationStatus == 0 else {
                    refused.append("\(name) to \(format)")
                    continue
                }
                let json = format == "json"
                var ourDocument = try foundationValue(try Data(contentsOf: ours), json: json)
                var theirDocument = try foundationValue(try Data(contentsOf: theirs), json: json)
                if var mine = ourDocument as? [String: Any], var plutils = theirDocument as? [String: Any] {
                    if name == "foundation.json" {
                        // Foundation's JSON parser reads -9223372036854775808 as a Double; amc keeps the integer.
                        #expect(Canonical.text(mine.removeValue(forKey: "int64Min") ?? 0) == "int(-9223372036854775808)")
                        #expect(plutils.removeValue(forKey: "int64Min") as? Double == -9.223372036854776e18)
                    }
                    if name == "foundation-binary.plist" {
                        // The binary fixture's -0.0: plutil drops its sign; amc keeps it.
                        #expect((mine.removeValue(forKey: "minusZero") as? Double)?.sign == .minus)
                        #expect((plutils.removeValue(forKey: "minusZero") as? Double)?.isZero == true)
                    }
                    (ourDocument, theirDocument) = (mine, plutils)
                }
                #expect(Canonical.text(ourDocument) == Canonical.text(theirDocument), "\(name) to \(format)")
            }
        }
        #expect(refused == ["foundation-xml.plist to json", "foundation-binary.plist to json", "handwritten.plist to json"])
    }

    /// Edits replace the file in its own format (JSON keeps its layout), or go where `-o` says;
    /// a failed edit leaves the file as it was.
    @Test func editsReplaceTheFileInItsFormatOrGoWhereTold() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let json = folder.file("settings.json")
        try Data("{\n  \"name\": \"x\",\n  \"sizes\": [1, 2]\n}\n".utf8).write(to: json)
        let (inserted, said, _) = try AMCBinary.run(["insert", "sizes", "--type", "integer", "3", json.path, "--append"])
        #expect(inserted == 0)
        #expect(said.hasPrefix("wrote \(json.path) (JSON, "))
        #expect(
            String(decoding: try Data(contentsOf: json), as: UTF8.self)
                == "{\n  \"name\": \"x\",\n  \"sizes\": [\n    1,\n    2,\n    3\n  ]\n}\n")

        let before = try Data(contentsOf: json)
        let (failed, _, error) = try AMCBinary.run(["insert", "name", "--type", "string", "y", json.path])
        #expect(failed == 1)
        #expect(
            error == "amc insert: \(json.path): At \"name\": a value is here already: insert adds one, replace changes one.\n")
        #expect(try Data(contentsOf: json) == before)

        let binary = folder.file("settings.plist")
        try AMC.write(data: try AMC.convert(before, to: .binaryPropertyList), to: binary)
        #expect(try AMCBinary.run(["replace", "name", "--type", "date", "2024-05-17T09:30:00Z", binary.path, "-s"]).0 == 0)
        #expect(try AMCBinary.run(["remove", "sizes.0", binary.path, "-s"]).0 == 0)
        let document = try #require(try foundationValue(try Data(contentsOf: binary), json: false) as? [String: Any])
        #expect(try AMC.lint(try Data(contentsOf: binary)) == .binaryPropertyList)
        #expect(document["name"] as? Date == ISODate.date(from: "2024-05-17T09:30:00Z"))
        #expect(document["sizes"] as? [Int] == [2, 3])

        // A compact JSON file stays compact, with its final line break; a value starting with a
        // dash comes after `--`.
        let compact = folder.file("compact.json")
        try Data("{\"a\":1}\n".utf8).write(to: compact)
        #expect(try AMCBinary.run(["insert", "b", "--type", "string", "-s", compact.path, "--", "-o"]).0 == 1)
        #expect(try AMCBinary.run(["insert", "b", "--type", "string", "-s", "--", "-o", compact.path]).0 == 0)
        #expect(String(decoding: try Data(contentsOf: compact), as: UTF8.self) == "{\"a\":1,\"b\":\"-o\"}\n")
        try FileManager.default.removeItem(at: compact)

        // Through a symbolic link, the file it leads to is edited and the link stays.
        try FileManager.default.createSymbolicLink(atPath: folder.file("link.plist").path, withDestinationPath: "settings.plist")
        #expect(try AMCBinary.run(["insert", "viaLink", "--type", "bool", "YES", folder.file("link.plist").path, "-s"]).0 == 0)
        #expect((try foundationValue(try Data(contentsOf: binary), json: false) as? [String: Any])?["viaLink"] as? Bool == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.plist").path) == "settings.plist")
        try FileManager.default.removeItem(at: folder.file("link.plist"))

        // From standard input to standard output, and extracted from there.
        let (piped, bytes, _) = try AMCBinary.runForData(["remove", "name", "-"], input: try Data(contentsOf: binary))
        #expect(piped == 0)
        let (extracted, raw, _) = try AMCBinary.run(["extract", "sizes", "json", "-"], input: bytes)
        #expect(extracted == 0)
        #expect(raw == "[2,3]")
        #expect(folder.contents == ["settings.json", "settings.plist"])
    }

    /// The same edits made by plutil and by amc give the same documents; extracting gives the
    /// same values.
    @Test(.enabled(if: ConvertBenchmark.plutil != nil, "the toolchain has no plutil to compare with"))
    func plutilAndAmcEditAlike() throws {
        let plutil = try #require(ConvertBenchmark.plutil)
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let edits: [(amc: [String], plutil: [String])] = [
            (["insert", "list.1", "--type", "integer", "5"], ["-insert", "list.1", "-integer", "5"]),
            (["insert", "list", "--type", "string", "end", "--append"], ["-insert", "list", "-string", "end", "-append"]),
            (
                ["insert", "extra", "--type", "json", #"{"k": [1, 2.5, "x"]}"#],
                ["-insert", "extra", "-json", #"{"k": [1, 2.5, "x"]}"#]
            ),
            (["replace", "number", "--type", "bool", "YES"], ["-replace", "number", "-bool", "YES"]),
            (["replace", "real", "--type", "float", "0.25"], ["-replace", "real", "-float", "0.25"]),
            (["insert", "blob", "--type", "data", "AAEC"], ["-insert", "blob", "-data", "AAEC"]),
            (["remove", "list.4"], ["-remove", "list.4"]),
            (["insert", "empty2", "--type", "dictionary"], ["-insert", "empty2", "-dictionary"]),
        ]
        for (index, edit) in edits.enumerated() {
            let ours = folder.file("amc-\(index).plist")
            let theirs = folder.file("plutil-\(index).plist")
            try FileManager.default.copyItem(at: FixtureFiles.url("handwritten.plist"), to: ours)
            try FileManager.default.copyItem(at: FixtureFiles.url("handwritten.plist"), to: theirs)
            let run = Process()
            run.executableURL = URL(fileURLWithPath: plutil)
            run.arguments = edit.plutil + [theirs.path]
            try run.run()
            run.waitUntilExit()
            let (status, _, error) = try AMCBinary.run(edit.amc + [ours.path, "-s"])
            #expect(status == 0 && run.terminationStatus == 0, "\(edit.amc): \(error)")
            #expect(
                Canonical.text(try foundationValue(try Data(contentsOf: ours), json: false))
                    == Canonical.text(try foundationValue(try Data(contentsOf: theirs), json: false)),
                "\(edit.amc)")
        }
        for keyPath in ["list", "list.2", "list.3", "number", "references", "list.0"] {
            let run = Process()
            run.executableURL = URL(fileURLWithPath: plutil)
            run.arguments = ["-extract", keyPath, "raw", "-o", "-", FixtureFiles.url("handwritten.plist").path]
            let output = Pipe()
            run.standardOutput = output
            try run.run()
            let theirs = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            run.waitUntilExit()
            let (_, ours, _) = try AMCBinary.run(["extract", keyPath, "raw", FixtureFiles.url("handwritten.plist").path])
            #expect(ours == theirs, "\(keyPath)")
        }
    }

    /// `amc bench --plutil` times both tools on the same file and checks they wrote the same document.
    @Test(.enabled(if: ConvertBenchmark.plutil != nil, "the toolchain has no plutil to compare with"))
    func benchAgainstPlutilReportsBothAndTheRatios() throws {
        let (status, output, error) = try AMCBinary.run(["bench", "--plutil", "--n", "300"])
        #expect(status == 0, "\(error)")
        let lines = output.split(separator: "\n")
        #expect(lines.first?.hasPrefix("300 records, an XML property list of ") == true)
        #expect(lines.contains { $0.hasPrefix("plutil -convert binary1") })
        #expect(lines.contains { $0.hasPrefix("amc convert --to binary") })
        #expect(lines.last?.hasPrefix("amc ÷ plutil: time ") == true)
    }

    @Test func printAndLintReadStandardInput() throws {
        let data = try FixtureFiles.data("foundation.json")
        let (status, printed, _) = try AMCBinary.run(["print", "-"], input: data)
        #expect(status == 0)
        #expect(printed == (try Snapshot.output(of: "print-json-fixture")))
        let (lintStatus, lint, _) = try AMCBinary.run(["lint", "-"], input: Data("{\"a\": [1, 2,]}".utf8))
        #expect(lintStatus == 1)
        #expect(lint.hasPrefix("<stdin>: Malformed JSON at line 1, column 13"))
    }

    @Test func insertAndRemoveKeepReferencesNamingTheSameObject() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = try folder.write(
            "team.json", ##"{"team": [{"name": "Ada"}, {"name": "Bo"}], "captain": {"$ref": "#/team/1"}}"##)
        let (status, output, _) = try AMCBinary.run([
            "insert", "team.0", "--type", "json", #"{"name":"Cy"}"#, file.path, "-o", "-",
        ])
        #expect(status == 0)
        #expect(output == ##"{"team":[{"name":"Cy"},{"name":"Ada"},{"name":"Bo"}],"captain":{"$ref":"#/team/2"}}"##)
        let (refusedStatus, refusedOutput, refusedError) = try AMCBinary.run(["remove", "team.1", file.path])
        #expect(refusedStatus == 1 && refusedOutput.isEmpty)
        #expect(
            refusedError
                == "amc remove: \(file.path): At \"team[1]\": a reference names this value or one inside it (\"captain\"): "
                + "change or remove it first.\n")
        let (extractStatus, extracted, _) = try AMCBinary.run(["extract", "captain.name", "raw", file.path])
        #expect(extractStatus == 0 && extracted == "Bo\n")
    }

    @Test func lintListsEachReferenceThatNamesNoObject() throws {
        let edited = Data(##"{"items": [{"label": "a"}], "first": {"$ref": "#/items/0"}, "gone": {"$ref": "#/items/1"}}"##.utf8)
        let (status, output, _) = try AMCBinary.run(["lint", "-"], input: edited)
        #expect(status == 1)
        #expect(
            output
                == "<stdin>: At the root: 1 reference names no object: \"gone\" (the reference \"#/items/1\" names no object: "
                + "nothing is there (its first step leads somewhere, the next does not)).\n")
    }

    @Test func lintSaysOKOrTheErrorWithItsLocation() throws {
        let good = FixtureFiles.url("foundation.json").path
        let bad = FixtureFiles.url("bad/unterminated.json").path
        let (okStatus, okOutput, _) = try AMCBinary.run(["lint", good, FixtureFiles.url("handwritten.plist").path])
        #expect(okStatus == 0)
        #expect(okOutput == "\(good): OK\n\(FixtureFiles.url("handwritten.plist").path): OK\n")
        let (status, output, _) = try AMCBinary.run(["lint", good, bad, FixtureFiles.url("bad/truncated.plist").path])
        #expect(status == 1)
        let lines = output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0] == "\(good): OK")
        #expect(
            lines[1]
                == "\(bad): Malformed JSON at line 1, column 10: unterminated string (a line break inside a string must be written \\n)."
        )
        #expect(lines[2].contains("Malformed binary property list at byte"))
    }

    @Test func printShowsClassNamesKeysAndValues() throws {
        Fixtures.register()
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let zoo = Zoo()
        let dog = Dog()
        dog.name = "Rex"
        zoo.animals = [dog]
        try AMC.write(zoo, to: folder.file("zoo.plist"), format: .binaryPropertyList)
        let (status, output, _) = try AMCBinary.run(["print", folder.file("zoo.plist").path])
        #expect(status == 0)
        #expect(
            output == """
                Zoo {
                  animals = [
                    0: Dog {
                      breed = ""
                      legs = 4
                      name = "Rex"
                      secret = 0
                    }
                  ]
                  anything = []
                  byName = {}
                  nested = []
                  table = {}
                  uniqueNumbers = []
                }

                """)
    }

    @Test func benchPrintsOneJSONObjectWithRatios() throws {
        let (status, output, _) = try AMCBinary.run(["bench", "--n", "20", "--json"])
        #expect(status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(report["n"] as? Int == 20)
        let rows = try #require(report["rows"] as? [[String: Any]])
        let names = rows.compactMap { $0["name"] as? String }
        for model in ["company", "notes", "series", "folders", "forum"] {
            for format in ["json", "xml", "binary"] {
                #expect(names.contains("amc \(model) \(format) write") && names.contains("amc \(model) \(format) read"))
            }
        }
        #expect(names.contains("amc company json write (tree mode)") && names.contains("amc company json read (tree mode)"))
        let jsonWrite = try #require(rows.first { $0["name"] as? String == "amc notes json write" })
        #expect(jsonWrite["baseline"] as? String == "JSONEncoder.encode (notes)")
        #expect((jsonWrite["ratio"] as? Double ?? 0) > 0)
        #expect((jsonWrite["bytes"] as? Int ?? 0) > 0)
        #expect(jsonWrite["bar"] as? Double == 0.3 && jsonWrite["size_bar"] as? Double == 1.15)
        #expect((jsonWrite["size_ratio"] as? Double ?? 0) > 0.5)
        let binaryRead = try #require(rows.first { $0["name"] as? String == "amc series binary read" })
        #expect(binaryRead["baseline"] as? String == "PropertyListDecoder.decode (series binary)")
        #expect(binaryRead["bar"] as? Double == 0.25 && binaryRead["size_ratio"] is NSNull)
    }

    /// `amc bench --models markup`: the reader, a read, a parse and build and a build, each with
    /// its ratio to `XMLParser` timed in the same rounds, and the read's size.
    @Test func benchTimesMarkupAgainstXMLParser() throws {
        let (status, output, _) = try AMCBinary.run(["bench", "--models", "markup", "--n", "200", "--json"])
        #expect(status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let rows = try #require(report["rows"] as? [[String: Any]])
        let names = rows.compactMap { $0["name"] as? String }
        let baseline = "XMLParser parse (markup, elements counted)"
        let ours: [(String, Double?)] = [
            ("element reader (markup, elements counted)", 1.0 / 3), ("AMCMarkup(data:) (markup read)", nil),
            ("AMCMarkup(data:) + build (markup)", 1.0), ("build from a parsed document (markup)", 0.5),
        ]
        #expect(Array(names.prefix(5)) == [baseline] + ours.map(\.0))
        for (name, bar) in ours {
            let row = try #require(rows.first { $0["name"] as? String == name })
            #expect(row["baseline"] as? String == baseline && row["bar"] as? Double == bar)
            #expect((row["ratio"] as? Double ?? 0) > 0 && (row["bytes"] as? Int ?? 0) > 1000)
        }
        // The size comes from glibc's malloc, which a sanitizer's allocator replaces.
        if !TestScale.underSanitizer, AllocatedBytes.now != nil {
            let read = try #require(rows.first { $0["name"] as? String == ours[1].0 })
            #expect((read["size_ratio"] as? Double ?? 0) > 1 && read["size_bar"] as? Double == 3)
        }
    }

    /// The bench's graphs hold friends in cycles; each network lets its members go with it, so
    /// that the graphs it makes and reads do not weigh on the rows timed after them.
    @Test func benchGraphsAreFreedWithTheirNetwork() throws {
        BenchGraph.register()
        weak var member: BenchMember?
        weak var readMember: BenchMember?
        try {
            let (network, _) = BenchGraph.make(records: 50)
            member = network.groups[0].members[0]
            let read = try #require(try AMC.object(BenchNetwork.self, from: try AMC.data(for: network, format: .json)))
            readMember = read.groups[0].members[0]
            #expect(member?.friends.count == 4 && readMember?.friends.count == 4)
        }()
        #expect(member == nil && readMember == nil)
    }

    /// `amc bench --models small`: the small documents per call against `Codable`'s encoders and
    /// decoders, both formats, both ways, the dictionary path, and the first calls, each measured
    /// in fresh processes.
    @Test func benchTimesSmallDocumentsPerCallAndTheFirstCall() throws {
        let (status, output, _) = try AMCBinary.run(["bench", "--models", "small", "--n", "100", "--json"])
        #expect(status == 0)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let rows = try #require(report["rows"] as? [[String: Any]])
        func row(_ name: String) throws -> [String: Any] { try #require(rows.first { $0["name"] as? String == name }) }
        for document in ["settings", "message"] {
            for (ours, theirs, bar) in [
                ("json write", "JSONEncoder.encode (\(document))", 0.3), ("json read", "JSONDecoder.decode (\(document))", 0.5),
                ("binary write", "PropertyListEncoder.encode (\(document) binary)", 0.3),
                ("binary read", "PropertyListDecoder.decode (\(document) binary)", 0.3),
            ] {
                let measured = try row("amc \(document) \(ours)")
                #expect(measured["baseline"] as? String == theirs && measured["bar"] as? Double == bar)
                #expect(measured["calls"] as? Int == 100 && (measured["us_per_call"] as? Double ?? 0) > 0)
                #expect((measured["ratio"] as? Double ?? 0) > 0 && (measured["bytes"] as? Int ?? 0) > 100)
            }
        }
        let fromDictionary = try row("settings AMC.object(from: dictionary)")
        #expect(
            fromDictionary["us_bar"] as? Double == 5 && fromDictionary["baseline"] as? String == "JSONDecoder.decode (settings)")
        for (ours, theirs) in FirstCallBenchmark.steps {
            let first = try row(ours)
            #expect(first["calls"] as? Int == 1 && first["bar"] as? Double == 2 && first["baseline"] as? String == theirs)
            #expect((first["ratio"] as? Double ?? 0) > 0 && (first["us_per_call"] as? Double ?? 0) > 1)
            #expect((try row(theirs)["us_per_call"] as? Double ?? 0) > 1)
        }
        #expect(!rows.contains { ($0["name"] as? String)?.contains("company") ?? false })
    }

    /// One point of `amc bench --scale`: a write, then a read of what it wrote, each measured in its
    /// own process.
    @Test func benchScalePointMeasuresAWriteAndARead() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = folder.file("notes.json").path
        var points: [[String: Any]] = []
        for direction in ["write", "read"] {
            let (status, output, _) = try AMCBinary.run(["bench", "--scale-point", "notes", "400", "json", direction, file])
            #expect(status == 0)
            points.append(try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]))
        }
        let written = try Data(contentsOf: URL(fileURLWithPath: file))
        BenchNotes.register()
        #expect(try AMC.object(BenchNotebook.self, from: written)?.notes.count == 400)
        for point in points {
            #expect(point["bytes"] as? Int == written.count)
            #expect((point["ns_per_record"] as? Double ?? 0) > 0)
        }
        #if os(Linux)
            // The memory comes from /proc/self; the objects a read builds stay held.
            #expect((points[1]["retained_bytes"] as? Int ?? 0) > 0)
            #expect((points[1]["peak_bytes"] as? Int ?? 0) >= (points[1]["retained_bytes"] as? Int ?? 0))
        #endif
    }

    /// Every command's help, and every kind of wrong argument: stdout, stderr and exit status
    /// compared verbatim with the golden files under `Tests/Snapshots/amc/`.
    @Test(arguments: [
        ("help", ["--help"]), ("no-command", []), ("unknown-command", ["frobnicate"]),
        ("demo-help", ["demo", "--help"]), ("convert-help", ["convert", "--help"]), ("lint-help", ["lint", "--help"]),
        ("check-help", ["check", "--help"]),
        ("print-help", ["print", "--help"]), ("style-help", ["style", "--help"]), ("bench-help", ["bench", "--help"]),
        ("extract-help", ["extract", "--help"]), ("insert-help", ["insert", "--help"]), ("replace-help", ["replace", "--help"]),
        ("remove-help", ["remove", "--help"]), ("markup-help", ["markup", "--help"]),
        ("markup-no-subcommand", ["markup"]), ("markup-unknown-subcommand", ["markup", "build", "x.xml"]),
        ("markup-print-two-files", ["markup", "print", "a.xml", "b.xml"]), ("markup-no-file", ["markup", "check"]),
        ("extract-too-few", ["extract", "a.b", "x.json"]), ("extract-unknown-format", ["extract", "a", "yaml", "x.json"]),
        ("extract-unknown-type", ["extract", "a", "raw", "x.json", "--expect", "color"]),
        ("insert-no-type", ["insert", "a", "1", "x.json"]), ("insert-too-few", ["insert", "a", "--type", "integer", "x.json"]),
        ("remove-unknown-option", ["remove", "a", "x.json", "--append"]),
        ("insert-unknown-type", ["insert", "a", "--type", "color", "red", "x.json"]),
        ("insert-array-with-value", ["insert", "a", "--type", "array", "extra", "x.json"]),
        ("demo-too-many", ["demo", "a", "b"]),
        ("convert-no-to", ["convert", "x.json"]), ("convert-unknown-format", ["convert", "x.json", "--to", "yaml"]),
        ("convert-no-input", ["convert", "--to", "json"]), ("convert-unknown-option", ["convert", "x.json", "--frob"]),
        ("convert-o-and-e", ["convert", "x.json", "--to", "json", "-o", "y.json", "-e", "txt"]),
        ("convert-o-two-inputs", ["convert", "x.json", "y.json", "--to", "json", "-o", "z.json"]),
        ("lint-no-files", ["lint"]), ("check-no-files", ["check"]), ("check-unknown-option", ["check", "--strict", "x.json"]),
        ("print-two-files", ["print", "a", "b"]), ("style-no-check", ["style", "theme.json"]),
        ("bench-bad-n", ["bench", "--n", "zero"]), ("bench-bad-model", ["bench", "--models", "company,shop"]),
        ("bench-bad-scale-point", ["bench", "--scale-point", "notes", "ten", "json", "write", "x.json"]),
    ])
    func helpAndWrongArguments(name: String, arguments: [String]) throws {
        try Snapshot.check(name, arguments)
    }

    /// Typical output of the commands that read files, run in `Fixtures/` so that paths are stable.
    @Test(arguments: [
        ("lint-fixtures", ["lint", "foundation.json", "handwritten.plist", "bad/unterminated.json", "bad/truncated.plist"]),
        ("print-binary-fixture", ["print", "foundation-binary.plist"]),
        ("print-json-fixture", ["print", "foundation.json"]),
        ("print-graph", ["print", "graph.json"]),
        ("print-missing-file", ["print", "no-such-file.json"]),
        ("lint-unreadable", ["lint", "no-such-file.json", "bad", "foundation.json"]),
        ("style-theme", ["style", "theme.json", "--check"]),
        (
            "markup-check",
            [
                "markup", "check", "markup/Screen.xml", "markup/bad-tag.xml", "markup/Loop.xml", "markup/bad-if.xml",
                "markup/none.xml",
            ]
        ),
        ("markup-print", ["markup", "print", "markup/Screen.xml"]),
        ("check-problems", ["check", "company-problems.json", "--unknown-keys"]),
        ("check-several", ["check", "company-good.json", "company-problems.json", "graph.json"]),
        ("convert-malformed", ["convert", "bad/unterminated.json", "--to", "binary", "-o", "/dev/null"]),
        ("convert-date-to-json", ["convert", "foundation-xml.plist", "--to", "json", "-o", "-"]),
        ("extract-raw", ["extract", "list.2", "raw", "handwritten.plist"]),
        ("extract-dictionary-keys", ["extract", "nested", "raw", "foundation.json"]),
        ("extract-json", ["extract", "nested", "json", "foundation.json"]),
        ("extract-expect-fails", ["extract", "number", "raw", "handwritten.plist", "--expect", "string"]),
        ("extract-missing", ["extract", "list.9", "raw", "handwritten.plist"]),
        ("insert-to-stdout", ["insert", "list.0", "--type", "json", "[1, {\"a\": 2.5}]", "handwritten.plist", "-o", "-"]),
        ("insert-bad-value", ["insert", "list.0", "--type", "json", "[1, {\"a\": null}]", "handwritten.plist"]),
        ("remove-to-stdout", ["remove", "nested", "foundation.json", "-o", "-"]),
        ("convert-to-stdout", ["convert", "handwritten.plist", "--to", "json", "-r", "--dates-and-data-as-text", "-o", "-"]),
    ])
    func typicalOutput(name: String, arguments: [String]) throws {
        try Snapshot.check(name, arguments, in: FixtureFiles.folder)
    }

    @Test func killingAWriterMidWriteLeavesTheOldFileOrTheNewOneAndNothingElse() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        // A big input, so that each conversion takes a while to write.
        var big: [String: Any] = [:]
        for index in 0..<60_000 { big["key \(index)"] = ["name \(index)", index, Double(index) / 3] }
        try AMC.write(dictionary: big, to: folder.file("big.json"), options: .compact)
        let output = folder.file("out.plist")
        try AMC.write(dictionary: ["old": true], to: output)
        let old = try Data(contentsOf: output)
        let new = try AMC.convert(try Data(contentsOf: folder.file("big.json")), to: .binaryPropertyList)
        for attempt in 0..<12 {
            let process = try AMCBinary.start(["convert", folder.file("big.json").path, "--to", "binary", "-o", output.path])
            Thread.sleep(forTimeInterval: Double(attempt % 6) * 0.04)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            // The previous file or the next one, whole, byte for byte; and no temporary file.
            let now = try Data(contentsOf: output)
            #expect(now == old || now == new, "attempt \(attempt): \(now.count) bytes")
            if now != old { try AMC.write(data: old, to: output) }
            #expect(folder.contents == ["big.json", "out.plist"])
        }
    }
}
