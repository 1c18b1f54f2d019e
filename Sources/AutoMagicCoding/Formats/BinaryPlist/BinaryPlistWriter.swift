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
/// numbers and dates when they repeat, unless few of those met do (``NumberTable``).
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
    private(set) var bytes: [UInt8] = AMCFormat.binaryMagic
    /// Where the objects go as the writer goes, if anywhere (see ``ByteDrain``); the containers
    /// that wait, the offset table and the trailer follow in `finish()`.
    var link = DrainLink()
    /// Byte offset of each object, in about a byte each; the containers that wait are placed by
    /// `finish()`. (The writer's tables are most of what a binary write holds beyond its output.)
    private var offsets = ObjectOffsets()
    /// References to the children of the open containers, innermost last, in 32 bits (a graph
    /// of 4 billion objects would not fit in memory anyway).
    private var childRefs: [UInt32] = []
    /// For each open container: whether it is a dictionary and where its children start in `childRefs`.
    private var open: [(isDictionary: Bool, start: Int)] = []
    /// Finished containers waiting for `finish()`, in order: each one's references are the next
    /// `count` of `refPool`, in the order they are written (a dictionary's keys, then its values).
    /// Only those that end before there are `inlineFrom` objects wait, so their references hold
    /// in 16 bits (see `init`; in 32, with 8 bytes a container, they were a large part of what a
    /// write of many small objects holds); the rest are written as they end. (In chunks, as the
    /// offsets: see ``ChunkedArray``.)
    private var containers = ChunkedArray<WaitingContainer>()
    private var refPool = ChunkedArray<UInt16>()
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
    /// The numbers of the keys written: a kept writer empties their entries alone, and keeps the
    /// table's length (key numbers are the process's, not the document's).
    private var keysWritten: [Int] = []
    private var numbers = NumberTable()
    /// The object of the reference to each entry of the object table written so far (-1: none),
    /// by entry: every reference to an entry is that one dictionary, a few bytes a reference
    /// rather than a dictionary and a string each. `entriesReferred` lists the entries in the
    /// order their references were written, so that a rewind forgets the later ones.
    private var entryReferences: [Int32] = []
    private var entriesReferred: [Int32] = []
    private var trueIndex: Int?
    private var falseIndex: Int?
    private var root: Int?
    /// The room the pending bytes were made with.
    private var capacity: Int

    /// A writer whose pending bytes have room for `capacity`. `inlineWidth` (2 to 8): the width
    /// of references once containers are written as they end, from the object count a narrower
    /// width no longer holds, or from the start when `inlineFromStart` (a graph written again,
    /// see ``wider``). Tests pass 2, to see graphs of a few hundred objects written both ways.
    /// Wider than 3 only from the start: the containers that wait hold 16-bit references.
    init(capacity: Int = 4096, inlineWidth: Int = defaultInlineWidth, inlineFromStart: Bool = false) {
        precondition((2...8).contains(inlineWidth), "references of \(inlineWidth) bytes")
        precondition(inlineWidth <= 3 || inlineFromStart, "containers that wait for references of \(inlineWidth) bytes")
        bytes.reserveCapacity(capacity)
        self.capacity = capacity
        self.inlineWidth = inlineWidth
        inlineFrom = Self.inlineFrom(width: inlineWidth, fromStart: inlineFromStart)
    }

    static let defaultInlineWidth = 3

    static var vacant: BinaryPlistWriter { BinaryPlistWriter(capacity: 0) }

    /// The object count from which containers are written as they end (see ``inlineFrom``).
    private static func inlineFrom(width: Int, fromStart: Bool) -> Int {
        fromStart ? 0 : 1 << (8 * (width - 1))
    }

    /// A writer as `init(capacity:)` makes one: one that a small document's write left (see
    /// ``recycle()``) when one is kept.
    static func reused(capacity: Int) -> BinaryPlistWriter {
        guard var writer = recycler.take() else { return BinaryPlistWriter(capacity: capacity) }
        writer.capacity = capacity
        writer.bytes.reserveCapacity(capacity)
        return writer
    }

    /// Keeps this finished writer's tables, emptied, for ``reused(capacity:)``: the tables of a
    /// document of a few objects, as ``init(capacity:)`` makes them (no larger ones are kept).
    consuming func recycle() {
        guard offsets.count <= Self.recycledObjects,
            inlineFrom == Self.inlineFrom(width: Self.defaultInlineWidth, fromStart: false)
        else { return }
        removeAll()
        Self.recycler.keep(self)
    }

    /// Forgets what was written: the writer is as new, with the room its tables took.
    mutating func removeAll() {
        bytes = AMCFormat.binaryMagic
        link = DrainLink()
        offsets.removeAll()
        childRefs.removeAllKeepingRoom()
        open.removeAllKeepingRoom()
        containers.removeAll()
        refPool.removeAll()
        wroteInline = false
        strings.removeAll()
        for number in keysWritten { keyObjects[number] = -1 }
        keysWritten.removeAllKeepingRoom()
        numbers.removeAll()
        entryReferences.removeAllKeepingRoom()
        entriesReferred.removeAllKeepingRoom()
        (trueIndex, falseIndex, root) = (nil, nil, nil)
    }

    private static let recycler = Recycler<BinaryPlistWriter>()
    /// The most objects of a writer kept for the next write.
    private static let recycledObjects = 1_024

    func restarted() -> BinaryPlistWriter {
        link.drain?.restart()
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
            Self.appendInteger(int, to: &bytes)
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
            Self.appendMarker(0x40, count: data.count, to: &bytes)
            bytes.append(contentsOf: data)
        case .null:
            throw AMCError(.unsupportedType(typeName: "null", reason: "property lists have no null"))
        case let .longNumber(text):
            throw AMCError(
                .unsupportedType(
                    typeName: "number", reason: "a binary property list's numbers have 64 bits, too few for \(text) exactly"))
        }
    }

    typealias Mark = (bytes: Int, offsets: ObjectOffsets.Mark, childRefs: Int, open: Int, containers: Int, refPool: Int)

    mutating func entryReference(_ entry: Int) {
        if entry < entryReferences.count, entryReferences[entry] >= 0 { return add(Int(entryReferences[entry])) }
        beginDictionary()
        key(ObjectReference.key)
        let prefix = ObjectTable.entryPrefixBytes
        var digits = 1
        var rest = entry
        while rest >= 10 {
            digits += 1
            rest /= 10
        }
        add(newObject())
        Self.appendMarker(0x50, count: prefix.count + digits, to: &bytes)
        bytes.append(bytesOf: prefix)
        bytes.appendDecimal(UInt64(entry))
        let reference = closeContainer()
        if entry >= entryReferences.count {
            entryReferences.append(contentsOf: repeatElement(-1, count: entry + 1 - entryReferences.count))
        }
        entryReferences[entry] = Int32(reference)
        entriesReferred.append(Int32(entry))
    }

    mutating func mark() -> Mark {
        (link.size(with: bytes), offsets.mark, childRefs.count, open.count, containers.count, refPool.count)
    }

    mutating func rewind(to mark: Mark) {
        link.rewind(&bytes, to: mark.bytes)
        offsets.rewind(to: mark.offsets)
        childRefs.removeLast(childRefs.count - mark.childRefs)
        open.removeLast(open.count - mark.open)
        containers.removeLast(containers.count - mark.containers)
        refPool.removeLast(refPool.count - mark.refPool)
        let objectCount = mark.offsets.count
        strings.removeObjects(from: objectCount)
        for number in keyObjects.indices where keyObjects[number] >= objectCount { keyObjects[number] = -1 }
        numbers.removeObjects(from: objectCount)
        while let entry = entriesReferred.last.map(Int.init), entryReferences[entry] >= objectCount {
            entryReferences[entry] = -1
            entriesReferred.removeLast()
        }
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
        let waitingStart = link.size(with: bytes)
        var waitingLength = 0
        for index in 0..<containers.count { waitingLength += containers[index].length(width: refSize) }
        let tableOffset = waitingStart + waitingLength
        let offsetSize = Self.byteCount(for: UInt64(tableOffset))
        var tail = Tail(
            containers: containers, refPool: refPool, offsets: offsets, refSize: refSize, offsetSize: offsetSize,
            waitingStart: waitingStart)
        let tailLength = waitingLength + objectCount * offsetSize + Self.trailerLength
        let trailer = (objectCount: objectCount, root: root ?? 0, tableOffset: tableOffset)
        // The containers, the offset table and the trailer are put together in room for them
        // (see ``ByteRoom``) and appended at once, not a byte at a time: a small document's all
        // in one room; a larger one's a container, or a batch of offsets, at a time, each block
        // passed on as it fills.
        if bytes.count + tailLength <= ByteDrain.blockSize {
            bytes.appendWritten(capacity: tailLength) { room in
                while tail.writeContainer(into: &room) {}
                tail.writeOffsets(objectCount, into: &room)
                Self.writeTrailer(trailer, offsetSize: offsetSize, refSize: refSize, into: &room)
            }
            return bytes
        }
        for index in 0..<containers.count {
            bytes.appendWritten(capacity: containers[index].length(width: refSize)) { _ = tail.writeContainer(into: &$0) }
            link.settle(&bytes)
        }
        // Passed on a block at a time, as the objects: the table is a few bytes an object, more
        // than the blocks of a document of small objects. (A batch is an eighth of a block: the
        // pending bytes stay within the room they have past a block, trailer included.)
        var left = objectCount
        while left > 0 {
            link.settle(&bytes)
            let batch = min(left, ByteDrain.blockSize / 8 / offsetSize)
            bytes.appendWritten(capacity: batch * offsetSize) { tail.writeOffsets(batch, into: &$0) }
            left -= batch
        }
        bytes.appendWritten(capacity: Self.trailerLength) {
            Self.writeTrailer(trailer, offsetSize: offsetSize, refSize: refSize, into: &$0)
        }
        return bytes
    }

    /// What ``finish()`` writes after the objects, written in order: the containers that waited,
    /// each with its references, then each object's offset.
    private struct Tail {
        let containers: ChunkedArray<WaitingContainer>
        let refPool: ChunkedArray<UInt16>
        let refSize: Int
        let offsetSize: Int
        private var placed: ObjectOffsets.Iterator
        private var nextContainer = 0
        private var nextRef = 0
        /// Where the next container that waited lies: they lie one after the other from where
        /// the objects end, in the order of their objects.
        private var waitingOffset: Int
        private var nextWaiting = 0

        init(
            containers: ChunkedArray<WaitingContainer>, refPool: ChunkedArray<UInt16>, offsets: ObjectOffsets,
            refSize: Int, offsetSize: Int, waitingStart: Int
        ) {
            (self.containers, self.refPool, self.refSize, self.offsetSize) = (containers, refPool, refSize, offsetSize)
            placed = offsets.makeIterator()
            waitingOffset = waitingStart
        }

        /// Writes the next container, its marker and references (``WaitingContainer/length(width:)``
        /// bytes); false when every one is written.
        mutating func writeContainer(into room: inout ByteRoom) -> Bool {
            guard nextContainer < containers.count else { return false }
            let container = containers[nextContainer]
            nextContainer += 1
            BinaryPlistWriter.appendMarker(of: container.isDictionary, count: container.count, to: &room)
            for ref in nextRef..<nextRef + container.count { room.appendBigEndian(UInt64(refPool[ref]), width: refSize) }
            nextRef += container.count
            return true
        }

        /// Writes the offsets of the next `count` objects, `offsetSize` bytes each.
        mutating func writeOffsets(_ count: Int, into room: inout ByteRoom) {
            for _ in 0..<count {
                guard let offset = placed.next() else { break }
                if let offset {
                    room.appendBigEndian(UInt64(offset), width: offsetSize)
                } else {
                    room.appendBigEndian(UInt64(waitingOffset), width: offsetSize)
                    waitingOffset += containers[nextWaiting].length(width: refSize)
                    nextWaiting += 1
                }
            }
        }
    }

    /// Writes the trailer: 6 unused bytes, the widths of offsets and references, the object
    /// count, the root's object and where the offset table starts.
    private static func writeTrailer(
        _ trailer: (objectCount: Int, root: Int, tableOffset: Int), offsetSize: Int, refSize: Int, into room: inout ByteRoom
    ) {
        room.appendBigEndian(0, width: 6)
        room.append(UInt8(offsetSize))
        room.append(UInt8(refSize))
        room.appendBigEndian(UInt64(trailer.objectCount), width: 8)
        room.appendBigEndian(UInt64(trailer.root), width: 8)
        room.appendBigEndian(UInt64(trailer.tableOffset), width: 8)
    }

    /// The bytes of the trailer (see ``writeTrailer(_:offsetSize:refSize:into:)``).
    private static let trailerLength = 32

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

    /// Ends the innermost open container; returns its object.
    @discardableResult
    private mutating func closeContainer() -> Int {
        let (isDictionary, start) = open.removeLast()
        let count = childRefs.count - start
        let index: Int
        if offsets.count >= inlineFrom {
            index = newObject()
            wroteInline = true
            appendContainer(from: start, isDictionary: isDictionary, width: inlineWidth)
        } else {
            index = offsets.count
            offsets.appendWaiting()
            containers.append(WaitingContainer(count: count, isDictionary: isDictionary))
            // One by one: a slice of `childRefs` took a retain and a release of its storage.
            // (Below `inlineFrom`, which is at most 2¹⁶, as the references to objects before it.)
            let order = Self.writtenOrder(from: start, to: childRefs.count, isDictionary: isDictionary)
            for position in order.first { refPool.append(UInt16(childRefs[position])) }
            for position in order.then { refPool.append(UInt16(childRefs[position])) }
        }
        childRefs.removeLast(count)
        add(index)
        return index
    }

    /// A container's marker and references, `width` bytes each: its children are those of
    /// `childRefs` from `start` on. A position, not a slice: a slice took a retain and a release
    /// of the array's storage per container.
    private mutating func appendContainer(from start: Int, isDictionary: Bool, width: Int) {
        Self.appendMarker(of: isDictionary, count: childRefs.count - start, to: &bytes)
        let order = Self.writtenOrder(from: start, to: childRefs.count, isDictionary: isDictionary)
        bytes.appendWritten(capacity: (childRefs.count - start) * width) { room in
            for position in order.first { room.appendBigEndian(UInt64(childRefs[position]), width: width) }
            for position in order.then { room.appendBigEndian(UInt64(childRefs[position]), width: width) }
        }
    }

    /// The positions `start..<end` of a container's children in `childRefs` (key, value, key,
    /// value… for a dictionary) in the order their references are written: all of them, or a
    /// dictionary's keys first, then its values.
    private static func writtenOrder(from start: Int, to end: Int, isDictionary: Bool)
        -> (first: StrideTo<Int>, then: StrideTo<Int>)
    {
        guard isDictionary else { return (stride(from: start, to: end, by: 1), stride(from: end, to: end, by: 1)) }
        return (stride(from: start, to: end, by: 2), stride(from: start + 1, to: end, by: 2))
    }

    /// The marker of a dictionary or an array of `count` references (a dictionary's count is
    /// its keys').
    private static func appendMarker(of isDictionary: Bool, count: Int, to bytes: inout some ByteOutput) {
        if isDictionary {
            appendMarker(0xD0, count: count / 2, to: &bytes)
        } else {
            appendMarker(0xA0, count: count, to: &bytes)
        }
    }

    /// The string object of a model key, written on first use and then found by the key's number.
    /// (Not through the string table: the number tells keys apart by their bytes already, and
    /// hashing each key of a small document into the table was a tenth of its write.)
    private mutating func object(for key: InternedKey) -> Int {
        if key.number < keyObjects.count, keyObjects[key.number] >= 0 { return keyObjects[key.number] }
        let index = newObject()
        bytes.append(bytesOf: key.binary)
        if key.number >= keyObjects.count {
            keyObjects.append(contentsOf: repeatElement(-1, count: key.number + 1 - keyObjects.count))
        }
        keyObjects[key.number] = index
        keysWritten.append(key.number)
        return index
    }

    /// The object for `text`, written on first use: ASCII as bytes, anything else as UTF-16BE.
    /// `shared`: a dictionary key, looked up among all written so far.
    /// (One look at the string's bytes for the lookup and the copy: each look took a retain and a
    /// release of the string, and copying through its `utf8` view two more.)
    private mutating func string(_ text: String, shared: Bool) -> Int {
        ByteView.withBytes(of: text) { utf8 in
            let lookup = shared ? strings.lookupExact(utf8) : strings.lookupRecent(utf8)
            if let index = lookup.object { return index }
            let index = newString(text, utf8: utf8)
            strings.add(text, at: lookup, object: index)
            return index
        }
    }

    /// A new string object for `text`, whose UTF-8 is `utf8` (see ``appendString(_:utf8:to:)``).
    private mutating func newString(_ text: String, utf8: ByteView) -> Int {
        let index = newObject()
        Self.appendString(text, utf8: utf8, to: &bytes)
        return index
    }

    /// The bytes of a string object for `text`, as the writer writes it: a model key's, made once
    /// (see ``InternedKey``) and copied into each document that writes the key.
    static func stringObject(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        ByteView.withBytes(of: text) { appendString(text, utf8: $0, to: &bytes) }
        return bytes
    }

    /// A string object for `text`, whose UTF-8 is `utf8`: ASCII as bytes, anything else as
    /// UTF-16BE.
    private static func appendString(_ text: String, utf8: ByteView, to bytes: inout [UInt8]) {
        if utf8.count == text.utf16.count {  // only ASCII has as many UTF-8 bytes as UTF-16 units
            appendMarker(0x50, count: utf8.count, to: &bytes)
            utf8.append(0..<utf8.count, to: &bytes)
        } else {
            appendUTF16(of: utf8, to: &bytes)
        }
    }

    /// A UTF-16BE string object, transcoded straight from a string's UTF-8 (valid, as every
    /// `String`'s is): a unit per scalar, two (a surrogate pair) from U+10000 on.
    private static func appendUTF16(of utf8: ByteView, to bytes: inout [UInt8]) {
        var units = 0
        for index in 0..<utf8.count where utf8[index] & 0xC0 != 0x80 {  // each scalar's first byte
            units += utf8[index] >= 0xF0 ? 2 : 1
        }
        appendMarker(0x60, count: units, to: &bytes)
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

    /// An integer in the fewest bytes: 1, 2 or 4 unsigned, else 8 (the only signed width).
    private static func appendInteger(_ value: Int64, to bytes: inout some ByteOutput) {
        guard value >= 0 else {
            bytes.append(0x13)
            bytes.appendBigEndian(UInt64(bitPattern: value), width: 8)
            return
        }
        let width = width(for: UInt64(value))
        bytes.append(0x10 | UInt8(width.trailingZeroBitCount))
        bytes.appendBigEndian(UInt64(value), width: width)
    }

    /// A marker with the count in its low nibble, or 0xF and the count as an integer object:
    /// ``markerLength(count:)`` bytes.
    private static func appendMarker(_ marker: UInt8, count: Int, to bytes: inout some ByteOutput) {
        if count < 15 {
            bytes.append(marker | UInt8(count))
        } else {
            bytes.append(marker | 0x0F)
            appendInteger(Int64(count), to: &bytes)
        }
    }

    /// The bytes of ``appendMarker(_:count:to:)``'s marker for `count`.
    fileprivate static func markerLength(count: Int) -> Int {
        count < 15 ? 1 : 2 + width(for: UInt64(count))
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

/// A container waiting for `finish()`: how many references it holds, with whether it is a
/// dictionary in the top bit, in 4 bytes (its object is the next that ``ObjectOffsets`` leaves
/// to place).
private struct WaitingContainer {
    private let countAndKind: UInt32

    init(count: Int, isDictionary: Bool) {
        precondition(count < 1 << 31, "a container of more than 2 billion references")
        countAndKind = UInt32(count) | (isDictionary ? 1 << 31 : 0)
    }

    var count: Int { Int(countAndKind & 0x7FFF_FFFF) }
    var isDictionary: Bool { countAndKind >> 31 != 0 }

    /// The container's bytes in the document, its references `width` bytes each.
    func length(width: Int) -> Int {
        BinaryPlistWriter.markerLength(count: isDictionary ? count / 2 : count) + count * width
    }
}

/// The byte offset of each object of a binary property list being written, in a byte an object
/// (a write of small objects holds one per object to the end, and 4 bytes each were a sixth of
/// what it held): how far each object starts past the one placed before it, 1 to 254, or 255 and
/// the offset itself in `far`; 0 for a container that waits, placed by the writer's `finish()`.
///
/// ```swift
/// var offsets = ObjectOffsets()
/// offsets.append(8)            // a step of 8 from the start of the file
/// offsets.appendWaiting()      // a container that `finish()` places
/// offsets.append(5_000)        // a step of 4,992: 255, and 5,000 in `far`
/// Array(offsets)               // [8, nil, 5000]
/// ```
struct ObjectOffsets: Sequence {
    private var steps = ChunkedArray<UInt8>()
    /// The offsets of the objects whose step is 255, in order.
    private var far = ChunkedArray<Int>()
    /// The offset of the last object placed (0 before the first).
    private var lastPlaced = 0

    /// Where the offsets were, for ``rewind(to:)``.
    typealias Mark = (count: Int, far: Int, lastPlaced: Int)

    var count: Int { steps.count }
    var mark: Mark { (steps.count, far.count, lastPlaced) }

    /// Appends the offset of an object placed as it is written, past the last one placed.
    mutating func append(_ offset: Int) {
        let step = offset - lastPlaced
        precondition(step > 0, "an object at \(offset), not past the last one placed at \(lastPlaced)")
        if step < 255 {
            steps.append(UInt8(step))
        } else {
            steps.append(255)
            far.append(offset)
        }
        lastPlaced = offset
    }

    /// Appends an object placed later: a container that waits for the writer's `finish()`.
    mutating func appendWaiting() { steps.append(0) }

    /// Forgets every offset, keeping the room they took when it is one chunk.
    mutating func removeAll() {
        steps.removeAll()
        far.removeAll()
        lastPlaced = 0
    }

    /// Forgets the offsets appended since `mark`.
    mutating func rewind(to mark: Mark) {
        steps.removeLast(steps.count - mark.count)
        far.removeLast(far.count - mark.far)
        lastPlaced = mark.lastPlaced
    }

    /// Each object's offset in order, nil for the containers that wait.
    func makeIterator() -> Iterator { Iterator(steps: steps.makeIterator(), far: far.makeIterator()) }

    /// Reads the offsets in order (see ``ObjectOffsets/makeIterator()``).
    struct Iterator: IteratorProtocol {
        private var steps: ChunkedArray<UInt8>.Iterator
        private var far: ChunkedArray<Int>.Iterator
        private var offset = 0

        fileprivate init(steps: ChunkedArray<UInt8>.Iterator, far: ChunkedArray<Int>.Iterator) {
            (self.steps, self.far) = (steps, far)
        }

        mutating func next() -> Int?? {
            guard let step = steps.next() else { return nil }
            switch step {
            case 0:
                return .some(nil)
            case 255:
                offset = far.next() ?? offset
            default:
                offset += Int(step)
            }
            return offset
        }
    }
}
