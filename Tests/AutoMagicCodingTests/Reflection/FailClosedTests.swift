import Foundation
import Synchronization
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

/// Shapes that wrote what could not be read back, or passed `AMC.check` while they could not be
/// archived (issue 45, section 3).
enum North {
    final class Compass: AMCCodable {
        var heading = 0
        required init() {}
    }
}

enum South {
    final class Compass: AMCCodable {
        var heading = 0
        required init() {}
    }
}

final class Voucher: AMCCodable {
    var total = 0
    var reference = ""
    static func amcKey(forProperty name: String) -> String { name == "reference" ? "$ref" : name }
    required init() {}
}

final class Tangle: AMCCodable {
    var twice: Int?? = 1
    var gaps: [Int?] = [1]
    var named: [String: Int?] = [:]
    let lock = Mutex(0)
    let counter = Atomic<Int>(0)
    var compass = North.Compass()
    required init() {}
}

@Suite("Fail closed: shapes that cannot be archived are refused by name")
struct UnarchivableShapeTests {
    /// A property written under `$ref`, `$nil`, `$versions` or `$objects` (as under `class`) is
    /// refused on encode and decode, and by `AMC.check`: the file could not be read back.
    @Test func aPropertyUnderAKeyTheArchiverWritesIsRefused() throws {
        let ledger = Voucher()
        ledger.reference = "#/nowhere"
        let expected = AMCError.Kind.reservedKey(key: "$ref", typeName: "Voucher")
        #expect(try #require(throws: AMCError.self) { try ledger.dictionaryRepresentation() }.kind == expected)
        let decodeError = try #require(throws: AMCError.self) {
            try AMC.object(Voucher.self, from: ["class": "Voucher", "total": 1])
        }
        #expect(decodeError.kind == expected)
        #expect(
            "\(decodeError)"
                == "At the root: Voucher would write a property under \"$ref\", the key of a reference to an object: "
                + "give it another key with amcKey(forProperty:).")
        let checked = try #require(throws: AMCError.self) { try AMC.check(Voucher.self) }
        #expect(checked.kind == .unarchivable(errors: [AMCError(expected, keyPath: "$ref")]))
    }

    /// `AMC.check` names every shape here: an optional of an optional (`.some(nil)` read back
    /// nil), arrays and dictionaries of optionals, noncopyable fields (named, not `()`), and a
    /// class name two registered types share.
    @Test func checkReportsEveryShapeThatCannotBeArchived() throws {
        AMC.register(North.Compass.self, South.Compass.self)
        let error = try #require(throws: AMCError.self) { try AMC.check(Tangle.self) }
        guard case let .unarchivable(errors) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(errors.map(\.keyPath) == ["twice", "gaps[]", "named[]", "lock", "counter", "compass"])
        #expect("\(errors[0])".contains("an optional of an optional: .some(nil) and nil would read back the same"))
        #expect("\(errors[1])".contains("nil inside an array or a dictionary cannot be archived"))
        #expect("\(errors[3])".contains("a noncopyable field (a Mutex, an Atomic, any ~Copyable type)"))
        #expect(
            errors[5].kind == .ambiguousClassName(className: "Compass", typeNames: ["North.Compass", "South.Compass"]))
        // The double optional is refused when written, not read back as nil.
        let tangle = Tangle()
        tangle.twice = .some(nil)
        #expect(throws: AMCError.self) { try AMC.data(for: tangle, format: .json) }
    }
}

/// Links relative to a base, wherever a URL can be.
struct Bookmark: Codable, Equatable {
    var target: URL
}

final class Links: AMCCodable {
    var home = URL(string: "https://example.com")!
    var relative: URL?
    var list: [URL] = []
    var byName: [String: URL] = [:]
    var bookmark = Bookmark(target: URL(string: "https://example.com")!)
    required init() {}
}

