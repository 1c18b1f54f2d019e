import Foundation

/// Writes a binary property list (`bplist00`) as the encoder walks the graph.
///
/// Scalars go into the object table as they arrive, numbered in order; a container is numbered
/// when it ends. Every reference takes the same width, the fewest bytes that hold the number of
/// objects, known only at the end: so the first containers wait for `finish()`, and once there are
/// too many objects for a narrower width (65,536 for 3 bytes), each is written as it ends, and a
/// large graph's references are not held to the end. A graph that outgrows even that width
/// (2²⁴ objects) is written again with wider references (``wider``). Keys and class names are
/// written once and shared, other strings when they repeat one met lately (``StringTable``),
/// numbers and dates when they repeat one of the last few thousand met (``NumberTable``).
///
/// ```swift
/// var writer = BinaryPlistWriter()
/// writer.beginArray()
/// try writer.scalar(.int(1))
/// writer.endArray()
/// let bytes = writer.finish()   // "bplist00", the 1, the array, offsets and trailer
/// ```
struct BinaryPlistWriter: EncodingSink {
    /// The bytes not passed on to ``link``'s drain yet (all of them, without one).
    private(set) var bytes: [UInt8] = Array("bplist00".utf8)
    /// Where the objects go as the writer goes, if anywhere (see ``ByteDrain``); the containers
    /// that wait, the offset table and the trailer follow in `finish()`.
    var link = DrainLink()
    /// Byte offset of each object; the containers that wait are placed by `finish()`.
    private var offsets = ObjectOffsets()
    /// References to the children of the open containers, innermost last. References and counts
    /// take 32 bits in the writer's tables (a graph of 4 billion objects would not fit in memory
    /// anyway): the tables are most of what a binary write holds beyond its output.
    private var childRefs: [UInt32] = []
    /// For each open container: whether it is a dictionary and where its children start in `childRefs`.
    private var open: [(isDictionary: Bool, start: Int)] = []
    /// Finished containers waiting for `finish()`, written with references narrower than
    /// `inlineWidth` (see ``WaitingContainers``). Only those that end before there are
    /// `inlineFrom` objects wait; the rest are written as they end.
    private var waiting: WaitingContainers
    /// The width of the references of containers written as they end.
    private let inlineWidth: Int
    /// The object count from which containers are written as they end: where a narrower width
    /// than `inlineWidth` no longer holds the count.
    private let inlineFrom: Int
    /// Whether a container was written as it ended, so references take `inlineWidth` bytes.
    private var wroteInline = false
    private var strings = StringTable()
    /// The object of each model key written, by the key's number (-1: not written): a key
    /// found without hashing its text (see ``InternedKey``).
    private var keyObjects: [Int] = []
    private var numbers = NumberTable()
    private var trueIndex: Int?
    private var falseIndex: Int?
    private var root: Int?
    /// The room the pending bytes were made with.
    private let capacity: Int

    /// A writer whose pending bytes have room for `capacity`. `inlineWidth` (2 to 8): the width
    /// of references once containers are written as they end, from the object count a narrower
    /// width no longer holds, or from the start when `inlineFromStart` (a graph written again,
    /// see ``wider``). Tests pass 2, to see graphs of a few hundred objects written both ways.
    init(capacity: Int = 4096, inlineWidth: Int = 3, inlineFromStart: Bool = false) {
        precondition((2...8).contains(inlineWidth), "references of \(inlineWidth) bytes")
        bytes.reserveCapacity(capacity)
        self.capacity = capacity
        self.inlineWidth = inlineWidth
        inlineFrom = inlineFromStart ? 0 : 1 << (8 * (inlineWidth - 1))
        waiting = WaitingContainers(width: inlineWidth - 1)
    }

    func fresh() -> BinaryPlistWriter {
        var writer = BinaryPlistWriter(capacity: capacity, inlineWidth: inlineWidth, inlineFromStart: inlineFrom == 0)
        writer.link.drain = link.drain
        return writer
    }

