import Foundation
import Testing

@testable import AutoMagicCoding

enum Weekday: Int, Hashable, Sendable {
    case monday = 1
    case tuesday
}
enum Mood: String, Hashable, Sendable { case calm, busy }

/// Dictionaries keyed by what models key them by.
final class Keyed: AMCCodable {
    var byNumber: [Int: Double] = [:]
    var bySmall: [UInt8: String] = [:]
    var byID: [UUID: String] = [:]
    var byDay: [Weekday: [String]] = [:]
    var byMood: [Mood: Int] = [:]
    var byFlag: [Bool: String]? = nil
    required init() {}
}

/// A record as Swift developers declare one: identity and creation date are `let`.
final class Record: AMCCodable {
    let id: UUID
    let created: Date
    let owner = RecordOwner()
    let kind = 1
    var title = ""
    required init() {
        id = UUID()
        created = Date()
    }
}

final class RecordOwner: AMCCodable {
    var name = "nobody"
    required init() {}
}

/// A struct of `let`s: every new one is the same, so none can be restored.
struct Extent: AMCCodable {
    let width: Double
    init() { width = 0 }
}

@Suite("The models Swift developers write")
struct SwiftModelTests {
    init() {
        AMC.register(Keyed.self, Lesson.self, Reply.self, Record.self, RecordOwner.self, Extent.self)
        AMC.register(Folder.self, Item.self, Squad.self, Player.self)
    }

    static let formats = [AMCFormat.json, .xmlPropertyList, .binaryPropertyList]

    @Test(arguments: formats)
    func dictionariesWithKeysOtherThanStringsComeBackExactly(format: AMCFormat) throws {
        let keyed = Keyed()
        let id = UUID()
        keyed.byNumber = [-3: 0.5, 1 << 40: 1e300]
        keyed.bySmall = [0: "zero", 255: "max"]
        keyed.byID = [id: "me"]
        keyed.byDay = [.monday: ["gym"], .tuesday: []]
        keyed.byMood = [.busy: 2]
        keyed.byFlag = [true: "yes"]
        let data = try AMC.data(for: keyed, format: format, options: .readable)
        let copy = try #require(try AMC.object(Keyed.self, from: data))
        #expect(copy.byNumber == keyed.byNumber && copy.bySmall == keyed.bySmall && copy.byID == keyed.byID)
        #expect(copy.byDay == keyed.byDay && copy.byMood == keyed.byMood && copy.byFlag == keyed.byFlag)
        // Keys are written as the strings a person would write.
        let dictionary = try keyed.dictionaryRepresentation()
        #expect(dictionary["byNumber"] as? [String: Double] == ["-3": 0.5, "1099511627776": 1e300])
        #expect(dictionary["byDay"] as? [String: [String]] == ["1": ["gym"], "2": []])
        #expect(dictionary["byMood"] as? [String: Int] == ["busy": 2])
        #expect(dictionary["byID"] as? [String: String] == [id.uuidString: "me"])
    }

    @Test func keysThatDoNotFitAreErrorsNamingTheKey() throws {
        let tooBig = expectAMCError { _ = try AMC.object(Keyed.self, from: ["class": "Keyed", "bySmall": ["256": "x"]]) }
        #expect(tooBig?.keyPath == "bySmall.256")
        let notADay = expectAMCError { _ = try AMC.object(Keyed.self, from: ["class": "Keyed", "byDay": ["9": []]]) }
        #expect(notADay?.keyPath == "byDay.9")
        let twice = expectAMCError {
            _ = try AMC.object(Keyed.self, from: ["class": "Keyed", "byNumber": ["1": 1.0, "01": 2.0]])
        }
        #expect(twice?.keyPath.hasPrefix("byNumber.") == true)
        #expect(twice?.description.contains("for 1") == true)
    }

    @Test func aPropertyNamedClassIsAnErrorNamingTheFix() throws {
        let expected = AMCError.Kind.reservedKey(key: "class", typeName: "Lesson")
        #expect(expectAMCError { _ = try Lesson().dictionaryRepresentation() }?.kind == expected)
        let read = expectAMCError { _ = try AMC.object(Lesson.self, from: ["class": "Lesson", "title": "x"]) }
        #expect(read?.kind == expected)
        #expect(read?.description.contains("amcKey(forProperty:)") == true)
    }

