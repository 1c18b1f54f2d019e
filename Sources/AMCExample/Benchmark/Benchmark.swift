import AutoMagicCoding
import Foundation

/// `amc bench`: times AutoMagicCoding's writers and readers against Foundation's `Codable`
/// encoders on several models (``BenchCompany`` and each ``BenchModel``), in one process run, and
/// reports each figure with its ratio to the matching Foundation baseline, and each file's size
/// with its ratio to Foundation's.
///
/// ```swift
/// let report = try Benchmark.run(records: 20_000)
/// print(report.table)
/// ```
public enum Benchmark {
    /// One timed operation.
    public struct Row: Sendable, Equatable {
        /// What was timed: `amc json write`, `JSONEncoder.encode`, …
        public let name: String
        /// Median and fastest run, in milliseconds.
        public let medianMilliseconds: Double, minMilliseconds: Double
        /// Size of the data written or read, when there is one.
        public let bytes: Int?
        /// The row this one is compared with, and the ratio of the medians (this ÷ baseline).
        public let baseline: String?, ratio: Double?
        /// The largest ratio the project accepts for this row, when it has a target.
        public let bar: Double?
        /// For a write compared with Foundation's: our bytes ÷ theirs, and the largest ratio
        /// accepted; for a markup read, the bytes the parsed document holds ÷ its source's.
        public var sizeRatio: Double? = nil, sizeBar: Double? = nil
        /// For a small document: the calls each run made (the row is reported per call), and the
        /// most microseconds a call may take, when it has an absolute bar.
        public var calls: Int? = nil, microsecondsBar: Double? = nil

        /// The median per call, in microseconds (a row of one call: the median).
        public var microsecondsPerCall: Double { medianMilliseconds * 1000 / Double(calls ?? 1) }

        /// Whether the row misses its time bar or its size bar.
        public var missesBar: Bool {
            (bar.map { ratio! > $0 } ?? false) || (sizeBar.map { sizeRatio! > $0 } ?? false)
                || (microsecondsBar.map { microsecondsPerCall > $0 } ?? false)
        }
    }

    /// The ratios each model's rows must meet (ours ÷ Foundation's `Codable`, medians of the same run).
    public struct Bars: Sendable {
        /// Time ratios for each format, written and read (nil: reported, with no bar).
        public var jsonWrite: Double? = 0.30, jsonRead: Double? = 0.45, xmlWrite: Double? = 0.35, xmlRead: Double? = 0.40
        public var binaryWrite: Double? = 0.25, binaryRead: Double? = 0.25
        /// File size ratios: binary property lists and JSON.
        public var binarySize: Double? = 1.05, jsonSize: Double? = 1.15

        /// The bars of every model.
        public static let everyModel = Bars()
        /// The company's, nearer hand-written code.
        public static let company = Bars(jsonWrite: 0.20, jsonRead: 0.35)
        /// Graphs whose `Codable` twin is another shape (a tree, friends by name; links in an
        /// array): the ratios are reported. (A twin that is ``AMCCodable`` too has a bar of its
        /// own: the graph's JSON may take half as much again as ours of the tree.)
        public static let graph = Bars(
            jsonWrite: nil, jsonRead: nil, xmlWrite: nil, xmlRead: nil, binaryWrite: nil, binaryRead: nil, binarySize: nil,
            jsonSize: nil)
    }

    /// The time string coding takes to parse one typical value.
    public struct Parse: Sendable, Equatable {
        /// The type parsed, and the string.
        public let type: String, string: String
        /// Median nanoseconds per parse.
        public let nanoseconds: Double
        /// What one parse must stay under: a microsecond.
        public static let bar = 1000.0
    }

    /// All rows of one run.
    public struct Report: Sendable {
        /// Records in each model's graph (people of the company, notes, …; a tenth as many
        /// series, each of 100 samples).
        public let n: Int
        /// Runs per row.
        public let repetitions: Int
        /// The rows, in the order they ran.
        public var rows: [Row]
        /// String coding's parse times.
        public let parses: [Parse]

        /// Rows whose ratio is above their bar.
        public var missedBars: [Row] { rows.filter(\.missesBar) }

        /// A bar as the table shows it, to two decimals (a third is 0.33).
        private static func shown(_ bar: Double) -> String {
            "\((bar * 100).rounded() / 100)"
        }

