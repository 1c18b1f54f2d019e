import AutoMagicCoding
import Foundation

/// `amc bench --scale`: how our write and read grow with the graph. For two models at 2,000,
/// 20,000 and 200,000 records it times a write and a read per record (flat means linear), and
/// measures the memory each takes beyond what the process held before: a write against the size
/// of its output, a read against its input and the objects it builds. Each write and each read
/// runs in a process of its own (`amc bench --scale-point`), so that memory one step freed cannot
/// hide what the next one takes. A write's memory is measured in a process of its own that keeps
/// what it frees (see ``ResidentMemory/keepsFreedMemory``), so that its peak is counted exactly,
/// page by page.
///
/// ```swift
/// print(try ScaleBenchmark.run(amc: ".build/release/amc"))
/// ```
public enum ScaleBenchmark {
    /// The record counts measured.
    public static let sizes = [2_000, 20_000, 200_000]
    /// The models `--scale` can measure.
    public static let modelNames = [
        BenchNotes.name, BenchSeries.name, BenchFolders.name, BenchForum.name, BenchGraph.name, BenchList.name,
    ]
    /// The models measured by default: string-heavy records and a deep tree of small objects.
    public static let defaultModels = [BenchNotes.name, BenchFolders.name]
    /// Time per record may vary by this factor across the sizes (slowest ÷ fastest).
    public static let timeSpread = 1.25
    /// A write may take its output's size times this.
    public static let writeMemory = 1.25
    /// A read may take its input's size times this, plus the objects it builds.
    public static let readMemory = 3.0

    /// One write or read of one model at one size, measured in its own process.
    public struct Point: Sendable {
        /// Median nanoseconds per record of at least 3 runs (more for small graphs).
        public var nanosecondsPerRecord: Double
        /// The document's size.
        public var bytes: Int
        /// The most memory the first run took beyond what the process held before it.
        public var peakBytes: Int
        /// For a read: the memory still held when it ended (the objects built).
        public var retainedBytes: Int

        /// The point as one line of JSON, as `--scale-point` prints it.
        public var json: String {
            "{\"ns_per_record\": \(String(format: "%.1f", nanosecondsPerRecord)), \"bytes\": \(bytes), "
                + "\"peak_bytes\": \(peakBytes), \"retained_bytes\": \(retainedBytes)}"
        }

        init(nanosecondsPerRecord: Double, bytes: Int, peakBytes: Int, retainedBytes: Int) {
            (self.nanosecondsPerRecord, self.bytes, self.peakBytes, self.retainedBytes) = (
                nanosecondsPerRecord, bytes, peakBytes, retainedBytes
            )
        }