    @Test func aDepthErrorNamesTheRepeatedSegmentOnce() throws {
        let root = replyChain(311)
        var archiver = AMCArchiver()
        archiver.maximumDepth = 300
        archiver.graphMode = .tree  // graph mode writes the chain in its object table
        let error = try #require(
            try onThread(stackSize: 8 << 20) {
                amcError { _ = try archiver.data(for: root, format: .json) }
            })
        #expect(error.kind == .nestingTooDeep(limit: 300))
        #expect(error.description == "At \"next ×300\": nesting deeper than 300 levels.")
        #expect(error.description.count < 200)
        #expect(AMCError.folded("a.b.b.b.b.c[0].c[0]") == "a.b ×4.c[0].c[0]")
        dismantle(root)  // no deep release
    }

    @Test(arguments: formats)
    func letsMadePerInstanceAreRestored(format: AMCFormat) throws {
        let record = Record()
        record.owner.name = "Ada"
        record.title = "Plan"
        let copy = try #require(try AMC.object(Record.self, from: try AMC.data(for: record, format: format)))
        #expect(copy.id == record.id && copy.title == "Plan" && copy.owner.name == "Ada")
        // Exactly in JSON and binary property lists; XML property lists hold whole seconds.
        if format == .xmlPropertyList {
            #expect(copy.created.timeIntervalSince1970 == record.created.timeIntervalSince1970.rounded())
        } else {
            #expect(copy.created == record.created)
        }
    }

    @Test func aLetEveryNewInstanceAgreesOnIsNeverWrittenAndAnotherValueIsAnError() throws {
        // The same value: nothing to restore.
        let same = try #require(try AMC.object(Record.self, from: ["class": "Record", "kind": 1, "title": "t"]))
        #expect(same.kind == 1 && same.title == "t")
        let error = expectAMCError { _ = try AMC.object(Record.self, from: ["class": "Record", "kind": 2]) }
        #expect(error?.kind == .unrestorableLet(key: "kind", typeName: "Record"))
        #expect(error?.keyPath == "kind")
        #expect(
            error?.description.hasSuffix(
                "make it a var (or, for a struct, conform to Codable instead: its init(from:) sets lets).") == true)
        let extent = expectAMCError { _ = try AMC.object(Extent.self, from: ["class": "Extent", "width": 3.5]) }
        #expect(extent?.kind == .unrestorableLet(key: "width", typeName: "Extent"))
    }

    @Test func loadValueFollowsReferencesIntoTheWholeDictionary() throws {
        let folder = Folder()
        let item = Item()
        item.parent = folder
        folder.items = [item]
        let holder = Squad()
        holder.anything = [folder]
        let dictionary = try holder.dictionaryRepresentation()
        let target = Squad()
        try target.loadValue(forKey: "anything", from: dictionary)
        let copy = try #require(target.anything.first as? Folder)
        #expect(copy.items.first?.parent === copy)
        withExtendedLifetime(folder) {}
    }
}

