import Foundation
import Testing

@testable import AutoMagicCoding

/// Runs `body` on a new thread whose stack is `stackSize` bytes, waits for it, and returns what
/// it returned (assertions stay on the test's own thread). What `body` holds and returns is
/// released here, not on the small thread, where releasing a deep structure would overflow it.
func onThread<T>(stackSize: Int, _ body: @escaping () throws -> T) throws -> T {
    let run = ThreadRun(body)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        if let body = run.body { run.result = Result { try body() } }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    let result = run.result
    (run.body, run.result) = (nil, nil)
    return try result!.get()
}

/// A body to run on another thread, and what it returned; the thread's start and the waiting
/// thread's semaphore order the accesses.
private final class ThreadRun<T>: @unchecked Sendable {
    var body: (() throws -> T)?
    var result: Result<T, any Error>?
    init(_ body: @escaping () throws -> T) { self.body = body }
}

/// The error `body` throws, as an `AMCError`; nil when it throws none (or another error).
func amcError(_ body: () throws -> Void) -> AMCError? {
    do {
        try body()
        return nil
    } catch {
        return error as? AMCError
    }
}

/// A reply thread made of reply lists: each reply is two levels (an object and a list).
func replyThread(_ replies: Int) -> Reply {
    let root = Reply()
    var last = root
    for _ in 1..<replies {
        let next = Reply()
        last.replies = [next]
        last = next
    }
    return root
}

/// A chain of replies, each the `next` of the one before.
func replyChain(_ replies: Int) -> Reply {
    let root = Reply()
    var last = root
    for _ in 1..<replies {
        let next = Reply()
        last.next = next
        last = next
    }
    return root
}

/// A struct that nests in arrays of itself.
struct Branch: AMCCodable {
    var leaf = 0
    var children: [Branch] = []
    init() {}
    init(children: [Branch]) { self.children = children }
}

/// A `Codable` value that nests in arrays of itself.
struct Outline: Codable {
    var title = ""
    var sections: [Outline] = []
}

/// Where the deep values of ``DepthTests/DeepKind`` are kept.
final class Forest: AMCCodable {
    var root = Branch()
    var outline = Outline()
    var loose: [Any] = []
    required init() {}
    init(root: Branch = Branch(), outline: Outline = Outline(), loose: [Any] = []) {
        (self.root, self.outline, self.loose) = (root, outline, loose)
    }
}

/// Takes a thread apart from the root down, so that releasing it never recurses deeply.
func dismantle(_ root: Reply) {
    var pending = [root]
    while let reply = pending.popLast() {
        pending += reply.replies
        reply.replies = []
        if let next = reply.next { pending.append(next) }
        reply.next = nil
    }
}

@Suite("Deep documents and the thread's stack")
struct DepthTests {
    init() { AMC.register(Reply.self) }

    static let mainThreadStack = 8 << 20
    static let smallStack = 256 << 10

    @Test(arguments: SwiftModelTests.formats)
    func aThreadOf256RepliesSavesAndReadsBackOnAMainThreadSizedStack(format: AMCFormat) throws {
        let root = replyThread(256)
        defer { dismantle(root) }
        let copy = try onThread(stackSize: Self.mainThreadStack) {
            try AMC.object(Reply.self, from: try AMC.data(for: root, format: format))
        }
        var length = 0
        var reply = copy
        while let current = reply {
            length += 1
            reply = current.replies.first
        }
        #expect(length == 256)
        if let copy { dismantle(copy) }
    }