        /// A point from the JSON `--scale-point` printed.
        init?(json: String) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
                let time = (object["ns_per_record"] as? NSNumber)?.doubleValue, let bytes = object["bytes"] as? Int,
                let peak = object["peak_bytes"] as? Int, let retained = object["retained_bytes"] as? Int
            else { return nil }
            self.init(nanosecondsPerRecord: time, bytes: bytes, peakBytes: peak, retainedBytes: retained)
        }
    }

    /// `amc bench --scale-point MODEL N FORMAT write FILE` and `… read FILE`: builds the model and
    /// writes it to `file`, or reads `file`, measuring the first run's memory and the median time of
    /// at least three runs.
    public static func point(model: String, records: Int, format: AMCFormat, write: Bool, file: URL) throws -> Point {
        switch model {
        case BenchNotes.name: return try point(BenchNotes.self, records: records, format: format, write: write, file: file)
        case BenchSeries.name: return try point(BenchSeries.self, records: records, format: format, write: write, file: file)
        case BenchFolders.name: return try point(BenchFolders.self, records: records, format: format, write: write, file: file)
        case BenchForum.name: return try point(BenchForum.self, records: records, format: format, write: write, file: file)
        case BenchGraph.name: return try point(BenchGraph.self, records: records, format: format, write: write, file: file)
        case BenchList.name: return try point(BenchList.self, records: records, format: format, write: write, file: file)
        default: throw AMCError(.typeMismatch(expected: "a model (\(modelNames.joined(separator: ", ")))", found: model))
        }
    }

    private static func point<Model: BenchModel>(
        _ model: Model.Type, records: Int, format: AMCFormat, write: Bool, file: URL
    ) throws -> Point {
        Model.register()
        if write {
            let root = Model.make(records: records).0
            // A small write first, so that the code it runs is in memory (resident, but not what
            // the write needs for its data).
            try AMC.write(Model.make(records: 10).0, to: file, format: format, options: .compact)
            // Memory: writing the file, which the writers pass their bytes to as they go. Time:
            // making the bytes in memory, without the disk's own time, with the allocator's usual
            // settings (not measured where it keeps what it frees: `run` takes the memory from
            // that process and the time from another).
            let memory = ResidentMemory.start()
            try AMC.write(root, to: file, format: format, options: .compact)
            let keeps = ResidentMemory.keepsFreedMemory
            let peak = keeps ? memory.anonymousGrowth : memory.peakGrowth
            let nanoseconds = keeps ? 0 : try medianNanoseconds { _ = try AMC.data(for: root, format: format) }
            let bytes = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int ?? 0
            return Point(nanosecondsPerRecord: nanoseconds / Double(records), bytes: bytes, peakBytes: peak, retainedBytes: 0)
        }
        let data = try Data(contentsOf: file)
        // A small read first, as for a write: the code and the type's plan are then in memory.
        _ = try AMC.object(Model.Root.self, from: AMC.data(for: Model.make(records: 10).0, format: format))
        let memory = ResidentMemory.start()
        var root: Model.Root? = try AMC.object(Model.Root.self, from: data)
        // Read apart, the two would see different moments: the peak is at least what is kept.
        let retained = memory.growth
        let peak = max(memory.peakGrowth, retained)
        // The graph the last run built is freed before the next one, untimed.
        let nanoseconds = try medianNanoseconds(
            before: { root = nil }, run: { root = try AMC.object(Model.Root.self, from: data) })
        withExtendedLifetime(root) {}
        return Point(
            nanosecondsPerRecord: nanoseconds / Double(records), bytes: data.count, peakBytes: peak, retainedBytes: retained)
    }

    /// The median of at least 3 runs, and of as many as half a second holds (up to 51): a run of
    /// 2,000 records takes a few milliseconds, which this machine's noise moves by half.
    /// `before` runs ahead of each run, untimed.
    private static func medianNanoseconds(before: () -> Void = {}, run body: () throws -> Void) throws -> Double {
        var timings: [Double] = []
        var total = 0.0
        while timings.count < 3 || (total < 5e8 && timings.count < 51) {
            before()
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            timings.append(Double(DispatchTime.now().uptimeNanoseconds - start))
            total += timings[timings.count - 1]
        }
        return timings.sorted()[timings.count / 2]
    }

    /// The table of `amc bench --scale`: each model, format and size, written then read by `amc`
    /// (`amc` is its path) in processes of their own; `sizes` for a quicker run.
    public static func run(amc: String, models: [String] = defaultModels, sizes: [Int] = sizes) throws -> String {
        guard ResidentMemory.isAvailable else {
            return "amc bench --scale measures memory through /proc/self (Linux): not available here"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-scale-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var lines = [
            "ns per record: the median of 3 processes' medians of 3 runs or more; memory beyond what the process",
            "held (first run, MB);",
            "bars: time per record within \(timeSpread)x across sizes; a write at most \(writeMemory)x its output;",
            "a read at most \(Int(readMemory))x its input plus the objects it keeps",
            "model    format  direction   records   ns/record      bytes   memory MB   bound MB",
        ]
        for model in models {
            for format in [AMCFormat.json, .binaryPropertyList] {
                var writes: [Double] = []
                var reads: [Double] = []
                var rows: [String] = []
                for records in sizes {
                    let file = folder.appendingPathComponent("\(model)-\(records).\(format.pathExtension)")
                    let name = format == .json ? "json" : "binary"
                    let arguments = ["bench", "--scale-point", model, String(records), name]
                    // Time from three processes, memory from another that keeps what it frees.
                    var written = try medianChild(amc, arguments + ["write", file.path])
                    written.peakBytes = try child(amc, arguments + ["write", file.path], keepingFreedMemory: true).peakBytes
                    let read = try medianChild(amc, arguments + ["read", file.path])
                    writes.append(written.nanosecondsPerRecord)
                    reads.append(read.nanosecondsPerRecord)
                    let writeBound = Double(written.bytes) * writeMemory
                    let readBound = Double(read.bytes) * readMemory + Double(read.retainedBytes)
                    rows.append(row(model, name, "write", records, written, bound: writeBound))
                    rows.append(row(model, name, "read", records, read, bound: readBound))
                }
                lines += rows.sorted { $0.contains(" write ") && !$1.contains(" write ") }
                lines.append(
                    "  \(model) \(format == .json ? "json" : "binary"): time per record spread "
                        + String(format: "write %.2fx, read %.2fx", spread(writes), spread(reads))
                        + (spread(writes) <= timeSpread && spread(reads) <= timeSpread ? " (ok)" : " (MISSED)"))
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func row(_ model: String, _ format: String, _ direction: String, _ records: Int, _ point: Point, bound: Double)
        -> String
    {
        let megabytes = { (bytes: Double) in String(format: "%.1f", bytes / 1_048_576) }
        return model.padding(toLength: 9, withPad: " ", startingAt: 0) + format.padding(toLength: 8, withPad: " ", startingAt: 0)
            + direction.padding(toLength: 10, withPad: " ", startingAt: 0)
            + String(format: "%8d %11.0f %10d", records, point.nanosecondsPerRecord, point.bytes)
            + megabytes(Double(point.peakBytes)).leftPadded(12) + megabytes(bound).leftPadded(11)
            + (Double(point.peakBytes) <= bound ? "  ok" : "  MISSED")
    }

    private static func spread(_ values: [Double]) -> Double {
        (values.max() ?? 0) / max(values.min() ?? 1, 1e-9)
    }

    /// The point of the middle one of three processes by time. Now and then a process runs all
    /// of its runs half as slow again as the others (seen at 2,000 records, whose runs are the
    /// shortest: the folders' JSON read at 1,641 and 1,781 ns a record where other processes took
    /// 1,010–1,045), and one process a point put that in the model's spread.
    private static func medianChild(_ amc: String, _ arguments: [String]) throws -> Point {
        let points = try (0..<3).map { _ in try child(amc, arguments) }
        return points.sorted { $0.nanosecondsPerRecord < $1.nanosecondsPerRecord }[1]
    }

    private static func child(_ amc: String, _ arguments: [String], keepingFreedMemory: Bool = false) throws -> Point {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: amc)
        process.arguments = arguments
        if keepingFreedMemory {
            var environment = ProcessInfo.processInfo.environment
            environment[ResidentMemory.tunablesVariable] = ResidentMemory.keepingTunables
            process.environment = environment
        }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let point = Point(json: String(decoding: printed, as: UTF8.self)) else {
            throw CocoaError(
                .executableLoad, userInfo: [NSLocalizedDescriptionKey: "amc \(arguments.joined(separator: " ")) failed"])
        }
        return point
    }
}

/// The resident memory of this process, from `/proc/self` (Linux): what it holds now, and the
/// most it held since a mark, which resets the kernel's high-water mark.
///
/// The kernel counts `VmRSS` and `VmHWM` in per-CPU batches of 32 pages, so on this 2-core
/// machine either may be up to 0.25 MB off, more than a small write's whole output. What the
/// process holds at a moment is therefore counted page by page (`smaps_rollup`), and the peak is
/// the larger of the high-water mark's growth and that exact growth. In a process started with
/// glibc's allocator told to keep what the process frees (``keepingTunables``), what it holds
/// only grows, and ``anonymousGrowth`` at the end is exactly the most it held.
///
/// ```swift
/// let memory = ResidentMemory.start()
/// try AMC.write(root, to: file)
/// print(ResidentMemory.keepsFreedMemory ? memory.anonymousGrowth : memory.peakGrowth)
/// ```
struct ResidentMemory {
    private let approximateStart: Int
    private let exactStart: Int
    private let anonymousStart: Int

    /// Whether `/proc/self/status` and `clear_refs` are there to read and reset.
    static var isAvailable: Bool { field("VmHWM:") != nil && FileManager.default.isWritableFile(atPath: "/proc/self/clear_refs") }

    /// The variable that passes settings to glibc at a process's start.
    static let tunablesVariable = "GLIBC_TUNABLES"
    /// glibc's allocator settings that keep what a process frees: it never gives back the top of
    /// its heap, and takes no block of its own (`mmap`, which freeing gives back) for
    /// allocations up to 32 MB, the most it allows. The resident set then only grows. That makes
    /// its growth an upper bound of the peak with the usual settings, where a large array's old
    /// storage goes back to the system once the array has grown.
    static let keepingTunables = "glibc.malloc.trim_threshold=4294967295:glibc.malloc.mmap_threshold=33554432"

    /// Whether this process was started with ``keepingTunables``.
    static var keepsFreedMemory: Bool {
        ProcessInfo.processInfo.environment[tunablesVariable]?.contains(keepingTunables) == true
    }

    /// Resets the high-water mark and remembers what the process holds now.
    static func start() -> ResidentMemory {
        try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
        let approximate = field("VmRSS:") ?? 0
        return ResidentMemory(
            approximateStart: approximate, exactStart: exact() ?? approximate, anonymousStart: anonymous() ?? 0)
    }

    /// The growth of the process's anonymous memory (its heap and stacks, not the code mapped
    /// from files) since `start()`, counted page by page.
    var anonymousGrowth: Int {
        max(0, (Self.anonymous() ?? 0) - anonymousStart)
    }

    /// The most the process held since `start()`, beyond what it held then.
    var peakGrowth: Int {
        let marked = max(Self.field("VmHWM:") ?? 0, Self.field("VmRSS:") ?? 0) - approximateStart
        return max(0, marked, growth)
    }

    /// What the process holds now beyond what it held at `start()`, counted page by page.
    var growth: Int {
        guard let now = Self.exact() else { return max(0, (Self.field("VmRSS:") ?? 0) - approximateStart) }
        return max(0, now - exactStart)
    }

    /// The resident set counted page by page (`Rss:` of `/proc/self/smaps_rollup`), in bytes.
    private static func exact() -> Int? {
        kilobytes("Rss:", in: "/proc/self/smaps_rollup")
    }

    /// The anonymous part of the resident set (`Anonymous:` of `/proc/self/smaps_rollup`), in bytes.
    private static func anonymous() -> Int? {
        kilobytes("Anonymous:", in: "/proc/self/smaps_rollup")
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func field(_ name: String) -> Int? {
        kilobytes(name, in: "/proc/self/status")
    }

    private static func kilobytes(_ name: String, in path: String) -> Int? {
        guard let status = try? String(contentsOfFile: path, encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name) }),
            let kilobytes = Int(
                line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).dropLast(3)
                    .trimmingCharacters(in: .whitespaces))
        else { return nil }
        return kilobytes * 1024
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
