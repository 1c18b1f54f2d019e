import AutoMagicCoding
import Foundation

// Fixture model types shared by the test suites.

enum Suit: String, CaseIterable { case hearts, spades }
enum Level: Int {
    case low = 1
    case high = 9
}

struct Flags: OptionSet {
    let rawValue: UInt8
    static let bold = Flags(rawValue: 1)
    static let italic = Flags(rawValue: 2)
}

/// Every supported scalar kind, each with a non-default value.
final class AllScalars: AMCCodable {
    var string = "héllo 🌍"
    var bool = true
    var int = -42
    var int8: Int8 = -8
    var int16: Int16 = -16
    var int32: Int32 = -32
    var int64: Int64 = .min
    var uint: UInt = 7
    var uint8: UInt8 = 255
    var uint16: UInt16 = 16
    var uint32: UInt32 = 32
    var uint64: UInt64 = .max
    var float: Float = 0.1
    var double = 3.25
    var cgFloat: CGFloat = 1.5
    var date = Date(timeIntervalSince1970: 1_000_000)
    var data = Data([0, 1, 2, 255])
    var url = URL(string: "https://example.com/a?b=c")!
    var uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
    var suit = Suit.spades
    var level = Level.high
    var flags: Flags = [.bold, .italic]
    var character: Character = "é"
    required init() {}
}

final class Optionals: AMCCodable {
    var name: String?
    var count: Int?
    var child: Optionals?
    var tags: [String]?
    required init() {}
}

/// Three levels of inheritance, each with its own fields.
class Animal: AMCCodable {
    var name = ""
    private var secret = 0
    required init() {}
    var secretValue: Int {
        get { secret }
        set { secret = newValue }
    }
}

class Mammal: Animal {
    var legs = 4
}

final class Dog: Mammal {
    var breed = ""
}

final class Cat: Mammal {
    var indoor = true
}

final class Zoo: AMCCodable {
    var star: Animal?
    var animals: [Animal] = []
    var byName: [String: Animal] = [:]
    var anything: [Any] = []
    var table: [String: Any] = [:]
    var nested: [[Animal]] = []
    var uniqueNumbers: Set<Int> = []
    required init() {}
}

/// A recursive type, and repeated references to one object.
final class Node: AMCCodable {
    var value = 0
    var next: Node?
    var children: [Node] = []
    required init() {}

    static func chain(length: Int) -> Node {
        let head = Node()
        var current = head
        for index in 1..<max(length, 1) {
            let node = Node()
            node.value = index
            current.next = node
            current = node
        }
        return head
    }
}

struct Point3: AMCCodable, Equatable {
    var x = 0.0, y = 0.0, z = 0.0
}

struct Version: AMCStructCodable, Equatable {
    var major = 0, minor = 0
    init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }
    struct Malformed: Error, CustomStringConvertible {
        let text: String
        var description: String { "\"\(text)\" is not major.minor" }
    }
    var amcStringValue: String { "\(major).\(minor)" }
    init(amcStringValue string: String) throws {
        let parts = string.split(separator: ".").compactMap { Int($0) }
        guard parts.count == 2 else { throw Malformed(text: string) }
        self.init(major: parts[0], minor: parts[1])
    }
}

/// A struct with no codec of its own: only the owner's hooks know it.
struct CustomStruct: Equatable {
    var a = 0, b = 0
}

struct Unsupported: Equatable {
    var q = 1
}

final class Shapes: AMCCodable {
    var origin = CGPoint(x: 15, y: 16)
    var size = CGSize(width: 1233.09, height: 124)
    var frame = CGRect(x: 39, y: 235, width: 1233.09, height: 124)
    var version = Version(major: 2, minor: 1)
    var custom = CustomStruct(a: 3, b: 4)
    var customs: [CustomStruct] = [CustomStruct(a: 1, b: 2)]
    var point3 = Point3(x: 1, y: 2, z: 3)
    var maybeFrame: CGRect?
    required init() {}

    func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
        if structName == "CustomStruct", let custom = value as? CustomStruct { return "\(custom.a);\(custom.b)" }
        return try AMC.defaultEncodeStruct(value, named: structName)
    }

    func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
        if structName == "CustomStruct" {
            let parts = string.split(separator: ";").compactMap { Int($0) }
            guard parts.count == 2 else { throw AMCError(.typeMismatch(expected: "a;b", found: string)) }
            return CustomStruct(a: parts[0], b: parts[1])
        }
        return try AMC.defaultDecodeStruct(string, named: structName)
    }
}

final class WithUnsupported: AMCCodable {
    var name = "n"
    var bad = Unsupported()
    required init() {}
}

final class Playlist: AMCOrderedCollection {
    var songs: [String]
    init(amcElements: [String]) { songs = amcElements }
    var amcElements: [String] { songs }
}