    @Test func hostileNestingStopsBeforeASmallStackRunsOut() throws {
        let depth = 100_000
        let json = Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
        let errors = try onThread(stackSize: Self.smallStack) {
            [
                amcError { _ = try AMC.lint(json) },
                amcError { _ = try AMC.printedTree(of: json) },
                amcError { _ = try AMC.convert(json, to: .binaryPropertyList) },
                amcError { _ = try AMC.object(from: json) },
            ]
        }
        for error in errors {
            // Well-formed, only too deep for this thread: not malformed data.
            guard case .stackExhausted? = error?.kind else {
                Issue.record("expected the stack to stop reading, got \(String(describing: error))")
                continue
            }
            #expect(error?.description.hasPrefix("Nesting ") == true)
            #expect(error?.description.hasSuffix("run it on a thread with a larger stack (Thread.stackSize).") == true)
        }

        // Walks over objects and dictionaries stop too (in tree mode: graph mode nests no deeper
        // than its object table).
        let root = replyThread(20_000)
        defer { dismantle(root) }
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let encodeError = try onThread(stackSize: Self.smallStack) { amcError { _ = try tree.data(for: root, format: .json) } }
        guard case let .stackExhausted(reached)? = encodeError?.kind else {
            Issue.record("expected the stack to stop encoding, got \(String(describing: encodeError))")
            return
        }
        #expect(reached >= StackRoom.unchecked && reached < 1_000)
        #expect(encodeError?.description.hasPrefix("At \"replies[0] ×") == true)
        #expect(encodeError?.description.hasSuffix("run it on a thread with a larger stack (Thread.stackSize).") == true)
    }

    @Test func stackRoomRefusesBeforeTheStackEndsAndNeverNearTheTop() throws {
        #expect(StackRoom.allowsLevel(atDepth: 0))
        // Descending until refused: on a small stack it is refused (or this test would crash),
        // on a stack 8 times larger several times deeper.
        // Each level holds 1 KB of stack, so that the descent stays a few thousand calls deep
        // (ThreadSanitizer's shadow call stack cannot follow tens of thousands).
        // Returns the depth refused, and whether the levels' kilobytes were on the thread's stack
        // (AddressSanitizer may keep them in "fake stack" frames on the heap, some runs and not
        // others: then how deep each stack goes says nothing).
        func descend(_ depth: Int, from top: UInt) -> (depth: Int, onStack: Bool) {
            guard StackRoom.allowsLevel(atDepth: depth) else { return (depth, true) }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { frame in
                frame.initialize(repeating: 0)
                let here = UInt(bitPattern: frame.baseAddress)
                let below = descend(depth + 1, from: top == 0 ? here : top)
                let spans = top == 0 || (top > here && top - here >= UInt(depth) * 1024)
                return (below.depth + Int(frame[0]), below.onStack && spans)
            }
        }
        // Each thread's depth is weighed against the stack it really has: glibc may hand the
        // small one a larger stack kept from a thread that ended (a 1 MB one of another test).
        let small = try onThread(stackSize: Self.smallStack) { (descend(0, from: 0), StackRoom.threadStackSize) }
        let large = try onThread(stackSize: 2 << 20) { (descend(0, from: 0), StackRoom.threadStackSize) }
        #expect(small.0.depth >= StackRoom.unchecked)
        if small.0.onStack && large.0.onStack, let smallSize = small.1, let largeSize = large.1 {
            // Room below the reserve, in the ratio of the stacks' (12 for 2 MB against 256 KB):
            // at least a third of it, as the levels' own frames are not all alike.
            let ratio = Double(largeSize - StackRoom.reserve) / Double(smallSize - StackRoom.reserve)
            #expect(Double(large.0.depth) > Double(small.0.depth) * ratio / 3, "stacks of \(smallSize) and \(largeSize) bytes")
        }
    }

    /// Each way a document nests deeply: objects in tree mode, structs in arrays, `Codable`
    /// values, `Any` arrays, and a converted document.
    enum DeepKind: CaseIterable {
        case objects, structs, codableValues, anyArrays, converted

        /// A document of `depth` levels of this kind written in `format`.
        func write(_ depth: Int, _ format: AMCFormat) throws -> Data {
            var tree = AMCArchiver()
            tree.graphMode = .tree
            switch self {
            case .objects:
                let root = replyChain(depth)
                defer { dismantle(root) }
                return try tree.data(for: root, format: format)
            case .structs:
                var branch = Branch()
                for _ in 1..<depth { branch = Branch(children: [branch]) }
                return try AMC.data(for: Forest(root: branch), format: format)
            case .codableValues:
                var outline = Outline()
                for _ in 1..<depth { outline = Outline(sections: [outline]) }
                return try AMC.data(for: Forest(outline: outline), format: format)
            case .anyArrays:
                var nested: [Any] = [1]
                for _ in 1..<depth { nested = [nested] }
                return try AMC.data(for: Forest(loose: nested), format: format)
            case .converted:
                let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
                return try AMC.convert(Data(json.utf8), to: format)
            }
        }
    }

