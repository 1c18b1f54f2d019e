import Foundation
import Testing

@testable import AutoMagicCoding

/// Many threads archiving at once, while types are registered: every round trip comes back equal,
/// and ThreadSanitizer (`swift test --sanitize=thread`) sees no race. `AMC_LOAD_ROUNDS` sets the
/// rounds per thread (default 150, what CI runs; the closing note of the fuzzing issue reports
/// 10,000).
@Suite("Load: threads archiving at once")
struct LoadTests {
    static let threads = 8
    static var rounds: Int { ProcessInfo.processInfo.environment["AMC_LOAD_ROUNDS"].flatMap(Int.init) ?? 150 }

    /// One round: a graph written in `format` and read back strictly, a broken copy read
    /// leniently, and a registration, in a private registry and the shared one. Returns what
    /// went wrong, if anything.
    static func round(_ round: Int, thread: Int) -> String? {
        let format = AMCFormat.allCases[(round + thread) % 3]
        let gadget = Gadget()
        gadget.name = "gadget \(thread).\(round)"
        gadget.sizes = Array(0..<(round % 7))
        gadget.parts = (0..<(1 + round % 4)).map { index in
            let part = GadgetPart()
            part.label = "part \(index)"
            part.weight = Double(index) / 4
            return part
        }
        gadget.spare = gadget.parts.last  // shared: a reference
        do {
            var archiver = AMCArchiver()
            let registry = AMCRegistry()
            registry.register(GadgetPart.self, formerNames: ["Part\(round % 5)"])
            registry.register(Gadget.self)
            archiver.registry = registry
            AMC.register(Gadget.self, GadgetPart.self)  // the shared registry, from every thread
            let data = try archiver.data(for: gadget, format: format)
            guard let copy = try archiver.object(Gadget.self, from: data) else { return "no copy" }
            guard copy.name == gadget.name, copy.sizes == gadget.sizes, copy.parts.map(\.label) == gadget.parts.map(\.label),
                copy.spare === copy.parts.last
            else {
                return "\(format): the copy differs"
            }
            var broken = try gadget.dictionaryRepresentation()
            broken["sizes"] = [1, "two"]
            let report = try archiver.lenientObject(Gadget.self, from: broken)
            guard report.object.sizes == [1], report.problems.map(\.keyPath) == ["sizes[1]"] else {
                return "lenient: \(report.problems)"
            }
            return nil
        } catch {
            return "\(format): \(error)"
        }
    }

    @Test func eightThreadsOfMixedRoundTrips() throws {
        let failures = Locked<[String]>([])
        let done = DispatchGroup()
        for thread in 0..<Self.threads {
            done.enter()
            let worker = Thread {
                for round in 0..<Self.rounds {
                    if let failure = Self.round(round, thread: thread) { failures.withLock { $0.append(failure) } }
                }
                done.leave()
            }
            worker.stackSize = 4 << 20
            worker.start()
        }
        done.wait()
        #expect(failures.withLock { Array($0.prefix(3)) } == [], "\(failures.withLock { $0.count }) failed rounds")
    }
}