        /// A table for a terminal.
        public var table: String {
            let main = rows.filter { $0.calls == nil }
            var lines = [
                "n = \(n) records per model (company: people; notes; series: n/10 of 100 samples; folders and "
                    + "files; forum: posts); median and min of \(repetitions) runs; ratio = median ÷ baseline median; "
                    + "size = bytes ÷ baseline bytes (of a markup read: bytes the parsed document holds ÷ its source's)"
            ]
            let header =
                pad("operation", 44) + pad("median ms", 11, left: true) + pad("min ms", 10, left: true)
                + pad("bytes", 11, left: true) + "  " + pad("ratio", 6, left: true) + pad("size", 6, left: true) + "  baseline"
            lines.append(header)
            lines.append(String(repeating: "-", count: header.count + 20))
            if main.isEmpty { lines = [] }
            for row in main {
                var line =
                    pad(row.name, 44) + pad(format(row.medianMilliseconds), 11, left: true)
                    + pad(format(row.minMilliseconds), 10, left: true)
                    + pad(row.bytes.map(String.init) ?? "", 11, left: true) + "  "
                if let ratio = row.ratio, let baseline = row.baseline {
                    line +=
                        pad(String(format: "%.2f", ratio), 6, left: true)
                        + pad(row.sizeRatio.map { String(format: "%.2f", $0) } ?? "", 6, left: true) + "  " + baseline
                    var verdicts: [String] = []
                    if let bar = row.bar { verdicts.append("bar \(Self.shown(bar)): " + (ratio <= bar ? "ok" : "MISSED")) }
                    if let bar = row.sizeBar, let size = row.sizeRatio {
                        verdicts.append("size \(bar): " + (size <= bar ? "ok" : "MISSED"))
                    }
                    if !verdicts.isEmpty { line += " (" + verdicts.joined(separator: "; ") + ")" }
                }
                lines.append(line)
            }
            let perCall = rows.filter { $0.calls != nil }
            if !perCall.isEmpty {
                if !lines.isEmpty { lines.append("") }
                lines.append(
                    "small documents: median µs per call (each run makes \(perCall[0].calls!) calls; a first call is "
                        + "one call in a fresh process, median of \(repetitions) processes); ratio = median ÷ baseline median")
                for row in perCall {
                    var line =
                        pad(row.name, 56) + pad(String(format: "%.2f", row.microsecondsPerCall), 9, left: true)
                        + pad(row.bytes.map(String.init) ?? "", 7, left: true) + "  "
                    if let ratio = row.ratio, let baseline = row.baseline {
                        line += pad(String(format: "%.2f", ratio), 6, left: true) + "  " + baseline
                        if let bar = row.bar { line += " (bar \(Self.shown(bar)): " + (ratio <= bar ? "ok" : "MISSED") + ")" }
                    }
                    if let bar = row.microsecondsBar {
                        line += " (bar \(bar) µs: " + (row.microsecondsPerCall <= bar ? "ok" : "MISSED") + ")"
                    }
                    lines.append(line)
                }
            }
            lines.append("")
            lines.append("string coding: median ns per parse (AMC.value(_:from:)); bar \(Int(Parse.bar)) ns")
            for parse in parses {
                lines.append(
                    pad("\(parse.type) from \"\(parse.string)\"", 46)
                        + pad(String(format: "%.0f", parse.nanoseconds), 11, left: true)
                        + (parse.nanoseconds < Parse.bar ? "  ok" : "  MISSED"))
            }
            return lines.joined(separator: "\n")
        }