@Suite("Dates in JSON come back exactly")
struct ExactDateTests {
    @Test func everyDateReadsBackToTheSameValue() throws {
        var dates = [
            Date(), Date(timeIntervalSinceReferenceDate: -0.3), Date(timeIntervalSinceReferenceDate: 1e-7),
            Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: -978_307_200.000_001),
            Date(timeIntervalSinceReferenceDate: 123_456_789.987_654_321), Date.distantFuture, Date.distantPast,
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            dates.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -4e10...4e10, using: &generator)))
        }
        // Years of five digits and more, and before year 0.
        for _ in 0..<500 {
            dates.append(Date(timeIntervalSinceReferenceDate: Double.random(in: -9e14...9e14, using: &generator)))
        }
        for date in dates {
            let text = try #require(ISODate.string(from: date))
            #expect(ISODate.date(from: text) == date, "\(text) for \(date.timeIntervalSinceReferenceDate)")
        }
        #expect(ISODate.string(from: Date(timeIntervalSince1970: 1.5)) == "1970-01-01T00:00:01.5Z")
        #expect(ISODate.string(from: Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00Z")
        #expect(ISODate.string(from: Date(timeIntervalSinceReferenceDate: -0.25)) == "2000-12-31T23:59:59.75Z")
        // Shortest forms with an exponent (`1e-07`), and their complement before 2001.
        #expect(ISODate.string(from: Date(timeIntervalSinceReferenceDate: 1e-7)) == "2001-01-01T00:00:00.0000001Z")
        #expect(ISODate.string(from: Date(timeIntervalSinceReferenceDate: -1e-7)) == "2000-12-31T23:59:59.9999999Z")
        #expect(ISODate.string(from: Date(timeIntervalSinceReferenceDate: -62_902_396_800)) == "0007-09-15T00:00:00Z")
    }

    /// Years from 1000 to 9999 are written from packed words: the text is Foundation's, to the
    /// second, at random and at the ends it can check (from 1583: before the Gregorian calendar
    /// began, Foundation's formatter writes Julian dates, ISO 8601 Gregorian ones); either side of
    /// the packed years, by the text itself.
    @Test func aFourDigitYearsDateIsWrittenAsFoundationWritesIt() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        let first = -13_190_860_800.0  // 1583-01-01T00:00:00Z, seconds from 2001
        let last = 252_423_993_599.0  // 9999-12-31T23:59:59Z
        var seconds = [first, last, 0, -1, 86_399, 785_000_000]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 { seconds.append(Double.random(in: first...last, using: &generator).rounded(.down)) }
        for value in seconds {
            let date = Date(timeIntervalSinceReferenceDate: value)
            #expect(ISODate.string(from: date) == formatter.string(from: date), "for \(value)")
        }
        for text in ["0999-12-31T23:59:59Z", "1000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "10000-01-01T00:00:00Z"] {
            #expect(ISODate.date(from: text).flatMap(ISODate.string(from:)) == text)
        }
    }

    /// A date with a few digits of fraction is read as one division (see `ISODate`), and must
    /// round as the exact decimal does: on either side of 2001, at the largest whole seconds the
    /// division takes for each count of digits and past them, with trailing zeros.
    @Test func fractionalSecondsRoundAsTheirExactDecimal() throws {
        var generator = SystemRandomNumberGenerator()
        for digits in 1...17 {
            let scale = (0..<min(digits, 18)).reduce(Int64(1)) { power, _ in power * 10 }
            let limit = digits <= 15 ? (Int64(1) << 53) / scale : 900_000_000_000
            for _ in 0..<300 {
                let whole =
                    [limit - 1, limit, limit + 1, -limit, -limit - 1, 0, -1].randomElement(using: &generator)!
                    + Int64.random(in: -3...3, using: &generator)
                let fraction = Int64.random(in: 0..<scale, using: &generator)
                func padded(_ value: Int64) -> String {
                    String(repeating: "0", count: digits - String(value).count) + String(value)
                }
                let fractionText = padded(fraction)
                guard abs(whole) < 900_000_000_000 else { continue }
                let wholeText = try #require(ISODate.string(from: Date(timeIntervalSinceReferenceDate: Double(whole))))
                let text = wholeText.dropLast() + "." + fractionText + "0Z"
                // whole + 0.f exactly, as a decimal that `Double(_:)` rounds correctly.
                let exact =
                    whole >= 0
                    ? "\(whole).\(fractionText)"
                    : fraction == 0 ? "\(whole)" : "-\(-(whole + 1)).\(padded(scale - fraction))"
                let expected = try #require(Double(exact))
                #expect(ISODate.date(from: String(text))?.timeIntervalSinceReferenceDate == expected, "\(text): \(exact)")
            }
        }
    }

    @Test func xmlPropertyListsHoldDatesRoundedToTheNearestSecond() throws {
        for (seconds, text) in [
            (0.5, "2001-01-01T00:00:01Z"), (0.49, "2001-01-01T00:00:00Z"), (-0.5, "2001-01-01T00:00:00Z"),
            (-0.51, "2000-12-31T23:59:59Z"), (59.5, "2001-01-01T00:01:00Z"),
        ] {
            var document = ArchiveDictionary()
            document.append("d", .date(Date(timeIntervalSinceReferenceDate: seconds)))
            let xml = try DocumentCodec.encode(.dictionary(document), format: .xmlPropertyList, options: .compact)
            #expect(String(decoding: xml, as: UTF8.self).contains("<date>\(text)</date>"), "\(seconds)")
        }
    }
}

