import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

/// Memory bounds are checked without a sanitizer, which makes every program several times larger.
private let underSanitizer = TestScale.underSanitizer

@Suite("Hostile files cost memory in proportion to their size", .serialized)
struct ResourceBoundTests {
    /// Each input at 1 MB, read by `amc lint` in a process of its own: refused or read as
    /// expected, and its peak memory beyond `amc lint`'s own within
    /// `HostileInput.memoryBound(size:)`.
    @Test(arguments: HostileInput.allCases)
    func readingTakesAtMostABoundedMultipleOfTheFilesSize(input: HostileInput) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let tiny = folder.file("tiny.json")
        try Data("[1]".utf8).write(to: tiny)
        let file = folder.file("input")
        let data = input.data(size: 1 << 20)
        try data.write(to: file)

        let baseline = try MeasuredRun(executable: AMCBinary.url.path, arguments: ["lint", tiny.path])
        let run = try MeasuredRun(executable: AMCBinary.url.path, arguments: ["lint", file.path])
        #expect(baseline.status == 0)
        #expect(run.status == (input.isRefused ? 1 : 0), "\(run.output)")
        let reason: String =
            switch input {
            case .jsonOpenBrackets, .xmlOpenArrays: "levels deep"
            case .binaryExpansion: "shared objects expand to more than 1048576 values"
            case .binaryClaimedObjects: "the object table (1099511627776 objects at 10) does not fit the file"
            case .binaryClaimedCount: "a count of 1099511627776 runs past the object table"
            case .binaryNestedClaims, .binarySiblingClaims, .binaryContainersListedTwice:
                "the containers hold more values than the file has room for references"
            default: ": OK"
            }
        #expect(run.output.contains(reason), "\(run.output)")
        if input.scales { #expect(data.count >= 1 << 19) }

        guard !underSanitizer else { return }
        let extra = run.peakBytes - baseline.peakBytes
        #expect(
            extra <= HostileInput.memoryBound(size: data.count),
            "\(input.rawValue): \(extra >> 10) KB beyond amc lint's own for \(data.count >> 10) KB")
    }

    @Test func theMeasurementSeesAProgramsOwnMemoryNotItsParents() throws {
        // This test process holds far more than amc does; amc's peak must not include it.
        let ballast = [UInt8](repeating: 1, count: 200 << 20)
        let run = try withExtendedLifetime(ballast) {
            try MeasuredRun(executable: AMCBinary.url.path, arguments: ["--help"])
        }
        #expect(run.status == 0 && run.output.hasPrefix("usage:"))
        guard !underSanitizer else { return }
        #expect(run.peakBytes < 100 << 20)
        #expect(run.peakBytes > 1 << 20)
    }

    /// What `amc bench` weighs a parsed markup document with: the bytes malloc has handed out
    /// and not taken back, mapped large blocks too. (Other tests allocate meanwhile, so only a
    /// large block held is looked for; the bench checks its figures against a known block in a
    /// process of its own. The sanitizers bring their own allocator, which malloc does not see.)
    @Test(.enabled(if: !underSanitizer && AllocatedBytes.now != nil, "malloc tells its figures on glibc only"))
    func allocatedBytesSeesALargeBlockHeld() throws {
        let before = try #require(AllocatedBytes.now)
        let large = [UInt8](repeating: 1, count: 64 << 20)
        let after = try #require(AllocatedBytes.now)
        #expect(after - before > large.count / 2, "\(after - before) bytes seen for \(large.count)")
        withExtendedLifetime(large) {}
    }
}
