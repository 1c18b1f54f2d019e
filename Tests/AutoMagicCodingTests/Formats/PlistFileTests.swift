import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Round trips through property-list files and across threads")
struct PlistFileTests {
    init() { Fixtures.register() }

    private func richZoo() -> Zoo {
        let zoo = Zoo()
        let dog = Dog()
        dog.name = "Rex"
        dog.breed = "collie"
        let cat = Cat()
        cat.name = "Tom"
        zoo.star = dog
        zoo.animals = [cat, dog]
        zoo.byName = ["rex": dog]
        zoo.nested = [[cat], [dog, cat]]
        zoo.anything = [1, "two", [dog, ["k": cat]], 2.5, false]
        zoo.table = ["n": 1, "list": [cat]]
        zoo.uniqueNumbers = [4, 5]
        return zoo
    }

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func objectGraphsSurviveAPlistFileOnDisk(format: PropertyListSerialization.PropertyListFormat) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("amc-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("zoo.plist")

        let zoo = richZoo()
        let scalars = AllScalars()
        let shapes = Shapes()
        let root: [String: Any] = [
            "zoo": try zoo.dictionaryRepresentation(),
            "scalars": try scalars.dictionaryRepresentation(),
            "shapes": try shapes.dictionaryRepresentation(),
        ]
        try PropertyListSerialization.data(fromPropertyList: root, format: format, options: 0).write(to: url)
        let read = try #require(
            try PropertyListSerialization.propertyList(from: Data(contentsOf: url), format: nil)
                as? [String: Any])

        let zooDict = try #require(read["zoo"] as? [String: Any])
        let scalarsDict = try #require(read["scalars"] as? [String: Any])
        let shapesDict = try #require(read["shapes"] as? [String: Any])
        let zooCopy = try #require(try AMC.object(from: zooDict) as? Zoo)
        #expect((zooCopy.star as? Dog)?.breed == "collie")
        #expect(zooCopy.animals.map(\.name) == ["Tom", "Rex"])
        #expect(zooCopy.nested[1][1] is Cat)
        #expect(zooCopy.uniqueNumbers == [4, 5])
        let anything = zooCopy.anything
        #expect(anything[0] as? Int == 1 && anything[1] as? String == "two" && anything[3] as? Double == 2.5)
        #expect(anything[4] as? Bool == false)
        #expect((((anything[2] as? [Any])?[1]) as? [String: Any])?["k"] is Cat)
        #expect(((zooCopy.table["list"] as? [Any])?.first as? Cat)?.name == "Tom")

        let scalarsCopy = try #require(try AMC.object(AllScalars.self, from: scalarsDict))
        #expect(scalarsCopy.uint64 == .max && scalarsCopy.int64 == .min && scalarsCopy.float == 0.1)
        #expect(scalarsCopy.date == scalars.date && scalarsCopy.data == scalars.data && scalarsCopy.bool)
        #expect(scalarsCopy.flags == scalars.flags && scalarsCopy.level == .high && scalarsCopy.character == "é")

        let shapesCopy = try #require(try AMC.object(Shapes.self, from: shapesDict))
        #expect(shapesCopy.frame == shapes.frame && shapesCopy.custom == shapes.custom && shapesCopy.point3 == shapes.point3)
    }

    @Test func encodingAndDecodingRunOnManyThreadsAtOnce() async throws {
        let zoo = richZoo()
        zoo.uniqueNumbers = []  // a set's order may differ between copies
        let expectedData = try PropertyListSerialization.data(
            fromPropertyList: try zoo.dictionaryRepresentation(), format: .binary, options: 0)
        @Sendable func plist(_ data: Data) throws -> NSDictionary? {
            try PropertyListSerialization.propertyList(from: data, format: nil) as? NSDictionary
        }
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    let expected = try #require(try plist(expectedData))
                    var allEqual = true
                    for _ in 0..<25 {
                        let dict = try #require(expected as? [String: Any])
                        let copy = try #require(try AMC.object(Zoo.self, from: dict))
                        let data = try PropertyListSerialization.data(
                            fromPropertyList: try copy.dictionaryRepresentation(), format: .binary, options: 0)
                        allEqual = try allEqual && plist(data) == expected
                    }
                    return allEqual
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }
}
