import Foundation
import Testing

@testable import AutoMagicCoding

@Suite("Styles and stylesheets: bulk setting, all or nothing")
struct StyleTests {
    /// The Styles and stylesheets article's first example, as written there.
    @Test func aStyleSetsNativeAndStringValuesByNameAndKeyPath() throws {
        let label = Label()
        try label.apply(style: ["font": "bold 17", "textColor": "#333", "layer.cornerRadius": 4])
        #expect(label.font == AMCFont(size: 17, isBold: true))
        #expect(label.textColor == AMCColor(red: 0x33 / 255.0, green: 0x33 / 255.0, blue: 0x33 / 255.0))
        #expect(label.layer.cornerRadius == 4)

        let base: [String: Any] = ["font": "helvetica 13", "textColor": "black", "numberOfLines": 2]
        let emphasis: [String: Any] = ["font": "bold 15", "layer.borderColor": "red"]
        try label.apply(styles: [base, emphasis])
        #expect(label.font == AMCFont(size: 15, isBold: true))  // the later style wins
        #expect(label.textColor == AMCColor(white: 0) && label.numberOfLines == 2)
        #expect(label.layer.borderColor == AMCColor(red: 1, green: 0, blue: 0))

        var card = Card()  // a struct root
        try card.apply(style: ["frame.size": "300 x 200", "corner": 6])
        #expect(card.frame.size == CGSize(width: 300, height: 200) && card.corner == 6)
    }

