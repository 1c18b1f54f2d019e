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
            guard case let .malformedData(_, _, reason)? = error?.kind else {
                Issue.record("expected malformed data, got \(String(describing: error))")
                continue
            }
            #expect(reason.hasSuffix("levels deep needs more stack than this thread has"))
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
        #expect(reached > StackRoom.unchecked && reached < 1_000)
        #expect(encodeError?.description.hasPrefix("At \"replies[0] ×") == true)
        #expect(encodeError?.description.hasSuffix("run it on a thread with a larger stack (Thread.stackSize).") == true)
    }

    @Test func stackRoomRefusesBeforeTheStackEndsAndNeverNearTheTop() throws {
        #expect(StackRoom.allowsLevel(atDepth: 0))
        // Descending until refused: on a small stack it is refused (or this test would crash),
        // on a stack 8 times larger several times deeper.
        // Each level holds 1 KB of stack, so that the descent stays a few thousand calls deep
        // (ThreadSanitizer's shadow call stack cannot follow tens of thousands).
        func descend(_ depth: Int) -> Int {
            guard StackRoom.allowsLevel(atDepth: depth) else { return depth }
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 1024) { frame in
                frame.initialize(repeating: 0)
                return descend(depth + 1) + Int(frame[0])
            }
        }
        let small = try onThread(stackSize: Self.smallStack) { descend(0) }
        let large = try onThread(stackSize: 2 << 20) { descend(0) }
        #expect(small >= StackRoom.unchecked)
        #expect(large > small * 4)
    }

    @Test func indexRunsFoldInErrorDescriptions() {
        #expect(AMCError.folded("grid[0][0][0][0][0].cell") == "grid[0] ×5.cell")
        #expect(AMCError.folded("a[1][2][3]") == "a[1][2][3]")
        #expect(AMCError.folded("[0][0][0][0][1]") == "[0] ×4[1]")
    }
}