extension UnarchivableShapeTests {
    /// A URL relative to a base comes back relative to the same base (`==` holds), written as
    /// `{"base": …, "relative": …}`; an absolute URL is still its string.
    @Test(arguments: SwiftModelTests.formats)
    func aRelativeURLComesBackRelativeToItsBase(format: AMCFormat) throws {
        AMC.register(Links.self)
        let base = URL(string: "https://example.com/root/")!
        let relative = URL(string: "docs/a.txt", relativeTo: base)!
        let file = URL(fileURLWithPath: "notes/b.txt", relativeTo: URL(fileURLWithPath: "/srv/app/", isDirectory: true))
        let links = Links()
        links.relative = relative
        links.list = [relative, links.home, file]
        links.byName = ["a": relative]
        links.bookmark = Bookmark(target: file)
        let copy = try #require(try AMC.object(Links.self, from: try AMC.data(for: links, format: format)))
        #expect(copy.relative == relative && copy.relative?.baseURL == base && copy.relative?.relativeString == "docs/a.txt")
        #expect(copy.list == links.list && copy.byName == links.byName && copy.bookmark == links.bookmark)
        #expect(copy.home == links.home)

        let dictionary = try links.dictionaryRepresentation()
        #expect(dictionary["home"] as? String == "https://example.com")
        let written = try #require(dictionary["relative"] as? [String: Any])
        #expect(written["base"] as? String == "https://example.com/root/" && written["relative"] as? String == "docs/a.txt")
        #expect(try AMC.object(Links.self, from: dictionary)?.relative == relative)
    }
}

/// A `let` every new instance gives the same dates, and two properties under reserved keys.
final class Almanac: AMCCodable {
    let holidays: [Date] = []
    var title = ""
    required init() {}
}

final class Clash: AMCCodable {
    var kind = ""
    var link = ""
    static func amcKey(forProperty name: String) -> String { name == "kind" ? "class" : name == "link" ? "$ref" : name }
    required init() {}
}

final class Sparse: AMCCodable {
    var named: [String: Int?] = [:]
    required init() {}
}

/// Holes found reviewing the fixes above.
@Suite("Fail closed: what the review of the fixes found")
struct FailClosedReviewTests {
    /// A document's NaN date for a constant `let` is refused, not a trap in `Date.description`
    /// (the constant check compared descriptions).
    @Test func aNaNDateForAConstantLetIsRefusedNotATrap() throws {
        let error = try #require(throws: AMCError.self) {
            try AMC.object(Almanac.self, from: ["class": "Almanac", "holidays": [Date(timeIntervalSinceReferenceDate: .nan)]])
        }
        #expect(error.kind == .unrestorableLet(key: "holidays", typeName: "Almanac"))
    }

    /// A nil value in a dictionary is refused by name, as a nil in an array is: it would read back
    /// as a missing key.
    @Test func aNilDictionaryValueIsRefused() throws {
        let sparse = Sparse()
        sparse.named = ["a": nil]
        let error = try #require(throws: AMCError.self) { try AMC.data(for: sparse, format: .json) }
        #expect(error.keyPath == "named.a" && "\(error)".contains("nil inside an array or a dictionary"))
    }

    /// Removing the other key of `{"a": …, "$ref": "#/a"}` would leave a reference to nothing:
    /// refused, and the document is unchanged.
    @Test func anEditThatWouldLeaveABrokenReferenceIsRefused() throws {
        var document = try AMCDocument(data: Data(##"{"x": {"a": {}, "$ref": "#/a"}}"##.utf8))
        let before = try document.data(format: .json)
        let error = try #require(throws: AMCError.self) { try document.remove(atKeyPath: "x.a") }
        guard case .invalidReference = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(try document.data(format: .json) == before)
    }

    /// An image name that ends in what looks like the start of an exponent is a name.
    @Test func anImageNameEndingInAnEIsAName() throws {
        #expect(try AMCImage(amcStringValue: "sprite 2e") == AMCImage(name: "sprite 2e"))
        #expect(
            try AMCImage(amcStringValue: "a.png 1e2, 3")
                == AMCImage(name: "a.png", capInsets: AMCEdgeInsets(top: 100, left: 3, bottom: 100, right: 3)))
    }

    /// A relative URL whose base is no URL is refused, not read without its base.
    @Test func aRelativeURLWithABaseThatIsNoURLIsRefused() throws {
        AMC.register(Links.self)
        let error = try #require(throws: AMCError.self) {
            try AMC.object(Links.self, from: ["class": "Links", "relative": ["base": "", "relative": "a.txt"]])
        }
        #expect(error.keyPath == "relative")
    }

    /// Every property under a reserved key is reported, not only the first.
    @Test func everyPropertyUnderAReservedKeyIsReported() throws {
        let error = try #require(throws: AMCError.self) { try AMC.check(Clash.self) }
        #expect(
            error.kind
                == .unarchivable(errors: [
                    AMCError(.reservedKey(key: "class", typeName: "Clash"), keyPath: "class"),
                    AMCError(.reservedKey(key: "$ref", typeName: "Clash"), keyPath: "$ref"),
                ]))
    }
}
