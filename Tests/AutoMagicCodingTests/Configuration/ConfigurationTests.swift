import Foundation
import Testing

@testable import AutoMagicCoding

/// `tintColor` → `tint_color`: the renaming rule files, configs and styles share.
func snakeCase(_ name: String) -> String {
    name.reduce(into: "") { result, character in
        if character.isUppercase { result += "_" + character.lowercased() } else { result.append(character) }
    }
}

struct CardStyle: AMCCodable {
    var shadowRadius = 2.0
    var background = AMCColor(white: 1)
    static func amcKey(forProperty name: String) -> String { snakeCase(name) }
}

final class Accent: AMCCodable {
    var accentColor = AMCColor(red: 0, green: 0, blue: 1)
    var lineWidth = 1
    required init() {}
    static func amcKey(forProperty name: String) -> String { snakeCase(name) }
}

@Suite("Configuration: renamed keys, typed config by key path, config objects, reload")
struct ConfigurationTests {
    @Test func theArchiverWritesAndReadsRenamedKeys() throws {
        let theme = Theme()
        theme.cornerRadius = 8
        theme.card.shadowRadius = 5
        let dictionary = try theme.dictionaryRepresentation()
        #expect(dictionary["corner_radius"] as? Double == 8)
        #expect(dictionary["cornerRadius"] == nil)
        #expect((dictionary["card"] as? [String: Any])?["shadow_radius"] as? Double == 5)
        #expect((dictionary["accent"] as? [String: Any])?["line_width"] as? Int == 1)

        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            let read = try #require(try AMC.object(Theme.self, from: AMC.data(for: theme, format: format)))
            #expect(read.cornerRadius == 8 && read.card.shadowRadius == 5, "\(format)")
        }
        let read = try #require(try AMC.object(Theme.self, from: ["corner_radius": 12, "tint_color": "#ff0000"]))
        #expect(read.cornerRadius == 12 && read.tintColor == AMCColor(red: 1, green: 0, blue: 0))
        // A property's own name is not its key in files.
        #expect(try AMC.object(Theme.self, from: ["cornerRadius": 12])?.cornerRadius == 4)
        // Errors name the key as the file has it.
        #expect(
            expectAMCError { _ = try AMC.object(Theme.self, from: ["card": ["shadow_radius": "wide"]]) }?.keyPath
                == "card.shadow_radius")
        let loaded = Theme()
        try loaded.loadValue(forKey: "cornerRadius", from: ["corner_radius": 3])
        #expect(loaded.cornerRadius == 3)
    }
}

extension ConfigurationTests {
    static var sample: [String: Any] {
        [
            "strings": ["title": "Welcome"],
            "layout": [
                "columns": 3, "columnsText": "0x1F", "cornerRadius": 8.5, "radiusText": "12",
                "cardSize": "300 x 200", "origin": "{10, 20}", "frame": "10, 20, 300, 400",
                "padding": "8, 16, 8, 16", "shadowOffset": "0 ; -2",
            ],
            "features": ["sharing": true, "sharingText": "no", "flag": 1],
            "launch": ["date": Date(timeIntervalSince1970: 1_700_000_000), "dateText": "2024-05-17T09:30:00Z"],
            "links": ["help": "https://example.com/help"],
            "colors": ["tint": "#ff0000", "muted": "rgba(100,200,250,0.5)", "bad": "#ff00"],
            "fonts": ["title": "bold 17"],
            "images": ["card": "colosseum.jpg 5, 10, 10, 5"],
            "dotted.key": "kept whole",
        ]
    }

