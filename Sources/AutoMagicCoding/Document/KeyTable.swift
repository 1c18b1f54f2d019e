import Foundation

/// Numbers each distinct key of a document (see ``DocumentTape/keys``), making its `String`
/// once. A key met again is found by its length and first and last 8 bytes in a small table of
/// recent keys, without hashing its bytes or making a string.
struct KeyTable {
    private(set) var keys: [String] = []
    /// Which numbering ``keys`` are in: the same for every document read with this table.
    let vocabulary = Vocabulary()
    /// Each key's ASCII print (``print(of:in:)``); 0 when it is not ASCII or was made
    /// without one.
    private var prints: [UInt64] = []
    private var numbers: [String: Int] = [:]
    /// The keys met lately, by a hash of their bytes: made at the first key read from bytes (a
    /// table whose keys were all made as strings has none), a few slots in a small document (which
    /// then does not pay for a large table), 256 from the first key missed in a larger one.
    private var recent: [Recent] = []
    private var recentShift: UInt64 = 59
    /// How many keys were looked up: past ``smallDocumentKeys``, the document is not small.
    private var lookups = 0
    private static let smallDocumentKeys = 64
    /// The keys of its own a new table has room for, beside the reserved ones; a table with more
    /// is not a small document's, and its table of recent keys grows.
    private static let startingKeys = 16
    /// The keys a new table has room for: the reserved ones and ``startingKeys``.
    private static let startingRoom = Reserved.allCases.count + startingKeys
    /// Whether the table came from ``reused()`` and goes back with ``recycle()``.
    private var isKept = false

    /// A numbering of keys, compared by identity: what a number means in one table.
    final class Vocabulary: Sendable {}

    /// The keys the archive format gives a meaning of its own, numbered the same in every table:
    /// the first keys of each, in this order. So a document read into a tape is asked for one by
    /// comparing numbers (see ``ArchiveDictionary/subscript(reserved:)``).
    enum Reserved: Int, CaseIterable {
        case className, reference, objectTable, versions, nils

        /// Whether `slot` is a key slot of this key's number.
        func numbers(_ slot: DocumentTape.Slot) -> Bool {
            slot.kind == .key && slot.payload == UInt64(rawValue)
        }

        /// The key as documents have it.
        var key: String {
            switch self {
            case .className: "class"
            case .reference: ObjectReference.key
            case .objectTable: ObjectTable.key
            case .versions: DocumentVersions.key
            case .nils: TypePlan.nilKey
            }
        }
    }

    /// A table that numbers the ``Reserved`` keys, and no other yet.
    init() {
        keys.reserveCapacity(Self.startingRoom)
        prints.reserveCapacity(Self.startingRoom)
        for reserved in Reserved.allCases {
            let key = reserved.key
            _ = adding(key, print: ByteView.withBytes(of: key) { Self.print(of: 0..<$0.count, in: $0) })
        }
    }

    /// Tables kept between documents (see ``reused()``).
    private static let recycler = Recycler<KeyTable>()
    /// The most keys, and bytes of keys, a kept table holds: a table that outgrew them is
    /// dropped, so that a process reading documents of ever new keys (or one long key) does not
    /// keep them all.
    private static let keptKeys = 512
    private static let keptBytes = 16 << 10
    /// The UTF-8 bytes of ``keys``, together.
    private var keyBytes = 0

    /// A table for a document whose keys are all read from its bytes (JSON's, XML's, a binary
    /// property list's), with the keys of documents read before it: a small document read again
    /// finds each of its keys among them, without making its string. Give it back with
    /// ``recycle()``.
    static func reused() -> KeyTable {
        var table = recycler.take() ?? KeyTable()
        table.isKept = true
        table.lookups = 0
        table.stringsMade = 0
        return table
    }

    /// Keeps a table from ``reused()`` for the next document, unless it holds more keys than a
    /// kept table may. Its numbers stay: a key keeps its number in every document that uses it.
    func recycle() {
        guard isKept, keys.count <= Self.keptKeys, keyBytes <= Self.keptBytes else { return }
        Self.recycler.keep(self)
    }

    private struct Recent {
        var count = -1
        var first: UInt64 = 0
        var last: UInt64 = 0
        var number = 0
    }