    /// Styles of strings only, the common case, which is checked along key-path plans.
    @Test func aStyleOfStringsSetsItsKeysInOrderAndTheLaterStyleWins() throws {
        var card = Card()
        // In key order: the frame, then its size, then the size's height and width.
        try card.apply(style: [
            "frame.size.width": "10", "frame.size": "300 x 200", "frame.size.height": "20", "frame": "{{1, 2}, {3, 4}}",
        ])
        #expect(card.frame == CGRect(x: 1, y: 2, width: 10, height: 20))

        let label = Label()
        try label.apply(styles: [["font": "bold 17", "textColor": "#333"], ["font": "15", "text": "Later"]])
        #expect(label.font == AMCFont(size: 15) && label.text == "Later")
        #expect(label.textColor == AMCColor(red: 0x33 / 255.0, green: 0x33 / 255.0, blue: 0x33 / 255.0))

        let error = try #require(
            expectAMCError { try label.apply(style: ["font": "bold 9", "text": "Never", "numberOfLines": "many"]) })
        guard case let .invalidStyle(errors) = error.kind else {
            Issue.record("\(error)")
            return
        }
        #expect(errors.map(\.keyPath) == ["numberOfLines"])
        #expect(label.font == AMCFont(size: 15) && label.text == "Later")  // nothing changed
    }

    @Test func aBadStyleChangesNothingAndNamesEveryBadEntry() throws {
        let header = Header()
        let before = try header.dictionaryRepresentation()
        let error = expectAMCError {
            try header.apply(style: [
                "title.textColour": "#333", "title.font": 17, "insets": "8, 16", "title.identifier": "x",
                "subtitle.text": "Hi", "title.text": "fine", "title.layer.cornerRadius": "4",
            ])
        }
        guard case let .invalidStyle(errors)? = error?.kind else {
            Issue.record("expected invalidStyle, got \(String(describing: error))")
            return
        }
        #expect(errors.map(\.keyPath) == ["insets", "subtitle", "title.font", "title.identifier", "title.textColour"])
        guard errors.count == 5 else { return }
        #expect(
            errors[0].kind
                == .typeMismatch(
                    expected: "an AMCEdgeInsets string like \"{top, left, bottom, right}\" or \"top, left, bottom, right\"",
                    found: "the string \"8, 16\""))
        #expect(errors[1].kind == .nilInKeyPath(key: "subtitle", typeName: "Header"))
        #expect(errors[3].kind == .readOnlyKey(key: "identifier", typeName: "Label"))
        #expect(errors[4].kind == .unknownStyleKey(key: "textColour", typeName: "Label", suggestion: "textColor"))
        #expect(
            errors[4].description == "At \"title.textColour\": Label has no property \"textColour\" — did you mean \"textColor\"?"
        )
        #expect(
            error?.description.hasPrefix("At the root: the style was not applied, 5 bad entries: \"insets\" (expected") == true)
        #expect(Canonical.text(try header.dictionaryRepresentation()) == Canonical.text(before))  // nothing changed

        #expect(TypePlan.of(Label.self).nearestKey(to: "zzzzzz") == nil)  // nothing near
    }

    @Test func specialPropertiesGoThroughTheHookAndARefusedOneChangesNoPlainProperty() throws {
        let label = Label()
        try label.apply(style: ["action": "save:", "text": "Save"])
        #expect(label.actions == ["save:"] && label.text == "Save")

        let error = expectAMCError { try label.apply(style: ["acton": "open:", "text": "Open"]) }
        guard case let .invalidStyle(errors)? = error?.kind else {
            Issue.record("expected invalidStyle, got \(String(describing: error))")
            return
        }
        #expect(errors.map(\.kind) == [.unknownStyleKey(key: "acton", typeName: "Label", suggestion: "action")])
        #expect(label.text == "Save")
        #expect(expectAMCError { try label.apply(style: ["action": ""]) } != nil)  // the hook's own error
        #expect(
            expectAMCError { try label.apply(style: ["action": 5, "text": "Five"]) }?.kind
                == .invalidStyle(errors: [
                    AMCError(
                        .typeMismatch(expected: "a string (\"action\" is set by amcSetString)", found: "5"), keyPath: "action")
                ]))
        #expect(label.text == "Save")
    }

    @Test func stylesUseTheRenamedKeysToo() throws {
        let theme = Theme()
        try theme.apply(style: ["tint_color": "red", "cornerRadius": "3", "card.shadow_radius": 9])
        #expect(theme.tintColor == AMCColor(red: 1, green: 0, blue: 0))
        #expect(theme.cornerRadius == 3 && theme.card.shadowRadius == 9)
    }

    @Test func theSampleThemeStylesAGraphAndItsNamedStylesExtendEachOther() throws {
        let sheet = try AMCStylesheet(contentsOf: FixtureFiles.url("theme.json"))
        let screen = Screen()
        try sheet.apply(to: screen)
        #expect(screen.header.title?.text == "Welcome")
        #expect(screen.header.title?.font == AMCFont(size: 20, isBold: true))
        #expect(screen.header.title?.layer.borderColor == AMCColor(red: 1, green: 0, blue: 0, alpha: 128 / 255.0))
        #expect(screen.header.insets == AMCEdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        #expect(screen.button.frame == CGRect(x: 20, y: 400, width: 280, height: 44))

        let label = Label()
        try sheet.apply(style: "danger", to: label)
        #expect(label.font == AMCFont(size: 17, isBold: true))  // from "title"
        #expect(label.alignment == .center)
        #expect(label.textColor == AMCColor(red: 1, green: 0, blue: 0))  // its own wins
        #expect(label.layer.cornerRadius == 4)
        #expect(sheet.styles["subtitle"]?["font"] as? String == "helvetica 13")
        #expect(expectAMCError { try sheet.apply(style: "missing", to: label) } != nil)

        var card = Card()
        let cards = try AMCStylesheet(dictionary: ["corner": "5", "styles": ["wide": ["frame": "0 0 400 100"]]])
        try cards.apply(to: &card)
        try cards.apply(style: "wide", to: &card)
        #expect(card.corner == 5 && card.frame.width == 400)
    }

    @Test func badStylesheetsThrowNamingTheKeyPath() throws {
        let cycle = expectAMCError {
            _ = try AMCStylesheet(dictionary: ["styles": ["a": ["extends": "b"], "b": ["extends": "a"]]])
        }
        #expect(cycle?.keyPath == "styles.b.extends")
        #expect(cycle?.kind == .typeMismatch(expected: "styles that do not extend themselves", found: "a → b → a"))
        #expect(
            expectAMCError { _ = try AMCStylesheet(dictionary: ["styles": ["a": ["extends": "nope"]]]) }?.keyPath
                == "styles.a.extends")
        #expect(expectAMCError { _ = try AMCStylesheet(dictionary: ["styles": ["a": "bold"]]) }?.keyPath == "styles.a")
        #expect(expectAMCError { _ = try AMCStylesheet(dictionary: ["styles": [1, 2]]) }?.keyPath == "styles")

        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try Data("{\"styles\": {".utf8).write(to: folder.file("broken.json"))
        let broken = expectAMCError { _ = try AMCStylesheet(contentsOf: folder.file("broken.json")) }
        #expect(broken?.file == folder.file("broken.json").path)
        #expect(broken?.description.hasPrefix("In \(folder.file("broken.json").path): Malformed JSON") == true)

        // All or nothing for a whole sheet too.
        let screen = Screen()
        let sheet = try AMCStylesheet(dictionary: ["button.text": "Go", "button.fnot": "bold 12"])
        #expect(expectAMCError { try sheet.apply(to: screen) } != nil)
        #expect(screen.button.text == "")

        // Errors in applying a sheet read from a file name the file; an unknown style says which
        // there are.
        let url = folder.file("sheet.json")
        try Data(#"{"button.fnot": "bold 12", "styles": {}}"#.utf8).write(to: url)
        let fromFile = try AMCStylesheet(contentsOf: url)
        #expect(fromFile.url == url && sheet.url == nil)
        let applying = expectAMCError { try fromFile.apply(to: screen) }
        #expect(applying?.file == url.path)
        #expect(
            applying?.description.hasPrefix(
                "In \(url.path), at the root: the style was not applied, 1 bad entry: \"button.fnot\"") == true)
        let unknown = expectAMCError { try fromFile.apply(style: "title", to: screen.button) }
        #expect(unknown?.file == url.path)
        #expect(unknown?.kind == .typeMismatch(expected: "the name of a style (the stylesheet has none)", found: "\"title\""))
    }

    /// A bad entry of a named style is named where the file has it: under the style, or under the
    /// style it extends that declares it.
    @Test func badEntriesOfANamedStyleAreNamedByTheirPlaceInTheFile() throws {
        let sheet = try AMCStylesheet(dictionary: [
            "styles": [
                "base": ["numberOfLines": "many"],
                "nested": ["extends": "base", "layer": ["cornerRadius": "nine"], "text": "ok"],
            ]
        ])
        let label = Label()
        let error = try #require(expectAMCError { try sheet.apply(style: "nested", to: label) })
        guard case let .invalidStyle(errors) = error.kind else {
            Issue.record("expected an invalid style, got \(error)")
            return
        }
        #expect(Set(errors.map(\.keyPath)) == ["styles.nested.layer.cornerRadius", "styles.base.numberOfLines"])
        #expect(label.text == "")

        // The exact key wins over a shorter one that starts it, wherever each is in the chain.
        let overriding = try AMCStylesheet(dictionary: [
            "styles": [
                "base": ["layer.cornerRadius": "round"],
                "child": ["extends": "base", "layer": ["borderColor": "red"]],
            ]
        ])
        let exact = try #require(expectAMCError { try overriding.apply(style: "child", to: label) })
        guard case let .invalidStyle(entries) = exact.kind else {
            Issue.record("expected an invalid style, got \(exact)")
            return
        }
        #expect(entries.map(\.keyPath) == ["styles.base.layer.cornerRadius"])
    }

    @Test func amcStyleCheckPrintsTheResolvedStylesOrTheError() throws {
        let (status, output, _) = try AMCBinary.run(["style", FixtureFiles.url("theme.json").path, "--check"])
        #expect(status == 0)
        #expect(output.contains(": OK, 6 key-path entries, 3 named styles\n"))
        #expect(output.contains("danger (extends title)\n  alignment: \"center\"\n  font: \"bold 17\"\n"))
        #expect(output.contains("  textColor: \"red\"\n"))

        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        try AMC.write(dictionary: ["styles": ["a": ["extends": "a"]]], to: folder.file("loop.plist"))
        let (failed, _, error) = try AMCBinary.run(["style", folder.file("loop.plist").path, "--check"])
        #expect(failed == 1)
        #expect(error.contains("styles.a.extends") && error.contains("a → a"))
        #expect(try AMCBinary.run(["style", folder.file("loop.plist").path]).0 == 2)  // --check is required
    }
}

