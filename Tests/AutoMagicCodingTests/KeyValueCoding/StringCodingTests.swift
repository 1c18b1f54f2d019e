import Foundation
import Testing

@testable import AutoMagicCoding

enum ContentMode: String, AMCCaseAliases {
    case scaleToFill, scaleAspectFit, scaleAspectFill
    static var amcAliases: [String: ContentMode] { ["fit": .scaleAspectFit, "fill": .scaleAspectFill] }
}

final class Layer: AMCCodable {
    var borderColor = AMCColor(white: 0)
    var cornerRadius = 0.0
    var contentMode = ContentMode.scaleToFill
    required init() {}
}

final class Label: AMCCodable {
    var text = ""
    var textColor = AMCColor(white: 0)
    var font = AMCFont()
    var alignment = AMCTextAlignment.natural
    var lineBreakMode = AMCLineBreakMode.truncateTail
    var numberOfLines: Int8 = 1
    var frame = CGRect.zero
    var layer = Layer()
    let identifier = "label"
    /// Set through the `amcSetString` hook: `"action"` is not a stored property.
    var actions: [String] = []
    required init() {}
    static var amcSpecialKeys: Set<String> { ["action"] }

    func amcSetString(_ string: String, forKey key: String) throws -> Bool {
        guard key == "action" else { return false }
        guard !string.isEmpty else { throw AMCError(.typeMismatch(expected: "an action name", found: "\"\"")) }
        actions.append(string)
        return true
    }
}

