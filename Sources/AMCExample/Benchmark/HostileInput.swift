import AutoMagicCoding
import Foundation

/// Files made to cost a reader far more memory or time than their size suggests: unclosed
/// nesting, the most values per byte each format allows, shared objects, and counts that claim
/// more than the file holds. `amc bench --hostile` times reading them at several sizes and
/// measures the memory; the tests hold each to ``memoryBound(size:)``.
///
/// ```swift
/// let data = HostileInput.jsonNumbers.data(size: 1 << 20)  // "[1,1,1,…]", 1 MB
/// _ = try AMC.lint(data)                                  // 524,288 numbers
/// ```
public enum HostileInput: String, CaseIterable, Sendable {
    /// `[[[[…`: the depth limit stops it.
    case jsonOpenBrackets = "JSON [[[[…"
    /// `<array><array>…`: the depth limit stops it.
    case xmlOpenArrays = "XML <array><array>…"
    /// `[[],[],…]`: the most containers per byte JSON allows.
    case jsonEmptyArrays = "JSON [[],[],…]"
    /// `[1,1,…]`: the most values per byte JSON allows.
    case jsonNumbers = "JSON [1,1,…]"
    /// `<array><dict/><dict/>…`.
    case xmlEmptyDictionaries = "XML <dict/><dict/>…"
    /// One array of two-byte references, all to one shared dictionary.
    case binarySharedReferences = "binary: refs to one shared object"
    /// One array of references to as many one-byte objects.
    case binaryDistinctObjects = "binary: refs to distinct objects"
    /// One array of references to as many objects, all listed at the offset of one 4 KB string.
    case binaryRepeatedOffsets = "binary: one string at many offsets"
    /// `[[], [1,1,…]]` with 1-byte references: the long array closes after another container.
    /// While the binary reader moved closing containers' values into the tape, they were held
    /// twice (32 times the file's size); it now sets each container's run aside as it opens.
    case binaryLongArrayAfterAnother = "binary: a long array after another"
    /// Arrays nested 200 deep, each claiming as many elements as the block of zeros after them
    /// holds, the deepest then referring past the table: a reader that set aside room for each
    /// claimed count as its array opened, before the claims were held to the room the file has
    /// for references, took 2,000 times the file's size.
    case binaryNestedClaims = "binary: nested arrays claim one block"
    /// 40 arrays side by side in one array, each claiming as many elements as the block after
    /// them holds, all of them valid references (65,536 objects): 40 times as many values as the
    /// file has bytes, which took 270 times its size in memory before the tape was held to as
    /// many values as the file has room for references.
    case binarySiblingClaims = "binary: sibling arrays claim one block"
    /// 100 arrays and sets (alternately) of references to one integer, each listed twice in the
    /// top array, beside a block of data: each is read twice before it is kept, past the room for
    /// references. With each container's run set aside as it opens, a tape with room for the
    /// containers' counts alone grew by copying, holding the old and the new array at once (22
    /// times the file's size; a file of such sets alone took 29 times while sets went uncounted).
    case binaryContainersListedTwice = "binary: containers listed twice"
    /// Arrays each holding the next one twice, 40 levels: 2^40 values once expanded.
    case binaryExpansion = "binary: 2^40 values by sharing"
    /// A trailer claiming 2^40 objects.
    case binaryClaimedObjects = "binary: trailer claims 2^40 objects"
    /// An array claiming 2^40 elements.
    case binaryClaimedCount = "binary: array claims 2^40 elements"

    /// What any reader may take, beyond what the program needs anyway: this many times the size
    /// of the file it reads, plus a megabyte (see ``memoryBound(size:)``).
    public static let memoryMultiple = 20

    /// The most memory reading a file of `size` bytes may take beyond what the program needs
    /// anyway: ``memoryMultiple`` times `size`, plus a megabyte for the reader's own tables and
    /// the allocator's rounding. The tests check every input here against it.
    public static func memoryBound(size: Int) -> Int { memoryMultiple * size + (1 << 20) }

    /// Whether reading it fails: only the valid shapes are read to the end.
    public var isRefused: Bool {
        switch self {
        case .jsonOpenBrackets, .xmlOpenArrays, .binaryNestedClaims, .binarySiblingClaims, .binaryContainersListedTwice,
            .binaryExpansion, .binaryClaimedObjects, .binaryClaimedCount:
            true
        default: false
        }
    }

    /// Whether its size grows with `size`; the others are a few hundred bytes at any size.
    public var scales: Bool { ![.binaryExpansion, .binaryClaimedObjects, .binaryClaimedCount].contains(self) }

