import AutoMagicCoding
import Foundation
import Testing

// The README's quick start, verbatim, so that it keeps working.

private final class Bar: AMCCodable {
    var someString: String?
    required init() {}
}

private final class Foo: AMCCodable {
    var integerValue = 0
    var bar: Bar?
    var bars: [Bar] = []
    required init() {}
}

@Suite("README quick start")
struct QuickStartTests {
    @Test func quickStartWorksAsWritten() throws {
        AMC.register(Foo.self, Bar.self)

        let foo = Foo()
        foo.integerValue = 42
        foo.bar = Bar()
        foo.bar?.someString = "hello"

        let dict = try foo.dictionaryRepresentation()
        #expect(dict["class"] as? String == "Foo")
        #expect(dict["integerValue"] as? Int == 42)
        #expect((dict["bars"] as? [Any])?.isEmpty == true)
        #expect(dict["bar"] as? [String: String] == ["class": "Bar", "someString": "hello"])

        let any = try AMC.object(from: dict)
        let foo2 = try AMC.object(Foo.self, from: dict)
        let foo3 = Foo()
        try foo3.loadValue(forKey: "integerValue", from: dict)
        #expect((any as? Foo)?.bar?.someString == "hello")
        #expect(foo2?.integerValue == 42)
        #expect(foo3.integerValue == 42 && foo3.bar == nil)

        let url = FileManager.default.temporaryDirectory.appendingPathComponent("foo-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try AMC.write(foo, to: url)
        let foo4 = try AMC.read(Foo.self, from: url)
        let data = try AMC.data(for: foo, format: .binaryPropertyList)
        let foo5 = try AMC.object(Foo.self, from: data)
        #expect(foo4?.bar?.someString == "hello" && foo4?.integerValue == 42)
        #expect(foo5?.bar?.someString == "hello")
        #expect(AMCFormat(detecting: try Data(contentsOf: url)) == .json)

        // "Settings as values", as written there.
        let registry = AMCRegistry()
        registry.register(Foo.self, Bar.self)  // only what this library accepts

        var archiver = AMCArchiver()  // starts from the process-wide defaults
        archiver.registry = registry
        archiver.noThrow = true  // for this archiver's calls only
        archiver.baseURL = URL(fileURLWithPath: "/srv/assets", isDirectory: true)
        archiver.maximumDepth = 64  // at most AMC.maximumDepth

        let foo6 = try archiver.object(Foo.self, from: data)  // also object(from:), data(for:format:),
        let logo = try archiver.value(URL.self, from: "logo.png")  // write, read, dictionaryRepresentation(of:)
        let config = try AMCConfig(contentsOf: url, archiver: archiver)
        #expect(foo6?.bar?.someString == "hello")
        #expect(logo.path == "/srv/assets/logo.png")
        #expect(try config.int(forKeyPath: "integerValue") == 42)
        #expect(try archiver.object(from: ["class": "Nope"]) == nil)
    }
}