        /// The same as one JSON object: `{"n": …, "rows": [{"name": …, "median_ms": …}, …]}`.
        public var json: String {
            let rows = self.rows.map { row -> String in
                var fields = [
                    "\"name\": \"\(row.name)\"", "\"median_ms\": \(format(row.medianMilliseconds))",
                    "\"min_ms\": \(format(row.minMilliseconds))",
                ]
                fields.append("\"bytes\": \(row.bytes.map(String.init) ?? "null")")
                fields.append("\"baseline\": \(row.baseline.map { "\"\($0)\"" } ?? "null")")
                fields.append("\"ratio\": \(row.ratio.map { String(format: "%.3f", $0) } ?? "null")")
                fields.append("\"bar\": \(row.bar.map { "\($0)" } ?? "null")")
                fields.append("\"size_ratio\": \(row.sizeRatio.map { String(format: "%.3f", $0) } ?? "null")")
                fields.append("\"size_bar\": \(row.sizeBar.map { "\($0)" } ?? "null")")
                if let calls = row.calls {
                    fields.append("\"calls\": \(calls)")
                    fields.append("\"us_per_call\": \(String(format: "%.3f", row.microsecondsPerCall))")
                    fields.append("\"us_bar\": \(row.microsecondsBar.map { "\($0)" } ?? "null")")
                }
                return "{" + fields.joined(separator: ", ") + "}"
            }
            let parses = self.parses.map { parse in
                "{\"type\": \"\(parse.type)\", \"string\": \"\(parse.string)\", \"ns\": \(String(format: "%.1f", parse.nanoseconds))}"
            }
            return "{\"n\": \(n), \"repetitions\": \(repetitions), \"rows\": [" + rows.joined(separator: ", ")
                + "], \"parses\": [" + parses.joined(separator: ", ") + "]}"
        }

        private func format(_ milliseconds: Double) -> String { String(format: "%.3f", milliseconds) }

