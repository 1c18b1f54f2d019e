import Foundation

/// Where a format writer passes its bytes on a block at a time, so that a document is never whole
/// in memory: the temporary file of an atomic write (see ``AtomicFile``), or the `Data` that
/// ``AMC/data(for:format:options:)`` returns (which grows in place: no second copy at the end).
///
/// A writer keeps its pending bytes in its own array and hands them over at a point it never looks
/// back past (before each element, key or object: see ``DrainLink``), so
/// what it holds is about a block, whatever the document's shape; a single string or `Data` is
/// written whole, as the value itself is in memory anyway. A failed file write is remembered and
/// reported by whoever finishes the document (``check()``): the writers' events do not throw.
///
/// ```swift
/// let drain = ByteDrain()
/// var writer = JSONWriter(pretty: false)
/// writer.link.drain = drain
/// ```
final class ByteDrain {
    /// What the writers keep before passing it on: small enough not to count beside the table
    /// of objects a streamed write holds, large enough that its system calls do not count
    /// either.
    static let blockSize = 1 << 15
    /// The room a writer with a drain sets aside for its pending bytes: a block, and a quarter
    /// more for the element that carries them past it.
    static let pendingCapacity = blockSize + blockSize / 4

    private enum Destination {
        case file(descriptor: Int32, path: String)
        case data
    }

    private let destination: Destination
    /// The bytes passed on, when the destination is `Data`.
    private(set) var data = Data()
    /// The room ``data`` was given.
    private var reserved = 0
    /// What went wrong writing to the file, reported by ``check()``.
    private var failure: AMCError?
    /// The most bytes passed on at once: about what a writer held at its most.
    private(set) var largestPass = 0

    /// A drain into an open file (`path` names it in errors).
    init(descriptor: Int32, path: String) {
        destination = .file(descriptor: descriptor, path: path)
    }

    /// A drain into ``data``.
    init() {
        destination = .data
    }

    /// Passes `bytes` on and empties them (keeping their capacity); returns how many were passed.
    /// ``DrainLink/settle(_:)`` calls it once they hold a block's worth.
    func take(_ bytes: inout [UInt8]) -> Int {
        let count = bytes.count
        write(bytes)
        bytes.removeAll(keepingCapacity: true)
        return count
    }

    /// Passes `bytes` on.
    func write(_ bytes: [UInt8]) {
        if case .data = destination, data.isEmpty {
            // A document passed on whole (a small one): its `Data` made from it at once.
            largestPass = max(largestPass, bytes.count)
            data = Data(bytes)
            reserved = data.count
            return
        }
        ByteView.withBytes(of: bytes) { write($0) }
    }

    /// Passes `bytes` on.
    func write(_ bytes: Data) {
        ByteView.withBytes(of: bytes) { write($0) }
    }

    private func write(_ bytes: ByteView) {
        largestPass = max(largestPass, bytes.count)
        switch destination {
        case .data:
            // Room doubled ahead: `Data` grown a block at a time took fresh memory, and page
            // faults, at every block.
            if data.count + bytes.count > reserved {
                reserved = Swift.max(2 * reserved, data.count + bytes.count)
                data.reserveCapacity(reserved)
            }
            bytes.withContiguousStorageIfAvailable { data.append($0) }
        case let .file(descriptor, path):
            if failure == nil, !bytes.write(to: descriptor) { failure = AtomicFile.failure(path, "cannot write") }
        }
    }

    /// Takes back everything passed on: the document is written again from its start.
    func restart() {
        switch destination {
        case .data:
            data.removeAll()
            reserved = 0
        case let .file(descriptor, path):
            if failure == nil, ftruncate(descriptor, 0) != 0 || lseek(descriptor, 0, SEEK_SET) != 0 {
                failure = AtomicFile.failure(path, "cannot write")
            }
        }
    }

    /// Throws what went wrong writing to the file, if anything did.
    func check() throws {
        if let failure { throw failure }
    }
}

/// A writer's link to its drain: the drain, if any, and how many bytes the writer has passed on
/// to it, so that the writer's offsets and marks count from the document's start.
///
/// ```swift
/// writer.link.drain = ByteDrain()
/// ```
struct DrainLink {
    /// Where the writer passes its bytes on; nil: it keeps them all, to the end.
    var drain: ByteDrain?
    /// How many bytes the writer has passed on so far.
    private(set) var passed = 0

    /// At a point the writer never looks back past: passes `pending` on if it holds a block.
    /// (The count is looked at first, inlined: writers settle before every object and key, and
    /// reaching the drain costs a call, a retain and a release.)
    @inline(__always)
    mutating func settle(_ pending: inout [UInt8]) {
        guard pending.count >= ByteDrain.blockSize else { return }
        passBlock(&pending)
    }

    /// Passes `pending`, a block or more, on to the drain, if there is one.
    private mutating func passBlock(_ pending: inout [UInt8]) {
        guard let drain else { return }
        passed += drain.take(&pending)
    }

    /// The document's size so far, with `pending` the bytes not passed on.
    func size(with pending: [UInt8]) -> Int { passed + pending.count }

    /// Drops what was written after `mark` (a size from ``size(with:)``) of what is pending.
    /// (A writer with a drain is never rewound past what it passed on, except on the way to an
    /// error that discards the whole.)
    func rewind(_ pending: inout [UInt8], to mark: Int) {
        pending.removeLast(pending.count - max(0, mark - passed))
    }
}
