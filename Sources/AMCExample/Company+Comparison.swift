import Foundation

/// Field-by-field comparison of two sample companies, written out by hand so that it does not
/// rely on the archiver it checks.
struct Differences {
    private(set) var paths: [String] = []
    /// The path where each object of either graph was met first: the same object met again must
    /// be the same in the other graph, or identity was lost (or invented).
    private var firstSeen: [ObjectIdentifier: String] = [:]
    private var otherFirstSeen: [ObjectIdentifier: String] = [:]

    /// Checks that `a` and `b` are met first at the same place (so both graphs share alike).
    mutating func identity(_ path: String, _ a: AnyObject, _ b: AnyObject) {
        let first = firstSeen[ObjectIdentifier(a)] ?? path
        let otherFirst = otherFirstSeen[ObjectIdentifier(b)] ?? path
        firstSeen[ObjectIdentifier(a)] = first
        otherFirstSeen[ObjectIdentifier(b)] = otherFirst
        if first != otherFirst { paths.append("\(path) (identity: \(first) vs \(otherFirst))") }
    }

    mutating func check<T: Equatable>(_ path: String, _ a: T, _ b: T) {
        if a != b { paths.append(path) }
    }

    mutating func person(_ path: String, _ a: Person?, _ b: Person?) {
        guard let a, let b else { return check(path, a == nil, b == nil) }
        identity(path, a, b)
        check("\(path).class", "\(type(of: a))", "\(type(of: b))")
        check("\(path).name", a.name, b.name)
        check("\(path).id", a.id, b.id)
        check("\(path).role", a.role, b.role)
        check("\(path).skills", a.skills, b.skills)
        check("\(path).email", a.email, b.email)
        check("\(path).team", a.team?.name, b.team?.name)
        if let team = a.team, let otherTeam = b.team { identity("\(path).team", team, otherTeam) }
        if let a = a as? Manager, let b = b as? Manager {
            check("\(path).level", a.level, b.level)
            people("\(path).reports", a.reports, b.reports)
        }
    }

    mutating func people(_ path: String, _ a: [Person], _ b: [Person]) {
        each(path, a, b) { $0.person($1, $2, $3) }
    }

    /// Compares the counts, then each pair of elements with `compare`.
    mutating func each<T>(_ path: String, _ a: [T], _ b: [T], _ compare: (inout Differences, String, T, T) -> Void) {
        check("\(path).count", a.count, b.count)
        for (index, (x, y)) in zip(a, b).enumerated() { compare(&self, "\(path)[\(index)]", x, y) }
    }

    mutating func team(_ path: String, _ a: Team, _ b: Team) {
        identity(path, a, b)
        check("\(path).name", a.name, b.name)
        person("\(path).lead", a.lead, b.lead)
        people("\(path).members", a.members, b.members)
        any("\(path).metadata", a.metadata, b.metadata)
    }

    mutating func office(_ path: String, _ a: Office?, _ b: Office?) {
        guard let a, let b else { return check(path, a == nil, b == nil) }
        identity(path, a, b)
        check("\(path).city", a.city, b.city)
        check("\(path).frame", a.frame, b.frame)
        check("\(path).entrance", a.entrance, b.entrance)
        check("\(path).deskSize", a.deskSize, b.deskSize)
        check("\(path).desks", a.desks, b.desks)
    }

    /// Values of `Any` collections: objects field by field, collections element by element,
    /// scalars by value; anything else counts as a difference.
    mutating func any(_ path: String, _ a: Any, _ b: Any) {
        switch (a, b) {
        case let (x as Person, y as Person): person(path, x, y)
        case let (x as Office, y as Office): office(path, x, y)
        case let (x as [Any], y as [Any]):
            each(path, x, y) { $0.any($1, $2, $3) }
        case let (x as [String: Any], y as [String: Any]):
            check("\(path).keys", Set(x.keys), Set(y.keys))
            for (key, p) in x { if let q = y[key] { any("\(path).\(key)", p, q) } }
        case let (x as String, y as String): check(path, x, y)
        case let (x as Bool, y as Bool) where type(of: a) == Bool.self && type(of: b) == Bool.self: check(path, x, y)
        case let (x as Int, y as Int): check(path, x, y)
        case let (x as Double, y as Double): check(path, x, y)
        default: paths.append("\(path) (\(type(of: a)) vs \(type(of: b)))")
        }
    }
}

extension Company {
    /// The key paths at which `other` differs from this company; empty when they are equal.
    ///
    /// ```swift
    /// company.differences(from: copy)   // []
    /// ```
    public func differences(from other: Company) -> [String] {
        var diff = Differences()
        diff.check("name", name, other.name)
        diff.check("founded", founded, other.founded)
        diff.check("website", website, other.website)
        diff.check("version", version, other.version)
        diff.check("budget", budget, other.budget)
        diff.office("headquarters", headquarters, other.headquarters)
        diff.each("offices", offices, other.offices) { $0.office($1, $2, $3) }
        diff.people("people", people, other.people)
        diff.each("teams", teams, other.teams) { $0.team($1, $2, $3) }
        diff.any("assets", assets, other.assets)
        return diff.paths
    }
}