@Suite("String coding: values from strings, Key-Value Coding by key path")
struct StringCodingTests {
    @Test func numbersBoolsAndCharacters() throws {
        #expect(try AMC.value(Int.self, from: " 42 ") == 42)
        #expect(try AMC.value(Int.self, from: "-0x1F") == -31)
        #expect(try AMC.value(UInt8.self, from: "0xff") == 255)
        #expect(try AMC.value(Double.self, from: "-12.5e3") == -12_500)
        #expect(try AMC.value(Float.self, from: "0.1") == 0.1)
        #expect(try AMC.value(CGFloat.self, from: "3") == 3)
        for yes in ["yes", "TRUE", "On", "1"] { #expect(try AMC.value(Bool.self, from: yes)) }
        for no in ["no", "False", "OFF", "0"] { #expect(try !AMC.value(Bool.self, from: no)) }
        #expect(try AMC.value(Character.self, from: "é") == "é")
        // Unicode white space is trimmed like ASCII; optionals read blank strings as nil.
        #expect(try AMC.value(Int.self, from: "\u{A0}42\u{3000}\n") == 42)
        #expect(try AMC.value(Bool.self, from: "\tYES\u{2003}"))
        #expect(try AMC.value(Int?.self, from: " \u{A0}") == nil)
        #expect(try AMC.value(String?.self, from: " ") == " ")
        #expect("-12.5e3".isNumeric && "0x1F".isNumeric && !"12 apples".isNumeric && !"".isNumeric)

        #expect(
            expectAMCError { _ = try AMC.value(UInt8.self, from: "0x100") }?.kind
                == .valueOutOfRange(value: "256", typeName: "UInt8"))
        #expect(
            expectAMCError { _ = try AMC.value(Int8.self, from: "-129") }?.kind
                == .valueOutOfRange(value: "-129", typeName: "Int8"))
        #expect(
            expectAMCError { _ = try AMC.value(Int.self, from: "12 apples") }?.kind
                == .typeMismatch(expected: "a number of type Int", found: "the string \"12 apples\""))
        #expect(expectAMCError { _ = try AMC.value(Bool.self, from: "maybe") } != nil)
        #expect(expectAMCError { _ = try AMC.value(Character.self, from: "ab") } != nil)
    }

    /// Our UUID text is `uuidString`'s, and reads what `UUID(uuidString:)` reads, in either case.
    @Test func uuidsWriteAndReadAsFoundationDoes() throws {
        for _ in 0..<200 {
            let uuid = UUID()
            #expect(UUIDText.string(of: uuid) == uuid.uuidString)
            #expect(try AMC.value(UUID.self, from: uuid.uuidString.lowercased()) == uuid)
            #expect(UUIDText.uuid(from: uuid.uuidString[...]) == uuid)
        }
        #expect(
            UUIDText.string(of: UUID(uuid: (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 255)))
                == "00010203-0405-0607-0809-0A0B0C0D0EFF")
        for bad in [
            "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5G",
            "E621E1F8C36C-495A-93FC--0C247A3E6E5F",
        ] {
            #expect(UUIDText.uuid(from: bad[...]) == nil, "\(bad)")
            #expect(UUID(uuidString: bad) == nil, "\(bad)")
        }
        // Foundation's sscanf takes a sign before a group of hex digits; hex digits only here.
        #expect(UUIDText.uuid(from: "+621E1F8-C36C-495A-93FC-0C247A3E6E5F") == nil)
    }

    @Test func datesURLsAndRequests() throws {
        #expect(try AMC.value(Date.self, from: "2024-05-17T09:30:00Z") == Date(timeIntervalSince1970: 1_715_938_200))
        #expect(try AMC.value(URL.self, from: "/tmp/a b.png") == URL(fileURLWithPath: "/tmp/a b.png"))
        #expect(try AMC.value(URL.self, from: "https://example.com/x?y=1").absoluteString == "https://example.com/x?y=1")
        let base = AMC.baseURL
        #expect(base == Bundle.main.resourceURL)  // the default, looked up when first asked for
        defer { AMC.baseURL = base }
        AMC.baseURL = nil
        #expect(AMC.baseURL == nil)  // none: not the default again
        AMC.baseURL = URL(fileURLWithPath: "/srv/assets/", isDirectory: true)
        #expect(try AMC.value(URL.self, from: "images/logo.png").absoluteURL.path == "/srv/assets/images/logo.png")
        let post = try AMC.value(AMCURLRequest.self, from: "post https://example.com/items")
        #expect(post.method == "POST" && post.url.absoluteString == "https://example.com/items")
        #expect(try AMC.value(AMCURLRequest.self, from: "https://example.com").method == "GET")
        #expect(expectAMCError { _ = try AMC.value(Date.self, from: "yesterday") } != nil)
        #expect(expectAMCError { _ = try AMC.value(URL.self, from: "  ") } != nil)
    }

    @Test(
        "Geometry from braces, spaces, commas, semicolons and x",
        arguments: [
            ("{10, 20}", 2), ("10 20", 2), ("100 , 300", 2), ("20 ; 5", 2), ("-200 x 50", 2),
            ("{{1, 2}, {3, 4}}", 4), ("10, 20, 300, 400", 4), ("1 2 3 4", 4), ("3 ; 6 ; 4 ; 2", 4),
        ])
    func geometryForms(string: String, count: Int) throws {
        let numbers = string.split(whereSeparator: { !"-0123456789".contains($0) }).compactMap { Double($0) }
        if count == 2 {
            #expect(try AMC.value(CGPoint.self, from: string) == CGPoint(x: numbers[0], y: numbers[1]))
            #expect(try AMC.value(CGSize.self, from: string) == CGSize(width: numbers[0], height: numbers[1]))
            #expect(try AMC.value(AMCOffset.self, from: string) == AMCOffset(horizontal: numbers[0], vertical: numbers[1]))
        } else {
            #expect(
                try AMC.value(CGRect.self, from: string)
                    == CGRect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]))
            if !string.hasPrefix("{{") {
                #expect(
                    try AMC.value(AMCEdgeInsets.self, from: string)
                        == AMCEdgeInsets(top: numbers[0], left: numbers[1], bottom: numbers[2], right: numbers[3]))
            }
        }
    }

    @Test func geometryErrorsNameTheTypeAndTheString() throws {
        #expect(
            expectAMCError { _ = try AMC.value(AMCEdgeInsets.self, from: "1, 2, 3") }?.kind
                == .typeMismatch(
                    expected: "an AMCEdgeInsets string like \"{top, left, bottom, right}\" or \"top, left, bottom, right\"",
                    found: "the string \"1, 2, 3\""))
        #expect(expectAMCError { _ = try AMC.value(CGPoint.self, from: "1 2 3") } != nil)
        #expect(try AMC.value(AMCEdgeInsets.self, from: "{1, 2, 3, 4}") == AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
    }

    @Test func colours() throws {
        #expect(try AMC.value(AMCColor.self, from: "red") == AMCColor(red: 1, green: 0, blue: 0))
        #expect(try AMC.value(AMCColor.self, from: "darkGrayColor") == AMCColor(white: 1.0 / 3))
        #expect(try AMC.value(AMCColor.self, from: "ORANGE") == AMCColor(red: 1, green: 0.5, blue: 0))
        #expect(try AMC.value(AMCColor.self, from: "clearColor").alpha == 0)
        #expect(try AMC.value(AMCColor.self, from: "green") == AMCColor(red: 0, green: 1, blue: 0))  // UIKit's, not CSS's
        #expect(
            try AMC.value(AMCColor.self, from: "rebeccapurple")
                == AMCColor(red: 0x66 / 255.0, green: 0x33 / 255.0, blue: 0x99 / 255.0))
        #expect(try AMC.value(AMCColor.self, from: "rgb(255, 128, 0)") == AMCColor(red: 1, green: 128 / 255.0, blue: 0))
        #expect(
            try AMC.value(AMCColor.self, from: "rgba(100,200,250,0.5)")
                == AMCColor(red: 100 / 255.0, green: 200 / 255.0, blue: 250 / 255.0, alpha: 0.5))
        #expect(try AMC.value(AMCColor.self, from: "#f00") == AMCColor(red: 1, green: 0, blue: 0))
        #expect(try AMC.value(AMCColor.self, from: "#ff0000") == AMCColor(red: 1, green: 0, blue: 0))
        #expect(try AMC.value(AMCColor.self, from: "ff000080") == AMCColor(red: 1, green: 0, blue: 0, alpha: 128 / 255.0))
        #expect(try AMC.value(AMCColor.self, from: "255, 128, 0") == AMCColor(red: 1, green: 128 / 255.0, blue: 0))
        #expect(
            try AMC.value(AMCColor.self, from: "255, 128, 0, 0.75") == AMCColor(red: 1, green: 128 / 255.0, blue: 0, alpha: 0.75))
        #expect(
            try AMC.value(AMCColor.self, from: " RGBA( 100 , 200 , 250 , 0.5 )\n")
                == AMCColor(red: 100 / 255.0, green: 200 / 255.0, blue: 250 / 255.0, alpha: 0.5))
        #expect(try AMC.value(AMCColor.self, from: "#FF8000") == AMCColor(red: 1, green: 128 / 255.0, blue: 0))
        #expect(
            try AMC.value(AMCColor.self, from: "Color(sRGB 1 0.5 0 / 0.4)") == AMCColor(red: 1, green: 0.5, blue: 0, alpha: 0.4))
        let bad = [
            "reddish", "#ff00", "rgb(300, 0, 0)", "rgba(1, 2, 3)", "1, 2", "rgb(1, 2, 3, 4, 5)", "1, 2, 3, 4, 5",
            "255, 0, 0, 2", "#+ff", "rgb(1, 2, 3", "#\u{10}\u{11}\u{12}", "rgb\u{8}1, 2, 3)", "#ggg", "rgb()", "",
        ]
        for bad in bad {
            #expect(expectAMCError { _ = try AMC.value(AMCColor.self, from: bad) } != nil, "\(bad)")
        }
    }

    @Test func fontsAndImages() throws {
        #expect(try AMC.value(AMCFont.self, from: "helvetica 17") == AMCFont(name: "helvetica", size: 17))
        #expect(try AMC.value(AMCFont.self, from: "bold 15") == AMCFont(size: 15, isBold: true))
        #expect(try AMC.value(AMCFont.self, from: "italic") == AMCFont(isItalic: true))
        #expect(try AMC.value(AMCFont.self, from: "System-Bold 16") == AMCFont(size: 16, isBold: true))
        #expect(try AMC.value(AMCFont.self, from: "times") == AMCFont(name: "times", size: 17))
        #expect(try AMC.value(AMCFont.self, from: "Helvetica Neue 12.5") == AMCFont(name: "Helvetica Neue", size: 12.5))
        #expect(expectAMCError { _ = try AMC.value(AMCFont.self, from: "") } != nil)
        #expect(expectAMCError { _ = try AMC.value(AMCFont.self, from: "bold -3") } != nil)

        #expect(try AMC.value(AMCImage.self, from: "image.png") == AMCImage(name: "image.png"))
        #expect(
            try AMC.value(AMCImage.self, from: "image.png 5, 10")
                == AMCImage(name: "image.png", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10)))
        #expect(
            try AMC.value(AMCImage.self, from: "colosseum.jpg 5 ; 10 ; 3 ; 7")
                == AMCImage(name: "colosseum.jpg", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 3, right: 7)))
        #expect(expectAMCError { _ = try AMC.value(AMCImage.self, from: "image.png 5, 10, 3") } != nil)
    }

    @Test func enumsAndOptionSets() throws {
        #expect(try AMC.value(ContentMode.self, from: "ContentModeScaleAspectFit") == .scaleAspectFit)
        #expect(try AMC.value(ContentMode.self, from: "scaleaspectfill") == .scaleAspectFill)
        #expect(try AMC.value(ContentMode.self, from: "Fit") == .scaleAspectFit)
        #expect(try AMC.value(Priority.self, from: "HIGH") == .high)
        #expect(try AMC.value(Priority.self, from: "10") == .high)  // the raw value
        #expect(try AMC.value(Mode.self, from: "Model") == .model)  // not "mode" + "l"
        #expect(try AMC.value(Mode.self, from: "ModeModel") == .model)
        #expect(try AMC.value(Mode.self, from: "MODEPLAIN") == .plain)
        #expect(try AMC.value(AMCTextAlignment.self, from: "NSTextAlignmentCenter") == .center)
        #expect(try AMC.value(AMCTextAlignment.self, from: "justified") == .justified)
        #expect(try AMC.value(AMCLineBreakMode.self, from: "NSLineBreakByTruncatingMiddle") == .truncateMiddle)
        #expect(try AMC.value(AMCLineBreakMode.self, from: "wordwrap") == .wordWrap)
        #expect(
            expectAMCError { _ = try AMC.value(ContentMode.self, from: "stretch") }?.kind
                == .typeMismatch(
                    expected: "one of \"scaleToFill\", \"scaleAspectFit\", \"scaleAspectFill\" for ContentMode",
                    found: "the string \"stretch\""))

        #expect(try AMC.value(Autoresizing.self, from: "flexibleWidth FlexibleHeight") == [.flexibleWidth, .flexibleHeight])
        #expect(try AMC.value(Autoresizing.self, from: "AutoresizingFlexibleTopMargin") == .flexibleTopMargin)
        #expect(try AMC.value(Autoresizing.self, from: "none") == [])
        #expect(try AMC.value(Autoresizing.self, from: "all") == [.flexibleWidth, .flexibleHeight, .flexibleTopMargin])
        #expect(expectAMCError { _ = try AMC.value(Autoresizing.self, from: "flexibleDepth") } != nil)
    }

    /// Each type's parser and name table is made once and shared: tasks parsing at once (the
    /// first use of a type among them) all get the same answers.
    @Test func parsingFromManyTasksAtOnceAgrees() async throws {
        enum Fresh: String, CaseIterable { case north, south }
        let results = try await withThrowingTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    [
                        "\(try AMC.value(Fresh.self, from: "SOUTH"))", "\(try AMC.value(Int16?.self, from: "-7") as Any)",
                        try AMC.value(AMCColor.self, from: "rgb(255, 0, 0)").amcStringValue,
                        "\(try AMC.value(Autoresizing.self, from: "all").rawValue)",
                    ]
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.count == 8)
        #expect(Set(results) == [["south", "Optional(-7)", "#ff0000", "7"]])
    }

    @Test func everyValueTypeWritesAStringThatReadsBackEqual() throws {
        func roundTrip<T: AMCStructCodable & Equatable>(_ value: T, sourceLocation: SourceLocation = #_sourceLocation) throws {
            let back = try AMC.value(T.self, from: value.amcStringValue)
            #expect(back == value, sourceLocation: sourceLocation)
            #expect(try AMC.value(T.self, from: back.amcStringValue) == value, sourceLocation: sourceLocation)
        }
        for color in [
            AMCColor(red: 1, green: 0.5, blue: 0), AMCColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4),
            AMCColor(white: 1.0 / 3), AMCColor(red: 1, green: 0, blue: 0, alpha: 128 / 255.0), AMCColor(white: 0, alpha: 0),
        ] {
            try roundTrip(color)
        }
        for _ in 0..<200 {
            try roundTrip(
                AMCColor(red: .random(in: 0...1), green: .random(in: 0...1), blue: .random(in: 0...1), alpha: .random(in: 0...1)))
        }
        #expect(AMCColor(red: 1, green: 0, blue: 0).amcStringValue == "#ff0000")
        #expect(AMCColor(red: 1, green: 0.5, blue: 0, alpha: 0.4).amcStringValue == "color(srgb 1 0.5 0 / 0.4)")
        try roundTrip(AMCEdgeInsets(top: 1.5, left: -2, bottom: 0.1, right: 1e-7))
        try roundTrip(AMCOffset(horizontal: -3, vertical: 0.25))
        try roundTrip(AMCFont(size: 16, isBold: true))
        try roundTrip(AMCFont(name: "Helvetica Neue", size: 12.5, isItalic: true))
        try roundTrip(AMCImage(name: "a.png"))
        try roundTrip(AMCImage(name: "a.png", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 3, right: 7)))
        try roundTrip(AMCURLRequest(method: "DELETE", url: URL(string: "https://example.com/items/1")!))
        try roundTrip(CGRect(x: 1.25, y: -2, width: 300, height: 0.1))
        for alignment in AMCTextAlignment.allCases { try roundTrip(alignment) }
        for mode in AMCLineBreakMode.allCases { try roundTrip(mode) }
    }

    @Test func keyValueCodingSetsAndReadsByKeyAndKeyPath() throws {
        let screen = Screen()  // a class held in a let
        try screen.setValue(string: "#ff000080", forKeyPath: "header.title.layer.borderColor")
        #expect(screen.header.title?.layer.borderColor == AMCColor(red: 1, green: 0, blue: 0, alpha: 128 / 255.0))
        try screen.setValue(string: "12", forKeyPath: "button.frame.origin.x")  // a struct inside a class, in place
        try screen.setValue(40, forKeyPath: "button.frame.size.height")
        #expect(screen.button.frame == CGRect(x: 12, y: 0, width: 0, height: 40))
        try screen.setValue("3", forKeyPath: "button.numberOfLines")  // a String into an Int8 converts
        #expect(screen.button.numberOfLines == 3)
        try screen.setValue(string: "high", forKey: "priority")
        try screen.setValue(string: "yes", forKey: "enabled")
        try screen.setValue(string: "z", forKey: "initial")
        try screen.setValue(string: "2024-05-17T09:30:00Z", forKey: "published")
        try screen.setValue(string: "https://example.com", forKey: "homepage")
        #expect(screen.priority == .high && screen.enabled && screen.initial == "z")
        #expect(screen.published == Date(timeIntervalSince1970: 1_715_938_200))
        #expect(try screen.value(forKey: "homepage") as? URL == URL(string: "https://example.com"))
        try screen.setValue(nil, forKey: "homepage")
        #expect(try screen.value(forKey: "homepage") == nil)
        #expect(try screen.value(forKeyPath: "button.frame.origin.x") as? CGFloat == 12)
        #expect(try screen.value(forKeyPath: "header.title.layer.cornerRadius") as? Double == 0)

        var card = Card()  // a struct root: the whole chain is written back
        try card.setValue(string: "10 20 30 40", forKey: "frame")
        try card.setValue(string: "5", forKeyPath: "frame.size.width")
        try card.setValue(2, forKey: "corner")
        #expect(card.frame == CGRect(x: 10, y: 20, width: 5, height: 40) && card.corner == 2)
        #expect(try card.value(forKeyPath: "frame.size.width") as? CGFloat == 5)
    }

    @Test func keyValueCodingErrorsNameTheKeyPathTheTypeAndTheString() throws {
        let screen = Screen()
        let unknown = expectAMCError { try screen.setValue(string: "red", forKeyPath: "header.title.textColour") }
        #expect(unknown == AMCError(.unknownKey(key: "textColour", typeName: "Label"), keyPath: "header.title.textColour"))
        let throughNil = expectAMCError { try screen.setValue(string: "bold", forKeyPath: "header.subtitle.font") }
        #expect(throughNil == AMCError(.nilInKeyPath(key: "subtitle", typeName: "Header"), keyPath: "header.subtitle"))
        #expect(throughNil?.description == "At \"header.subtitle\": cannot go through Header.subtitle: it is nil.")
        let bad = expectAMCError { try screen.setValue(string: "10 x", forKeyPath: "header.shadow") }
        #expect(bad?.keyPath == "header.shadow")
        #expect(bad?.description.contains("AMCOffset") == true && bad?.description.contains("\"10 x\"") == true)
        let wide = expectAMCError { try screen.setValue(string: "300", forKeyPath: "button.numberOfLines") }
        #expect(wide == AMCError(.valueOutOfRange(value: "300", typeName: "Int8"), keyPath: "button.numberOfLines"))
        let readOnly = expectAMCError { try screen.setValue(string: "x", forKeyPath: "button.identifier") }
        #expect(readOnly == AMCError(.readOnlyKey(key: "identifier", typeName: "Label"), keyPath: "button.identifier"))
        #expect(expectAMCError { try screen.setValue(Data(), forKey: "enabled") }?.keyPath == "enabled")
        #expect(expectAMCError { try screen.setValue(nil, forKey: "enabled") }?.keyPath == "enabled")
        #expect(expectAMCError { _ = try screen.value(forKeyPath: "header.subtitle.text") }?.keyPath == "header.subtitle")
        #expect(screen.button.numberOfLines == 1 && screen.header.shadow == AMCOffset())  // nothing changed
    }

    @Test func theHookTakesKeysBeforeConversion() throws {
        let label = Label()
        try label.setValue(string: "showAlert:", forKey: "action")  // no stored property "action"
        try label.setValue(string: "dismiss", forKeyPath: "action")
        #expect(label.actions == ["showAlert:", "dismiss"])
        let screen = Screen()
        try screen.setValue(string: "tap", forKeyPath: "button.action")
        #expect(screen.button.actions == ["tap"])
        let error = expectAMCError { try screen.setValue(string: "", forKeyPath: "button.action") }
        #expect(error?.keyPath == "button.action")
    }

    @Test func aStylesheetOfKeyPathsAndStringsStylesAGraph() throws {
        let url = FixtureFiles.url("stylesheet.json")
        let sheet = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: String])
        let screen = Screen()
        for (keyPath, string) in sheet.sorted(by: { $0.key < $1.key }) {
            try screen.setValue(string: string, forKeyPath: keyPath)
        }
        let title = try #require(screen.header.title)
        #expect(title.font == AMCFont(name: "Avenir Next", size: 22, isBold: true))
        #expect(title.textColor == AMCColor(red: 0x33 / 255.0, green: 0x33 / 255.0, blue: 0x33 / 255.0))
        #expect(title.alignment == .center && title.lineBreakMode == .truncateMiddle)
        #expect(title.layer.cornerRadius == 4 && title.layer.contentMode == .scaleAspectFit)
        #expect(screen.header.insets == AMCEdgeInsets(top: 8, left: 16, bottom: 8, right: 16))
        #expect(screen.header.shadow == AMCOffset(horizontal: 0, vertical: 1))
        #expect(
            screen.header.background
                == AMCImage(name: "header.png", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10)))
        #expect(screen.header.resizing == [.flexibleWidth, .flexibleTopMargin])
        #expect(screen.button.frame == CGRect(x: 20, y: 400, width: 280, height: 44))
        #expect(screen.button.layer.borderColor == AMCColor(red: 1, green: 0.5, blue: 0))
        #expect(screen.button.actions == ["submit:"])
        #expect(screen.request == AMCURLRequest(method: "POST", url: URL(string: "https://example.com/api/submit")!))
    }

    @Test func theDecoderReadsNumbersAndBoolsFromStringsAsStringCodingDoes() throws {
        AMC.register(Screen.self, Header.self, Label.self, Layer.self)
        let dict: [String: Any] = ["class": "Label", "numberOfLines": "0x7f", "text": "t"]
        let label = try #require(try AMC.object(Label.self, from: dict))
        #expect(label.numberOfLines == (try AMC.value(Int8.self, from: "0x7f")))
        let tooWide = expectAMCError { _ = try AMC.object(Label.self, from: ["numberOfLines": "0x80"]) }
        #expect(tooWide?.kind == expectAMCError { _ = try AMC.value(Int8.self, from: "0x80") }?.kind)
        let styled = Label()
        styled.textColor = try AMC.value(AMCColor.self, from: "rgba(100,200,250,0.5)")
        styled.font = try AMC.value(AMCFont.self, from: "bold 15")
        let copy = try #require(try AMC.object(Label.self, from: AMC.data(for: styled, format: .json)))
        #expect(copy.textColor == styled.textColor && copy.font == styled.font)
    }
}

extension StringCodingTests {
    /// The frame `uiFont` and `nsFont` share (they compile only on Apple platforms): the named
    /// font or the system one, at the size, styled, the plain one where styling finds nothing.
    @Test func platformFontsFallBackToTheSystemFontAndToUnstyled() {
        let named = AMCFont(name: "Avenir", size: 12, isBold: true)
        func make(_ font: AMCFont, styled: @escaping (String) -> String?) -> String {
            font.platformFont(
                named: { name, size in name == "Avenir" ? "\(name) \(size)" : nil },
                system: { "System \($0)" }, styled: styled)
        }
        #expect(make(named) { $0 + (named.isBold ? " bold" : "") } == "Avenir 12.0 bold")
        #expect(make(AMCFont(name: "Nope", size: 9)) { $0 } == "System 9.0")
        #expect(make(AMCFont(size: 20)) { _ in nil } == "System 20.0")
    }
}
