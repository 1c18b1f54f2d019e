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
    public var name = ""
    public var founded = Date(timeIntervalSince1970: 0)
    public var website: URL?
    public var version = SemanticVersion(major: 1, minor: 0, patch: 0)
    public var budget = Money(currency: "EUR", cents: 0)
    public var headquarters: Office?
    public var offices: [Office] = []
    public var people: [Person] = []
    public var teams: [Team] = []
    /// Anything at all: numbers, strings, people, lists of offices.
    public var assets: [Any] = []
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
    public var name = ""
    public var id = UUID()
    public var role = Role.engineer
    public var skills: Set<String> = []
    public var email: String?
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
    public var reports: [Person] = []
    public var level: UInt8 = 1
}

/// What a person does, archived as its raw value.
public enum Role: String, Sendable {
    case engineer, designer, director
}

/// A team of people.
///
/// ```swift
/// let team = Team(); team.members = [ada]
/// ```
public final class Team: AMCCodable {
    public var name = ""
    public var lead: Person?
    public var members: [Person] = []
    public var metadata: [String: Any] = [:]
    public required init() {}
}

/// An office, with its floor plan in `CGRect`/`CGPoint`/`CGSize`.
///
/// ```swift
/// let office = Office(); office.frame = CGRect(x: 0, y: 0, width: 40, height: 20)
/// ```
public final class Office: AMCCodable {
    public var city = ""
    public var frame = CGRect.zero
    public var entrance = CGPoint.zero
    public var deskSize = CGSize(width: 1.6, height: 0.8)
    public var desks = 0
    public required init() {}
}

/// A version written as `"1.4.2"` wherever it appears: an ``AMCStructCodable`` struct.
///
/// ```swift
/// try SemanticVersion(amcStringValue: "1.4.2").minor   // 4
/// ```
public struct SemanticVersion: AMCStructCodable, Equatable, Sendable {
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
    public var currency: String
    public var cents: Int

    /// An amount in cents of `currency`.
    public init(currency: String, cents: Int) {
        self.currency = currency
        self.cents = cents
    }

    /// Parses `"EUR 1200.50"`.
    public init(parsing string: String) throws {
        let parts = string.split(separator: " ")
        let amount = parts.count == 2 ? parts[1].split(separator: ".") : []
        guard amount.count == 2, let units = Int(amount[0]), let hundredths = Int(amount[1]) else {
            throw AMCError(.typeMismatch(expected: "money like \"EUR 1200.50\"", found: "\"\(string)\""))
        }
        self.init(currency: String(parts[0]), cents: units * 100 + (units < 0 ? -hundredths : hundredths))
    }

    /// `"EUR 1200.50"`.
    public var description: String {
        let sign = cents < 0 ? "-" : ""
        let magnitude = abs(cents)
        let hundredths = magnitude % 100
        return "\(currency) \(sign)\(magnitude / 100).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }
}