    /// A new writer to write the document again with, when this one wrote containers as they
    /// ended and the graph then outgrew their references' width (nil otherwise: ``finish()``'s
    /// document is right).
    ///
    /// ```swift
    /// if let wider = writer.wider { /* encode the graph again into `wider` */ }
    /// ```
    var wider: BinaryPlistWriter? {
        guard wroteInline, Self.byteCount(for: UInt64(offsets.count)) > inlineWidth else { return nil }
        return BinaryPlistWriter(inlineWidth: inlineWidth + 1, inlineFromStart: true)
    }

    mutating func beginDictionary() { open.append((true, childRefs.count)) }
    mutating func beginArray() { open.append((false, childRefs.count)) }
    mutating func endDictionary() { closeContainer() }
    mutating func endArray() { closeContainer() }

    mutating func key(_ key: String) { add(string(key, shared: true)) }

    mutating func key(_ key: InternedKey) { add(object(for: key)) }

    mutating func className(_ name: InternedKey) {
        add(object(for: InternedKey.classKey))
        add(object(for: name))
    }

    mutating func scalar(_ value: ArchiveScalar) throws {
        switch value {
        case let .string(text):
            add(string(text, shared: false))
        case let .bool(bool):
            if let index = bool ? trueIndex : falseIndex { return add(index) }
            let index = newObject()
            bytes.append(bool ? 0x09 : 0x08)
            if bool { trueIndex = index } else { falseIndex = index }
            add(index)
        case let .int(int):
            guard let index = newNumber(kind: 0x10, bits: UInt64(bitPattern: int)) else { return }
            add(index)
            appendInteger(int)
        case let .uint(uint):
            guard uint > UInt64(Int64.max) else { return try scalar(.int(Int64(uint))) }
            guard let index = newNumber(kind: 0x14, bits: uint) else { return }
            add(index)
            bytes.append(0x14)  // 16 bytes, as Foundation writes integers above Int64.max
            bytes.appendBigEndian(0, width: 8)
            bytes.appendBigEndian(uint, width: 8)
        case let .float(float):
            guard let index = newNumber(kind: 0x22, bits: UInt64(float.bitPattern)) else { return }
            add(index)
            bytes.append(0x22)
            bytes.appendBigEndian(UInt64(float.bitPattern), width: 4)
        case let .double(double):
            guard let index = newNumber(kind: 0x23, bits: double.bitPattern) else { return }
            add(index)
            bytes.append(0x23)
            bytes.appendBigEndian(double.bitPattern, width: 8)
        case let .date(date):
            let bits = date.timeIntervalSinceReferenceDate.bitPattern
            guard let index = newNumber(kind: 0x33, bits: bits) else { return }
            add(index)
            bytes.append(0x33)
            bytes.appendBigEndian(bits, width: 8)
        case let .data(data):
            add(newObject())
            appendMarker(0x40, count: data.count)
            bytes.append(contentsOf: data)
        case .null:
            throw AMCError(.unsupportedType(typeName: "null", reason: "property lists have no null"))
        }
    }

    typealias Mark = (bytes: Int, objects: Int, childRefs: Int, open: Int, waiting: WaitingContainers.Mark)

    mutating func mark() -> Mark {
        (link.size(with: bytes), offsets.count, childRefs.count, open.count, waiting.mark)
    }

    mutating func rewind(to mark: Mark) {
        link.rewind(&bytes, to: mark.bytes)
        offsets.removeLast(offsets.count - mark.objects)
        childRefs.removeLast(childRefs.count - mark.childRefs)
        open.removeLast(open.count - mark.open)
        waiting.rewind(to: mark.waiting)
        let objectCount = mark.objects
        strings.removeObjects(from: objectCount)
        for number in keyObjects.indices where keyObjects[number] >= objectCount { keyObjects[number] = -1 }
        numbers.removeObjects(from: objectCount)
        if (trueIndex ?? 0) >= objectCount { trueIndex = nil }
        if (falseIndex ?? 0) >= objectCount { falseIndex = nil }
    }