/// A property wrapper as apps write them: one stored property.
@propertyWrapper
struct Clamped: Sendable {
    private var value: Int
    var wrappedValue: Int {
        get { value }
        set { value = min(max(newValue, 0), 100) }
    }
    init(wrappedValue: Int) { value = min(max(wrappedValue, 0), 100) }
}

#if canImport(Observation)
    import Observation

    @Observable
    final class ObservedNote: AMCCodable {
        var title = ""
        var body = ""
        @ObservationIgnored var draft = false
        required init() {}
    }
#endif

@Suite("Property wrappers and @Observable classes")
struct WrapperTests {
    init() { AMC.register(AudioSettings.self) }

    @Test(arguments: SwiftModelTests.formats)
    func aWrappedPropertyIsArchivedUnderItsOwnName(format: AMCFormat) throws {
        let settings = AudioSettings()
        settings.volume = 70
        let dictionary = try settings.dictionaryRepresentation()
        #expect(dictionary["volume"] as? Int == 70 && dictionary["_volume"] == nil)
        let copy = try #require(try AMC.object(AudioSettings.self, from: try AMC.data(for: settings, format: format)))
        #expect(copy.volume == 70)
        // Key-Value Coding and styles reach it by that name.
        try copy.setValue(string: "30", forKey: "volume")
        #expect(copy.volume == 30)
        try copy.apply(style: ["volume": 40])
        let read = try copy.value(forKey: "volume")
        #expect(copy.volume == 40 && read as? Int == 40)
    }

    @Test(arguments: SwiftModelTests.formats)
    func aCodableWrapperOfMoreIsArchivedThroughItsConformanceUnderThePropertysName(format: AMCFormat) throws {
        let settings = AudioSettings()
        settings.balance = 1.5
        let dictionary = try settings.dictionaryRepresentation()
        let balance = try #require(dictionary["balance"] as? [String: Any])
        #expect(balance["value"] as? Double == 1.5 && balance["range"] as? [Double] == [0, 2] && dictionary["_balance"] == nil)
        let copy = try #require(try AMC.object(AudioSettings.self, from: try AMC.data(for: settings, format: format)))
        #expect(copy.balance == 1.5)
        try AMC.check(AudioSettings.self)
    }

    #if canImport(Observation)
        @Test(arguments: SwiftModelTests.formats)
        func anObservableClassArchivesItsPropertiesAndStillObserves(format: AMCFormat) throws {
            AMC.register(ObservedNote.self)
            let note = ObservedNote()
            note.title = "Groceries"
            note.body = "milk"
            note.draft = true
            let dictionary = try note.dictionaryRepresentation()
            #expect(Set(dictionary.keys) == ["class", "title", "body", "draft"])
            let copy = try #require(try AMC.object(ObservedNote.self, from: try AMC.data(for: note, format: format)))
            #expect(copy.title == "Groceries" && copy.body == "milk" && copy.draft)
            // The decoded object is a working observable one.
            let changed = Locked(false)
            withObservationTracking {
                _ = copy.title
            } onChange: {
                changed.withLock { $0 = true }
            }
            copy.title = "Errands"
            #expect(changed.withLock { $0 })
        }
    #endif
}

/// What a new user's note model held before it could be archived: every kind of refusal, some
/// nil in tests.
final class SparseNote: AMCCodable {
    struct Money { var cents = 0 }
    actor Sync {}
    var title = ""
    var price: Money?
    var pair: (Int, Int)?
    var onSave: (() -> Void)?
    var sync: Sync?
    var kind: Any.Type?
    var replies: [Reply] = []
    var priced: [String: [Money]] = [:]
    required init() {}
}

