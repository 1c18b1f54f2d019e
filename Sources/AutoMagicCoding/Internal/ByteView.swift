import Foundation

/// A read-only view of bytes in memory — a document being read, a string's UTF-8 — and, with
/// ``ByteRoom`` below (bytes being made, written in a string's own storage or on the stack)
/// and `Reflection/`, the only code in the library that touches raw memory. Every byte is read
/// through a subscript checked against the view's bounds in every build (an offset out of range
/// traps rather than reading past the buffer), or by a loop of this file that stops at the
/// view's end. The readers check their offsets themselves and throw an ``AMCError``; the check
/// here is the net under them.
///
/// Indices are byte offsets from 0. A slice (`view[a..<b]`) keeps its offsets, as any
/// collection's slices do; ``view(_:)`` makes a new view that counts from 0. A view is valid only
/// inside the `withBytes` call that made it.
///
/// ```swift
/// let first = ByteView.withBytes(of: data) { bytes in bytes.isEmpty ? nil : bytes[0] }
/// ```
struct ByteView: RandomAccessCollection {
    private let base: UnsafeBufferPointer<UInt8>

    private init(_ base: UnsafeBufferPointer<UInt8>) {
        self.base = base
    }

    var startIndex: Int { 0 }
    var endIndex: Int { base.count }

    /// The byte at `offset`; traps when `offset` is outside the view.
    subscript(offset: Int) -> UInt8 {
        precondition(offset >= 0 && offset < base.count, "byte offset \(offset) outside a view of \(base.count)")
        return base[offset]
    }

    /// The bytes of `range` as a view of their own, counting from 0; traps when `range` is not
    /// inside the view.
    func view(_ range: Range<Int>) -> ByteView {
        precondition(
            range.lowerBound >= 0 && range.upperBound <= base.count, "byte range \(range) outside a view of \(base.count)")
        return ByteView(UnsafeBufferPointer(rebasing: base[range]))
    }

    /// Walks every byte, in bounds by construction (no check per byte).
    func makeIterator() -> UnsafeBufferPointer<UInt8>.Iterator {
        base.makeIterator()
    }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R? {
        try body(base)
    }

    // MARK: - Making views

    @inline(__always)
    static func withBytes<R>(of data: Data, _ body: (ByteView) throws -> R) rethrows -> R {
        try data.withUnsafeBytes { try body(ByteView($0.bindMemory(to: UInt8.self))) }
    }

    @inline(__always)
    static func withBytes<R>(of bytes: [UInt8], _ body: (ByteView) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { try body(ByteView($0)) }
    }

    /// The UTF-8 of `string` (a native string's own storage, borrowed: a copy to call `withUTF8`
    /// on took a retain and a release; others are made contiguous first).
    @inline(__always)
    static func withBytes<R>(of string: String, _ body: (ByteView) throws -> R) rethrows -> R {
        if let result = try string.utf8.withContiguousStorageIfAvailable({ try body(ByteView($0)) }) { return result }
        var string = string
        return try string.withUTF8 { try body(ByteView($0)) }
    }

    /// The UTF-8 of `text`, as for a `String`.
    @inline(__always)
    static func withBytes<R>(of text: Substring, _ body: (ByteView) throws -> R) rethrows -> R {
        var text = text
        return try text.withUTF8 { try body(ByteView($0)) }
    }

    @inline(__always)
    static func withBytes<R>(of text: StaticString, _ body: (ByteView) -> R) -> R {
        text.withUTF8Buffer { body(ByteView($0)) }
    }

    // MARK: - Reading

    /// The bytes of `range` decoded as UTF-8 (invalid sequences become U+FFFD; validate first
    /// where that matters).
    func string(_ range: Range<Int>) -> String {
        String(decoding: view(range).base, as: UTF8.self)
    }

    /// All the bytes, copied into an array of their own.
    var copied: [UInt8] { Array(base) }

    /// The bytes of `range` as `Data`.
    func data(_ range: Range<Int>) -> Data {
        Data(view(range).base)
    }

    /// Appends the bytes of `range` to `bytes`, in one copy.
    func append(_ range: Range<Int>, to bytes: inout [UInt8]) {
        bytes.append(contentsOf: view(range).base)
    }

    /// Whether the bytes of `range` are `other`'s; traps when `range` is not inside the view.
    func bytes(_ range: Range<Int>, equal other: ByteView) -> Bool {
        let bytes = view(range).base
        guard bytes.count == other.base.count else { return false }
        guard let start = bytes.baseAddress, let otherStart = other.base.baseAddress else { return true }
        return memcmp(start, otherStart, bytes.count) == 0
    }