    /// Writes the containers, the offset table and the trailer; returns what was not passed on
    /// to ``link``'s drain.
    mutating func finish() -> [UInt8] {
        let objectCount = offsets.count
        // Wide enough for the object count itself, not only the largest reference: readers
        // (CoreFoundation's among them) refuse 256 objects with 1-byte references. (After a
        // rewind, containers written as they ended may hold a wider width than the count needs.)
        let refSize = wroteInline ? inlineWidth : Self.byteCount(for: UInt64(objectCount))
        waiting.write(into: &bytes, link: &link, offsets: &offsets, width: refSize)
        let tableOffset = link.size(with: bytes)
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        offsets.forEachOffset { bytes.appendBigEndian(UInt64($0), width: offsetSize) }
        bytes.append(0, times: 6)
        bytes.append(UInt8(offsetSize))
        bytes.append(UInt8(refSize))
        bytes.appendBigEndian(UInt64(objectCount), width: 8)
        bytes.appendBigEndian(UInt64(root ?? 0), width: 8)
        bytes.appendBigEndian(UInt64(tableOffset), width: 8)
        return bytes
    }

    // MARK: - Objects

    /// A new object for a number or date, or nil when the same value was written before: then
    /// the reference to that one is added.
    private mutating func newNumber(kind: UInt8, bits: UInt64) -> Int? {
        let (shared, slot) = numbers.lookup(kind: kind, bits: bits)
        if let shared {
            add(shared)
            return nil
        }
        let index = newObject()
        numbers.add(kind: kind, bits: bits, object: index, slot: slot)
        return index
    }

    private mutating func newObject() -> Int {
        link.settle(&bytes)  // the previous object is complete
        offsets.append(link.size(with: bytes))
        return offsets.count - 1
    }

    /// A reference to object `index` from the innermost open container (or the root).
    private mutating func add(_ index: Int) {
        if open.isEmpty { root = index } else { childRefs.append(UInt32(index)) }
    }

    private mutating func closeContainer() {
        let (isDictionary, start) = open.removeLast()
        let count = childRefs.count - start
        let index: Int
        if offsets.count >= inlineFrom {
            index = newObject()
            wroteInline = true
            Self.appendContainer(childRefs, start..<childRefs.count, isDictionary: isDictionary, width: inlineWidth, to: &bytes)
        } else {
            index = offsets.count
            offsets.append(0)  // placed by `finish()`
            waiting.add(index: index, refs: childRefs, start..<childRefs.count, isDictionary: isDictionary)
        }
        childRefs.removeLast(count)
        add(index)
    }

    /// A container's marker and references, `width` bytes each: `positions` are where its
    /// children's references are in `refs`, in order (key, value, key, value… for a dictionary,
    /// whose keys are written first, then its values). Positions, not a slice: a slice took a
    /// retain and a release of the array's storage per container.
    static func appendContainer(
        _ refs: [UInt32], _ positions: Range<Int>, isDictionary: Bool, width: Int, to out: inout [UInt8]
    ) {
        // The usual widths spelled out: a loop over the width's bytes cost more than the bytes.
        func append(_ position: Int) {
            let reference = refs[position]
            switch width {
            case 2:
                out.append(UInt8(truncatingIfNeeded: reference >> 8))
                out.append(UInt8(truncatingIfNeeded: reference))
            case 3:
                out.append(UInt8(truncatingIfNeeded: reference >> 16))
                out.append(UInt8(truncatingIfNeeded: reference >> 8))
                out.append(UInt8(truncatingIfNeeded: reference))
            default:
                out.appendBigEndian(UInt64(reference), width: width)
            }
        }
        if isDictionary {
            appendMarker(0xD0, count: positions.count / 2, to: &out)
            for position in stride(from: positions.lowerBound, to: positions.upperBound, by: 2) { append(position) }
            for position in stride(from: positions.lowerBound + 1, to: positions.upperBound, by: 2) { append(position) }
        } else {
            appendMarker(0xA0, count: positions.count, to: &out)
            for position in positions { append(position) }
        }
    }