    @Test(arguments: [AMCFormat.xmlPropertyList, .binaryPropertyList, .json])
    func everyAccessorReadsNativeAndStringValuesFromAFile(format: AMCFormat) throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Config.data")  // no telling extension
        try AMC.write(dictionary: Self.sample, to: url, format: format)
        let config = try AMCConfig(contentsOf: url)
        #expect(try config.string(forKeyPath: "strings.title") == "Welcome")
        #expect(try config.int(forKeyPath: "layout.columns") == 3)
        #expect(try config.int(forKeyPath: "layout.columnsText") == 31)
        #expect(try config.double(forKeyPath: "layout.cornerRadius") == 8.5)
        #expect(try config.double(forKeyPath: "layout.radiusText") == 12)
        #expect(try config.double(forKeyPath: "layout.columns") == 3)  // an integer into a Double
        #expect(try config.bool(forKeyPath: "features.sharing") == true)
        #expect(try config.bool(forKeyPath: "features.sharingText") == false)
        #expect(try config.bool(forKeyPath: "features.flag") == true)
        #expect(try config.date(forKeyPath: "launch.date") == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try config.date(forKeyPath: "launch.dateText") == Date(timeIntervalSince1970: 1_715_938_200))
        #expect(try config.url(forKeyPath: "links.help") == URL(string: "https://example.com/help"))
        #expect(try config.size(forKeyPath: "layout.cardSize") == CGSize(width: 300, height: 200))
        #expect(try config.point(forKeyPath: "layout.origin") == CGPoint(x: 10, y: 20))
        #expect(try config.rect(forKeyPath: "layout.frame") == CGRect(x: 10, y: 20, width: 300, height: 400))
        #expect(try config.edgeInsets(forKeyPath: "layout.padding") == AMCEdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        #expect(try config.offset(forKeyPath: "layout.shadowOffset") == AMCOffset(horizontal: 0, vertical: -2))
        #expect(try config.color(forKeyPath: "colors.tint") == AMCColor(red: 1, green: 0, blue: 0))
        #expect(try config.color(forKeyPath: "colors.muted")?.alpha == 0.5)
        #expect(try config.font(forKeyPath: "fonts.title") == AMCFont(size: 17, isBold: true))
        #expect(
            try config.image(forKeyPath: "images.card")
                == AMCImage(name: "colosseum.jpg", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 10, right: 5)))
        #expect(try config.string(forKeyPath: "dotted.key") == "kept whole")
        #expect(try config.value([String: Any].self, forKeyPath: "strings")?["title"] as? String == "Welcome")
    }

    @Test func missingKeysAreNilAndBadValuesThrowNamingFileKeyPathTypeAndValue() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Theme.json")
        try AMC.write(dictionary: Self.sample, to: url, format: .json)
        let config = try AMCConfig(contentsOf: url)
        #expect(try config.color(forKeyPath: "colors.missing") == nil)
        #expect(try config.color(forKeyPath: "nowhere.at.all") == nil)
        #expect(try config.int(forKeyPath: "strings.title.length") == nil)  // through a string

        let error = expectAMCError { _ = try config.color(forKeyPath: "colors.bad") }
        #expect(error?.file == url.path)
        #expect(error?.keyPath == "colors.bad")
        #expect(error?.description.hasPrefix("In \(url.path), at \"colors.bad\": expected an AMCColor") == true)
        #expect(error?.description.contains("found the string \"#ff00\"") == true)
        let native = expectAMCError { _ = try config.size(forKeyPath: "features.sharing") }
        #expect(native?.kind == .typeMismatch(expected: "a CGSize string", found: "the bool true"))
        #expect(try config.value(UInt8.self, forKeyPath: "layout.radiusText") == 12)
        #expect(
            expectAMCError { _ = try config.int(forKeyPath: "layout.cornerRadius") }?.kind
                == .valueOutOfRange(value: "8.5", typeName: "Int"))

        let sink = SwallowedErrors()
        AMC.installTestHandler()
        TestHandler.$current.withValue(sink) {
            #expect(config.color(forKeyPath: "colors.bad", default: AMCColor(white: 0.5)) == AMCColor(white: 0.5))
            #expect(config.color(forKeyPath: "colors.none", default: AMCColor(white: 0.5)) == AMCColor(white: 0.5))
            #expect(config.color(forKeyPath: "colors.tint", default: AMCColor(white: 0.5)) == AMCColor(red: 1, green: 0, blue: 0))
        }
        #expect(sink.all.map(\.keyPath) == ["colors.bad"])
        #expect(sink.all.first?.file == url.path)
    }

    /// One key-path syntax everywhere: `\.` is a dot inside a key, as in amc and plutil.
    @Test func anEscapedDotStaysInItsKeyInConfigsDocumentsAndKeyValueCoding() throws {
        let config = AMCConfig(dictionary: ["servers": ["eu.west": ["port": 8080]], "a": ["b": 1]])
        #expect(try config.int(forKeyPath: #"servers.eu\.west.port"#) == 8080)
        #expect(try config.int(forKeyPath: "a.b") == 1)
        let document = try AMCDocument(data: Data(#"{"servers": {"eu.west": {"port": 8080}}}"#.utf8))
        #expect(try document.value(atKeyPath: #"servers.eu\.west.port"#) == .integer(8080))
        var settings = Settings()
        #expect(throws: AMCError.self) { try settings.setValue(string: "9", forKeyPath: #"volume\.x"#) }
        do {
            try settings.setValue(string: "9", forKeyPath: #"volume\.x"#)
        } catch let error as AMCError {
            #expect(error.keyPath == "volume.x")
        }
    }

    @Test func theFirstLayerWithAKeyWins() throws {
        let defaults = AMCConfig(dictionary: ["colors": ["tint": "red", "text": "black"], "layout": ["columns": 2]])
        let user = AMCConfig(dictionary: ["colors": ["tint": "#00ff00"]])
        let config = AMCConfig(layers: [user, defaults])
        #expect(try config.color(forKeyPath: "colors.tint") == AMCColor(red: 0, green: 1, blue: 0))
        #expect(try config.color(forKeyPath: "colors.text") == AMCColor(white: 0))
        #expect(try config.int(forKeyPath: "layout.columns") == 2)
        #expect(try config.int(forKeyPath: "layout.rows") == nil)
    }

    @Test func aConfigObjectFillsPropertiesUnderTheirRenamedKeys() throws {
        let defaults = AMCConfig(dictionary: [
            "tint_color": "#336699", "corner_radius": 6, "card_size": "320 x 180", "title_font": "helvetica 20",
            "card": ["shadow_radius": "3.5"], "accent": ["line_width": "2"], "tags": ["a", "b"],
            "tintColor": "red",  // the property's name is not its key: not read
        ])
        let user = AMCConfig(dictionary: ["corner_radius": "10", "card": ["background": "black"]])
        let unknown = expectAMCError { _ = try AMCConfig(layers: [user, defaults]).object(Theme.self) }
        #expect(
            unknown == AMCError(.unusedKey(key: "tintColor", typeName: "Theme", suggestion: "tint_color"), keyPath: "tintColor"))
        let theme = try AMCConfig(layers: [user, defaults]).object(Theme.self, ignoringUnknownKeys: true)
        #expect(theme.tintColor == AMCColor(red: 0x33 / 255.0, green: 0x66 / 255.0, blue: 0x99 / 255.0))
        #expect(theme.cornerRadius == 10)
        #expect(theme.cardSize == CGSize(width: 320, height: 180))
        #expect(theme.titleFont == AMCFont(name: "helvetica", size: 20))
        #expect(theme.card.shadowRadius == 3.5 && theme.card.background == AMCColor(white: 0))
        #expect(theme.accent?.lineWidth == 2 && theme.accent?.accentColor == AMCColor(red: 0, green: 0, blue: 1))
        #expect(theme.tags == ["a", "b"])
        #expect(theme.insets == AMCEdgeInsets(top: 0, left: 0, bottom: 0, right: 0))  // no key: kept

        let error = expectAMCError { _ = try AMCConfig(dictionary: ["card": ["shadow_radius": "deep"]]).object(Theme.self) }
        #expect(error?.keyPath == "card.shadow_radius")
        #expect(error?.kind == .typeMismatch(expected: "a number of type Double", found: "the string \"deep\""))
    }
}

extension ConfigurationTests {
    @Test func reloadReadsTheFileAgainAndKeepsTheLastGoodValuesOnABadOne() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Live.plist")
        try AMC.write(dictionary: ["colors": ["tint": "red"]], to: url, format: .xmlPropertyList)
        let config = try AMCConfig(contentsOf: url)
        #expect(config.reloadIfChanged() == false)  // nothing changed yet

        try AMC.write(dictionary: ["colors": ["tint": "#0000ff", "text": "white"]], to: url, format: .binaryPropertyList)
        #expect(config.reloadIfChanged())
        #expect(try config.color(forKeyPath: "colors.tint") == AMCColor(red: 0, green: 0, blue: 1))
        #expect(config.reloadIfChanged() == false)

        try Data("<plist><dict><key>colors</key>".utf8).write(to: url)  // truncated
        let sink = SwallowedErrors()
        AMC.installTestHandler()
        TestHandler.$current.withValue(sink) { #expect(config.reloadIfChanged() == false) }
        #expect(sink.all.count == 1)
        if case .malformedData? = sink.all.first?.kind {} else { Issue.record("expected malformed data, got \(sink.all)") }
        #expect(try config.color(forKeyPath: "colors.text") == AMCColor(white: 1))  // the last good values
        #expect(expectAMCError { try config.reload() } != nil)
        #expect(try config.color(forKeyPath: "colors.tint") == AMCColor(red: 0, green: 0, blue: 1))

        try AMC.write(dictionary: ["colors": ["tint": "green"]], to: url, format: .json)
        try config.reload()
        #expect(try config.color(forKeyPath: "colors.text") == nil)
        #expect(try config.color(forKeyPath: "colors.tint") == AMCColor(red: 0, green: 1, blue: 0))
    }

    @Test func aWatchCallsBackAfterTheFileChangesUntilCancelled() async throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Watched.json")
        try AMC.write(dictionary: ["layout": ["columns": 1]], to: url, format: .json)
        let config = try AMCConfig(contentsOf: url)
        let seen = Locked<[Int]>([])
        let watch = config.watch(every: 0.02) { config in
            seen.withLock { $0.append((try? config.int(forKeyPath: "layout.columns")) ?? -1) }
        }
        try AMC.write(dictionary: ["layout": ["columns": 22]], to: url, format: .json)
        let deadline = ContinuousClock.now + .seconds(30)  // generous for a loaded machine; usually ~40 ms
        while seen.withLock({ $0.isEmpty }), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(seen.withLock { $0 } == [22])
        #expect(try config.int(forKeyPath: "layout.columns") == 22)

        watch.cancel()
        try await Task.sleep(for: .milliseconds(50))  // a check already running may finish
        let before = seen.withLock { $0 }
        try AMC.write(dictionary: ["layout": ["columns": 333]], to: url, format: .json)
        try await Task.sleep(for: .milliseconds(200))
        #expect(seen.withLock { $0 } == before)
        #expect(try config.int(forKeyPath: "layout.columns") == 22)
    }
}

