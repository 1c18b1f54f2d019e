import Foundation
import Testing

@testable import AutoMagicCoding

/// A `Codable` class that is no `AMCCodable`.
final class Signature: Codable, Equatable, @unchecked Sendable {
    var name = ""
    var scale = 1.0
    static func == (left: Signature, right: Signature) -> Bool { left.name == right.name && left.scale == right.scale }
}

/// A list that encodes itself as nested values: each level one more container.
indirect enum Chain: Codable, Equatable, Sendable {
    case end
    case link(Int, Chain)

    static func of(length: Int) -> Chain {
        (0..<length).reduce(Chain.end) { chain, index in .link(index, chain) }
    }
}

/// An enum the archiver has no way for: no raw values, not `CaseIterable`, not `Codable`.
enum Lifecycle: Sendable {
    case new
    case used(Int)
}

/// A struct whose `encode(to:)` fills containers out of order and uses `superEncoder`.
struct Twisted: Codable, Equatable, Sendable {
    var first = 1
    var inner = [2, 3]
    var last = "z"
    enum CodingKeys: String, CodingKey { case first, inner, last, nested }
    enum InnerKeys: String, CodingKey { case values }

    init() {}

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        var nested = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .nested)
        try container.encode(last, forKey: .last)
        try nested.encode(inner, forKey: .values)  // after its parent's later key
        try container.encode(first, forKey: .first)
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        first = try container.decode(Int.self, forKey: .first)
        last = try container.decode(String.self, forKey: .last)
        inner = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .nested).decode([Int].self, forKey: .values)
    }
}

final class Invoice: AMCCodable {
    var state = PublishState.draft
    var history: [PublishState] = []
    var total = Price(amount: 0, currency: "EUR")
    var discount: Price?
    var rate: Decimal = 0
    var zone = TimeZone(identifier: "UTC") ?? .current
    var pages: Range<Int> = 0..<1
    var signature = Signature()
    var twisted = Twisted()
    var anything: Any?
    required init() {}
}

final class Ledger: AMCCodable {
    var chain = Chain.end
    required init() {}
}

final class Machine: AMCCodable {
    var lifecycle = Lifecycle.new
    required init() {}
}

/// An owner whose struct hook has written `Price` as a string since before `Price` was `Codable`.
final class Till: AMCCodable {
    var cash = Price(amount: 0, currency: "EUR")
    var state = PublishState.draft
    required init() {}

    func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
        guard let money = value as? Price else { return try AMC.defaultEncodeStruct(value, named: structName) }
        return "\(money.amount) \(money.currency)"
    }

    func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
        guard structName == "Price" else { return try AMC.defaultDecodeStruct(string, named: structName) }
        let parts = string.split(separator: " ")
        guard parts.count == 2, let amount = Decimal(string: String(parts[0])) else {
            throw AMCError(.typeMismatch(expected: "an amount and a currency", found: string))
        }
        return Price(amount: amount, currency: String(parts[1]))
    }
}

@Suite("Codable values inside archives")
struct CodableValueTests {
    init() { AMC.register(Invoice.self, Ledger.self, Machine.self, Till.self) }

    static let date = Date(timeIntervalSinceReferenceDate: 800_000_000)

    static func invoice() -> Invoice {
        let invoice = Invoice()
        invoice.state = .archived(reason: "paid \"in full\"", at: date)
        invoice.history = [.draft, .published(date)]
        invoice.total = Price(amount: Decimal(string: "1234.5678901234567890123")!, currency: "EUR")
        invoice.discount = Price(amount: Decimal(string: "12.5")!, currency: "USD")
        invoice.rate = Decimal(string: "0.19")!
        invoice.zone = TimeZone(identifier: "Europe/Paris")!
        invoice.pages = 3..<12
        invoice.signature.name = "Ada"
        invoice.signature.scale = 0.75
        invoice.twisted.first = 7
        invoice.twisted.inner = [8, 9]
        return invoice
    }

    @Test(arguments: SwiftModelTests.formats)
    func codableValuesComeBackFieldByField(format: AMCFormat) throws {
        let invoice = Self.invoice()
        let data = try AMC.data(for: invoice, format: format)
        let copy = try #require(try AMC.object(Invoice.self, from: data))
        #expect(copy.state == invoice.state)
        #expect(copy.history == invoice.history)
        #expect(copy.total == invoice.total)
        #expect(copy.discount == invoice.discount)
        #expect(copy.rate == invoice.rate)
        #expect(copy.zone == invoice.zone)
        #expect(copy.pages == invoice.pages)
        #expect(copy.signature == invoice.signature)
        #expect(copy.twisted == invoice.twisted)
    }