    /// The number of the key whose UTF-8 is `range` of `bytes`.
    mutating func number(of range: Range<Int>, in bytes: ByteView) -> Int {
        lookups += 1
        if recent.isEmpty { recent = [Recent](repeating: Recent(), count: 32) }
        let (count, first, last) = Self.words(of: range, in: bytes)
        let hash = Self.hash(count: count, first: first, last: last)
        // Two slots of the table for each hash, so that two keys of one object that share a slot
        // (a note's "color" and "lang") do not push each other out at every object.
        let slot = Int(truncatingIfNeeded: hash >> recentShift)
        for other in 0..<2 {
            let seen = recent[slot ^ other]
            if seen.count == count, seen.first == first, seen.last == last,
                count <= 16 || ByteView.withBytes(of: keys[seen.number], { bytes.bytes(range, equal: $0) })
            {
                return seen.number
            }
        }
        let number = self.number(of: bytes.string(range), print: bytes.isASCII(range) ? hash | 1 : 0)
        stringsMade += 1
        if recentShift > 56, lookups > Self.smallDocumentKeys || keys.count > Self.startingRoom {
            recent = [Recent](repeating: Recent(), count: 256)
            recentShift = 56
            return number
        }
        // Into a free one of the two; else the one in the key's own slot moves to the other. (Moved
        // there whatever it held, a key whose own slot is the other one was pushed out each time:
        // two keys that alternate in every object never stayed.)
        let new = Recent(count: count, first: first, last: last, number: number)
        if recent[slot].count < 0 {
            recent[slot] = new
        } else if recent[slot ^ 1].count < 0 {
            recent[slot ^ 1] = new
        } else {
            recent[slot ^ 1] = recent[slot]
            recent[slot] = new
        }
        return number
    }

    /// How many times ``number(of:in:)`` made a key's `String` (and hashed it): once for each
    /// distinct key, unless more keys than the table of recent ones holds alternate.
    private(set) var stringsMade = 0

    /// A new number for `string`, whatever other keys there are; `print` its ASCII print, or 0.
    mutating func adding(_ string: String, print: UInt64) -> Int {
        keys.append(string)
        prints.append(print)
        keyBytes += string.utf8.count
        return keys.count - 1
    }

    /// The number of `key`, a new one unless a key of the same bytes has one; `print` its ASCII
    /// print, or 0.
    mutating func number(of key: String, print: UInt64 = 0) -> Int {
        guard keys.count > Self.scannedKeys else {
            // A few keys are found by a look at each, cheaper than hashing the key.
            for number in keys.indices where (print == 0 || prints[number] == 0 || prints[number] == print) {
                if keys[number].utf8.count == key.utf8.count, keys[number].utf8.elementsEqual(key.utf8) { return number }
            }
            let number = adding(key, print: print)
            if keys.count > Self.scannedKeys {
                for (number, known) in keys.enumerated() where numbers[known] == nil { numbers[known] = number }
            }
            return number
        }
        if let number = numbers[key], keys[number].utf8.elementsEqual(key.utf8) { return number }
        let number = adding(key, print: print)
        if numbers[key] == nil { numbers[key] = number }
        return number
    }

    /// How many keys ``number(of:print:)`` finds by looking at each before it hashes them: an
    /// ASCII key is compared by its print first, one word, so a look at each is cheaper than a
    /// hash until there are many (and a kept table holds the keys of several documents).
    private static let scannedKeys = 64

    /// Whether keys `a` and `b` may be the same `String`: false when both are ASCII and their
    /// prints differ, so their bytes do; an ASCII key and another may still be the same (`"K"`
    /// and the Kelvin sign are).
    func mayBeSame(_ a: Int, _ b: Int) -> Bool {
        let (printA, printB) = (prints[a], prints[b])
        return printA == 0 || printB == 0 || printA == printB
    }

    /// A print of bytes (their length and first and last 8 bytes, mixed), never 0: the same for
    /// the same bytes, so that bytes whose prints differ are different. A key keeps one when it is
    /// ASCII (see ``mayBeSame(_:_:)``); the binary writer's cache of recent strings keeps one for
    /// every string.
    static func print(of range: Range<Int>, in bytes: ByteView) -> UInt64 {
        let (count, first, last) = words(of: range, in: bytes)
        return hash(count: count, first: first, last: last) | 1
    }

    /// The length of `range` and its first and last 8 bytes (the last 0 when they are the first).
    private static func words(of range: Range<Int>, in bytes: ByteView) -> (count: Int, first: UInt64, last: UInt64) {
        let count = range.count
        return (
            count, bytes.word(at: range.lowerBound, count: min(count, 8)), count > 8 ? bytes.word(at: range.upperBound - 8) : 0
        )
    }

    private static func hash(count: Int, first: UInt64, last: UInt64) -> UInt64 {
        (first &* 0x9E37_79B9_7F4A_7C15) ^ (last &* 0xC2B2_AE3D_27D4_EB4F) ^ UInt64(count)
    }
}
