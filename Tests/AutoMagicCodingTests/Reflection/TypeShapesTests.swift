import Foundation
import Testing

@testable import AutoMagicCoding

// Shapes of types whose layout the runtime reports (generics, hierarchies, Objective-C-rooted
// classes, padding, every kind of enum, wrappers, `@Observable`): each is planned from what the
// runtime says and must read back exactly. Runs in every CI lane, AddressSanitizer's included.

final class Crate<Value: BinaryInteger & Sendable>: AMCCodable {
    var value: Value = 0
    var values: [Value] = []
    var label = ""
    required init() {}
}

final class Shipment<Inner: AMCCodable>: AMCCodable {
    var inner = Inner()
    var spares: [Inner] = []
    required init() {}
}

struct Couple<First: BinaryInteger & Sendable, Second: BinaryFloatingPoint & Sendable>: AMCCodable {
    var first: First = 0
    var second: Second = 0
    var flag = false
}

class Vehicle: AMCCodable {
    var wheels = 4
    required init() {}
}

class Car: Vehicle {
    var model = ""
}

class SportsCar: Car {
    var topSpeed = 0.0
}

final class RaceCar: SportsCar {
    var sponsors: [String] = []
    var number: Int8 = 0
}

final class LegacyRecord: NSObject, AMCCodable {
    var title = ""
    var count = 0
    required override init() {}
}

/// Fields of every alignment in an order that leaves padding between them.
struct Padded: AMCCodable, Equatable {
    var a: UInt8 = 0
    var b: Int64 = 0
    var c = false
    var d: Int16 = 0
    var e = 0.0
    var f: UInt8 = 0
    var g: Int32 = 0
}

enum CardSuit: CaseIterable, Sendable { case hearts, spades }
enum Grade: String, Codable, Sendable { case good, bad }
enum Rung: Int, Codable, Sendable {
    case low = 1
    case high = 9
}
enum Shape: Codable, Equatable, Sendable {
    case circle(radius: Double)
    case square(Double)
    case none
}
indirect enum Expression: Codable, Equatable, Sendable {
    case number(Int)
    case sum(Expression, Expression)
}

final class Enums: AMCCodable {
    var suit = CardSuit.hearts
    var grade = Grade.good
    var level = Rung.low
    var shape = Shape.none
    var expression = Expression.number(0)
    var maybe: Grade?
    required init() {}
}

/// Foundation values whose layout is resilient (their size is known only at run time).
final class Resilient: AMCCodable {
    var date = Date(timeIntervalSinceReferenceDate: 0)
    var id = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    var amount = Decimal(0)
    var bytes = Data()
    var link = URL(string: "https://example.com")!
    var tags: Set<String> = []
    required init() {}
}

@Suite("Type shapes the runtime reports")
struct TypeShapesTests {
    /// The runtime's fields of `value`'s type, superclasses' first, against `Mirror`'s labels.
    func fieldsMatchMirror(_ value: Any) {
        var mirrors: [Mirror] = []
        var mirror: Mirror? = Mirror(reflecting: value)
        while let current = mirror {
            mirrors.insert(current, at: 0)
            mirror = current.superclassMirror
        }
        let labels = mirrors.flatMap { $0.children.map { $0.label ?? "" } }
        #expect(RuntimeAccess.fields(of: type(of: value)).map(\.name) == labels, "\(type(of: value))")
    }

    func roundTrip<T: AMCCodable>(_ value: T, _ format: AMCFormat) throws -> T {
        try #require(try AMC.object(T.self, from: try AMC.data(for: value, format: format)))
    }