    /// Whether the bytes of `range` are all ASCII, looked at eight at a time.
    func isASCII(_ range: Range<Int>) -> Bool {
        var offset = range.lowerBound
        var high: UInt64 = 0
        while offset < range.upperBound {
            let count = Swift.min(8, range.upperBound - offset)
            high |= word(at: offset, count: count)
            offset += count
        }
        return high & ByteWords.highBits == 0
    }

    /// Whether the bytes at `offset` are `text`'s (false where the view ends first).
    func matches(_ text: StaticString, at offset: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard offset >= 0, base.count - offset >= count else { return false }
        return text.withUTF8Buffer { text in
            for index in 0..<count where base[offset + index] != text[index] { return false }
            return true
        }
    }

    /// The offset of the first byte from `start` on that `belongs` refuses, or the view's end:
    /// where a run of bytes of one kind (a name, white space) ends, with no check per byte.
    @inline(__always)
    func end(ofRunFrom start: Int, _ belongs: (UInt8) -> Bool) -> Int {
        var offset = Swift.max(start, 0)
        while offset < base.count, belongs(base[offset]) { offset += 1 }
        return offset
    }

    /// How many line feeds the bytes of `range` hold, and the offset just past the last (nil
    /// when there is none): what lines and columns are counted by. Traps when `range` is not
    /// inside the view.
    func lineFeeds(in range: Range<Int>) -> (count: Int, lineStart: Int?) {
        let bytes = view(range)
        var count = 0
        var last = -1
        var start = 0
        // A word at a time: a word of no line feed (most of a document's) is passed at once.
        while start + 8 <= bytes.count {
            let spread = bytes.word(at: start) ^ 0x0A0A_0A0A_0A0A_0A0A
            if (spread &- 0x0101_0101_0101_0101) & ~spread & 0x8080_8080_8080_8080 != 0 {
                for index in start..<(start + 8) where bytes.base[index] == ASCII.lineFeed {
                    count += 1
                    last = index
                }
            }
            start += 8
        }
        for index in start..<bytes.count where bytes.base[index] == ASCII.lineFeed {
            count += 1
            last = index
        }
        return (count, last < 0 ? nil : range.lowerBound + last + 1)
    }

    /// How many start tags (a `<` before anything but `/`, `!` and `?`) and `=` bytes the view
    /// holds: what a reader of markup makes room for before it reads.
    func markupCounts() -> (startTags: Int, equalSigns: Int) {
        var startTags = 0
        forEachOffset(of: UInt8(ascii: "<")) { offset in
            let next = offset + 1 < count ? base[offset + 1] : 0
            if next != UInt8(ascii: "/"), next != UInt8(ascii: "!"), next != UInt8(ascii: "?") { startTags += 1 }
        }
        var equalSigns = 0
        forEachOffset(of: UInt8(ascii: "=")) { _ in equalSigns += 1 }
        return (startTags, equalSigns)
    }

    /// Calls `body` with the offset of each `byte` of the view, in order; found by the C
    /// library's `memchr`, which passes many bytes at a time.
    private func forEachOffset(of byte: UInt8, _ body: (Int) -> Void) {
        guard let start = base.baseAddress else { return }
        var offset = 0
        while offset < base.count, let found = memchr(start + offset, Int32(byte), base.count - offset) {
            let index = UnsafeRawPointer(found) - UnsafeRawPointer(start)
            body(index)
            offset = index + 1
        }
    }

    /// The offset of the first `text` that starts at `start` or later and ends by `end`.
    func firstOffset(of text: StaticString, from start: Int, to end: Int) -> Int? {
        let last = Swift.min(end, base.count) - text.utf8CodeUnitCount
        guard start >= 0, start <= last else { return nil }
        return text.withUTF8Buffer { text in
            for offset in start...last where base[offset] == text[0] && text.elementsEqual(base[offset..<(offset + text.count)]) {
                return offset
            }
            return nil
        }
    }

    /// The 8 bytes at `offset` as one little-endian integer (byte `offset` lowest), for scanning
    /// a word at a time; traps when they are not all inside the view.
    @inline(__always)
    func word(at offset: Int) -> UInt64 {
        precondition(offset >= 0 && offset <= base.count - 8, "a word at \(offset) outside a view of \(base.count)")
        return UInt64(littleEndian: UnsafeRawPointer(base.baseAddress! + offset).loadUnaligned(as: UInt64.self))
    }

