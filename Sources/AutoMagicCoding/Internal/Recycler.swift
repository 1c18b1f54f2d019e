/// Values that one call makes and frees and the next call could use again, kept between calls: a
/// small document's write otherwise spends more on making and freeing its writer's tables than
/// on writing. A few are kept, about one for each thread writing at once; a call that finds none
/// makes its own.
///
/// The owner empties a value of what its call wrote before keeping it, so that what is taken
/// behaves exactly as a new one would: the room its storage took is kept, and what it caches of
/// facts true for the whole process (type plans).
///
/// ```swift
/// static let recycler = Recycler<BinaryPlistWriter>()
/// var writer = recycler.take() ?? BinaryPlistWriter()
/// // ... write, finish, empty the writer ...
/// recycler.keep(writer)
/// ```
/// (Unchecked: a value is emptied before it is kept, so what passes from one thread to another is
/// storage that nothing else refers to, and immutable type plans.)
final class Recycler<Value>: @unchecked Sendable {
    private let kept = Locked<[Value]>([])
    /// The most values kept.
    private let limit: Int

    init(limit: Int = 4) {
        self.limit = limit
        kept.withLock { $0.reserveCapacity(limit) }
    }

    /// A kept value, or nil when none is.
    func take() -> Value? {
        kept.withLock { $0.popLast() }
    }

    /// Keeps `value`, unless as many as the limit are kept already.
    func keep(_ value: consuming Value) {
        // Moved in, not copied (a copy took a retain and a release of each of its tables).
        var value = Optional(value)
        kept.withLock { kept in
            if kept.count < limit, let moved = value.take() { kept.append(moved) }
        }
    }
}
