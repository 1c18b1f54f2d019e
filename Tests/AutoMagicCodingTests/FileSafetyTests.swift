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
