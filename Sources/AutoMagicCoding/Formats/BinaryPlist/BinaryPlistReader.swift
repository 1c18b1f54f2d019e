import Foundation

/// Parses a binary property list (`bplist00`) into a ``DocumentTape``.
///
/// Every offset, count and reference is checked against the file before it is used; an object
/// that contains itself is an error; objects shared by several containers are parsed at most
/// twice, and the whole may expand to at most a bounded multiple of the file's size, so a small
/// hostile file cannot make the decoder build an enormous graph.
struct BinaryPlistReader {
    private typealias Slot = DocumentTape.Slot

    private let bytes: ByteView
    private let offsetSize: Int
    private let refSize: Int
    private let objectCount: Int
    private let tableOffset: Int
    /// Objects met more than once (keys, shared numbers), parsed, with the number of values each
    /// expands to. An object is kept here on its second visit: most are met once, and keeping
    /// each of those took a tenth of reading.
    private var shared: [(slot: Slot, size: Int)] = []
    /// For each object: whether it was visited before (``visited``) and is being parsed now
    /// (``inProgress``), and above those bits its place in ``shared`` plus one, once it is there.
    private var state: [UInt32]
    private static let visited: UInt32 = 1
    private static let inProgress: UInt32 = 2
    private static let sharedShift: UInt32 = 2
    private var nesting = NestingDepth()
    private let maximumExpansion: Int
    /// The most values the tape may hold: as many as the file has room for references (at least
    /// 65,536). Containers whose references do not overlap hold no more; containers that each
    /// claim the same block of the file made a 1 MB file take 270 MB. (A shared container is read
    /// twice before it is kept, so a file whose shared containers are most of it may pass this:
    /// it is refused, where reading it would take more memory than the bound on hostile files.)
    private let maximumValues: Int
    /// Whether a dictionary read may be a reference (see ``ParsedDocument/holdsReferences``).
    private var holdsReferences = false
    /// For each object, the first object of the table at its offset (see ``readOffsetTable()``);
    /// empty when no two share one, as in every file a writer made.
    private var firstAtOffset: [Int] = []
    private var tape: TapeBuilder

    /// The document `data` holds, and whether it may hold references.
    static func parse(_ data: Data) throws -> (value: ArchiveValue, holdsReferences: Bool) {
        try ByteView.withBytes(of: data) { bytes in
            var reader = try BinaryPlistReader(bytes: bytes)
            try reader.readTop()
            return (reader.tape.finish(source: nil), reader.holdsReferences)
        }
    }

    /// Whether reading `data`, to its end or to its error, kept the tape within the room set aside
    /// for it (see ``readOffsetTable()``), for tests: a tape that outgrows it is copied, and holds
    /// the old and the new array at once.
    static func keepsTapeInItsRoom(_ data: Data) -> Bool {
        ByteView.withBytes(of: data) { bytes in
            guard var reader = try? BinaryPlistReader(bytes: bytes) else { return true }
            try? reader.readTop()
            return reader.tape.isWithinRoom
        }
    }

    /// Reads the offset table and the top object, whose slot is then the tape's one open value.
    private mutating func readTop() throws {
        try readOffsetTable()
        let top = uint(at: bytes.count - 16, width: 8)
        guard top < UInt64(objectCount) else {
            throw error("the top object \(top) is not in the table of \(objectCount)", at: bytes.count - 16)
        }
        tape.append(try object(Int(top)).slot)
    }

    /// The marker byte of every object in the table of `data`, in table order: what each object
    /// is (`0xC_` a set, `0xA_` an array), for tests that compare files with other readers.
    static func markers(in data: Data) throws -> [UInt8] {
        try ByteView.withBytes(of: data) { bytes in
            let reader = try BinaryPlistReader(bytes: bytes)
            return try (0..<reader.objectCount).map { bytes[try reader.offset(of: $0)] }
        }
    }