    /// The string object of a model key, written on first use and then found by the key's number.
    private mutating func object(for key: InternedKey) -> Int {
        if key.number < keyObjects.count, keyObjects[key.number] >= 0 { return keyObjects[key.number] }
        let index = string(key.text, shared: true)
        if key.number >= keyObjects.count {
            keyObjects.append(contentsOf: repeatElement(-1, count: key.number + 1 - keyObjects.count))
        }
        keyObjects[key.number] = index
        return index
    }

    /// The object for `text`, written on first use: ASCII as bytes, anything else as UTF-16BE.
    /// `shared`: a key or class name, looked up among all written so far.
    private mutating func string(_ text: String, shared: Bool) -> Int {
        let lookup = shared ? strings.lookupExact(text) : strings.lookupRecent(text)
        if let index = lookup.object { return index }
        let utf8 = text.utf8
        let index = newObject()
        strings.add(text, at: lookup, object: index)
        if utf8.count == text.utf16.count {  // only ASCII has as many UTF-8 bytes as UTF-16 units
            appendMarker(0x50, count: utf8.count)
            bytes.append(contentsOf: utf8)
        } else {
            appendUTF16(of: text)
        }
        return index
    }

    /// A UTF-16BE string object, transcoded straight from the string's UTF-8 (valid, as every
    /// `String`'s is): a unit per scalar, two (a surrogate pair) from U+10000 on.
    private mutating func appendUTF16(of text: String) {
        ByteView.withBytes(of: text) { utf8 in
            var units = 0
            for index in 0..<utf8.count where utf8[index] & 0xC0 != 0x80 {  // each scalar's first byte
                units += utf8[index] >= 0xF0 ? 2 : 1
            }
            appendMarker(0x60, count: units)
            bytes.reserveCapacity(bytes.count + 2 * units)
            var index = 0
            while index < utf8.count {
                let lead = UInt32(utf8[index])
                func next(_ offset: Int) -> UInt32 { UInt32(utf8[index + offset] & 0x3F) }
                let scalar: UInt32
                switch lead {
                case ..<0x80:
                    scalar = lead
                    index += 1
                case ..<0xE0:
                    scalar = (lead & 0x1F) << 6 | next(1)
                    index += 2
                case ..<0xF0:
                    scalar = (lead & 0x0F) << 12 | next(1) << 6 | next(2)
                    index += 3
                default:
                    scalar = (lead & 0x07) << 18 | next(1) << 12 | next(2) << 6 | next(3)
                    index += 4
                }
                if scalar >= 0x10000 {
                    let offset = scalar - 0x10000
                    bytes.appendBigEndian(UInt64(0xD800 | offset >> 10), width: 2)
                    bytes.appendBigEndian(UInt64(0xDC00 | offset & 0x3FF), width: 2)
                } else {
                    bytes.appendBigEndian(UInt64(scalar), width: 2)
                }
            }
        }
    }

    private mutating func appendInteger(_ value: Int64) { Self.appendInteger(value, to: &bytes) }

    private mutating func appendMarker(_ marker: UInt8, count: Int) { Self.appendMarker(marker, count: count, to: &bytes) }