final class WideNumbers: AMCCodable {
    var signed: Int128 = 0
    var unsigned: UInt128 = 0
    var tags: Set<String> = []
    var numbers: Set<Int> = []
    required init() {}
}

@Suite("Checks and refusals")
struct CheckTests {
    init() { AMC.register(WideNumbers.self, Reply.self) }

    @Test func checkFindsEveryUnarchivablePropertyWithoutValues() throws {
        let error = try #require(expectAMCError { try AMC.check(SparseNote.self) })
        guard case let .unarchivable(errors) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(errors.map(\.keyPath) == ["price", "pair", "onSave", "sync", "kind", "priced[][]"])
        #expect(errors[0].kind == .unsupportedStruct(typeName: "Money", operation: .encode))
        #expect(errors[1].description.contains("a tuple has no names"))
        #expect(errors[2].description.contains("a closure is code, not data"))
        #expect(errors[3].description.contains("an actor's state is isolated"))
        #expect(errors[4].description.contains("a type is not data"))
        #expect(error.description.hasPrefix("At the root: 6 properties cannot be archived: \"price\""))
        // A model that can be archived passes, recursive types included.
        try AMC.check(Reply.self)
        try AMC.check(WideNumbers.self)
    }

    @Test(arguments: SwiftModelTests.formats)
    func int128AndUInt128ComeBackExactly(format: AMCFormat) throws {
        let wide = WideNumbers()
        wide.signed = -(Int128(1) << 100) - 7
        wide.unsigned = (UInt128(1) << 64) + 1
        let copy = try #require(try AMC.object(WideNumbers.self, from: try AMC.data(for: wide, format: format)))
        #expect(copy.signed == wide.signed && copy.unsigned == wide.unsigned)
        // Numbers while they fit 64 bits, decimal strings beyond.
        wide.signed = 5
        let dictionary = try wide.dictionaryRepresentation()
        #expect(dictionary["signed"] as? Int == 5 && dictionary["unsigned"] as? String == "18446744073709551617")
        let tooBig = expectAMCError { _ = try AMC.object(WideNumbers.self, from: ["class": "WideNumbers", "unsigned": "-1"]) }
        #expect(tooBig?.keyPath == "unsigned")
    }

    @Test func setsAreWrittenInTheSameOrderEveryTime() throws {
        let wide = WideNumbers()
        wide.tags = Set((0..<50).map { "tag\($0)" })
        wide.numbers = Set((0..<50).map { $0 * 37 % 101 - 20 })
        let text = String(decoding: try AMC.data(for: wide, format: .json, options: .readable), as: UTF8.self)
        let dictionary = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(dictionary["tags"] as? [String] == wide.tags.sorted())
        #expect(dictionary["numbers"] as? [Int] == wide.numbers.sorted())
    }

    /// A `Decimal` is written as an integer, a double or its digits, whichever holds it exactly;
    /// a set of them is still written in ascending order, whatever order it holds them in.
    @Test func setsOfNumbersWrittenInDifferentFormsAreWrittenInOneOrder() throws {
        final class Prices: AMCCodable {
            var values: Set<Decimal> = []
            required init() {}
        }
        let long = try #require(Decimal(string: "12345678901234567890.123"))
        let values: [Decimal] = [2, 10, 15.5, -3, 0.25, long, 100, 7.75, -0.5, 1_000_000]
        var written: Set<String> = []
        for capacity in stride(from: 10, to: 400, by: 30) {
            // Sets of other capacities hold their elements in other orders.
            let prices = Prices()
            prices.values = Set(minimumCapacity: capacity)
            for value in values.shuffled() { prices.values.insert(value) }
            let data = try AMC.data(for: prices, format: .json, options: AMCWriteOptions(prettyPrinted: false, sortedKeys: true))
            written.insert(String(decoding: data, as: UTF8.self))
        }
        #expect(written.count == 1)
        let order = try #require(written.first?.split(separator: "[").last?.split(separator: "]").first)
        #expect(order == #"-3,-0.5,0.25,2,7.75,10,15.5,100,1000000,"12345678901234567890.123""#)
    }
}