    /// The input, about `size` bytes long when it ``scales``.
    public func data(size: Int) -> Data {
        switch self {
        case .jsonOpenBrackets:
            return Data(repeating: UInt8(ascii: "["), count: size)
        case .xmlOpenArrays:
            return Data(("<plist>" + String(repeating: "<array>", count: size / 7)).utf8)
        case .jsonEmptyArrays:
            return Data(("[" + Array(repeating: "[]", count: size / 3).joined(separator: ",") + "]").utf8)
        case .jsonNumbers:
            return Data(("[" + Array(repeating: "1", count: size / 2).joined(separator: ",") + "]").utf8)
        case .xmlEmptyDictionaries:
            return Data(("<plist><array>" + String(repeating: "<dict/>", count: size / 7) + "</array></plist>").utf8)
        case .binarySharedReferences:
            // Object 0: an array of `count` references (2 bytes each) to object 1, an empty dictionary.
            let count = size / 2
            return Self.binaryPropertyList(
                [Self.arrayHeader(count) + Array(repeating: [0, 1], count: count).flatMap { $0 }, [0xD0]],
                referenceSize: 2)
        case .binaryDistinctObjects:
            // Object 0 refers to objects 1…count, each an empty dictionary: 1 byte, 4 of offset, 4 of reference.
            let count = size / 9
            var array = Self.arrayHeader(count)
            for index in 1...count { array += Self.bigEndian(index, width: 4) }
            return Self.binaryPropertyList([array] + Array(repeating: [0xD0], count: count), referenceSize: 4)
        case .binaryRepeatedOffsets:
            // Object 0 refers to objects 1…count, whose offsets (4 bytes each, as its references)
            // are all the string's, after the array.
            let string = [0x5F, 0x11, 0x10, 0x00] + [UInt8](repeating: UInt8(ascii: "s"), count: 4096)
            let count = max(1, (size - string.count) / 8)
            var array = Self.arrayHeader(count)
            for index in 1...count { array += Self.bigEndian(index, width: 4) }
            var bytes = Array("bplist00".utf8) + array
            let stringOffset = bytes.count
            bytes += string
            let table = bytes.count
            bytes += Self.bigEndian(8, width: 4)
            for _ in 0..<count { bytes += Self.bigEndian(stringOffset, width: 4) }
            bytes += [0, 0, 0, 0, 0, 0, 4, 4] + Self.bigEndian(count + 1, width: 8) + Self.bigEndian(0, width: 8)
            return Data(bytes + Self.bigEndian(table, width: 8))
        case .binaryLongArrayAfterAnother:
            // Object 0 is [object 1, object 2]; object 1 is empty; object 2 refers to object 3 `count` times.
            let count = max(1, size - 64)
            return Self.binaryPropertyList(
                [[0xA2, 1, 2], [0xA0], Self.arrayHeader(count) + [UInt8](repeating: 3, count: count), [0x10, 0x07]],
                referenceSize: 1)
        case .binaryNestedClaims:
            // Array i's first reference (2 bytes) is to array i + 1; the last refers to the
            // integer, whose bytes and the zeros after it are the rest of every array's claim.
            let depth = 200
            let count = max(2, (size - 8 * depth) / 2)
            let arrays = (0..<depth).map { Self.arrayHeader(count) + Self.bigEndian($0 + 1, width: 2) }
            return Self.binaryPropertyList(arrays + [[0x10, 0x01] + [UInt8](repeating: 0, count: 2 * count)], referenceSize: 2)
        case .binarySiblingClaims:
            // Objects 0…65,494 are integers, 65,495…65,534 the arrays, 65,535 the top array of
            // them. Every array's elements run over the arrays after it and the block of
            // references to object 0; as references, the arrays' own header bytes name integers.
            let arrays = 40
            let integers = 65_536 - arrays - 1
            let claim = max(2, (size - 5 * 65_536) / 2)
            let count = claim & 0xFFFF < integers ? claim : claim - 64  // its low half names an integer too
            var objects = Array(repeating: [UInt8]([0x10, 0x01]), count: integers)
            objects += Array(repeating: Self.arrayHeader(count), count: arrays)
            objects[objects.count - 1] += [UInt8](repeating: 0, count: 2 * count)
            objects.append(Self.arrayHeader(arrays) + (0..<arrays).flatMap { Self.bigEndian(integers + $0, width: 2) })
            return Self.binaryPropertyList(objects, referenceSize: 2, top: objects.count - 1)
        case .binaryContainersListedTwice:
            // Object 0 is the integer, 1 the data (a third of the file), 2…101 the arrays and sets,
            // 102 the top array.
            let (containers, count) = (100, max(1, size * 2 / 300))
            let data = [0x4F, 0x12] + Self.bigEndian(size / 3, width: 4) + [UInt8](repeating: 0, count: size / 3)
            let array = Self.arrayHeader(count) + [UInt8](repeating: 0, count: count)
            let set = [0xCF] + array.dropFirst()
            let top = Self.arrayHeader(2 * containers) + (0..<2 * containers).map { UInt8(2 + $0 / 2) }
            return Self.binaryPropertyList(
                [[0x10, 0x01], data] + (0..<containers).map { $0 % 2 == 0 ? array : set } + [top], referenceSize: 1,
                top: containers + 2)
        case .binaryExpansion:
            let levels = (0..<40).map { level -> [UInt8] in [0xA2, UInt8(level + 1), UInt8(level + 1)] }
            return Self.binaryPropertyList(levels + [[0x10, 0x01]], referenceSize: 1)
        case .binaryClaimedObjects:
            return Self.binaryPropertyList([[0x10, 0x01]], referenceSize: 1, claimedObjects: 1 << 40)
        case .binaryClaimedCount:
            return Self.binaryPropertyList([[0xAF, 0x13] + Self.bigEndian(1 << 40, width: 8)], referenceSize: 1)
        }
    }

