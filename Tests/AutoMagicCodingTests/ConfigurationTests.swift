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
        #expect(expectAMCError { _ = try AMC.object(Theme.self, from: ["card": ["shadow_radius": "wide"]]) }?.keyPath
            == "card.shadow_radius")
        let loaded = Theme()
        try loaded.loadValue(forKey: "cornerRadius", from: ["corner_radius": 3])
        #expect(loaded.cornerRadius == 3)
    }
}