extension ConfigurationTests {
    /// The Typed configuration article's example, as written there.
    @Test func theArticleExampleRunsAsWritten() throws {
        final class Theme: AMCCodable {
            var tintColor = AMCColor(white: 0)
            var cornerRadius = 4.0
            required init() {}
            static func amcKey(forProperty name: String) -> String {
                name == "tintColor" ? "tint_color" : name == "cornerRadius" ? "corner_radius" : name
            }
        }
        let theme = try AMCConfig(dictionary: ["tint_color": "#336699", "corner_radius": "10"]).object(Theme.self)
        #expect(theme.cornerRadius == 10)
        #expect(theme.tintColor.amcStringValue == "#336699")

        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Config.plist")
        try AMC.write(dictionary: ["colors": ["tint": "#ff0000"], "layout": ["cardSize": "100 , 300"]], to: url)
        let config = try AMCConfig(contentsOf: url)
        let tint = try config.color(forKeyPath: "colors.tint")
        let card = try config.value(CGSize.self, forKeyPath: "layout.cardSize")
        let radius = config.double(forKeyPath: "layout.cornerRadius", default: 8)
        #expect(tint == AMCColor(red: 1, green: 0, blue: 0) && card == CGSize(width: 100, height: 300) && radius == 8)
    }
}