extension StyleTests {
    /// The Styles and stylesheets article's examples, as written there (its JSON in a file).
    @Test func theArticleExamplesRunAsWritten() throws {
        final class Layer: AMCCodable {
            var cornerRadius = 0.0
            required init() {}
        }

        final class Label: AMCCodable {
            var font = AMCFont()
            var textColor = AMCColor(white: 0)
            var layer = Layer()
            required init() {}
        }

        let label = Label()
        try label.apply(style: ["font": "bold 17", "textColor": "#333", "layer.cornerRadius": 4])
        #expect(label.layer.cornerRadius == 4 && label.textColor.amcStringValue == "#333333")

        let base: [String: Any] = ["font": "helvetica 13", "textColor": "black"]
        let emphasis: [String: Any] = ["font": "bold 15"]
        try label.apply(styles: [base, emphasis])  // in order: the font is "bold 15"
        #expect(label.font == AMCFont(size: 15, isBold: true) && label.textColor == AMCColor(white: 0))

        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("theme.json")
        try Data(
            """
            {
              "font": "helvetica 20",
              "layer.cornerRadius": "6",
              "styles": {
                "title": {"font": "bold 17", "textColor": "#333"},
                "danger": {"extends": "title", "textColor": "red", "layer.cornerRadius": "4"}
              }
            }
            """.utf8
        ).write(to: url)
        let sheet = try AMCStylesheet(contentsOf: url)  // the file above
        try sheet.apply(to: label)  // the flat entries, all or nothing
        #expect(label.font == AMCFont(name: "helvetica", size: 20) && label.layer.cornerRadius == 6)
        try sheet.apply(style: "danger", to: label)  // "title", then its own entries
        #expect(label.font == AMCFont(size: 17, isBold: true) && label.textColor == AMCColor(red: 1, green: 0, blue: 0))
        #expect(label.layer.cornerRadius == 4)
    }
}