    /// The deepest document `write` accepts, between 1 and ``AMC/maximumDepth``: doubling, then
    /// halving the gap. Every refusal must be for the stack.
    static func deepestWritten(_ write: (Int) throws -> Data) -> (depth: Int, data: Data)? {
        var accepted: (depth: Int, data: Data)?
        var refused = AMC.maximumDepth
        var depth = 8
        while depth < refused {
            do {
                accepted = (depth, try write(depth))
                depth = accepted!.depth * 2 < refused ? accepted!.depth * 2 : (accepted!.depth + refused) / 2
            } catch let error as AMCError {
                guard case .stackExhausted = error.kind else {
                    Issue.record("a refusal not for the stack: \(error)")
                    return nil
                }
                refused = depth
                depth = ((accepted?.depth ?? 0) + refused) / 2
            } catch {
                Issue.record("\(error)")
                return nil
            }
            if depth == accepted?.depth { break }
        }
        return accepted
    }

    /// Reading never refuses what writing accepted on the same thread: at the deepest document
    /// each kind of nesting writes, in each format.
    @Test(arguments: SwiftModelTests.formats)
    func whatAThreadWritesItReadsBackAtTheLimit(format: AMCFormat) throws {
        AMC.register(Forest.self)
        for kind in DeepKind.allCases {
            let outcome = try onThread(stackSize: 1 << 20) { () -> (depth: Int, error: AMCError?)? in
                guard let (depth, data) = Self.deepestWritten({ try kind.write($0, format) }) else { return nil }
                // A converted document holds no object: read it as a document.
                let read = amcError { _ = try AMC.lint(data) }
                return (depth, kind == .converted ? read : read ?? amcError { _ = try AMC.object(from: data) })
            }
            guard let outcome else { continue }
            // Stopped by the stack, well past the levels never checked, and read back whole.
            #expect(outcome.depth > StackRoom.unchecked && outcome.depth < AMC.maximumDepth, "\(kind)")
            // Under AddressSanitizer (its lane sets ASAN_OPTIONS) a frame lives on the heap or,
            // once the fake stack of its size is used up, on the thread's stack: the writer's and
            // the reader's levels may then be counted each way, and the reader refuse. The other
            // lanes and ReleaseChecks check it.
            guard ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil else { continue }
            #expect(outcome.error == nil, "\(kind) at \(outcome.depth) levels: \(String(describing: outcome.error))")
        }
    }

    /// The stack a write's callers took counts once, not as many times as the write's own levels:
    /// 300 KB deep in a 1 MB thread, a `Codable` value 24 levels deep still writes and reads back.
    @Test func aWriteDeepInTheCallersStackCountsOnlyItsOwnLevelsSeveralTimes() throws {
        AMC.register(Forest.self)
        func deepInTheStack(_ kilobytes: Int, _ body: () throws -> Void) rethrows {
            guard kilobytes > 0 else { return try body() }
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { frame in
                frame.initialize(repeating: 0)
                try deepInTheStack(kilobytes - 1 + Int(frame[0]), body)
            }
        }
        let error = try onThread(stackSize: 1 << 20) {
            amcError {
                try deepInTheStack(300) {
                    let data = try DeepKind.codableValues.write(12, .json)
                    _ = try AMC.object(from: data)
                }
            }
        }
        // Under AddressSanitizer (its lane sets ASAN_OPTIONS) some frames live on the heap, where
        // the mark of a write's start says nothing of the stack: the check falls back to counting
        // from the thread's top, as before, and may refuse here. The other lanes check it.
        guard ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil else { return }
        #expect(error == nil, "\(String(describing: error))")
    }

    @Test func indexRunsFoldInErrorDescriptions() {
        #expect(AMCError.folded("grid[0][0][0][0][0].cell") == "grid[0] ×5.cell")
        #expect(AMCError.folded("a[1][2][3]") == "a[1][2][3]")
        #expect(AMCError.folded("[0][0][0][0][1]") == "[0] ×4[1]")
    }
}