    /// The `count` bytes (at most 8) at `offset` as one little-endian integer, zeros above them;
    /// traps when they are not all inside the view.
    @inline(__always)
    func word(at offset: Int, count: Int) -> UInt64 {
        precondition(
            count >= 0 && count <= 8 && offset >= 0 && offset <= base.count - count,
            "\(count) bytes at \(offset) outside a view of \(base.count)")
        if offset <= base.count - 8 { return count == 8 ? word(at: offset) : word(at: offset) & (1 << (8 * count) - 1) }
        var value: UInt64 = 0
        for index in 0..<count { value |= UInt64(base[offset + index]) << (8 * index) }
        return value
    }

    /// The big-endian unsigned integer in the `width` bytes at `offset`.
    func bigEndian(at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for byte in view(offset..<(offset + width)).base { value = value << 8 | UInt64(byte) }
        return value
    }

    // MARK: - Writing

    /// Writes every byte to the file `descriptor`, going on after interrupted writes; false (with
    /// `errno` set) when the system refuses.
    func write(to descriptor: Int32) -> Bool {
        guard let start = base.baseAddress else { return true }
        var written = 0
        while written < base.count {
            let result = Self.systemWrite(descriptor, start + written, base.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }

    private static func systemWrite(_ descriptor: Int32, _ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(descriptor, bytes, count)
        #elseif canImport(Musl)
            Musl.write(descriptor, bytes, count)
        #else
            Darwin.write(descriptor, bytes, count)
        #endif
    }
}

/// Room for bytes being made: the UTF-8 of a string, written in the string's own storage by
/// ``ByteView/makeString(capacity:_:)``, or bytes appended to an array at once by
/// `appendWritten(capacity:_:)`. Each write is checked against the room's size in every build,
/// so the bytes are put together without an array's checks at each one.
///
/// ```swift
/// let text = ByteView.makeString(capacity: 2) { room in
///     room.append(0x68)
///     room.append(0x69)
/// }  // "hi"
/// ```
struct ByteRoom {
    private let base: UnsafeMutableBufferPointer<UInt8>
    /// How many bytes were written.
    private(set) var count = 0

    fileprivate init(_ base: UnsafeMutableBufferPointer<UInt8>) {
        self.base = base
    }

    /// Writes `byte` after the others; traps when the room is full.
    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(count < base.count, "bytes past the \(base.count) of room made for them")
        base[count] = byte
        count += 1
    }

    /// Writes the four bytes of `bytes` after the others, lowest first; traps when they do not fit.
    @inline(__always)
    mutating func append(four bytes: UInt32) {
        precondition(count <= base.count - 4, "bytes past the \(base.count) of room made for them")
        UnsafeMutableRawPointer(base.baseAddress! + count).storeBytes(of: bytes.littleEndian, as: UInt32.self)
        count += 4
    }

    /// Writes the big-endian bytes of the low `width` bytes (at most 8) of `value` after the
    /// others; traps when they do not fit.
    @inline(__always)
    mutating func appendBigEndian(_ value: UInt64, width: Int) {
        precondition((0...8).contains(width) && count <= base.count - width, "bytes past the \(base.count) of room made for them")
        var shift = 8 * width
        while shift > 0 {
            shift -= 8
            base[count] = UInt8(truncatingIfNeeded: value >> UInt64(shift))
            count += 1
        }
    }
}

extension [UInt8] {
    /// Appends the bytes `body` writes in room for at most `capacity` (on the stack when it is
    /// small): one copy, instead of an append's checks at each byte. Room left unwritten is left
    /// out.
    ///
    /// ```swift
    /// var bytes: [UInt8] = []
    /// bytes.appendWritten(capacity: 2) { $0.appendBigEndian(0x0102, width: 2) }  // [1, 2]
    /// ```
    @inline(__always)
    mutating func appendWritten(capacity: Int, _ body: (inout ByteRoom) -> Void) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var room = ByteRoom(buffer)
            body(&room)
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<room.count]))
        }
    }

    /// Appends the bytes of `other`, borrowed (`append(contentsOf:)` takes its argument owned: a
    /// retain and a release of the array each call, for the few bytes of a key).
    ///
    /// ```swift
    /// var bytes: [UInt8] = [1]
    /// bytes.append(bytesOf: [2, 3])  // [1, 2, 3]
    /// ```
    @inline(__always)
    mutating func append(bytesOf other: [UInt8]) {
        other.withUnsafeBufferPointer { append(contentsOf: $0) }
    }
}

extension ByteView {
    /// A string of the UTF-8 that `body` writes in room for `capacity` bytes (invalid sequences
    /// become U+FFFD, as ``string(_:)`` makes them). Room left unwritten is left out.
    @inline(__always)
    static func makeString(capacity: Int, _ body: (inout ByteRoom) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var room = ByteRoom(buffer)
            body(&room)
            return room.count
        }
    }
}