    @Test func keyedContainersAreDictionariesUnkeyedOnesArraysSingleValuesScalars() throws {
        let invoice = Self.invoice()
        let data = try AMC.data(for: invoice, format: .json, options: AMCWriteOptions(prettyPrinted: false, sortedKeys: true))
        let json = String(decoding: data, as: UTF8.self)
        // No JSONEncoder inside: dates keep the archive's form, decimals are exact, no "class" keys.
        #expect(json.contains(#""state":{"archived":{"at":"2026-05-09T06:13:20Z","reason":"paid \"in full\""}}"#))
        #expect(json.contains(#""history":[{"draft":{}},{"published":{"_0":"2026-05-09T06:13:20Z"}}]"#))
        #expect(json.contains(#""total":{"amount":"1234.5678901234567890123","currency":"EUR"}"#))
        #expect(json.contains(#""discount":{"amount":12.5,"currency":"USD"}"#))
        #expect(json.contains(#""pages":[3,12]"#))
        #expect(
            json.contains(#""zone":{"identifier":"Europe\/Paris"}"#) || json.contains(#""zone":{"identifier":"Europe/Paris"}"#))
        #expect(json.contains(#""twisted":{"first":7,"last":"z","nested":{"values":[8,9]}}"#))
        #expect(json.components(separatedBy: "\"class\"").count == 2)
    }

    @Test func theDictionaryRepresentationHoldsPlainValues() throws {
        let dictionary = try Self.invoice().dictionaryRepresentation()
        let state = try #require(dictionary["state"] as? [String: Any])
        let archived = try #require(state["archived"] as? [String: Any])
        #expect(archived["reason"] as? String == "paid \"in full\"")
        #expect(archived["at"] as? Date == Self.date)
        let copy = try #require(try AMC.object(Invoice.self, from: dictionary))
        #expect(copy.state == .archived(reason: "paid \"in full\"", at: Self.date))
    }

    @Test func anyPlacesWriteCodableValuesAsPlainDictionaries() throws {
        let invoice = Invoice()
        invoice.anything = Price(amount: 3, currency: "GBP")
        let dictionary = try invoice.dictionaryRepresentation()
        let written = try #require(dictionary["anything"] as? [String: Any])
        #expect(written["amount"] as? Int == 3 && written["currency"] as? String == "GBP")
    }

    @Test func errorsInsideACodableValueNameTheWholeKeyPath() throws {
        var dictionary = try Self.invoice().dictionaryRepresentation()
        dictionary["total"] = ["amount": "12,50", "currency": "EUR"]
        var error = expectAMCError { _ = try AMC.object(Invoice.self, from: dictionary) }
        #expect(error?.description == #"At "total.amount": expected a decimal number, found the string "12,50"."#)

        dictionary["total"] = ["currency": "EUR"]
        error = expectAMCError { _ = try AMC.object(Invoice.self, from: dictionary) }
        #expect(error?.description == #"At "total.amount": expected a value of type Decimal, found nothing."#)

        dictionary["total"] = ["amount": 1, "currency": "EUR"]
        dictionary["history"] = [["draft": [:]], ["published": ["_0": "yesterday"]]]
        error = expectAMCError { _ = try AMC.object(Invoice.self, from: dictionary) }
        #expect(
            error?.description
                == #"At "history[1].published._0": expected a date or an ISO 8601 date string, found the string "yesterday"."#)

        // An unknown case: the enum's own error, and what was there.
        dictionary["history"] = [["draft": [:]], ["gone": [:]]]
        error = expectAMCError { _ = try AMC.object(Invoice.self, from: dictionary) }
        #expect(
            error?.description == """
                At "history[1]": init(from:) of PublishState failed: Invalid number of keys found, expected one; \
                found a dictionary with the key "gone".
                """)
    }

    @Test func repeatedGroupsOfKeysFoldInErrorDescriptions() {
        #expect(AMCError.folded("formula" + String(repeating: ".neg._0", count: 300) + ".x") == "formula.(neg._0) ×300.x")
        #expect(AMCError.folded("a.b.c.a.b.c.a.b.c.a.b.c") == "(a.b.c) ×4")
        #expect(AMCError.folded("a.b.a.b.a.b") == "a.b.a.b.a.b")
    }