        private func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? padding + text : text + padding
        }
    }

    /// Builds each model's graph with `records` records and times every row `repetitions` times.
    /// `models` picks models by name (all when nil).
    public static func run(records: Int, models: Set<String>? = nil, repetitions: Int = 7) throws -> Report {
        var timer = Timer(repetitions: repetitions)
        func wanted(_ name: String) -> Bool { models?.contains(name) ?? true }
        if wanted("company") {
            BenchCompany.register()
            let (company, twin) = BenchCompany.make(people: records)
            try timeFormats(of: company, twin: twin, model: "company", bars: .company, timer: &timer)
            try timeCompanyExtras(company, timer: &timer)
        }
        try time(BenchNotes.self, records: records, if: wanted, timer: &timer)
        try time(BenchSeries.self, records: max(1, records / 10), if: wanted, timer: &timer)
        try time(BenchFolders.self, records: records, if: wanted, timer: &timer)
        try time(BenchForum.self, records: records, if: wanted, timer: &timer)
        try time(BenchGraph.self, records: records, bars: .graph, if: wanted, timer: &timer)
        try time(BenchList.self, records: records, bars: .graph, if: wanted, timer: &timer)
        if wanted(smallName) { try timeSmallDocuments(calls: min(20_000, max(100, records)), timer: &timer) }
        if wanted(markupName) { try timeMarkup(elements: max(100, records / 2), timer: &timer) }
        let parses = wanted("parse") ? try parseTimes(repetitions: repetitions, batch: min(100_000, max(100, records * 5))) : []
        return Report(n: records, repetitions: repetitions, rows: timer.rows, parses: parses)
    }

    /// The names `run(records:models:)` takes.
    public static let modelNames = [
        "company", BenchNotes.name, BenchSeries.name, BenchFolders.name, BenchForum.name, BenchGraph.name, BenchList.name,
        smallName, markupName, "parse",
    ]

    private static func time<Model: BenchModel>(
        _ model: Model.Type, records: Int, bars: Bars = .everyModel, if wanted: (String) -> Bool, timer: inout Timer
    ) throws {
        guard wanted(Model.name) else { return }
        Model.register()
        let (root, twin) = Model.make(records: records)
        try timeFormats(of: root, twin: twin, model: Model.name, bars: bars, timer: &timer)
        if let tree = twin as? any AMCCodable {
            // What identity costs: the graph's JSON against the same data as a tree, both ours.
            var treeMode = AMCArchiver()
            treeMode.graphMode = .tree
            try timer.compare(
                "amc \(Model.name) json write (tree twin, tree mode)", { try treeMode.data(for: tree, format: .json) },
                with: "amc \(Model.name) json write (against the tree)", bar: nil, sizeBar: 1.5,
                { try AMC.data(for: root, format: .json) })
        }
    }

    /// Each format written and read, ours and Foundation's `Codable` alternately.
    private static func timeFormats<Root: AMCCodable & AnyObject, Twin: Codable>(
        of root: Root, twin: Twin, model: String, bars: Bars, timer: inout Timer
    ) throws {
        let (jsonEncoded, ours) = try timer.compare(
            "JSONEncoder.encode (\(model))", { try JSONEncoder().encode(twin) },
            with: "amc \(model) json write", bar: bars.jsonWrite, sizeBar: bars.jsonSize,
            { try AMC.data(for: root, format: .json) })
        try timer.compare(
            "JSONDecoder.decode (\(model))", bytes: jsonEncoded, { try JSONDecoder().decode(Twin.self, from: jsonEncoded) },
            with: "amc \(model) json read", bar: bars.jsonRead, bytes: ours, { try AMC.object(Root.self, from: ours) })
        for format in [AMCFormat.xmlPropertyList, .binaryPropertyList] {
            let name = format == .xmlPropertyList ? "xml" : "binary"
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .xmlPropertyList ? .xml : .binary
            let (encoded, ours) = try timer.compare(
                "PropertyListEncoder.encode (\(model) \(name))", { try encoder.encode(twin) },
                with: "amc \(model) \(name) write", bar: format == .xmlPropertyList ? bars.xmlWrite : bars.binaryWrite,
                sizeBar: format == .binaryPropertyList ? bars.binarySize : nil, { try AMC.data(for: root, format: format) })
            try timer.compare(
                "PropertyListDecoder.decode (\(model) \(name))", bytes: encoded,
                { try PropertyListDecoder().decode(Twin.self, from: encoded) },
                with: "amc \(model) \(name) read", bar: format == .xmlPropertyList ? bars.xmlRead : bars.binaryRead, bytes: ours,
                { try AMC.object(Root.self, from: ours) })
        }
    }

    /// What identity costs (tree mode), and the dictionary path: AMC's original API, and
    /// Foundation's serializers on its dictionaries.
    private static func timeCompanyExtras(_ company: BenchCompany, timer: inout Timer) throws {
        // The same graph in tree mode, each manager written in full where it is referred to
        // (ratio: tree ÷ graph).
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let treeJSON = try timer.time("amc company json write (tree mode)", against: "amc company json write") {
            try tree.data(for: company, format: .json)
        }
        try timer.time("amc company json read (tree mode)", against: "amc company json read", bytes: treeJSON) {
            try tree.object(BenchCompany.self, from: treeJSON)
        }
        let dictionary = try timer.time("dictionaryRepresentation()", against: "JSONEncoder.encode (company)") {
            try company.dictionaryRepresentation()
        }
        try timer.time("AMC.object(from: dictionary)", against: "JSONDecoder.decode (company)") {
            try AMC.object(BenchCompany.self, from: dictionary)
        }
        let serialized = try timer.time("JSONSerialization.data", against: "JSONEncoder.encode (company)") {
            try JSONSerialization.data(withJSONObject: dictionary)
        }
        try timer.time("JSONSerialization.jsonObject", against: "JSONDecoder.decode (company)", bytes: serialized) {
            try JSONSerialization.jsonObject(with: serialized)
        }
        for (format, name) in [(PropertyListSerialization.PropertyListFormat.xml, "xml"), (.binary, "binary")] {
            let data = try timer.time(
                "PropertyListSerialization.data (\(name))", against: "PropertyListEncoder.encode (company \(name))"
            ) {
                try PropertyListSerialization.data(fromPropertyList: dictionary, format: format, options: 0)
            }
            try timer.time(
                "PropertyListSerialization.propertyList (\(name))",
                against: "PropertyListDecoder.decode (company \(name))", bytes: data
            ) {
                try PropertyListSerialization.propertyList(from: data, format: nil)
            }
        }
    }

    /// Median time of one `AMC.value(_:from:)` over batches of `batch` (100,000 at the default
    /// size, fewer for small runs), for typical values.
    private static func parseTimes(repetitions: Int, batch: Int) throws -> [Parse] {
        func time<T>(_ type: T.Type, _ string: String) throws -> Parse {
            var timings: [Double] = []
            for _ in 0..<repetitions {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<batch { _ = try AMC.value(T.self, from: string) }
                timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / Double(batch))
            }
            return Parse(type: "\(T.self)", string: string, nanoseconds: timings.sorted()[timings.count / 2])
        }
        return [
            try time(Int.self, "42"), try time(UInt8.self, "0x20"), try time(Bool.self, "yes"),
            try time(Double.self, "12.5"), try time(CGSize.self, "100 , 300"), try time(CGRect.self, "10, 20, 300, 400"),
            try time(AMCEdgeInsets.self, "8, 16, 8, 16"), try time(AMCColor.self, "#ff000080"),
            try time(AMCColor.self, "rgba(100,200,250,0.5)"), try time(AMCColor.self, "darkGray"),
            try time(AMCFont.self, "bold 15"), try time(AMCImage.self, "image.png 5, 10"),
            try time(AMCTextAlignment.self, "NSTextAlignmentCenter"),
        ]
    }

    /// Runs and records the rows.
    struct Timer {
        let repetitions: Int
        var rows: [Row] = []
        /// When set, each run calls the body this many times, and rows are reported per call.
        var calls: Int?

        /// Times `body`, records the row and returns the last result. `baseline` names an earlier
        /// row; `input` is the data read, for rows that read.
        @discardableResult
        mutating func time<R>(
            _ name: String, against baseline: String? = nil, bar: Double? = nil, bytes input: Data? = nil,
            _ body: () throws -> R
        ) throws -> R {
            var run = Runs<R>()
            for _ in 0..<repetitions { try run.time(calls: calls ?? 1, body) }
            record(name, run, against: baseline, bar: bar, bytes: input)
            return run.result!
        }

        /// Times a Foundation baseline and our row for the same job alternately, one run of each in
        /// turn, so that the machine's drift during the run weighs on both alike; records both.
        /// `sizeBar`, for writes: the largest ratio of our bytes to the baseline's.
        @discardableResult
        mutating func compare<B, R>(
            _ baselineName: String, bytes baselineInput: Data? = nil, _ baseline: () throws -> B,
            with name: String, bar: Double?, sizeBar: Double? = nil, bytes input: Data? = nil, _ body: () throws -> R
        ) throws -> (B, R) {
            var baselineRuns = Runs<B>()
            var runs = Runs<R>()
            for _ in 0..<repetitions {
                try baselineRuns.time(calls: calls ?? 1, baseline)
                try runs.time(calls: calls ?? 1, body)
            }
            record(baselineName, baselineRuns, bytes: baselineInput)
            record(name, runs, against: baselineName, bar: bar, bytes: input)
            if let ours = runs.result as? Data, let theirs = baselineRuns.result as? Data {
                rows[rows.count - 1].sizeRatio = Double(ours.count) / Double(theirs.count)
                rows[rows.count - 1].sizeBar = sizeBar
            }
            return (baselineRuns.result!, runs.result!)
        }

        /// One of our rows that ``compare(_:bytes:_:with:)`` times against a baseline.
        struct Contender {
            let name: String
            var bar: Double? = nil
            /// The data read, for rows that read.
            var bytes: Data? = nil
            let body: () throws -> Any
        }

        /// Times a Foundation baseline and several rows of ours in turn, one run of each per round,
        /// so that the machine's drift during the run weighs on all alike; records the baseline,
        /// then each row in the order given.
        mutating func compare<B>(
            _ baselineName: String, bytes baselineInput: Data? = nil, _ baseline: () throws -> B, with contenders: [Contender]
        ) throws {
            var baselineRuns = Runs<B>()
            var runs = Array(repeating: Runs<Any>(), count: contenders.count)
            for _ in 0..<repetitions {
                try baselineRuns.time(calls: calls ?? 1, baseline)
                for index in contenders.indices { try runs[index].time(calls: calls ?? 1, contenders[index].body) }
            }
            record(baselineName, baselineRuns, bytes: baselineInput)
            for (contender, run) in zip(contenders, runs) {
                record(contender.name, run, against: baselineName, bar: contender.bar, bytes: contender.bytes)
            }
        }

        private mutating func record<R>(
            _ name: String, _ runs: Runs<R>, against baseline: String? = nil, bar: Double? = nil, bytes input: Data?
        ) {
            let timings = runs.timings.sorted()
            let median = timings[timings.count / 2]
            let baselineMedian = baseline.flatMap { name in rows.first { $0.name == name }?.medianMilliseconds }
            rows.append(
                Row(
                    name: name, medianMilliseconds: median, minMilliseconds: timings[0],
                    bytes: (runs.result as? Data)?.count ?? input?.count,
                    baseline: baseline, ratio: baselineMedian.map { median / $0 }, bar: bar, calls: calls))
        }
    }

    /// The timings of one row so far, and its last result.
    private struct Runs<R> {
        var timings: [Double] = []
        var result: R?

        mutating func time(calls: Int, _ body: () throws -> R) throws {
            result = nil  // the previous run's graph is freed outside the timed part
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 1..<calls { _ = try body() }
            let value = try body()
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            result = value
        }
    }
}