struct Roster: AMCKeyedCollection, Equatable {
    var byRole: [String: Int]
    init(amcEntries: [String: Int]) { byRole = amcEntries }
    var amcEntries: [String: Int] { byRole }
}

final class Library: AMCCodable {
    var playlist = Playlist(amcElements: ["a", "b"])
    var roster = Roster(amcEntries: ["lead": 1])
    required init() {}
}

final class ReadOnly: AMCCodable {
    let fixed: String
    var mutable = 1
    weak var weakFriend: Node?
    unowned(safe) var owner: Node
    private let keeper = Node()
    var keeperForTests: Node { keeper }
    required init() {
        fixed = "initial"
        owner = keeper
    }
}

/// amcKeys, amcFieldType and amcDidDecode overrides in a hierarchy whose root implements them.
class Configured: AMCCodable {
    var kept = 1
    var skipped = 2
    var decodedCount = 0
    required init() {}
    var amcKeys: [String] { ["kept"] }
    func amcDidDecode() throws { decodedCount += 1 }
}

final class ConfiguredChild: Configured {
    var extra = "x"
    override var amcKeys: [String] { super.amcKeys + ["extra"] }
    override func amcDidDecode() throws {
        try super.amcDidDecode()
        extra += "!"
    }
}

final class WrongKeys: AMCCodable {
    var real = 1
    required init() {}
    var amcKeys: [String] { ["real", "imaginary"] }
}

final class StructAsString: AMCCodable {
    var point3 = Point3(x: 1, y: 2, z: 3)
    required init() {}
    static func amcFieldType(forKey key: String) -> AMCFieldType {
        key == "point3" ? .structure : AMC.inferredFieldType(of: Self.self, forKey: key)
    }
    func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
        guard let point = value as? Point3 else { return try AMC.defaultEncodeStruct(value, named: structName) }
        return "\(point.x) \(point.y) \(point.z)"
    }
    func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
        let parts = string.split(separator: " ").compactMap { Double($0) }
        guard structName == "Point3", parts.count == 3 else {
            return try AMC.defaultDecodeStruct(string, named: structName)
        }
        return Point3(x: parts[0], y: parts[1], z: parts[2])
    }
}

struct Settings: AMCCodable, Equatable {
    var volume = 5
    var name = "default"
    var point = Point3()
}

/// Never registered, never expected statically: data naming it must never create one.
final class Unregistered: AMCCodable {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var count = 0
    static var instances: Int { lock.withLock { count } }
    var x = 0
    required init() { Unregistered.lock.withLock { Unregistered.count += 1 } }
}

final class UnregisteredButExpected: AMCCodable {
    var x = 0
    required init() {}
}

/// Registered once for every suite: the types tests decode polymorphically.
enum Fixtures {
    static let registered: Void = {
        AMC.register(
            AllScalars.self, Optionals.self, Animal.self, Mammal.self, Dog.self, Cat.self, Zoo.self,
            Node.self, Point3.self, Shapes.self, Library.self, Settings.self, Configured.self,
            ConfiguredChild.self)
    }()

    static func register() { _ = registered }
}

/// More fields than one word of the decoder's field set holds (64), with objects and conversions past them.
final class Wide: AMCCodable {
    var f0 = 0
    var f1 = 0
    var f2 = 0
    var f3 = 0
    var f4 = 0
    var f5 = 0
    var f6 = 0
    var f7 = 0
    var f8 = 0
    var f9 = 0
    var f10 = 0
    var f11 = 0
    var f12 = 0
    var f13 = 0
    var f14 = 0
    var f15 = 0
    var f16 = 0
    var f17 = 0
    var f18 = 0
    var f19 = 0
    var f20 = 0
    var f21 = 0
    var f22 = 0
    var f23 = 0
    var f24 = 0
    var f25 = 0
    var f26 = 0
    var f27 = 0
    var f28 = 0
    var f29 = 0
    var f30 = 0
    var f31 = 0
    var f32 = 0
    var f33 = 0
    var f34 = 0
    var f35 = 0
    var f36 = 0
    var f37 = 0
    var f38 = 0
    var f39 = 0
    var f40 = 0
    var f41 = 0
    var f42 = 0
    var f43 = 0
    var f44 = 0
    var f45 = 0
    var f46 = 0
    var f47 = 0
    var f48 = 0
    var f49 = 0
    var f50 = 0
    var f51 = 0
    var f52 = 0
    var f53 = 0
    var f54 = 0
    var f55 = 0
    var f56 = 0
    var f57 = 0
    var f58 = 0
    var f59 = 0
    var f60 = 0
    var f61 = 0
    var f62 = 0
    var f63 = 0
    var f64 = 0
    var f65 = 0
    var f66 = 0
    var f67 = 0
    var f68 = 0
    var f69 = 0
    var late = ""
    var lateChild: Node?
    var lateTags: [String] = []
    required init() {}
}
