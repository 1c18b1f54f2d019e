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

/// amcKeys and amcDidDecode overrides in a hierarchy whose root implements them.
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
    let lateID = UUID()  // set per instance: restored
    let lateKind = "wide"  // the same in every instance: checked, never written
    required init() {}
}

final class Player: AMCCodable {
    var name = ""
    var friend: Player?
    var payload = ""
    weak var squad: Squad?
    required init() {}

    convenience init(_ name: String) {
        self.init()
        self.name = name
    }
}

final class Squad: AMCCodable {
    var roster: [Player] = []
    var captain: Player?
    var vice: Player?
    var groups: [[Player]] = []
    var anything: [Any] = []
    var lookup: [String: Any] = [:]
    var notes: [String: String] = [:]
    required init() {}
}

/// A folder tree whose items point back at their folder, as Swift models do.
final class Folder: AMCCodable {
    var name = ""
    var items: [Item] = []
    required init() {}
}

extension Folder: ItemObserver {}

final class Item: AMCCodable {
    var title = ""
    weak var parent: Folder?
    weak var delegate: Item?
    weak var observer: (any ItemObserver)?
    weak var anyOwner: AnyObject?
    required init() {}
}

final class Keeper: Holder {
    var folders: [Folder] = []
    unowned var owner: Folder = Keeper.placeholder
    unowned var maybeOwner: Folder?
    unowned(unsafe) var bare: Folder = Keeper.placeholder
    /// What `unowned` properties hold before decoding sets them (they cannot be nil).
    nonisolated(unsafe) static let placeholder = Folder()
}

/// An enum with payloads, as Swift models declare state.
enum PublishState: Codable, Equatable, Sendable {
    case draft
    case published(Date)
    case archived(reason: String, at: Date)
}

/// A value type from another library: only `Codable`.
struct Price: Codable, Equatable, Sendable {
    var amount: Decimal
    var currency: String
}

/// A model for lenient decoding: a `let` every instance agrees on, and a version.
final class Gadget: AMCCodable {
    static var amcVersion: Int { 1 }
    var name = ""
    var sizes: [Int] = []
    var parts: [GadgetPart] = []
    var spare: GadgetPart?
    let kind = "gadget"
    required init() {}
}

final class GadgetPart: AMCCodable {
    static var amcVersion: Int { 3 }
    var label = ""
    var weight = 0.0
    required init() {}
}

enum Evolution {
    static func register() {
        AMC.register(EvolvedPerson.self, formerNames: ["Contact"])
        AMC.register(EvolvedCoworker.self, formerNames: ["Colleague"])
        AMC.register(EvolvedBook.self, Gadget.self, GadgetPart.self)
    }
}

enum Priority: Int, CaseIterable {
    case low = 1
    case high = 10
}

/// A case whose name starts with the type's name.
enum Mode: CaseIterable {
    case model, plain
}

struct Autoresizing: OptionSet, AMCNamedOptions {
    let rawValue: Int
    static let flexibleWidth = Autoresizing(rawValue: 1)
    static let flexibleHeight = Autoresizing(rawValue: 2)
    static let flexibleTopMargin = Autoresizing(rawValue: 4)
    static var amcNamedMembers: [String: Autoresizing] {
        ["flexibleWidth": .flexibleWidth, "flexibleHeight": .flexibleHeight, "flexibleTopMargin": .flexibleTopMargin]
    }
}

final class Header: AMCCodable {
    var title: Label? = Label()
    var subtitle: Label?
    var insets = AMCEdgeInsets()
    var shadow = AMCOffset()
    var background: AMCImage?
    var resizing: Autoresizing = []
    required init() {}
}

final class Screen: AMCCodable {
    var header = Header()
    var button = Label()
    var priority = Priority.low
    var homepage: URL?
    var request: AMCURLRequest?
    var published: Date?
    var initial: Character = "a"
    var enabled = false
    required init() {}
}

struct Card: AMCCodable {
    var frame = CGRect.zero
    var corner = 0.0
}

final class Shelf: AMCCodable {
    var samples: [Double] = []
    var labels: [String] = []
    var versions: [Version] = []
    required init() {}
}

final class Pair: AMCCodable {
    var name = ""
    var other: Pair?
    required init() {}
}

/// A model with a property named like the key that names classes.
final class Lesson: AMCCodable {
    var title = "Swift"
    var `class` = "6B"
    required init() {}
}

/// A reply thread: each reply holds the next, or a list of replies.
final class Reply: AMCCodable {
    var text = ""
    var next: Reply?
    var replies: [Reply] = []
    required init() {}
}

/// A property wrapper that keeps its bounds beside the value, and is `Codable`.
@propertyWrapper
struct Bounded: Codable, Equatable, Sendable {
    var value: Double
    var range: ClosedRange<Double>
    var wrappedValue: Double {
        get { value }
        set { value = min(max(newValue, range.lowerBound), range.upperBound) }
    }
    init(wrappedValue: Double, _ range: ClosedRange<Double>) {
        self.range = range
        value = min(max(wrappedValue, range.lowerBound), range.upperBound)
    }
}

final class AudioSettings: AMCCodable {
    @Clamped var volume = 50
    @Bounded(0...2) var balance = 1
    var muted = false
    required init() {}
}

/// A typed configuration object whose file keys are snake_case.
final class Theme: AMCCodable {
    var tintColor = AMCColor(white: 0)
    var cornerRadius = 4.0
    var cardSize = CGSize(width: 100, height: 50)
    var titleFont = AMCFont()
    var insets = AMCEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    var card = CardStyle()
    var accent: Accent? = Accent()
    var tags: [String] = []
    required init() {}
    static func amcKey(forProperty name: String) -> String { snakeCase(name) }
}

/// Every kind of reference a property can hold but a strong one, in a class hierarchy.
class Holder: AMCCodable {
    weak var weakFolder: Folder?
    required init() {}
}

/// What an item reports to, as delegates are declared.
protocol ItemObserver: AnyObject {
    var name: String { get }
}
