import AutoMagicCoding
import Foundation

/// The graph `amc bench` times: a company with N people and 50 offices, as ``AMCCodable`` classes
/// and as a `Codable` twin for the Foundation baselines.
///
/// ```swift
/// let (company, twin) = BenchCompany.make(people: 1_000)
/// let data = try AMC.data(for: company, format: .json)
/// ```
public final class BenchCompany: AMCCodable {
    /// The company's name.
    public var name = ""
    /// Everyone, managers first in each group of 100.
    public var people: [BenchPerson] = []
    /// The offices by city.
    public var offices: [String: BenchOffice] = [:]
    /// An empty company.
    public required init() {}

    /// Registers the benchmark classes with the archiver.
    public static func register() {
        AMC.register(BenchCompany.self, BenchPerson.self, BenchOffice.self)
    }

    /// The same graph twice, built from the same numbers: for AutoMagicCoding and for `Codable`.
    public static func make(people count: Int) -> (BenchCompany, CodableCompany) {
        let company = BenchCompany()
        let twin = CodableCompany()
        company.name = "Benchmark & Sons"
        twin.name = company.name
        for index in 0..<count {
            let person = BenchPerson()
            let twinPerson = CodablePerson()
            person.id = index
            person.name = "Person \(index) Example"
            person.email = "person\(index)@example.com"
            person.salary = 30_000 + Double(index % 997) * 101.25
            person.active = index % 3 != 0
            person.tags = ["team\(index % 20)", index % 2 == 0 ? "remote" : "office"]
            person.frame = CGRect(x: Double(index % 640), y: Double(index % 480), width: 120.5, height: 44)
            if index % 100 != 0 {
                person.manager = company.people[index - index % 100]
                twinPerson.manager = twin.people[index - index % 100]
            }
            (twinPerson.id, twinPerson.name, twinPerson.email) = (person.id, person.name, person.email)
            (twinPerson.salary, twinPerson.active, twinPerson.tags) = (person.salary, person.active, person.tags)
            twinPerson.frame = person.frame
            company.people.append(person)
            twin.people.append(twinPerson)
        }
        for index in 0..<50 {
            let office = BenchOffice()
            office.city = "City \(index)"
            office.headcount = 10 + index * 7
            office.location = CGPoint(x: Double(index) * 1.5, y: -Double(index) / 4)
            company.offices[office.city] = office
            twin.offices[office.city] = CodableOffice(city: office.city, headcount: office.headcount, location: office.location)
        }
        return (company, twin)
    }
}

/// A person of the benchmark company.
public final class BenchPerson: AMCCodable {
    /// A number.
    public var id = 0
    /// A name.
    public var name = ""
    /// An address.
    public var email = ""
    /// Yearly salary.
    public var salary = 0.0
    /// Still employed.
    public var active = false
    /// Free-form tags.
    public var tags: [String] = []
    /// The person's manager, for all but the managers themselves: an earlier person, so a shared
    /// object (a reference in our files, a full copy in the `Codable` twin's).
    public var manager: BenchPerson?
    /// Where the person's card sits on a chart.
    public var frame = CGRect.zero
    /// Nobody yet.
    public required init() {}
}

/// An office of the benchmark company.
public final class BenchOffice: AMCCodable {
    /// Where.
    public var city = ""
    /// How many work there.
    public var headcount = 0
    /// On a map.
    public var location = CGPoint.zero
    /// Nowhere yet.
    public required init() {}
}

/// The `Codable` twin of ``BenchCompany``, for the Foundation baselines.
public final class CodableCompany: Codable {
    /// See ``BenchCompany/name``.
    public var name = ""
    /// See ``BenchCompany/people``.
    public var people: [CodablePerson] = []
    /// See ``BenchCompany/offices``.
    public var offices: [String: CodableOffice] = [:]
    /// An empty company.
    public init() {}
}

/// The `Codable` twin of ``BenchPerson``.
public final class CodablePerson: Codable {
    /// See ``BenchPerson``.
    public var id = 0, name = "", email = "", salary = 0.0, active = false, tags: [String] = []
    /// See ``BenchPerson/manager``.
    public var manager: CodablePerson?
    /// See ``BenchPerson/frame``.
    public var frame = CGRect.zero
    /// Nobody yet.
    public init() {}
}

/// The `Codable` twin of ``BenchOffice``.
public struct CodableOffice: Codable {
    /// See ``BenchOffice``.
    public var city: String, headcount: Int, location: CGPoint
}