    /// An integer in the fewest bytes: 1, 2 or 4 unsigned, else 8 (the only signed width).
    static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        guard value >= 0 else {
            out.append(0x13)
            out.appendBigEndian(UInt64(bitPattern: value), width: 8)
            return
        }
        let width = Self.width(for: UInt64(value))
        out.append(0x10 | UInt8(width.trailingZeroBitCount))
        out.appendBigEndian(UInt64(value), width: width)
    }

    /// A marker with the count in its low nibble, or 0xF and the count as an integer object.
    static func appendMarker(_ marker: UInt8, count: Int, to out: inout [UInt8]) {
        if count < 15 {
            out.append(marker | UInt8(count))
        } else {
            out.append(marker | 0x0F)
            appendInteger(Int64(count), to: &out)
        }
    }

    /// 1 to 8: the fewest bytes that hold an unsigned value, the width of references and offsets
    /// (any width reads; swift-foundation's `PropertyListEncoder` writes 3-byte offsets too).
    private static func byteCount(for value: UInt64) -> Int {
        max(1, (64 - value.leadingZeroBitCount + 7) / 8)
    }

    /// 1, 2, 4 or 8: the bytes an unsigned value needs as an integer object, whose width is a
    /// power of two.
    private static func width(for value: UInt64) -> Int {
        value <= 0xFF ? 1 : value <= 0xFFFF ? 2 : value <= 0xFFFF_FFFF ? 4 : 8
    }
}

/// The containers of a binary property list that wait for the end, written as they end with
/// references `width` bytes wide (the fewest that hold the object numbers they can refer to: 2
/// while a graph has under 65,536 objects), into blocks of 32 KB that never move, beside each
/// one's object number. Two bytes a reference and four an object number: the references waited
/// in 4 bytes each, and the containers in 8.
///
/// At the end the blocks are passed on as they are when the document's references take `width`
/// bytes, as they do in a graph of 256 to 65,535 objects; otherwise each container is written
/// again with the document's width.
///
/// ```swift
/// var waiting = WaitingContainers(width: 2)
/// waiting.add(index: 2, refs: [0, 1], 0..<2, isDictionary: false)   // [object 0, object 1]
/// var out: [UInt8] = [], link = DrainLink(), offsets = ObjectOffsets()
/// for offset in [8, 9, 0] { offsets.append(offset) }
/// waiting.write(into: &out, link: &link, offsets: &offsets, width: 1)   // out: A2 00 01
/// ```
struct WaitingContainers {
    /// The width of the references written here.
    let width: Int
    /// The full blocks, and the one being filled. A container is never split between two.
    private var blocks: [[UInt8]] = []
    private var last: [UInt8] = []
    /// Each container's object number, in order.
    private var indexes = ChunkedArray<UInt32>()

    static let blockSize = 32 * 1024

    init(width: Int) {
        precondition((1...7).contains(width), "references of \(width) bytes")
        self.width = width
    }

    /// A point to rewind to (see ``BinaryPlistWriter/mark()``).
    struct Mark {
        fileprivate let containers: Int
        fileprivate let blocks: Int
        fileprivate let bytes: Int
    }

    var mark: Mark { Mark(containers: indexes.count, blocks: blocks.count, bytes: last.count) }

    /// Forgets the containers added since `mark`.
    mutating func rewind(to mark: Mark) {
        indexes.removeLast(indexes.count - mark.containers)
        if blocks.count > mark.blocks {
            last = blocks[mark.blocks]
            blocks.removeLast(blocks.count - mark.blocks)
        }
        last.removeLast(last.count - mark.bytes)
    }

    /// Adds container `index`, whose children's references are at `positions` in `refs`.
    mutating func add(index: Int, refs: [UInt32], _ positions: Range<Int>, isDictionary: Bool) {
        let most = 10 + positions.count * width  // a marker and a count take 10 bytes at most
        if last.count + most > last.capacity {
            if !last.isEmpty {
                blocks.append(last)
                last = []
            }
            last.reserveCapacity(max(Self.blockSize, most))
        }
        indexes.append(UInt32(index))
        BinaryPlistWriter.appendContainer(refs, positions, isDictionary: isDictionary, width: width, to: &last)
    }