    @Test func aCodableValueNestedDeeperThanTheLimitIsAnErrorNotACrash() throws {
        let ledger = Ledger()
        ledger.chain = .of(length: 100)
        let copy = try #require(try AMC.object(Ledger.self, from: try AMC.data(for: ledger, format: .json)))
        #expect(copy.chain == ledger.chain)

        var archiver = AMCArchiver()
        archiver.maximumDepth = 50
        ledger.chain = .of(length: 60)
        let error = expectAMCError { _ = try archiver.data(for: ledger, format: .json) }
        #expect(error?.kind == .nestingTooDeep(limit: 50))
        // Where the stack runs out first, that stops it (DepthTests).
        // (A chain this long is made and released on a large stack: releasing it recurses too.)
        ledger.chain = .end
        let stackError = try onThread(stackSize: 64 << 20) {
            let deep = Ledger()
            deep.chain = .of(length: 5_000)
            return try onThread(stackSize: 256 << 10) { amcError { _ = try AMC.data(for: deep, format: .json) } }
        }
        guard case .stackExhausted? = stackError?.kind else {
            Issue.record("expected the stack to stop it, got \(String(describing: stackError))")
            return
        }
    }

    @Test func anEnumWithNoRouteSaysWhatFitsAnEnum() throws {
        let error = expectAMCError { _ = try Machine().dictionaryRepresentation() }
        #expect(
            error?.description == """
                At "lifecycle": cannot archive a value of type Lifecycle: an enum is archived by its raw value, by its case \
                name when it is CaseIterable, or (with associated values) through Codable: conform it to one of these, or \
                handle "Lifecycle" in the owner's amcEncodeStruct hook.
                """)
        let check = expectAMCError { try AMC.check(Machine.self) }
        #expect(check?.description.contains(#""lifecycle" (cannot archive a value of type Lifecycle: an enum is"#) == true)
    }

    @Test func anOwnersStructHookComesFirstAndItsOldStringsStillRead() throws {
        let till = Till()
        till.cash = Price(amount: Decimal(string: "12.50")!, currency: "EUR")
        till.state = .published(Self.date)
        let dictionary = try till.dictionaryRepresentation()
        #expect(dictionary["cash"] as? String == "12.5 EUR")
        #expect(dictionary["state"] is [String: Any])  // the hook does not handle it: Codable does
        let copy = try #require(try AMC.object(Till.self, from: dictionary))
        #expect(copy.cash == till.cash && copy.state == till.state)

        // A file where the value went through Codable reads too.
        let codable = try AMC.object(Till.self, from: ["class": "Till", "cash": ["amount": 3, "currency": "USD"]])
        #expect(codable?.cash == Price(amount: 3, currency: "USD"))
    }

    @Test func configsKeyValueCodingAndTheStringVocabularyReachCodableValues() throws {
        let config = AMCConfig(dictionary: ["price": ["amount": "9.99", "currency": "EUR"], "rate": 0.2])
        #expect(try config.value(Price.self, forKeyPath: "price") == Price(amount: Decimal(string: "9.99")!, currency: "EUR"))
        #expect(try config.value(Decimal.self, forKeyPath: "rate") == Decimal(string: "0.2"))
        let invoice = Invoice()
        try invoice.setValue(string: "0.07", forKey: "rate")
        #expect(invoice.rate == Decimal(string: "0.07"))
        try invoice.setValue(["published": ["_0": "2026-05-09T06:13:20Z"]], forKey: "state")
        #expect(invoice.state == .published(Self.date))
    }
}

@Suite("Decimal")
struct DecimalTests {
    @Test(arguments: ["0", "-3", "12.5", "0.1", "1e-7", "3.14159265358979323846264338327", "-99999999999999999999.99"])
    func everyDecimalComesBackExactlyInEveryFormat(text: String) throws {
        let invoice = Invoice()
        invoice.rate = try #require(Decimal(string: text))
        for format in SwiftModelTests.formats {
            let copy = try #require(try AMC.object(Invoice.self, from: try AMC.data(for: invoice, format: format)))
            #expect(copy.rate == invoice.rate, "\(format)")
        }
    }

    @Test func aDecimalIsANumberWhenADoubleHoldsItExactly() {
        #expect(Decimal(string: "12.5")!.archiveScalar.keyText == "12.5")
        if case .double = Decimal(string: "12.5")!.archiveScalar {} else { Issue.record("12.5 should be a number") }
        if case .int(42) = Decimal(42).archiveScalar {} else { Issue.record("42 should be an integer") }
        if case .string = Decimal(string: "0.12345678901234567890")!.archiveScalar {
        } else {
            Issue.record("20 digits should be a string")
        }
    }

    @Test func aStringThatIsNotWhollyADecimalIsRefused() {
        let error = expectAMCError { _ = try AMC.value(Decimal.self, from: "12abc") }
        #expect(error?.kind == .typeMismatch(expected: "a decimal number", found: "the string \"12abc\""))
    }
}