    // MARK: - Binary property lists

    /// An array marker with a count that follows as a 4-byte integer.
    private static func arrayHeader(_ count: Int) -> [UInt8] { [0xAF, 0x12] + bigEndian(count, width: 4) }

    private static func bigEndian(_ value: Int, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    /// A binary property list of `objects` (each its marker and payload, references
    /// `referenceSize` bytes wide), object `top` at the top, offsets as narrow as they fit, whose
    /// trailer claims `claimedObjects` objects when given: for hand-made hostile files.
    ///
    /// ```swift
    /// // Object 0 is an array whose one element is object 0.
    /// let cycle = HostileInput.binaryPropertyList([[0xA1, 0x00]], referenceSize: 1)
    /// ```
    public static func binaryPropertyList(
        _ objects: [[UInt8]], referenceSize: Int, top: Int = 0, claimedObjects: Int? = nil
    ) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for object in objects {
            offsets.append(bytes.count)
            bytes += object
        }
        let table = bytes.count
        let offsetSize = table < 1 << 8 ? 1 : table < 1 << 16 ? 2 : 4
        for offset in offsets { bytes += bigEndian(offset, width: offsetSize) }
        bytes += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
        bytes += bigEndian(claimedObjects ?? objects.count, width: 8) + bigEndian(top, width: 8) + bigEndian(table, width: 8)
        return Data(bytes)
    }
}

extension Benchmark {
    /// `amc bench --hostile`: each ``HostileInput`` read by `AMC.lint` at 1, 4 and 16 MB (median of
    /// `repetitions` runs, in this process) and by `amc lint` in a process of its own (`amc` is
    /// the path of the tool), whose peak memory beyond the tool's own, divided by the file's size,
    /// is the multiple ``HostileInput/memoryMultiple`` bounds. Time per MB that stays flat across
    /// the sizes is linear time.
    ///
    /// ```swift
    /// print(try Benchmark.hostile(amc: CommandLine.arguments[0]))
    /// ```
    public static func hostile(amc: String, repetitions: Int = 3) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func peak(_ data: Data) throws -> (MeasuredRun, Int) {
            let file = folder.appendingPathComponent("input")
            try data.write(to: file)
            return (try MeasuredRun(executable: amc, arguments: ["lint", file.path]), data.count)
        }
        let baseline = try peak(Data("[1]".utf8)).0.peakBytes
        let sizes = [1 << 20, 4 << 20, 16 << 20]
        var lines = [
            "AMC.lint: median of \(repetitions) runs, ms per MB at 1, 4 and 16 MB (flat = linear time);",
            "memory: amc lint's peak beyond its own \(baseline >> 20) MB, as a multiple of the file's size (bound: \(HostileInput.memoryMultiple)x)",
            "input".padding(toLength: 38, withPad: " ", startingAt: 0) + "  outcome    ms/MB 1 MB   4 MB  16 MB    memory",
        ]
        for input in HostileInput.allCases {
            var line = input.rawValue.padding(toLength: 38, withPad: " ", startingAt: 0)
            line += input.isRefused ? "  refused  " : "  read     "
            for size in input.scales ? sizes : [] {
                let data = input.data(size: size)
                var timings: [Double] = []
                for _ in 0..<repetitions {
                    let start = DispatchTime.now().uptimeNanoseconds
                    _ = try? AMC.lint(data)
                    timings.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                }
                line += String(format: "%7.1f", timings.sorted()[repetitions / 2] / (Double(data.count) / Double(1 << 20)))
            }
            if !input.scales { line += String(repeating: " ", count: 21) }
            let (run, bytes) = try peak(input.data(size: sizes.last!))
            guard run.status == (input.isRefused ? 1 : 0) else {
                throw CocoaError(
                    .featureUnsupported,
                    userInfo: [NSLocalizedDescriptionKey: "amc lint exited \(run.status) on \(input.rawValue)"])
            }
            let extra = max(0, run.peakBytes - baseline)
            line +=
                input.scales
                ? String(format: "%9.1fx", Double(extra) / Double(bytes))
                : String(format: "%7d KB", extra >> 10) + " (\(bytes) bytes)"
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
