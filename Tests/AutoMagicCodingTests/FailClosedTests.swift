import Foundation
import Testing

@testable import AutoMagicCoding

/// An object whose item points back at it without keeping it, in every ownership.
final class Lodge: AMCCodable {
    var name = ""
    var lodger: Lodger?
    required init() {}
    /// What the `unowned` properties of a new ``Lodger`` hold (they cannot be nil).
    nonisolated(unsafe) static let placeholder = Lodge()
}

final class Lodger: AMCCodable {
    unowned var host: Lodge = Lodge.placeholder
    unowned(unsafe) var bareHost: Lodge = Lodge.placeholder
    weak var guest: Lodge?
    required init() {}
}

/// A count where the date fixtures of `Fixtures/fuzz/` hold a date under `"d"`.
final class DatedCount: AMCCodable {
    var d = 0
    required init() {}
}

/// Settings with an optional object, as a config file or an archive holds them.
final class Deployment: AMCCodable {
    var host = ""
    var backup: Lodge? = Lodge()
    required init() {}
}

/// Lodges by name, one of them also held by a property written after the dictionary.
final class Directory: AMCCodable {
    var byKey: [String: Lodge] = [:]
    var favourite: Lodge?
    required init() {}
}

/// The faults a fuzzing campaign found in the entry points added since the one before (issue
/// 45, G1–G5), each kept fixed.
@Suite("Fail closed: fuzzing findings G1–G5")
struct FailClosedTests {
    init() { AMC.register(Lodge.self, Lodger.self, DatedCount.self, Deployment.self, Directory.self) }

    /// G1: `loadValue` stores nothing unless the whole value decoded and every `weak` or
    /// `unowned` field in it points at an object something holds.
    @Test(arguments: ["host", "bareHost", "guest"])
    func loadValueIsAllOrNothing(field: String) throws {
        let lodge = Lodge()
        // "#" names the object loaded into: the lodger points back at it.
        try lodge.loadValue(forKey: "lodger", from: ["class": "Lodge", "lodger": [field: ["$ref": "#"]]])
        let lodger = try #require(lodge.lodger)
        #expect([lodger.host, lodger.bareHost, lodger.guest].contains { $0 === lodge })

        // An object nothing holds, written in full or named by a reference elsewhere in the
        // dictionary: an error for `unowned`, and the live object keeps what it had; a `weak`
        // field is nil, as in memory, and the handler hears of it.
        for file in ["g1-unowned-object-nothing-holds.json", "g1-unowned-reference-nothing-holds.json"] {
            let json = try String(decoding: FixtureFiles.data("fuzz/" + file), as: UTF8.self)
            let dictionary = try FuzzFindingTests.dictionary(
                Data(json.replacingOccurrences(of: "\"host\"", with: "\"\(field)\"").utf8))
            let fresh = Lodge()
            guard field != "guest" else {
                let reported = try heard { try fresh.loadValue(forKey: "lodger", from: dictionary) }
                #expect(fresh.lodger != nil && fresh.lodger?.guest == nil)
                #expect(reported.count == 1 && reported.first?.keyPath == "lodger.guest")
                continue
            }
            let error = try #require(throws: AMCError.self) { try fresh.loadValue(forKey: "lodger", from: dictionary) }
            #expect(error.keyPath.hasPrefix("lodger.\(field)"), "\(error)")
            #expect(fresh.lodger == nil)
            // In no-throw mode too: reported, and nothing stored.
            let reported = try swallowed(matching: "lodger") { try fresh.loadValue(forKey: "lodger", from: dictionary) }
            #expect(fresh.lodger == nil)
            #expect(reported == [error])
        }
    }

    /// G2: a problem, an error or a printed document holding a date with no calendar form (NaN,
    /// an infinity, 1e300 seconds) describes it, never traps in Foundation's `Date.description`.
    @Test(arguments: ["date-nan.plist", "date-minus-infinity.plist", "date-1e300.plist"])
    func everyDescriptionOfADocumentsDateIsTotal(file: String) throws {
        let data = try FixtureFiles.data("fuzz/" + file)
        let seconds = try #require((try FuzzFindingTests.dictionary(data)["d"] as? Date)?.timeIntervalSinceReferenceDate)
        for reportingUnknownKeys in [false, true] {
            let report = try AMC.lenientObject(DatedCount.self, from: data, reportingUnknownKeys: reportingUnknownKeys)
            let problem = try #require(report.problems.first)
            #expect("\(problem)".hasSuffix("(value: date \(seconds) seconds from 2001)"), "\(problem)")
        }
        let strict = try #require(throws: AMCError.self) { try AMC.object(DatedCount.self, from: data) }
        #expect("\(strict)" == "At \"d\": expected a number of type Int, found a date.")
        #expect(try AMC.printedTree(of: data).contains("date \(seconds) seconds from 2001"))
    }

