import AutoMagicCoding
import Foundation

// MARK: - Graph: people who know people anywhere in the graph

/// A social graph, the shape an `NSKeyedArchiver` replacement exists for: people in groups of ten
/// that they point back to (`weak`), each with four friends drawn from everyone and three of 200
/// shared topics. The twin is the same data as a tree, friends by name and each topic copied where
/// it is met: `Codable`, and ``AMCCodable`` too, so that `amc bench` can weigh the graph's JSON
/// against our own tree mode's.
///
/// ```swift
/// let (network, twin) = BenchGraph.make(records: 20_000)   // 20,000 people
/// ```
public enum BenchGraph: BenchModel {
    public static let name = "graph"

    public static func register() {
        AMC.register(BenchNetwork.self, BenchGroup.self, BenchMember.self, BenchTopic.self)
        AMC.register(CodableNetwork.self, CodableGroup.self, CodableMember.self, CodableTopic.self)
    }

    public static func make(records: Int) -> (BenchNetwork, CodableNetwork) {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ bound: Int) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % UInt64(bound))
        }
        let network = BenchNetwork()
        let twin = CodableNetwork()
        network.topics = (0..<200).map { index in
            let topic = BenchTopic()
            topic.name = "topic \(index)"
            return topic
        }
        let people = (0..<max(1, records)).map { index in
            let member = BenchMember()
            member.name = "Member \(index)"
            member.age = 18 + index % 60
            return member
        }
        for (index, member) in people.enumerated() {
            if index % 10 == 0 {
                let group = BenchGroup()
                group.name = "group \(index / 10)"
                network.groups.append(group)
                let twinGroup = CodableGroup()
                twinGroup.name = group.name
                twin.groups.append(twinGroup)
            }
            let group = network.groups[network.groups.count - 1]
            group.members.append(member)
            member.group = group
            member.friends = (0..<4).map { _ in people[random(people.count)] }
            member.topics = (0..<3).map { _ in network.topics[random(network.topics.count)] }
            let copy = CodableMember()
            (copy.name, copy.age) = (member.name, member.age)
            copy.friends = member.friends.map(\.name)
            copy.topics = member.topics.map { topic in
                let copy = CodableTopic()
                copy.name = topic.name
                return copy
            }
            twin.groups[twin.groups.count - 1].members.append(copy)
        }
        twin.topics = network.topics.map(\.name)
        return (network, twin)
    }
}

/// The root of ``BenchGraph``: its groups and topics.
public final class BenchNetwork: AMCCodable {
    /// Everyone, ten to a group.
    public var groups: [BenchGroup] = []
    /// The topics people share.
    public var topics: [BenchTopic] = []
    /// An empty network.
    public required init() {}

    /// Lets the members go with the network: friends refer to each other in cycles, which would
    /// keep every member alive after it. (A member kept beyond its network loses its friends.)
    deinit {
        for group in groups {
            for member in group.members { member.friends = [] }
        }
    }
}

/// A group of ten members of a ``BenchNetwork``.
public final class BenchGroup: AMCCodable {
    /// Its name.
    public var name = ""
    /// Its members, who point back to it.
    public var members: [BenchMember] = []
    /// An empty group.
    public required init() {}
}

/// A member of a ``BenchNetwork``.
public final class BenchMember: AMCCodable {
    /// Name and age.
    public var name = "", age = 0
    /// Four people from anywhere in the network.
    public var friends: [BenchMember] = []
    /// Three shared topics.
    public var topics: [BenchTopic] = []
    /// The group the member is in.
    public weak var group: BenchGroup?
    /// Nobody yet.
    public required init() {}
}

/// A topic members of a ``BenchNetwork`` share.
public final class BenchTopic: AMCCodable {
    /// Its name.
    public var name = ""
    /// An unnamed topic.
    public required init() {}
}

/// The twin of ``BenchNetwork``: the same data as a tree, friends by name.
public final class CodableNetwork: Codable, AMCCodable {
    /// See ``BenchNetwork``.
    public var groups: [CodableGroup] = [], topics: [String] = []
    /// An empty network.
    public init() {}
}

/// The `Codable` twin of ``BenchGroup``.
public final class CodableGroup: Codable, AMCCodable {
    /// See ``BenchGroup``.
    public var name = "", members: [CodableMember] = []
    /// An empty group.
    public init() {}
}

/// The twin of ``BenchMember``: its friends by name, its topics copied.
public final class CodableMember: Codable, AMCCodable {
    /// See ``BenchMember``.
    public var name = "", age = 0, friends: [String] = [], topics: [CodableTopic] = []
    /// Nobody yet.
    public init() {}
}

/// The twin of ``BenchTopic``, copied wherever it is met.
public final class CodableTopic: Codable, AMCCodable {
    /// See ``BenchTopic``.
    public var name = ""
    /// An unnamed topic.
    public init() {}
}

// MARK: - List: a doubly linked list

/// A doubly linked list, `next` strong and `previous` weak, as long as the records. The `Codable`
/// twin is the same links in an array (a `Codable` list nests each link in the one before, past
/// what a thread's stack holds).
///
/// ```swift
/// let (list, twin) = BenchList.make(records: 20_000)   // 20,000 links
/// ```
public enum BenchList: BenchModel {
    public static let name = "list"

    public static func register() {
        AMC.register(BenchChain.self, BenchLink.self)
    }

    public static func make(records: Int) -> (BenchChain, CodableChain) {
        let chain = BenchChain()
        let twin = CodableChain()
        var last: BenchLink?
        for index in 0..<max(1, records) {
            let link = BenchLink()
            link.value = index
            link.label = "link \(index)"
            link.previous = last
            if let last { last.next = link } else { chain.head = link }
            last = link
            let copy = CodableLink()
            (copy.value, copy.label) = (link.value, link.label)
            twin.links.append(copy)
        }
        chain.count = max(1, records)
        return (chain, twin)
    }
}

/// The root of ``BenchList``.
public final class BenchChain: AMCCodable {
    /// The first link.
    public var head: BenchLink?
    /// How many links follow it.
    public var count = 0
    /// An empty list.
    public required init() {}

    /// Lets the links go one by one: released from the head, a long list would be released by a
    /// recursion as deep as the list.
    ///
    /// ```swift
    /// let (list, _) = BenchList.make(records: 1_000_000)
    /// list.unlink()
    /// ```
    public func unlink() {
        var current = head
        head = nil
        while let link = current {
            current = link.next
            link.next = nil
        }
    }

    deinit { unlink() }
}

/// A link of a ``BenchChain``.
public final class BenchLink: AMCCodable {
    /// What it holds.
    public var value = 0, label = ""
    /// The link after it.
    public var next: BenchLink?
    /// The link before it.
    public weak var previous: BenchLink?
    /// A link on its own.
    public required init() {}
}

/// The `Codable` twin of ``BenchChain``: its links in order.
public final class CodableChain: Codable {
    /// See ``BenchChain``.
    public var links: [CodableLink] = []
    /// An empty list.
    public init() {}
}

/// The `Codable` twin of ``BenchLink``.
public final class CodableLink: Codable {
    /// See ``BenchLink``.
    public var value = 0, label = ""
    /// A link on its own.
    public init() {}
}
