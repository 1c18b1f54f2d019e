import Foundation
import Testing
@testable import AutoMagicCoding

enum Weekday: Int, Hashable, Sendable { case monday = 1, tuesday }
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

@Suite("The models Swift developers write")
struct SwiftModelTests {
    init() { AMC.register(Keyed.self) }

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
        let twice = expectAMCError { _ = try AMC.object(Keyed.self, from: ["class": "Keyed", "byNumber": ["1": 1.0, "01": 2.0]]) }
        #expect(twice?.keyPath.hasPrefix("byNumber.") == true)
        #expect(twice?.description.contains("for 1") == true)
    }
}
