import AutoMagicCoding
import Foundation

/// The sample model of `amc demo`: a small company with people (and managers, a subclass),
/// teams, offices with geometry, a heterogeneous collection and custom structs.
///
/// ```swift
/// let company = Company.sample()
/// let dict = try company.dictionaryRepresentation()
/// ```
public final class Company: AMCCodable {
    /// The company name.
    public var name = ""
    /// When it was founded.
    public var founded = Date(timeIntervalSince1970: 0)
    /// Its web site, if any.
    public var website: URL?
    /// The product version, written as `"2.4.1"`.
    public var version = SemanticVersion(major: 1, minor: 0, patch: 0)
    /// The budget, written as `"EUR 1200.50"` by the struct hooks below.
    public var budget = Money(currency: "EUR", cents: 0)
    /// The main office (in the sample, also one of ``offices``; it decodes as a separate copy).
    public var headquarters: Office?
    /// Every office.
    public var offices: [Office] = []
    /// Everyone, managers included.
    public var people: [Person] = []
    /// The teams.
    public var teams: [Team] = []
    /// Anything at all: numbers, strings, people, lists of offices.
    public var assets: [Any] = []
    /// An empty instance, for decoding.
    public required init() {}

    /// `Money` has no codec of its own: the company's struct hooks write it as `"EUR 1200.50"`.
    public func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
        if let money = value as? Money { return money.description }
        return try AMC.defaultEncodeStruct(value, named: structName)
    }

    /// Reads `"EUR 1200.50"` back into `Money`.
    public func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
        if structName == "Money" { return try Money(parsing: string) }
        return try AMC.defaultDecodeStruct(string, named: structName)
    }
}

/// A person; ``Manager`` is a subclass that `[Person]` properties hold too.
///
/// ```swift
/// let ada = Person(name: "Ada", role: .engineer)
/// ```
public class Person: AMCCodable {
    /// The person's name.
    public var name = ""
    /// A stable identifier, written as its string.
    public var id = UUID()
    /// What the person does.
    public var role = Role.engineer
    /// Skills, in no order.
    public var skills: Set<String> = []
    /// An e-mail address, if any.
    public var email: String?
    /// The team the person is a member of: a back-pointer, `weak` so that teams and members do
    /// not keep each other alive. Archived as a reference to the team, and pointed at it again
    /// when read: `AMC.object(Company.self, from: dict)?.teams[0].members[0].team` is that team.
    public weak var team: Team?
    /// An empty instance, for decoding.
    public required init() {}

    /// A person with a name and a role.
    public convenience init(name: String, role: Role) {
        self.init()
        self.name = name
        self.role = role
        self.email = "\(name.lowercased())@example.com"
    }
}

/// A manager: a person with reports.
///
/// ```swift
/// let grace = Manager(name: "Grace", role: .director)
/// grace.reports = [ada]
/// ```
public final class Manager: Person {
    /// The people reporting to this manager.
    public var reports: [Person] = []
    /// The management level.
    public var level: UInt8 = 1
}

/// What a person does, archived as its raw value.
public enum Role: String, Sendable {
    /// Builds things.
    case engineer
    /// Designs things.
    case designer
    /// Directs people.
    case director
}

/// A team of people.
///
/// ```swift
/// let team = Team(); team.members = [ada]
/// ```
public final class Team: AMCCodable {
    /// The team name.
    public var name = ""
    /// Who leads it.
    public var lead: Person?
    /// Its members.
    public var members: [Person] = []
    /// Free-form facts: any property-list values.
    public var metadata: [String: Any] = [:]
    /// An empty instance, for decoding.
    public required init() {}
}

/// An office, with its floor plan in `CGRect`/`CGPoint`/`CGSize`.
///
/// ```swift
/// let office = Office(); office.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
/// ```
public final class Office: AMCCodable {
    /// Where the office is.
    public var city = ""
    /// Its floor plan.
    public var frame = CGRect.zero
    /// Where the entrance is on the plan.
    public var entrance = CGPoint.zero
    /// The size of one desk.
    public var deskSize = CGSize(width: 1.6, height: 0.8)
    /// How many desks it has.
    public var desks = 0
    /// An empty instance, for decoding.
    public required init() {}
}

/// A version written as `"1.4.2"` wherever it appears: an ``AMCStructCodable`` struct.
///
/// ```swift
/// try SemanticVersion(amcStringValue: "1.4.2").minor   // 4
/// ```
public struct SemanticVersion: AMCStructCodable, Equatable, Sendable {
    /// The three numbers of the version.
    public var major: Int, minor: Int, patch: Int

    /// A version from its three numbers.
    public init(major: Int, minor: Int, patch: Int) {
        (self.major, self.minor, self.patch) = (major, minor, patch)
    }

    /// `"major.minor.patch"`.
    public var amcStringValue: String { "\(major).\(minor).\(patch)" }

    /// Parses `"major.minor.patch"`.
    public init(amcStringValue string: String) throws {
        let parts = string.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 3 else {
            throw AMCError(.typeMismatch(expected: "a version like \"1.4.2\"", found: "\"\(string)\""))
        }
        self.init(major: parts[0], minor: parts[1], patch: parts[2])
    }
}

/// An amount of money: a plain struct that only ``Company``'s struct hooks know how to write.
///
/// ```swift
/// Money(currency: "EUR", cents: 120_050).description   // "EUR 1200.50"
/// ```
public struct Money: Equatable, Sendable, CustomStringConvertible {
    /// An ISO currency code.
    public var currency: String
    /// The amount in hundredths.
    public var cents: Int

    /// An amount in cents of `currency`.
    public init(currency: String, cents: Int) {
        self.currency = currency
        self.cents = cents
    }

    /// Parses `"EUR 1200.50"`.
    public init(parsing string: String) throws {
        let parts = string.split(separator: " ")
        let negative = parts.count == 2 && parts[1].hasPrefix("-")
        let amount = parts.count == 2 ? parts[1].drop(while: { $0 == "-" }).split(separator: ".") : []
        guard amount.count == 2, amount[1].count == 2, let units = UInt(amount[0]), let hundredths = Int(amount[1]) else {
            throw AMCError(.typeMismatch(expected: "money like \"EUR 1200.50\"", found: "\"\(string)\""))
        }
        let magnitude = Int(units) * 100 + hundredths
        self.init(currency: String(parts[0]), cents: negative ? -magnitude : magnitude)
    }

    /// `"EUR 1200.50"`.
    public var description: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = abs(cents)
        let hundredths = magnitude % 100
        return "\(currency) \(sign)\(magnitude / 100).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }
}
