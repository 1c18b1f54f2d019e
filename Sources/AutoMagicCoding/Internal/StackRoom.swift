#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// One of the three files with unsafe code: it reads where the calling thread's stack ends and
// where the current frame is, so that a walk over nested containers stops with an error before
// the stack runs out instead of crashing (a thread's stack is 8 MB on a main thread, 512 KB on
// Apple's secondary threads and dispatch workers; one level of nesting costs about a kilobyte in
// a release build and several in a debug build, so a fixed depth limit cannot fit both).

/// Whether the calling thread's stack has room for one more level of nesting.
enum StackRoom {
    /// What is kept free below the deepest level: one level's frames in a debug build, and what
    /// the deepest level calls (formatting an error, Foundation's conversions).
    static let reserve = 96 * 1024

    /// Below this depth there is always room: no walk checks its stack before.
    static let unchecked = 16

    /// The most one level of any walk takes (a debug build's binary-plist decoding, measured):
    /// what a level is counted as when the current frame's address says nothing.
    static let largestLevel = 8 * 1024

    /// A walk that writes a document, whose levels reading back may take more stack than
    /// writing them took: as many times as its raw value (a reader's and the decoder's frames for
    /// a level together, against the writer's), measured for each nesting kind, format and build
    /// with room to spare. See ``allowsLevel(atDepth:readBack:)``.
    enum Writer: UInt {
        /// The encoder, writing objects and their values.
        case objects = 2
        /// A parsed or edited document written again (``AMC/convert(_:to:options:textForDatesAndData:)``).
        case documents = 3
        /// A `Codable` value's `encode(to:)`: its `init(from:)` and the `Decoder` take more.
        case codableValues = 4
    }

    /// How much deeper in the stack than the writing a reading may start and still never refuse
    /// what was written.
    static let readBackSlack = 16 * 1024

    /// True while more than ``reserve`` bytes of the calling thread's stack are free below the
    /// current frame (or the stack's bounds are unknown: then only the depth limit counts).
    /// `depth`: the caller's nesting depth; shallow levels are not checked.
    ///
    /// `readBack`: the walk writes a document, and a level is allowed only while reading it back
    /// on this thread would be too: while the writer's factor times the stack the walk took since
    /// it began (``beginWriting()``; without it, since the thread's top), with its callers' frames,
    /// leaves ``reserve`` and ``readBackSlack`` free. Reading must never refuse what writing
    /// accepted.
    static func allowsLevel(atDepth depth: Int, readBack writer: Writer? = nil) -> Bool {
        guard depth >= unchecked, let (low, high) = bounds() else { return true }
        var marker: UInt8 = 0
        let here = withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
        let onStack = here > low && here <= high
        // Off the thread's stack, the frame is one of AddressSanitizer's "fake stack" frames on the
        // heap: count levels instead, each at the most one takes.
        let used = onStack ? high - here : UInt(depth) * UInt(largestLevel)
        guard let writer else { return used + UInt(reserve) < high - low }
        // Only what the walk took since it began counts `writer` times; its callers' frames once.
        let start = writeStart.map { UInt(bitPattern: $0) }.flatMap { onStack && $0 > here && $0 <= high ? $0 : nil }
        let callers = start.map { high - $0 } ?? 0
        return callers + (used - callers) * writer.rawValue + UInt(reserve + readBackSlack) < high - low
    }

    /// The size of the calling thread's stack, when the platform says: what it really has, which
    /// may be more than it was created with (glibc hands a new thread a larger stack it kept from
    /// one that ended).
    static var threadStackSize: Int? { bounds().map { Int($0.high - $0.low) } }

    /// Marks the caller's frame as where a walk that writes a document begins on this thread,
    /// unless an enclosing write began already; true when it marked (call ``endWriting()`` then).
    static func beginWriting() -> Bool {
        guard writeStart == nil else { return false }
        var marker: UInt8 = 0
        _ = withUnsafeMutablePointer(to: &marker) { pthread_setspecific(writeStartKey.key, UnsafeRawPointer($0)) }
        return true
    }

    /// Ends the write ``beginWriting()`` marked.
    static func endWriting() {
        pthread_setspecific(writeStartKey.key, nil)
    }

    /// Where the write walking on this thread began, if one is.
    private static var writeStart: UnsafeMutableRawPointer? { pthread_getspecific(writeStartKey.key) }

    /// The thread-specific slot of ``writeStart``.
    private static let writeStartKey = ThreadKey()

    /// A thread-specific slot.
    private final class ThreadKey: Sendable {
        let key: pthread_key_t
        init() {
            var key = pthread_key_t()
            pthread_key_create(&key, nil)
            self.key = key
        }
    }

    /// The lowest and highest addresses of the calling thread's stack (stacks grow down on every
    /// platform Swift runs on); nil when the platform does not say.
    private static func bounds() -> (low: UInt, high: UInt)? {
        #if canImport(Darwin)
            let thread = pthread_self()
            let top = UInt(bitPattern: pthread_get_stackaddr_np(thread))
            let size = UInt(pthread_get_stacksize_np(thread))
            return top > size ? (top - size, top) : nil
        #elseif canImport(Glibc) || canImport(Musl)
            // Asking is slow on a main thread (glibc reads /proc/self/maps): once per thread.
            if let low = pthread_getspecific(lowestAddressKey.key), let high = pthread_getspecific(highestAddressKey.key) {
                return (UInt(bitPattern: low), UInt(bitPattern: high))
            }
            var attributes = pthread_attr_t()
            guard let getAttributes = threadAttributes, getAttributes(pthread_self(), &attributes) == 0 else { return nil }
            defer { pthread_attr_destroy(&attributes) }
            var address: UnsafeMutableRawPointer?
            var size = 0
            guard pthread_attr_getstack(&attributes, &address, &size) == 0, let address else { return nil }
            pthread_setspecific(lowestAddressKey.key, address)
            pthread_setspecific(highestAddressKey.key, address + size)
            return (UInt(bitPattern: address), UInt(bitPattern: address + size))
        #else
            return nil
        #endif
    }

    #if !canImport(Darwin) && (canImport(Glibc) || canImport(Musl))
        /// The thread-specific slots that keep each thread's stack bounds.
        private static let lowestAddressKey = ThreadKey()
        private static let highestAddressKey = ThreadKey()

        /// glibc's `pthread_getattr_np`, which Swift's Glibc module leaves out (it is a GNU
        /// extension), looked up by name with its C signature.
        private typealias ThreadAttributes = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        private static let threadAttributes: ThreadAttributes? = dlsym(
            UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np"
        )
        .map { unsafeBitCast($0, to: ThreadAttributes.self) }
    #endif
}
