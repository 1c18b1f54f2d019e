import Foundation

/// A value behind a lock: the one primitive for shared mutable state in the package
/// (type plans, the class registry, process-wide settings).
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    @exclusivity(unchecked) private var value: Value  // the lock keeps accesses apart

    init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with exclusive access to the value.
    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
