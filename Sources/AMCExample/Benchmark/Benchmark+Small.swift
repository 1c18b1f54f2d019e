import AutoMagicCoding
import Foundation

extension Benchmark {
    /// The name `run(records:models:)` takes for the small documents.
    public static let smallName = "small"

    /// The per-call bars of a small document: ours ÷ `Codable`'s, and the most a decode from a
    /// dictionary may take.
    static let smallBars = (jsonWrite: 0.30, jsonRead: 0.50, binaryWrite: 0.30, binaryRead: 0.30, fromDictionary: 5.0)

    /// Each small document (``BenchSettings``, ``BenchMessage``) written and read `calls` times a
    /// run, ours and Foundation's `Codable` alternately, reported per call.
    static func timeSmallDocuments(calls: Int, timer: inout Timer) throws {
        BenchSettings.register()
        timer.calls = calls
        defer { timer.calls = nil }
        let (settings, settingsTwin) = BenchSettings.sample()
        try timeSmall(settings, twin: settingsTwin, model: "settings", timer: &timer)
        let dictionary = try timer.time("settings dictionaryRepresentation()", against: "JSONEncoder.encode (settings)") {
            try settings.dictionaryRepresentation()
        }
        try timer.time("settings AMC.object(from: dictionary)", against: "JSONDecoder.decode (settings)") {
            try AMC.object(BenchSettings.self, from: dictionary)
        }
        timer.rows[timer.rows.count - 1].microsecondsBar = smallBars.fromDictionary
        let (message, messageTwin) = BenchMessage.sample()
        try timeSmall(message, twin: messageTwin, model: "message", timer: &timer)
    }

    /// One small document in JSON and as a binary property list, both ways, against `Codable`'s
    /// encoders and decoders made once, as an app keeps them.
    private static func timeSmall<Root: AMCCodable & AnyObject, Twin: Codable>(
        _ root: Root, twin: Twin, model: String, timer: inout Timer
    ) throws {
        let (jsonEncoder, jsonDecoder) = (JSONEncoder(), JSONDecoder())
        let (plistEncoder, plistDecoder) = (PropertyListEncoder(), PropertyListDecoder())
        plistEncoder.outputFormat = .binary
        let (theirJSON, ourJSON) = try timer.compare(
            "JSONEncoder.encode (\(model))", { try jsonEncoder.encode(twin) }, with: "amc \(model) json write",
            bar: smallBars.jsonWrite, { try AMC.data(for: root, format: .json) })
        try timer.compare(
            "JSONDecoder.decode (\(model))", bytes: theirJSON, { try jsonDecoder.decode(Twin.self, from: theirJSON) },
            with: "amc \(model) json read", bar: smallBars.jsonRead, bytes: ourJSON, { try AMC.object(Root.self, from: ourJSON) })
        let (theirs, ours) = try timer.compare(
            "PropertyListEncoder.encode (\(model) binary)", { try plistEncoder.encode(twin) },
            with: "amc \(model) binary write", bar: smallBars.binaryWrite,
            { try AMC.data(for: root, format: .binaryPropertyList) })
        try timer.compare(
            "PropertyListDecoder.decode (\(model) binary)", bytes: theirs, { try plistDecoder.decode(Twin.self, from: theirs) },
            with: "amc \(model) binary read", bar: smallBars.binaryRead, bytes: ours, { try AMC.object(Root.self, from: ours) })
    }
}

/// The first call for a type never seen before, ours against `Codable`'s: each side runs in a
/// fresh process of its own (`amc bench --first-call-point amc|codable`), which writes
/// ``BenchSettings`` (or its twin) to JSON once and reads it back once, and reports both times.
/// Ours includes building the type's plan and the runtime's self-test; `Codable`'s its encoder's
/// and decoder's first use.
///
/// ```swift
/// let rows = try FirstCallBenchmark.run(amc: ".build/release/amc", processes: 7)
/// ```
public enum FirstCallBenchmark {
    /// How much longer our first call may take than `Codable`'s.
    public static let bar = 2.0

    /// One process's first write and first read, in microseconds, on `side` (`amc` or `codable`).
    public static func point(side: String) throws -> (write: Double, read: Double) {
        func microseconds<R>(_ body: () throws -> R) rethrows -> (R, Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try body()
            return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        let (settings, twin) = BenchSettings.sample()
        if side == "amc" {
            AMC.register(BenchSettings.self)
            let (data, write) = try microseconds { try AMC.data(for: settings, format: .json) }
            let (_, read) = try microseconds { try AMC.object(BenchSettings.self, from: data) }
            return (write, read)
        }
        let (data, write) = try microseconds { try JSONEncoder().encode(twin) }
        let (_, read) = try microseconds { try JSONDecoder().decode(CodableSettings.self, from: data) }
        return (write, read)
    }

    /// Rows of first calls: `processes` fresh processes for each side, alternately; each row the
    /// median, ours with its ratio to `Codable`'s.
    public static func run(amc: String, processes: Int) throws -> [Benchmark.Row] {
        var times: [String: [(write: Double, read: Double)]] = [:]
        for _ in 0..<processes {
            for side in ["codable", "amc"] {
                let run = try MeasuredRun(executable: amc, arguments: ["bench", "--first-call-point", side])
                let fields = run.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard run.status == 0, fields.count == 2 else {
                    throw CocoaError(
                        .executableLoad, userInfo: [NSLocalizedDescriptionKey: "amc bench --first-call-point \(side) failed"])
                }
                times[side, default: []].append((fields[0], fields[1]))
            }
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        var rows: [Benchmark.Row] = []
        for (name, ours, theirs) in [
            ("first call: amc settings json write", "amc", "first call: JSONEncoder.encode (settings)"),
            ("first call: amc settings json read", "amc", "first call: JSONDecoder.decode (settings)"),
        ] {
            let isWrite = name.hasSuffix("write")
            let baseline = median(times["codable"]!.map { isWrite ? $0.write : $0.read })
            let median = median(times[ours]!.map { isWrite ? $0.write : $0.read })
            rows.append(
                Benchmark.Row(
                    name: theirs, medianMilliseconds: baseline / 1000, minMilliseconds: baseline / 1000, bytes: nil,
                    baseline: nil, ratio: nil, bar: nil, calls: 1))
            rows.append(
                Benchmark.Row(
                    name: name, medianMilliseconds: median / 1000, minMilliseconds: median / 1000, bytes: nil,
                    baseline: theirs, ratio: median / baseline, bar: bar, calls: 1))
        }
        return rows
    }
}
