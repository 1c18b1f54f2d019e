import Foundation
import Testing

@testable import AutoMagicCoding

/// How every XML property list the project keeps reads today, recorded in
/// `Tests/Snapshots/xml-reading-outcomes.txt` and compared verbatim: the document each file
/// holds (as a hash of `amc print`'s tree of it, which shows every value exactly) or the error
/// it gives. The files are the XML fuzz corpus, inputs made to reach every branch of the reader,
/// and the fixtures. A change to the reader that changes how any of them reads shows here, line
/// by line; `RECORD_SNAPSHOTS=1` writes the file anew (read its diff before committing), as it
/// must be after the corpus is merged again.
@Suite("XML property lists read as they did")
struct XMLReadingOutcomeTests {
    static let snapshot = FixtureFiles.packageRoot.appendingPathComponent("Tests/Snapshots/xml-reading-outcomes.txt")

    /// The files, by path from the package's root, in order.
    static func inputs() throws -> [String] {
        let root = FixtureFiles.packageRoot
        let corpus = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Fuzz/Corpus/FuzzXML").path)
            .map { "Fuzz/Corpus/FuzzXML/" + $0 }
        let fixtures = try #require(FileManager.default.enumerator(atPath: FixtureFiles.folder.path))
            .compactMap { $0 as? String }.filter { $0.hasSuffix(".plist") }.map { "Fixtures/" + $0 }
        let xml = try fixtures.filter { path in
            let data = try Data(contentsOf: root.appendingPathComponent(path))
            return !data.starts(with: Data("bplist".utf8))
        }
        return (corpus + xml).sorted()
    }

    /// One line: the file, then `ok` and the hash of what it holds, or `error` and the error.
    static func outcome(of path: String) throws -> String {
        let data = try Data(contentsOf: FixtureFiles.packageRoot.appendingPathComponent(path))
        do {
            return "\(path) ok \(String(fnv1a(Array(try AMC.printedTree(of: data).utf8)), radix: 16))"
        } catch {
            return "\(path) error \(visible(String(describing: error)))"
        }
    }

    /// `text` with its control characters written as `\u{…}`, so that the file stays text.
    private static func visible(_ text: String) -> String {
        text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
            .joined()
    }

    /// FNV-1a, 64 bits: a stable hash without a package for one.
    private static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    @Test func everyKeptXMLFileReadsAsRecorded() throws {
        let paths = try Self.inputs()
        #expect(paths.count > 2_000)  // the corpus is there
        // On a thread whose stack holds any nesting the reader allows, so that what a file gives
        // does not depend on the build's frame sizes (a sanitiser's are larger).
        let text = try onThread(stackSize: 1 << 29) { try paths.map(Self.outcome).joined(separator: "\n") + "\n" }
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            return try Data(text.utf8).write(to: Self.snapshot)
        }
        let expected = try String(contentsOf: Self.snapshot, encoding: .utf8)
        let (now, then) = (text.split(separator: "\n"), expected.split(separator: "\n"))
        let changed = zip(now, then).filter { $0 != $1 }.prefix(5).map { "now: \($0.0)\nwas: \($0.1)" }
        #expect(now.count == then.count, "\(now.count) files now, \(then.count) recorded")
        #expect(changed.isEmpty, "\(changed.joined(separator: "\n")); RECORD_SNAPSHOTS=1 writes the file anew")
    }
}
