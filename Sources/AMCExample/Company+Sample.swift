import AutoMagicCoding
import Foundation

extension Company {
    /// Registers every class of the sample model, so that data may name them.
    ///
    /// ```swift
    /// Company.registerModel()
    /// ```
    public static func registerModel() {
        AMC.register(Company.self, Person.self, Manager.self, Team.self, Office.self)
    }

    /// The sample company `amc demo` archives.
    ///
    /// ```swift
    /// let company = Company.sample()
    /// company.people.count   // 4
    /// ```
    public static func sample() -> Company {
        let company = Company()
        company.name = "Automagic Ltd"
        company.founded = Date(timeIntervalSince1970: 1_300_000_000)
        company.website = URL(string: "https://automagic.example")
        company.version = SemanticVersion(major: 2, minor: 4, patch: 1)
        company.budget = Money(currency: "EUR", cents: 120_050)

        let berlin = Office()
        berlin.city = "Berlin"
        berlin.frame = CGRect(x: 39, y: 235, width: 1233.09, height: 124)
        berlin.entrance = CGPoint(x: 15, y: 16)
        berlin.desks = 42
        let lisbon = Office()
        lisbon.city = "Lisbon"
        lisbon.frame = CGRect(x: 0, y: 0, width: 300.5, height: 80)
        lisbon.deskSize = CGSize(width: 1.4, height: 0.7)
        lisbon.desks = 12
        company.offices = [berlin, lisbon]
        company.headquarters = berlin

        let ada = Person(name: "Ada", role: .engineer)
        ada.skills = ["swift", "compilers"]
        let linus = Person(name: "Linus", role: .engineer)
        let dieter = Person(name: "Dieter", role: .designer)
        dieter.email = nil
        let grace = Manager(name: "Grace", role: .director)
        grace.reports = [ada, linus, dieter]
        grace.level = 3
        company.people = [ada, linus, dieter, grace]

        let core = Team()
        core.name = "Core"
        core.lead = grace
        core.members = [ada, linus]
        for member in core.members { member.team = core }  // weak back-pointers
        core.metadata = ["room": "B2", "sprint": 14, "stack": ["swift", "plist"]]
        company.teams = [core]

        company.assets = [7, "logo.png", 99.5, true, ada, [lisbon, ["nested": [1, 2]]]]
        return company
    }
}
