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
/// ``BenchSettings`` (or its twin) to JSON once and reads it back once, then does the same with
/// ``BenchMessage``, and reports the four times. The settings' are the first calls of the process:
/// ours include the runtime's self-test (``AMC/checkRuntime()``) and what Foundation and the Swift
/// runtime do once per process, `Codable`'s its encoder's and decoder's first use; the message's
/// are the first calls for two more types, in a process that has archived before.
///
/// ```swift
/// let rows = try FirstCallBenchmark.run(amc: ".build/release/amc", processes: 7)
/// ```
public enum FirstCallBenchmark {
    /// How much longer our first call may take than `Codable`'s.
    public static let bar = 2.0

    /// What one process measured, in microseconds, in the order of ``steps``.
    public typealias Point = [Double]

    /// The calls measured, in order: row name (ours) and baseline name.
    public static let steps = [
        ("first call: amc settings json write", "first call: JSONEncoder.encode (settings)"),
        ("first call: amc settings json read", "first call: JSONDecoder.decode (settings)"),
        ("first call for new types: amc message json write", "first call for new types: JSONEncoder.encode (message)"),
        ("first call for new types: amc message json read", "first call for new types: JSONDecoder.decode (message)"),
    ]

    /// One process's first calls on `side` (`amc` or `codable`), in microseconds.
    public static func point(side: String) throws -> Point {
        func microseconds<R>(_ body: () throws -> R) rethrows -> (R, Double) {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = try body()
            return (result, Double(DispatchTime.now().uptimeNanoseconds - start) / 1000)
        }
        let (settings, settingsTwin) = BenchSettings.sample()
        let (message, messageTwin) = BenchMessage.sample()
        if side == "amc" {
            BenchSettings.register()
            let (data, write) = try microseconds { try AMC.data(for: settings, format: .json) }
            let (_, read) = try microseconds { try AMC.object(BenchSettings.self, from: data) }
            let (messageData, messageWrite) = try microseconds { try AMC.data(for: message, format: .json) }
            let (_, messageRead) = try microseconds { try AMC.object(BenchMessage.self, from: messageData) }
            return [write, read, messageWrite, messageRead]
        }
        let (data, write) = try microseconds { try JSONEncoder().encode(settingsTwin) }
        let (_, read) = try microseconds { try JSONDecoder().decode(CodableSettings.self, from: data) }
        let (messageData, messageWrite) = try microseconds { try JSONEncoder().encode(messageTwin) }
        let (_, messageRead) = try microseconds { try JSONDecoder().decode(CodableMessage.self, from: messageData) }
        return [write, read, messageWrite, messageRead]
    }

    /// Rows of first calls: `processes` fresh processes for each side, alternately; each row the
    /// median, ours with its ratio to `Codable`'s.
    public static func run(amc: String, processes: Int) throws -> [Benchmark.Row] {
        var points: [String: [Point]] = [:]
        for _ in 0..<processes {
            for side in ["codable", "amc"] {
                let run = try MeasuredRun(executable: amc, arguments: ["bench", "--first-call-point", side])
                let point = run.output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
                guard run.status == 0, point.count == steps.count else {
                    throw CocoaError(
                        .executableLoad, userInfo: [NSLocalizedDescriptionKey: "amc bench --first-call-point \(side) failed"])
                }
                points[side, default: []].append(point)
            }
        }
        func median(_ side: String, _ step: Int) -> Double {
            let values = points[side]!.map { $0[step] }.sorted()
            return values[values.count / 2] / 1000
        }
        return steps.enumerated().flatMap { step, names in
            let (ours, theirs) = (median("amc", step), median("codable", step))
            return [
                Benchmark.Row(
                    name: names.1, medianMilliseconds: theirs, minMilliseconds: theirs, bytes: nil, baseline: nil, ratio: nil,
                    bar: nil, calls: 1),
                Benchmark.Row(
                    name: names.0, medianMilliseconds: ours, minMilliseconds: ours, bytes: nil, baseline: names.1,
                    ratio: ours / theirs, bar: bar, calls: 1),
            ]
        }
    }
}