    /// Writes every container into `out` with references `outWidth` bytes wide, each one's
    /// offset into `offsets`, passing blocks on to `link`'s drain as they fill; then empties.
    mutating func write(into out: inout [UInt8], link: inout DrainLink, offsets: inout ObjectOffsets, width outWidth: Int) {
        if !last.isEmpty { blocks.append(last) }
        last = []
        var container = 0
        for block in blocks {
            var position = 0
            if outWidth == width {  // as they are
                let start = link.size(with: out)
                while position < block.count {
                    offsets[Int(indexes[container])] = start + position
                    let (header, count) = Self.header(at: position, in: block)
                    position += header + count * width
                    container += 1
                }
                out.append(contentsOf: block)
                link.settle(&out)
                continue
            }
            while position < block.count {
                offsets[Int(indexes[container])] = link.size(with: out)
                let (header, count) = Self.header(at: position, in: block)
                for index in position..<(position + header) { out.append(block[index]) }
                position += header
                let end = position + count * width
                if width == 2, outWidth == 3 {  // a graph grown past 65,536 objects
                    while position < end {
                        out.append(0)
                        out.append(block[position])
                        out.append(block[position + 1])
                        position += 2
                    }
                } else {
                    while position < end {
                        var value: UInt64 = 0
                        for index in position..<(position + width) { value = value << 8 | UInt64(block[index]) }
                        out.appendBigEndian(value, width: outWidth)
                        position += width
                    }
                }
                container += 1
                link.settle(&out)
            }
        }
        self = WaitingContainers(width: width)
    }

    /// The length of the marker and count of the container at `position` in `block`, and how
    /// many references follow (two a dictionary's entry).
    private static func header(at position: Int, in block: [UInt8]) -> (header: Int, references: Int) {
        let marker = block[position]
        let perEntry = marker & 0xF0 == 0xD0 ? 2 : 1
        guard marker & 0x0F == 0x0F else { return (1, Int(marker & 0x0F) * perEntry) }
        let size = 1 << Int(block[position + 1] & 0x0F)
        var count = 0
        for index in (position + 2)..<(position + 2 + size) { count = count << 8 | Int(block[index]) }
        return (2 + size, count * perEntry)
    }
}

/// The byte offset of each object of a binary property list being written: 4 bytes each while the
/// document is under 4 GB, 8 from the first offset past it, in chunks that never move (an array
/// that doubled left its old storage behind, as much again: see ``ChunkedArray``).
///
/// ```swift
/// var offsets = ObjectOffsets()
/// offsets.append(8)
/// offsets.append(5_000_000_000)   // from here on, every offset takes 8 bytes
/// ```
struct ObjectOffsets {
    private var narrow = ChunkedArray<UInt32>()
    private var wide: ChunkedArray<Int>?

    var count: Int { wide?.count ?? narrow.count }

    mutating func append(_ offset: Int) {
        if wide == nil, let small = UInt32(exactly: offset) { return narrow.append(small) }
        widen()
        wide?.append(offset)
    }

    subscript(index: Int) -> Int {
        get { wide?[index] ?? Int(narrow[index]) }
        set {
            if wide == nil, let small = UInt32(exactly: newValue) {
                narrow[index] = small
                return
            }
            widen()
            wide?[index] = newValue
        }
    }

    mutating func removeLast(_ count: Int) {
        if wide != nil { wide?.removeLast(count) } else { narrow.removeLast(count) }
    }

    /// Calls `body` with each offset in order, a chunk at a time.
    func forEachOffset(_ body: (Int) -> Void) {
        if let wide { wide.forEachEntry(body) } else { narrow.forEachEntry { body(Int($0)) } }
    }

    private mutating func widen() {
        guard wide == nil else { return }
        var all = ChunkedArray<Int>()
        narrow.forEachEntry { all.append(Int($0)) }
        wide = all
        narrow = ChunkedArray()
    }
}