    @Test(arguments: SwiftModelTests.formats)
    func genericsAndNestedGenerics(format: AMCFormat) throws {
        let crate = Crate<UInt16>()
        (crate.value, crate.values, crate.label) = (65_535, [1, 2], "c")
        let shipment = Shipment<Crate<Int8>>()
        shipment.inner.value = -128
        shipment.spares = [Crate<Int8>(), Crate<Int8>()]
        shipment.spares[1].values = [127]
        var pair = Couple<Int32, Float>()
        (pair.first, pair.second, pair.flag) = (-7, 2.5, true)
        fieldsMatchMirror(crate)
        fieldsMatchMirror(shipment)
        fieldsMatchMirror(pair)
        let crateCopy = try roundTrip(crate, format)
        #expect((crateCopy.value, crateCopy.values, crateCopy.label) == (65_535, [1, 2], "c"))
        let shipmentCopy = try roundTrip(shipment, format)
        #expect(shipmentCopy.inner.value == -128 && shipmentCopy.spares.map(\.values) == [[], [127]])
        let pairCopy = try roundTrip(pair, format)
        #expect((pairCopy.first, pairCopy.second, pairCopy.flag) == (-7, 2.5, true))
    }

    @Test(arguments: SwiftModelTests.formats)
    func deepHierarchiesAndObjectiveCRootedClasses(format: AMCFormat) throws {
        let car = RaceCar()
        (car.wheels, car.model, car.topSpeed, car.sponsors, car.number) = (3, "R", 312.5, ["A"], -1)
        let record = LegacyRecord()
        (record.title, record.count) = ("old", 42)
        fieldsMatchMirror(car)
        fieldsMatchMirror(record)
        let carCopy = try roundTrip(car, format)
        #expect(
            (carCopy.wheels, carCopy.model, carCopy.topSpeed, carCopy.sponsors, carCopy.number) == (3, "R", 312.5, ["A"], -1))
        let recordCopy = try roundTrip(record, format)
        #expect((recordCopy.title, recordCopy.count) == ("old", 42))
    }

    @Test(arguments: SwiftModelTests.formats)
    func paddingEnumsAndResilientValues(format: AMCFormat) throws {
        let padded = Padded(a: 255, b: .min, c: true, d: -2, e: -0.5, f: 1, g: .max)
        fieldsMatchMirror(padded)
        #expect(try roundTrip(padded, format) == padded)

        let enums = Enums()
        (enums.suit, enums.grade, enums.level, enums.maybe) = (.spades, .bad, .high, .good)
        enums.shape = .circle(radius: 2)
        enums.expression = .sum(.number(1), .sum(.number(2), .number(3)))
        fieldsMatchMirror(enums)
        let enumsCopy = try roundTrip(enums, format)
        #expect((enumsCopy.suit, enumsCopy.grade, enumsCopy.level, enumsCopy.maybe) == (.spades, .bad, .high, .good))
        #expect(enumsCopy.shape == .circle(radius: 2) && enumsCopy.expression == enums.expression)

        let resilient = Resilient()
        resilient.date = Date(timeIntervalSinceReferenceDate: 123)  // XML property lists hold whole seconds
        resilient.id = UUID()
        resilient.amount = Decimal(string: "12345.678")!
        resilient.bytes = Data([0, 1, 255])
        resilient.link = URL(string: "https://example.com/a?b=c")!
        resilient.tags = ["x", "y"]
        fieldsMatchMirror(resilient)
        let copy = try roundTrip(resilient, format)
        #expect(copy.date == resilient.date && copy.id == resilient.id && copy.amount == resilient.amount)
        #expect(copy.bytes == resilient.bytes && copy.link == resilient.link && copy.tags == resilient.tags)
    }

    @Test(arguments: SwiftModelTests.formats)
    func wrappersObservablesAndEveryOwnership(format: AMCFormat) throws {
        let settings = AudioSettings()
        settings.volume = 70
        settings.balance = 1.5
        let settingsCopy = try roundTrip(settings, format)
        #expect(settingsCopy.volume == 70 && settingsCopy.balance == 1.5)
        #if canImport(Observation)
            let note = ObservedNote()
            note.title = "t"
            #expect(try roundTrip(note, format).title == "t")
        #endif
        let keeper = Keeper()
        let folder = Folder()
        keeper.folders = [folder]
        (keeper.weakFolder, keeper.owner, keeper.maybeOwner, keeper.bare) = (folder, folder, folder, folder)
        let keeperCopy = try roundTrip(keeper, format)
        let kept = try #require(keeperCopy.folders.first)
        #expect(keeperCopy.weakFolder === kept && keeperCopy.owner === kept)
        #expect(keeperCopy.maybeOwner === kept && keeperCopy.bare === kept)
    }
}