    private init(bytes: ByteView) throws {
        self.bytes = bytes
        let trailerStart = bytes.count - 32
        guard bytes.matches("bplist00", at: 0), trailerStart >= 8 else {
            throw Self.error("too short for a binary property list (\(bytes.count) bytes)", at: bytes.count)
        }
        offsetSize = Int(bytes[trailerStart + 6])
        refSize = Int(bytes[trailerStart + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw Self.error("invalid offset or reference size in the trailer", at: trailerStart + 6)
        }
        let count = bytes.bigEndian(at: trailerStart + 8, width: 8)
        let table = bytes.bigEndian(at: trailerStart + 24, width: 8)
        // The offset table must lie between the header and the trailer and, as CoreFoundation
        // requires, end where the trailer starts: bytes between them mean a damaged file. (Unlike
        // CoreFoundation, 256 objects with 1-byte references are read: earlier versions of this
        // package wrote such files.)
        guard count >= 1, table >= 9, table < UInt64(trailerStart),
            count <= (UInt64(trailerStart) - table) / UInt64(offsetSize)
        else {
            throw Self.error("the object table (\(count) objects at \(table)) does not fit the file", at: trailerStart + 8)
        }
        let gap = UInt64(trailerStart) - table - count * UInt64(offsetSize)
        guard gap == 0 else {
            throw Self.error("\(gap) bytes lie between the offset table and the trailer", at: trailerStart - Int(gap))
        }

        objectCount = Int(count)
        tableOffset = Int(table)
        state = Array(repeating: 0, count: objectCount)
        maximumExpansion = max(1 << 20, bytes.count * 16)
        maximumValues = max(1 << 16, (Int(table) - 8) / refSize + 1)
        tape = .unstarted  // made for the document by `readOffsetTable()`
    }

    // MARK: - Objects

    /// Checks every entry of the offset table, used or not, as CoreFoundation checks them: a table
    /// with garbage in it is a damaged file, even where the objects read do not use it. Objects
    /// listed at one offset are made one object (``firstAtOffset``): each would otherwise be parsed
    /// on its own, and a small file listing one long string at thousands of entries would take
    /// memory and time out of proportion to its size. Offsets already met are found in a bitmap
    /// of the bytes before the table (an eighth of them); only a file that repeats one looks
    /// further.
    ///
    /// The same pass adds up the containers' counts (arrays', sets' and dictionaries'), which is
    /// how many values the tape keeps when no container is shared. A shared container is parsed
    /// at most twice, so room for twice that many (at most ``maximumValues``, and the root's slot)
    /// is set aside at once: the tape is never copied as it grows, which holds the old and the new
    /// array at once (`HostileInput.binaryContainersListedTwice` took 22 times its size with room
    /// for the counts alone), and the pages it does not fill are never taken from the system.
    private mutating func readOffsetTable() throws {
        var met = [UInt64](repeating: 0, count: tableOffset / 64 + 1)
        var repeats = false
        var values = 1
        for index in 0..<objectCount {
            let offset = try offset(of: index)
            let bit: UInt64 = 1 << (offset & 63)
            if met[offset >> 6] & bit != 0 { repeats = true }
            met[offset >> 6] |= bit
            let kind = bytes[offset] >> 4
            if kind == 0xA || kind == 0xC || kind == 0xD,
                let (count, _) = try? count(at: offset, unit: kind == 0xD ? 2 * refSize : refSize)
            {
                values = min(values + (kind == 0xD ? 2 * count : count), maximumValues)  // the most the tape holds
            }
        }
        tape = TapeBuilder(runs: min(2 * values, maximumValues) + 1)
        guard repeats else { return }
        var first: [Int: Int] = [:]
        firstAtOffset = try (0..<objectCount).map { index in
            let offset = try offset(of: index)
            if let earlier = first[offset] { return earlier }
            first[offset] = index
            return index
        }
    }

    private mutating func object(_ index: Int) throws -> (slot: Slot, size: Int) {
        let index = firstAtOffset.isEmpty ? index : firstAtOffset[index]
        if case let place = state[index] >> Self.sharedShift, place != 0 { return shared[Int(place) - 1] }
        let offset = try self.offset(of: index)
        guard state[index] & Self.inProgress == 0 else { throw error("object \(index) contains itself", at: offset) }
        state[index] |= Self.inProgress
        defer { state[index] &= ~Self.inProgress }
        let result = try parseObject(at: offset)
        guard result.size <= maximumExpansion else {
            throw error("shared objects expand to more than \(maximumExpansion) values", at: offset)
        }
        return visited(index, result)
    }

    /// `result`, object `index` just parsed, noted as visited; kept in ``shared`` when it was
    /// visited before.
    private mutating func visited(_ index: Int, _ result: (slot: Slot, size: Int)) -> (slot: Slot, size: Int) {
        if state[index] & Self.visited == 0 {
            state[index] |= Self.visited
        } else if shared.count < Int(UInt32.max >> Self.sharedShift) {
            // A string met again becomes a key, found by its bytes: every later use of it, as a
            // key or a value, is then one string, made once (a file that lists one long string
            // thousands of times does not make it thousands of times).
            var kept = result
            if kept.slot.kind == .unescaped { kept.slot = tape.key(kept.slot, in: bytes) }
            shared.append(kept)
            state[index] |= UInt32(shared.count) << Self.sharedShift
            return kept
        }
        return result
    }

    private mutating func parseObject(at offset: Int) throws -> (slot: Slot, size: Int) {
        switch bytes[offset] >> 4 {
        case 0xA, 0xC: return try array(at: offset)
        case 0xD: return try dictionary(at: offset)
        default: return (try scalar(at: offset), 1)
        }
    }

    /// Any object but a container: a function of its own, so that its frame (large in a debug
    /// build) is not on the stack of every level of nesting.
    @inline(never)
    private mutating func scalar(at offset: Int) throws -> Slot {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return Slot(.null)
            case 0x08: return Slot(.bool, payload: 0)
            case 0x09: return Slot(.bool, payload: 1)
            default: throw error("unknown object marker 0x\(ByteText.hex(marker))", at: offset)
            }
        case 0x1:
            switch try integer(at: offset) {
            case let .int(value): return Slot(.int, payload: UInt64(bitPattern: value))
            case let .uint(value): return Slot(.uint, payload: value)
            default: throw error("unknown object marker 0x\(ByteText.hex(marker))", at: offset)
            }
        case 0x2:
            switch low {
            case 2:
                let float = Float(bitPattern: UInt32(try uint(at: offset + 1, width: 4, from: offset)))
                return Slot(.double, payload: Double(float).bitPattern)
            case 3: return Slot(.double, payload: try uint(at: offset + 1, width: 8, from: offset))
            default: throw error("a real of \(1 << low) bytes", at: offset)
            }
        case 0x3:
            guard marker == 0x33 else { throw error("unknown object marker 0x\(ByteText.hex(marker))", at: offset) }
            return Slot(.date, payload: try uint(at: offset + 1, width: 8, from: offset))
        case 0x4:
            let (count, start) = try count(at: offset, unit: 1)
            guard let slot = tape.appendUnescaped(.data, bytes.view(start..<(start + count))) else {
                throw error(TapeBuilder.tooLong(.data), at: offset)
            }
            return slot
        case 0x5:
            return try unescaped(bytes.view(try asciiString(at: offset)), at: offset)
        case 0x6:
            let (count, start) = try count(at: offset, unit: 2)
            return try unescaped(try utf16String(count: count, at: start).utf8, at: offset)
        case 0x8:
            throw error("UID objects (from NSKeyedArchiver) are not supported", at: offset)
        default:
            throw error("unknown object marker 0x\(ByteText.hex(marker))", at: offset)
        }
    }

    /// The `key` slot of object `index`, a string, found by its bytes (see ``TapeBuilder/key(_:in:)``):
    /// a key that dictionaries repeat is a key slot already from its second use on (see
    /// ``object(_:)``).
    private mutating func key(_ index: Int, at position: Int) throws -> Slot {
        let object = firstAtOffset.isEmpty ? index : firstAtOffset[index]
        if state[object] >> Self.sharedShift == 0, case let offset = try self.offset(of: object), bytes[offset] >> 4 == 0x5 {
            // An ASCII string is found by its bytes where they are: nothing is copied for it.
            guard let text = TapeBuilder.slot(.text, try asciiString(at: offset)) else {
                throw error(TapeBuilder.tooLong(.unescaped), at: offset)
            }
            return visited(object, (tape.key(text, in: bytes), 1)).slot
        }
        let string = try self.object(index).slot
        if string.kind == .key { return string }
        guard string.kind == .unescaped else { throw error("a dictionary key that is not a string", at: position) }
        return tape.key(string, in: bytes)
    }

    /// A string's UTF-8 in the tape's `unescaped` bytes, its string made only when it is decoded
    /// (a dictionary key is found by its bytes, see ``dictionary(at:)``).
    private mutating func unescaped(_ utf8: some Collection<UInt8>, at offset: Int) throws -> Slot {
        guard let slot = tape.appendUnescaped(.unescaped, utf8) else { throw error(TapeBuilder.tooLong(.unescaped), at: offset) }
        return slot
    }

    /// The bytes of the ASCII string object at `offset`, checked to be ASCII.
    private func asciiString(at offset: Int) throws -> Range<Int> {
        let (count, start) = try count(at: offset, unit: 1)
        let range = start..<(start + count)
        guard bytes.isASCII(range) else {
            let high = bytes[range].firstIndex { $0 >= 0x80 } ?? start
            throw error("a non-ASCII byte in an ASCII string", at: high)
        }
        return range
    }

    private mutating func array(at offset: Int) throws -> (slot: Slot, size: Int) {
        let (count, start) = try count(at: offset, unit: refSize)
        try nesting.enter()
        defer { nesting.leave() }
        let first = try reserve(count, at: offset)
        var size = 1
        for position in 0..<count {
            let element = try object(try reference(at: start + position * refSize))
            tape.set(element.slot, at: first + position)
            size += element.size
            guard size <= maximumExpansion else { break }
        }
        return (TapeBuilder.container(.array, first: first, values: count), size)
    }

    private mutating func dictionary(at offset: Int) throws -> (slot: Slot, size: Int) {
        let (count, keysStart) = try count(at: offset, unit: refSize * 2)
        try nesting.enter()
        defer { nesting.leave() }
        let valuesStart = keysStart + count * refSize
        let first = try reserve(2 * count, at: offset)
        var repeated: Set<String>?
        var size = 1
        for position in 0..<count {
            let keyAt = keysStart + position * refSize
            let key = try key(try reference(at: keyAt), at: keyAt)
            if tape.isRepeated(key, inRun: first..<(first + 2 * position), seen: &repeated) {
                throw error(RepeatedKeys.reason(tape.string(key)), at: keyAt)
            }
            tape.set(key, at: first + 2 * position)
            let value = try object(try reference(at: valuesStart + position * refSize))
            tape.set(value.slot, at: first + 2 * position + 1)
            size += value.size + 1
            guard size <= maximumExpansion else { break }
        }
        if tape.isReference(inRun: first, count: count) { holdsReferences = true }
        return (TapeBuilder.container(.dictionary, first: first, values: 2 * count), size)
    }

    /// The run of `values` slots a container's values take in the tape, set aside as it opens:
    /// its count is in its header, so its values go straight to their places. Refused when the
    /// runs would take the tape past ``maximumValues``: claims are counted as they are made, so
    /// containers that claim the same block of the file take no more than that either.
    private mutating func reserve(_ values: Int, at offset: Int) throws -> Int {
        guard tape.valueCount + values <= maximumValues else {
            throw error("the containers hold more values than the file has room for references (\(maximumValues))", at: offset)
        }
        guard let first = tape.reserve(values) else { throw error(TapeBuilder.overflow, at: offset) }
        return first
    }

    // MARK: - Fields

    /// An integer object: 1, 2 or 4 bytes unsigned, 8 bytes signed, or 16 bytes (as Foundation
    /// writes values above `Int64.max`).
    private func integer(at offset: Int) throws -> ArchiveValue {
        let width = 1 << Int(bytes[offset] & 0x0F)
        switch width {
        case 1, 2, 4: return .int(Int64(try uint(at: offset + 1, width: width, from: offset)))
        case 8: return .int(Int64(bitPattern: try uint(at: offset + 1, width: 8, from: offset)))
        case 16:
            let high = try uint(at: offset + 1, width: 8, from: offset)
            let low = try uint(at: offset + 9, width: 8, from: offset)
            if high == 0 { return low <= UInt64(Int64.max) ? .int(Int64(low)) : .uint(low) }
            if high == .max, Int64(bitPattern: low) < 0 { return .int(Int64(bitPattern: low)) }
            throw error("a 128-bit integer that does not fit in 64 bits", at: offset)
        default:
            throw error("an integer of \(width) bytes", at: offset)
        }
    }

    /// The element count of the object at `offset` and where its elements start, checked to fit
    /// before the offset table with `unit` bytes per element.
    @inline(__always)
    private func count(at offset: Int, unit: Int) throws -> (count: Int, start: Int) {
        var count = Int(bytes[offset] & 0x0F)
        var start = offset + 1
        if count == 0x0F {
            guard start < tableOffset, bytes[start] >> 4 == 0x1 else { throw error("a count that is not an integer", at: start) }
            guard case let .int(value) = try integer(at: start), value >= 0 else {
                throw error("a negative or huge count", at: start)
            }
            start += 1 + (1 << Int(bytes[start] & 0x0F))
            guard value <= Int64(tableOffset) else { throw error("a count of \(value) runs past the object table", at: offset) }
            count = Int(value)
        }
        guard start <= tableOffset, count <= (tableOffset - start) / unit else {
            throw error("\(count) elements run past the object table", at: offset)
        }
        return (count, start)
    }

    /// A UTF-16BE string object, transcoded to UTF-8.
    private func utf16String(count: Int, at start: Int) throws -> String {
        do throws(UTF16Text.UnpairedSurrogate) {
            return try UTF16Text.string(bigEndian: bytes.view(start..<(start + 2 * count)))
        } catch {
            throw self.error("invalid UTF-16 (an unpaired surrogate)", at: start)
        }
    }

    @inline(__always)
    private func offset(of index: Int) throws -> Int {
        let at = tableOffset + index * offsetSize
        let offset = uint(at: at, width: offsetSize)
        guard offset >= 8, offset < UInt64(tableOffset) else {
            throw error("object \(index) has offset \(offset), outside the object data", at: at)
        }
        return Int(offset)
    }

    @inline(__always)
    private func reference(at position: Int) throws -> Int {
        let index = uint(at: position, width: refSize)
        guard index < UInt64(objectCount) else {
            throw error("a reference to object \(index) of \(objectCount)", at: position)
        }
        return Int(index)
    }

    /// A big-endian field of an object, checked to end before the offset table.
    @inline(__always)
    private func uint(at position: Int, width: Int, from object: Int) throws -> UInt64 {
        guard position + width <= tableOffset else { throw error("the object runs past the object table", at: object) }
        return uint(at: position, width: width)
    }

    @inline(__always)
    private func uint(at position: Int, width: Int) -> UInt64 {
        bytes.bigEndian(at: position, width: width)
    }

    private func error(_ reason: String, at offset: Int) -> AMCError {
        Self.error(reason, at: offset)
    }

    private static func error(_ reason: String, at offset: Int) -> AMCError {
        AMCError(.malformedData(format: .binaryPropertyList, location: .byteOffset(offset), reason: reason))
    }
}
