import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Struct codecs: geometry, AMCStructCodable, struct hooks")
struct StructCodecTests {
    init() { Fixtures.register() }

    @Test func geometryIsWrittenAsNSStringFromCGRectPrintsIt() throws {
        let dict = try Shapes().dictionaryRepresentation()
        #expect(dict["origin"] as? String == "{15, 16}")
        #expect(dict["size"] as? String == "{1233.09, 124}")
        #expect(dict["frame"] as? String == "{{39, 235}, {1233.09, 124}}")
        #expect(CGPoint(x: -0.0, y: 1e-5).amcStringValue == "{-0, 1e-05}")
        #expect(CGPoint(x: 0.1, y: 2.5e20).amcStringValue == "{0.1, 2.5e+20}")
    }

    @Test(arguments: [
        "{{39, 235}, {1233.09, 124}}", "{{39.0, 235.0}, {1233.09, 124.0}}", " { { 39 ,235 } , { 1233.09,124 } } ",
    ])
    func rectsDecodeFromAppleAndLinuxFoundationForms(text: String) throws {
        #expect(try CGRect(amcStringValue: text) == CGRect(x: 39, y: 235, width: 1233.09, height: 124))
    }

    @Test(arguments: ["{1, 2", "{1, 2, 3}", "1, 2, 3", "{a, b}", "{{1, 2}, {3}}", "", "{1,,2}", "1 ,, 2"])
    func malformedGeometryThrows(text: String) {
        #expect(throws: AMCError.self) { try CGPoint(amcStringValue: text) }
        #expect(throws: AMCError.self) { try CGRect(amcStringValue: text) }
    }

    @Test func shortestNumbersRoundTripExactly() throws {
        for value in [0.1, 1.0 / 3.0, 1233.09, -7.25, 1e-300, 123_456_789.123] {
            let point = CGPoint(x: value, y: -value)
            #expect(try CGPoint(amcStringValue: point.amcStringValue) == point)
        }
    }

    @Test func structsRoundTripThroughConformancesAndHooks() throws {
        let shapes = Shapes()
        shapes.custom = CustomStruct(a: -1, b: 99)
        shapes.customs = [CustomStruct(a: 5, b: 6), CustomStruct(a: 7, b: 8)]
        shapes.maybeFrame = CGRect(x: 1, y: 2, width: 3, height: 4)
        shapes.version = Version(major: 10, minor: 4)
        let (dict, copy) = try roundTrip(shapes)
        #expect(dict["version"] as? String == "10.4")
        #expect(dict["custom"] as? String == "-1;99")
        #expect(dict["customs"] as? [String] == ["5;6", "7;8"])
        #expect(dict["maybeFrame"] as? String == "{{1, 2}, {3, 4}}")
        #expect(copy.origin == shapes.origin && copy.size == shapes.size && copy.frame == shapes.frame)
        #expect(copy.version == shapes.version)
        #expect(copy.custom == shapes.custom && copy.customs == shapes.customs)
        #expect(copy.maybeFrame == shapes.maybeFrame)
        #expect(copy.point3 == shapes.point3)
    }

    @Test func aStructWithNoCodecThrowsOnEncodeAndOnDecode() {
        let encodeError = expectAMCError { _ = try WithUnsupported().dictionaryRepresentation() }
        #expect(encodeError == AMCError(.unsupportedStruct(typeName: "Unsupported", operation: .encode), keyPath: "bad"))
        #expect(
            encodeError?.description == "At \"bad\": cannot encode struct Unsupported: conform it to "
                + "Codable or AMCStructCodable, or handle \"Unsupported\" in the owner's amcEncodeStruct hook.")
        let decodeError = expectAMCError { _ = try AMC.object(WithUnsupported.self, from: ["bad": "{1}"]) }
        #expect(decodeError == AMCError(.unsupportedStruct(typeName: "Unsupported", operation: .decode), keyPath: "bad"))
    }

    @Test func errorsThrownByStructCodecsNameTheKeyPath() {
        let conformance = expectAMCError { _ = try AMC.object(Shapes.self, from: ["version": "ten"]) }
        #expect(
            conformance
                == AMCError(
                    .hookFailed(
                        hook: "init(amcStringValue:)", typeName: "Version",
                        reason: "\"ten\" is not major.minor"), keyPath: "version"))
        let hook = expectAMCError { _ = try AMC.object(Shapes.self, from: ["customs": ["1;2", "x"]]) }
        #expect(hook == AMCError(.typeMismatch(expected: "a;b", found: "x"), keyPath: "customs[1]"))
        let geometry = expectAMCError { _ = try AMC.object(Shapes.self, from: ["frame": "{1, 2}"]) }
        #expect(geometry?.keyPath == "frame")
        #expect(
            geometry?.description == "At \"frame\": expected a CGRect string like \"{{x, y}, {w, h}}\", "
                + "found \"{1, 2}\".")
    }

    @Test func defaultStructCodecsHandleGeometryByName() throws {
        #expect(try AMC.defaultEncodeStruct(CGSize(width: 1, height: 2), named: "CGSize") == "{1, 2}")
        #expect(try AMC.defaultDecodeStruct("{1, 2}", named: "CGPoint") as? CGPoint == CGPoint(x: 1, y: 2))
        #expect(throws: AMCError(.unsupportedStruct(typeName: "Other", operation: .decode))) {
            try AMC.defaultDecodeStruct("{1, 2}", named: "Other")
        }
    }

    @Test func fieldTypeStructureRoutesAnAMCCodableStructThroughTheHooks() throws {
        let object = StructAsString()
        object.point3 = Point3(x: 4, y: 5, z: 6)
        #expect(StructAsString.amcFieldType(forKey: "point3") == .structure)  // a fact about the type
        #expect(AMC.inferredFieldType(of: StructAsString.self, forKey: "point3") == .customObject)
        let (dict, copy) = try roundTrip(object)
        #expect(dict["point3"] as? String == "4.0 5.0 6.0")
        #expect(copy.point3 == Point3(x: 4, y: 5, z: 6))
    }

    @Test func inferredFieldTypes() {
        #expect(AMC.inferredFieldType(of: Zoo.self, forKey: "star") == .customObject)
        #expect(AMC.inferredFieldType(of: Zoo.self, forKey: "animals") == .collectionArray)
        #expect(AMC.inferredFieldType(of: Zoo.self, forKey: "uniqueNumbers") == .collectionArray)
        #expect(AMC.inferredFieldType(of: Zoo.self, forKey: "byName") == .collectionHash)
        #expect(AMC.inferredFieldType(of: Zoo.self, forKey: "anything") == .collectionArray)
        #expect(AMC.inferredFieldType(of: Shapes.self, forKey: "frame") == .structure)
        #expect(AMC.inferredFieldType(of: Shapes.self, forKey: "maybeFrame") == .structure)
        #expect(AMC.inferredFieldType(of: Shapes.self, forKey: "custom") == .structure)
        #expect(AMC.inferredFieldType(of: AllScalars.self, forKey: "suit") == .scalar)
        #expect(AMC.inferredFieldType(of: Library.self, forKey: "playlist") == .collectionArray)
        #expect(AMC.inferredFieldType(of: Library.self, forKey: "roster") == .collectionHash)
    }
}
