import Foundation
import Testing

@testable import AutoMagicCoding

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Files are replaced whole or not at all")
struct FileSafetyTests {
    init() { Fixtures.register() }

    @Test func anEncodingErrorLeavesThePreviousFileByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("graph.json")
        let good = Node()
        good.value = 7
        try AMC.write(good, to: url)
        let before = try Data(contentsOf: url)

        let cyclic = Node()
        cyclic.children = [Node(), cyclic]
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let error = expectAMCError { try tree.write(cyclic, to: url) }
        #expect(error?.kind == .referenceCycle(typeName: "Node"))
        #expect(try Data(contentsOf: url) == before)
        #expect(folder.contents == ["graph.json"])
        cyclic.children = []
    }

    /// Writes a writer process completes before it is killed, in all: `AMC_KILL_WRITES` (default
    /// 40, what CI runs, 8 under a sanitizer; the closing note of the fuzzing issue reports 1,000).
    static var killWrites: Int {
        ProcessInfo.processInfo.environment["AMC_KILL_WRITES"].flatMap(Int.init) ?? TestScale.count(40, sanitized: 8)
    }

    @Test func aWriterKilledAtRandomMomentsLeavesThePreviousOrTheNextVersionByteForByte() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let sources = folder.file("sources")
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        // Seven versions of a large document (170 KB as a binary plist), each other than the next.
        var expected: [Data] = []
        for index in 0..<7 {
            let document: [String: Any] = [
                "version": index,
                "entries": (0..<5_000).map { "entry \($0) of version \(index)" },
                "numbers": (0..<2_000).map { Double($0 * (index + 1)) / 7 },
            ]
            try AMC.write(dictionary: document, to: sources.appendingPathComponent("\(index).json"))
            let written = folder.file("expected.plist")
            try AMC.write(dictionary: document, to: written, format: .binaryPropertyList)
            expected.append(try Data(contentsOf: written))
            try FileManager.default.removeItem(at: written)
        }
        let target = folder.file("out.plist")
        try AMC.write(data: expected[0], to: target)
        let writer = AMCBinary.url.deletingLastPathComponent().appendingPathComponent("WriteStress")
        var last = 0
        var writes = 0
        var kills = 0
        var leftOver: [String] = []
        var killsLeavingAFile = 0
        var generator = SystemRandomNumberGenerator()
        while writes < Self.killWrites {
            let process = Process()
            process.executableURL = writer
            process.arguments = [sources.path, target.path, String(last + 1)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            // Once it has written a version (it reads its sources first), kill it at a random
            // moment of the writes that follow.
            var printed = output.fileHandleForReading.availableData
            if printed.isEmpty { printed = Data() }
            Thread.sleep(forTimeInterval: Double.random(in: 0...0.15, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            kills += 1
            printed += output.fileHandleForReading.readDataToEndOfFile()
            let completed = String(decoding: printed, as: UTF8.self).split(separator: "\n").compactMap { Int($0) }.last ?? last
            // The version it reported last, or the next one, renamed into place before it could say so.
            let now = try Data(contentsOf: target)
            guard let version = [completed, completed + 1].first(where: { now == expected[$0 % 7] }) else {
                Issue.record("after kill \(kills): \(now.count) bytes, neither version \(completed) nor the next")
                return
            }
            // A kill in the instant between naming the finished temporary file and renaming it
            // over the target leaves that file (see AtomicFile; twice in a run of 6,000 writes): it
            // is the killed writer's, holds a whole version, and the next write removes it. The
            // kills that leave one are counted: a temporary file named from the start would be
            // left by every kill that lands in a write.
            let left = folder.contents.filter { !["out.plist", "sources"].contains($0) }
            if !left.isEmpty { killsLeavingAFile += 1 }
            for name in left {
                #expect(
                    name.hasPrefix(".out.plist.amc-\(process.processIdentifier)-") && name.hasSuffix(".tmp"),
                    "kill \(kills): \(name) is left")
                #expect(
                    expected.contains(try Data(contentsOf: folder.file(name))), "kill \(kills): \(name) is not a whole version")
            }
            #expect(Set(left).isDisjoint(with: leftOver), "kill \(kills): a temporary file outlived the next write")
            leftOver = left
            writes += version - last
            last = version
        }
        #expect(kills > 1)
        #expect(killsLeavingAFile <= 1 + kills / 500, "\(killsLeavingAFile) of \(kills) kills left a temporary file")
    }

    @Test func aWriteIntoAMissingFolderSaysWhy() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/x.plist")
        let error = expectAMCError { try AMC.write(Node(), to: url) }
        guard case let .fileSystem(path, reason)? = error?.kind else {
            Issue.record("expected a file-system error, got \(String(describing: error))")
            return
        }
        #expect(path == url.path)
        #expect(reason.hasPrefix("cannot create a temporary file"))
        let missing = expectAMCError { _ = try AMC.read(from: url) }
        #expect(missing?.description == "\(url.path): no such file.")
    }

    /// A write to a symbolic link replaces the file it leads to (through a chain, relative or
    /// absolute), and the link stays a link, as writing through it in place would leave it.
    @Test func writingThroughASymbolicLinkReplacesItsTarget() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let target = folder.file("settings.json")
        try AMC.write(dictionary: ["version": 1], to: target)
        try FileManager.default.createSymbolicLink(atPath: folder.file("middle.json").path, withDestinationPath: "settings.json")
        try FileManager.default.createSymbolicLink(at: folder.file("link.json"), withDestinationURL: folder.file("middle.json"))
        try AMC.write(dictionary: ["version": 2], to: folder.file("link.json"))
        #expect(try AMC.dictionary(contentsOf: target)["version"] as? Int == 2)
        #expect(
            try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("link.json").path)
                == folder.file("middle.json").path)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("middle.json").path) == "settings.json")
        #expect(folder.contents == ["link.json", "middle.json", "settings.json"])

        // A relative link with `..`, from a folder that is itself a link: the system resolves it.
        let real = folder.file("real")
        try FileManager.default.createDirectory(at: real.appendingPathComponent("inner"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.file("alias").path, withDestinationPath: "real/inner")
        try FileManager.default.createSymbolicLink(
            atPath: real.appendingPathComponent("inner/up.json").path, withDestinationPath: "../up.json")
        try AMC.write(dictionary: ["up": true], to: folder.file("alias").appendingPathComponent("up.json"))
        #expect(try AMC.dictionary(contentsOf: real.appendingPathComponent("up.json"))["up"] as? Bool == true)

        // A loop of links is refused, and the links stay.
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop1").path, withDestinationPath: "loop2")
        try FileManager.default.createSymbolicLink(atPath: folder.file("loop2").path, withDestinationPath: "loop1")
        let loop = expectAMCError { try AMC.write(dictionary: ["x": 1], to: folder.file("loop1"), format: .json) }
        #expect(loop?.description.contains("cannot follow its symbolic links") == true)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.file("loop1").path) == "loop2")
    }

    @Test func replacingAFileKeepsItsPermissions() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("private.plist")
        try AMC.write(Node(), to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        try AMC.write(Node(), to: url, format: .binaryPropertyList)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        #expect(AMCFormat(detecting: try Data(contentsOf: url)) == .binaryPropertyList)
    }

    @Test func manyThreadsReplacingOneFileAlwaysLeaveAWholeFile() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("shared.json")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    let node = Optionals()
                    node.name = String(repeating: "\(index)", count: 1000 * (index + 1))
                    try? AMC.write(node, to: url)
                }
            }
        }
        let node = try #require(try AMC.read(Optionals.self, from: url))
        #expect((node.name?.count ?? 0) >= 1000)
        #expect(folder.contents == ["shared.json"])
    }

    #if canImport(Glibc)
        /// A process whose files may not grow past 64 KB stands in for a full disk.
        @Test func aFullDiskLeavesThePreviousFileIntactAndNoTemporaryFile() async {
            await #expect(processExitsWith: .success) {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-full-\(getpid())")
                try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                let url = folder.appendingPathComponent("big.json")
                let small = Optionals()
                small.name = "small"
                try? AMC.write(small, to: url)
                guard let before = try? Data(contentsOf: url) else { exit(2) }
                signal(SIGXFSZ, SIG_IGN)
                var limit = rlimit(rlim_cur: 65_536, rlim_max: 65_536)
                guard setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &limit) == 0 else { exit(3) }
                let big = Optionals()
                big.name = String(repeating: "x", count: 200_000)
                do {
                    try AMC.write(big, to: url)
                    exit(4)
                } catch let error as AMCError {
                    guard case let .fileSystem(_, reason) = error.kind, reason.hasPrefix("cannot write") else { exit(5) }
                } catch {
                    exit(6)
                }
                let after = try? Data(contentsOf: url)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
                try? FileManager.default.removeItem(at: folder)
                exit(after == before && names == ["big.json"] ? 0 : 7)
            }
        }
    #endif
}