    /// G3: strict and lenient decoding follow one rule, in configs as in archives: an empty
    /// string is nil for an optional object (as for an optional number).
    @Test func strictAndLenientDecodingAgreeOnAnEmptyString() throws {
        let config = try AMCConfig(contentsOf: FixtureFiles.url("fuzz/g3-empty-string-optional-object.json"))
        let strict = try config.object(Deployment.self)
        let lenient = try config.lenientObject(Deployment.self)
        #expect(strict.backup == nil && lenient.object.backup == nil)
        #expect(lenient.problems.isEmpty, "\(lenient.problems)")

        let archive: [String: Any] = ["class": "Deployment", "host": "a", "backup": ""]
        var decoded: Deployment?
        let heardErrors = try heard { decoded = try AMC.object(Deployment.self, from: archive) }
        #expect(decoded != nil && decoded?.backup == nil)
        let report = try AMCArchiver().lenientObject(Deployment.self, from: archive)
        #expect(heardErrors.isEmpty && report.problems.isEmpty && report.object.backup == nil)
        // Anything else that is not an object stays an error for both.
        let config7 = AMCConfig(dictionary: ["backup": 7])
        #expect(throws: AMCError.self) { try config7.object(Deployment.self) }
        #expect(try config7.lenientObject(Deployment.self).problems.count == 1)
    }

    /// G4: a shared object kept in a dictionary under a key a reference could be mistaken for
    /// (`$ref`, written `$$ref`) is named by references as the key is written: the file reads back.
    @Test(arguments: SwiftModelTests.formats)
    func referencesNameDollarKeysAsWritten(format: AMCFormat) throws {
        // What the writer made before: the reference names the key unescaped, so nothing.
        let unreadable = try FixtureFiles.data("fuzz/g4-reference-to-unescaped-key.json")
        let broken = try #require(throws: AMCError.self) { try AMC.lint(unreadable) }
        #expect("\(broken)".contains("\"#/byKey/$ref\" names no object"), "\(broken)")
        for keys in [["$ref"], ["$$ref"], ["$versions"], ["$objects"], ["$ref", "b"]] {
            let directory = Directory()
            for key in keys { directory.byKey[key] = Lodge() }
            directory.byKey[keys[0]]?.name = "shared"
            directory.favourite = directory.byKey[keys[0]]
            let data = try AMC.data(for: directory, format: format)
            let copy = try #require(try AMC.object(Directory.self, from: data), "\(keys)")
            #expect(Set(copy.byKey.keys) == Set(keys))
            #expect(copy.favourite != nil && copy.favourite === copy.byKey[keys[0]], "\(keys)")
            #expect(copy.favourite?.name == "shared")
            #expect(try AMC.lint(data) == format)
        }
    }

    /// Finite numbers from the smallest to the largest a `Double` holds, with and without
    /// fractions, the sizes where writers switch to exponents (1e15, 1e16) among them.
    static let extremeNumbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.5, 1e-5, 1e-7, 123456.789, 1e15, 1e15 + 0.5, 1e16, -1e16, 3e18, 2.5e21, 1e22,
        9_007_199_254_740_994, 1e300, -1e300, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
        .leastNonzeroMagnitude, .leastNormalMagnitude, 1e-300,
    ]

    /// G5: every value type's string form reads back to the same value, whatever its numbers.
    @Test func everyValueTypesStringReadsBackAtExtremeNumbers() throws {
        func readsBack<Value: AMCStructCodable & Equatable>(_ value: Value) {
            let string = value.amcStringValue
            do {
                #expect(try Value(amcStringValue: string) == value, "\(Value.self) \(string)")
            } catch {
                Issue.record("\(Value.self) \(string): \(error)")
            }
        }
        // The image string that lost its insets (read as a name with no caps).
        let gallery = try FuzzFindingTests.dictionary(try FixtureFiles.data("fuzz/g5-image-insets-with-exponent.json"))
        let image = try AMCImage(amcStringValue: try #require(gallery["image"] as? String))
        #expect(image == AMCImage(name: "a b.png", capInsets: AMCEdgeInsets(top: 3e18, left: 2, bottom: 3, right: 3e18)))
        for number in Self.extremeNumbers {
            readsBack(AMCEdgeInsets(top: number, left: 1, bottom: number, right: -number))
            readsBack(AMCImage(name: "a b.png", capInsets: AMCEdgeInsets(top: number, left: 2, bottom: 3, right: number)))
            readsBack(AMCOffset(horizontal: number, vertical: -number))
            readsBack(CGPoint(x: number, y: 1))
            readsBack(CGSize(width: 1, height: number))
            readsBack(CGRect(x: number, y: 0, width: -number, height: 1))
            if number > 0 { readsBack(AMCFont(name: "Avenir", size: number, isBold: true)) }
            if number >= 0 && number <= 1 { readsBack(AMCColor(red: number, green: 0.5, blue: 1, alpha: number)) }
        }
    }
}
