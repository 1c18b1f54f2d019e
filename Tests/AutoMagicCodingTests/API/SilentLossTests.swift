import Foundation
import Testing

@testable import AutoMagicCoding

/// A player whose optionals start with values: a nil saved must come back nil, not the default.
final class Gamer: AMCCodable {
    var name = "Ada"
    var title: String? = "Novice"
    var lastLogin: Date? = Date(timeIntervalSinceReferenceDate: 700_000_000)
    var score: Int? = 0
    var mentor: Gamer?
    var sidekick: GamerBadge? = GamerBadge()
    var nickname: String?
    required init() {}
}

final class GamerBadge: AMCCodable {
    var label = "first steps"
    required init() {}
}

@Suite("What you save is what you load: nils, edits next to references, limits, long numbers")
struct SilentLossTests {
    init() { AMC.register(Gamer.self, GamerBadge.self) }

    static let formats: [AMCFormat] = [.json, .xmlPropertyList, .binaryPropertyList]

    @Test(arguments: formats)
    func aNilOptionalWithAnInitialValueComesBackNil(format: AMCFormat) throws {
        let player = Gamer()
        player.title = nil
        player.lastLogin = nil
        player.score = nil
        player.sidekick = nil
        let read = try #require(try AMC.object(Gamer.self, from: try AMC.data(for: player, format: format)))
        #expect(read.title == nil)
        #expect(read.lastLogin == nil)
        #expect(read.score == nil)
        #expect(read.sidekick == nil)
        #expect(read.name == "Ada")

        let fromDictionary = try #require(try AMC.object(Gamer.self, from: try player.dictionaryRepresentation()))
        #expect(fromDictionary.title == nil && fromDictionary.lastLogin == nil && fromDictionary.sidekick == nil)
    }

    @Test(arguments: formats)
    func valuesInOptionalsWithInitialValuesStillComeBack(format: AMCFormat) throws {
        let player = Gamer()
        player.title = "Champion"
        player.score = 12
        player.nickname = "A"
        let read = try #require(try AMC.object(Gamer.self, from: try AMC.data(for: player, format: format)))
        #expect(read.title == "Champion")
        #expect(read.score == 12)
        #expect(read.nickname == "A")
        #expect(read.sidekick?.label == "first steps")
    }

    @Test func aNilIsNullInJSONAndListedUnderNilInPropertyLists() throws {
        let player = Gamer()
        player.title = nil
        player.score = nil
        let json = String(decoding: try AMC.data(for: player, format: .json, options: .readable), as: UTF8.self)
        #expect(json.contains(#""title": null"#))
        #expect(json.contains(#""score": null"#))
        // Optionals that start at nil are left out, as they always were.
        #expect(!json.contains("nickname") && !json.contains("mentor") && !json.contains("$nil"))
        let dictionary = try player.dictionaryRepresentation()
        #expect(dictionary["$nil"] as? [String] == ["title", "score"])
        #expect(dictionary["title"] == nil)
        // A dictionary representation stays a property list.
        #expect(PropertyListSerialization.propertyList(dictionary, isValidFor: .binary))
    }

    @Test func optionalsThatStartAtNilLeaveTheFileAsItWas() throws {
        let item = Item()
        item.title = "x"
        let json = String(decoding: try AMC.data(for: item, format: .json), as: UTF8.self)
        #expect(!json.contains("null") && !json.contains("$nil"))
    }

    @Test func aFileWithoutTheKeyStillGetsTheInitialValue() throws {
        // Written before the property existed, or by hand: the key is missing, not nil.
        let read = try #require(
            try AMC.object(Gamer.self, from: Data(#"{"class": "Gamer", "name": "Bo"}"#.utf8)))
        #expect(read.title == "Novice")
        #expect(read.name == "Bo")
    }

    @Test func aMalformedNilListIsAnErrorWithItsKeyPath() throws {
        let notAnArray = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": "title"])
        }
        #expect(notAnArray?.keyPath == "$nil")
        let notAKey = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": ["title", 3]])
        }
        #expect(notAKey?.keyPath == "$nil[1]")
        // A property that is not optional cannot be nil.
        let notOptional = expectAMCError {
            _ = try AMC.object(Gamer.self, from: ["class": "Gamer", "$nil": ["name"]])
        }
        #expect(notOptional?.keyPath == "name")
    }

    // MARK: - Long numbers

    @Test func longJSONNumbersReadIntoExactTypesExactly() throws {
        AMC.register(ExactLedger.self)
        let json = #"""
            {"class": "ExactLedger", "total": -1208925819614629174718521, "unsigned": 340282366920938463463374607431768211455,
             "balance": 1234.5678901234567890123, "count": 18446744073709551615, "ratio": 0.1234567890123456789012}
            """#
        let ledger = try #require(try AMC.object(ExactLedger.self, from: Data(json.utf8)))
        #expect(ledger.total == Int128("-1208925819614629174718521"))
        #expect(ledger.unsigned == UInt128.max)
        #expect(ledger.balance == Decimal(string: "1234.5678901234567890123"))
        #expect(ledger.count == UInt64.max)
        #expect(ledger.ratio == 0.1234567890123456789012)  // a Double takes the nearest
        // Written back, the digits are the same.
        let again = try #require(try AMC.object(ExactLedger.self, from: try AMC.data(for: ledger, format: .json)))
        #expect(again.total == ledger.total && again.balance == ledger.balance && again.unsigned == ledger.unsigned)
    }

    @Test func aLongNumberThatDoesNotFitIsAnErrorQuotingItAsWritten() throws {
        AMC.register(ExactLedger.self)
        let tooBig = expectAMCError {
            _ = try AMC.object(ExactLedger.self, from: Data(#"{"class": "ExactLedger", "count": 100000000000000000000}"#.utf8))
        }
        #expect(tooBig == AMCError(.valueOutOfRange(value: "100000000000000000000", typeName: "UInt64"), keyPath: "count"))
        let tooPrecise = expectAMCError {
            _ = try AMC.object(
                ExactLedger.self,
                from: Data(#"{"class": "ExactLedger", "balance": 1.234567890123456789012345678901234567890123}"#.utf8))
        }
        #expect(
            tooPrecise
                == AMCError(
                    .valueOutOfRange(value: "1.234567890123456789012345678901234567890123", typeName: "Decimal"),
                    keyPath: "balance"))
        // Beyond any double: the file is refused, quoting the number.
        let beyond = expectAMCError {
            _ = try AMC.object(ExactLedger.self, from: Data(#"{"class": "ExactLedger", "ratio": 1.5e400}"#.utf8))
        }
        #expect(beyond?.description.contains("the number 1.5e400 is out of range") == true)
    }

    @Test func longNumbersKeepTheirDigitsThroughDocumentsAndConversions() throws {
        let digits = "1208925819614629174718521"
        let document = try AMCDocument(data: Data(#"{"n": \#(digits), "x": 0.30000000000000000000001}"#.utf8))
        let json = String(decoding: try document.data(format: .json), as: UTF8.self)
        #expect(json.contains(digits) && json.contains("0.30000000000000000000001"))
        let xml = try document.data(format: .xmlPropertyList)
        let fromXML = try AMCDocument(data: xml)
        #expect(String(decoding: try fromXML.data(format: .json), as: UTF8.self).contains(digits))
        // A document value would be its nearest double: refused, not rounded.
        #expect(
            expectAMCError { _ = try document.value(atKeyPath: "n") }
                == AMCError(.valueOutOfRange(value: digits, typeName: "Double"), keyPath: "n"))
        // A binary property list's numbers have 64 bits: refused, not rounded.
        #expect(expectAMCError { _ = try document.data(format: .binaryPropertyList) }?.keyPath == "n")
        // In an `Any` place, the exact value.
        let ledger = try #require(
            try AMC.object(ExactLedger.self, from: Data(#"{"class": "ExactLedger", "anything": \#(digits)}"#.utf8)))
        #expect(ledger.anything as? Decimal == Decimal(string: digits))
    }

    @Test func decimalsInDictionariesConfigsAndKeyValueCodingConvertLikeNumbers() throws {
        AMC.register(ExactLedger.self)
        let digits = "1208925819614629174718521"
        // What Foundation's and this package's dictionary readers give for a long number.
        let dictionary: [String: Any] = [
            "class": "ExactLedger", "total": Decimal(string: digits)!, "ratio": Decimal(5),
            "count": NSDecimalNumber(string: "18446744073709551615"),
        ]
        let ledger = try #require(try AMC.object(ExactLedger.self, from: dictionary))
        #expect(ledger.total == Int128(digits) && ledger.ratio == 5 && ledger.count == UInt64.max)
        #expect(try AMCConfig(dictionary: dictionary).value(Int128.self, forKeyPath: "total") == Int128(digits))
        let set = ExactLedger()
        try set.setValue(Decimal(string: "5.5")!, forKey: "ratio")
        #expect(set.ratio == 5.5)
        // A file read as a dictionary, then decoded, as the Files and formats article shows.
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = try folder.write("ledger.json", #"{"class": "ExactLedger", "total": \#(digits)}"#)
        #expect(try AMC.object(ExactLedger.self, from: try AMC.dictionary(contentsOf: url))?.total == Int128(digits))
    }

    @Test func longNumbersInXMLAreRealsFoundationReadsAndThisPackageReadsExactly() throws {
        let digits = "1208925819614629174718521"
        let xml = try AMC.convert(Data(#"{"total": \#(digits)}"#.utf8), to: .xmlPropertyList)
        let foundations = try PropertyListSerialization.propertyList(from: xml, format: nil) as? [String: Any]
        #expect((foundations?["total"] as? NSNumber)?.doubleValue == Double(digits))
        AMC.register(ExactLedger.self)
        #expect(try AMC.object(ExactLedger.self, from: xml)?.total == Int128(digits))
    }

    @Test func anXMLNumberNotWrittenAsJSONWouldIsReadAsBefore() throws {
        // Found by fuzzing: kept as written, leading zeros made JSON that lint refused.
        let xml = Data(
            "<plist><dict><key>pi</key><real>0000001614500650.9406564584124654e-328</real><key>big</key><integer>+18446744073709551616</integer></dict></plist>"
                .utf8)
        let error = expectAMCError { _ = try AMC.convert(xml, to: .json) }
        #expect(error?.description.contains("the integer +18446744073709551616 does not fit in 64 bits") == true)
        let real = Data("<plist><real>0000001614500650.9406564584124654e-328</real></plist>".utf8)
        #expect(try AMC.lint(try AMC.convert(real, to: .json)) == .json)
        #expect(DecimalText.isJSONNumber("-12.5e+3") && !DecimalText.isJSONNumber("012") && !DecimalText.isJSONNumber("+1"))
        #expect(!DecimalText.isJSONNumber("1.") && !DecimalText.isJSONNumber(".5") && DecimalText.isJSONNumber("0.5"))
    }

    @Test func aNumberAnAnyPlaceWouldRoundIsAnError() throws {
        AMC.register(ExactLedger.self)
        let digits = "123456789012345678901234567890123456789012345"
        let error = expectAMCError {
            _ = try AMC.object(ExactLedger.self, from: Data(#"{"class": "ExactLedger", "anything": \#(digits)}"#.utf8))
        }
        #expect(error == AMCError(.valueOutOfRange(value: digits, typeName: "Decimal"), keyPath: "anything"))
    }

    // MARK: - References in edited files

    @Test func lintChecksThatEveryReferenceNamesAnObject() throws {
        let good = Data(##"{"class": "Gamer", "mentor": {"$ref": "#"}, "sidekick": {"label": "x"}}"##.utf8)
        #expect(try AMC.lint(good) == .json)
        // Removed, shifted or mistyped: each is listed with its key path.
        let edited = Data(
            ##"{"items": [{"label": "a"}], "first": {"$ref": "#/items/0"}, "gone": {"$ref": "#/items/3"}, "scalar": {"$ref": "#/items/0/label"}, "nested": [{"$ref": "#/nowhere"}]}"##
                .utf8)
        let error = expectAMCError { try AMC.lint(edited) }
        guard case let .brokenReferences(errors)? = error?.kind else {
            Issue.record("expected broken references, got \(String(describing: error))")
            return
        }
        #expect(errors.map(\.keyPath) == ["gone", "scalar", "nested[0]"])
        #expect(
            errors.map(\.kind) == [
                .invalidReference(
                    pointer: "#/items/3", reason: "nothing is there (its first step leads somewhere, the next does not)"),
                .invalidReference(pointer: "#/items/0/label", reason: "it names the string \"a\", not an object"),
                .invalidReference(pointer: "#/nowhere", reason: "nothing is there (its first step leads nowhere)"),
            ])
    }

    @Test func extractingThroughAReferenceFollowsIt() throws {
        let document = try AMCDocument(
            data: Data(
                ##"{"team": [{"name": "Ada", "level": 3}], "captain": {"$ref": "#/team/0"}, "lost": {"$ref": "#/team/4"}}"##.utf8)
        )
        #expect(try document.value(atKeyPath: "captain.name") == .string("Ada"))
        #expect(try document.value(atKeyPath: "captain.$ref") == .string("#/team/0"))
        let captain = String(decoding: try document.extract("captain", as: .json, options: .compact), as: UTF8.self)
        #expect(captain == #"{"name":"Ada","level":3}"#)  // the object, in the document's order
        let lost = expectAMCError { _ = try document.value(atKeyPath: "lost.name") }
        #expect(
            lost
                == AMCError(
                    .invalidReference(
                        pointer: "#/team/4", reason: "nothing is there (its first step leads somewhere, the next does not)"),
                    keyPath: "lost"))
    }

    @Test func editsKeepEveryReferenceNamingTheSameObject() throws {
        let text = ##"{"team": [{"name": "Ada"}, {"name": "Bo"}, {"$ref": "#/team/1"}], "captain": {"$ref": "#/team/1"}}"##
        var document = try AMCDocument(data: Data(text.utf8))
        try document.insert(.dictionary(["name": .string("Cy")]), atKeyPath: "team.0")
        #expect(try document.value(atKeyPath: "captain.$ref") == .string("#/team/2"))
        #expect(try document.value(atKeyPath: "captain.name") == .string("Bo"))
        // A reference inside the array moved with it, and names the same object.
        #expect(try document.value(atKeyPath: "team.3.$ref") == .string("#/team/2"))
        // Removing an element before it moves it back.
        try document.remove(atKeyPath: "team.1")
        #expect(try document.value(atKeyPath: "captain.$ref") == .string("#/team/1"))
        #expect(try document.value(atKeyPath: "captain.name") == .string("Bo"))
        _ = try AMC.lint(try document.data())

        // What references name cannot be removed or replaced: the referrers are listed.
        let before = try document.data()
        let refused = expectAMCError { try document.remove(atKeyPath: "team.1") }
        #expect(refused == AMCError(.referencedElsewhere(referrers: ["team[2]", "captain"]), keyPath: "team[1]"))
        let replaced = expectAMCError { try document.replace(.string("gone"), atKeyPath: "team.1") }
        #expect(replaced?.kind == .referencedElsewhere(referrers: ["team[2]", "captain"]))
        #expect(try document.data() == before)
        // A value inside it can change; a reference itself can go.
        try document.replace(.string("Bea"), atKeyPath: "team.1.name")
        try document.remove(atKeyPath: "captain")
        #expect(try document.value(atKeyPath: "team.2.name") == .string("Bea"))
    }

    // MARK: - Key paths index arrays

    @Test func keyPathsIndexArraysInKeyValueCodingStylesAndStylesheets() throws {
        let root = Panel()
        root.subviews = [Panel(), Panel()]
        root.subviews[1].subviews = [Panel()]
        root.margins = [Margin(), Margin()]
        try root.setValue("10, 20, 30, 40", forKeyPath: "subviews.0.frame")
        #expect(root.subviews[0].frame == CGRect(x: 10, y: 20, width: 30, height: 40))
        try root.setValue(string: "deep", forKeyPath: "subviews.1.subviews.0.title")
        #expect(root.subviews[1].subviews[0].title == "deep")
        // A struct in an array is written back into it.
        try root.setValue(2.5, forKeyPath: "margins.1.width")
        #expect(root.margins.map(\.width) == [0, 2.5])
        #expect(try root.value(forKeyPath: "margins.1.width") as? Double == 2.5)
        #expect(try root.value(forKeyPath: "subviews.0.frame.origin.x") as? CGFloat == 10)
        // Styles and stylesheets take the same key paths, checked before anything is set.
        try root.apply(style: ["subviews.1.title": "second", "margins.0.label": "left"])
        #expect(root.subviews[1].title == "second" && root.margins[0].label == "left")
        let refused = expectAMCError { try root.apply(style: ["subviews.0.title": "x", "subviews.5.title": "y"]) }
        guard case let .invalidStyle(errors)? = refused?.kind else {
            Issue.record("expected invalidStyle, got \(String(describing: refused))")
            return
        }
        #expect(errors.map(\.keyPath) == ["subviews.5"])
        #expect(root.subviews[0].title == "")  // all or nothing
        // An index past the end, or a path ending at an element, says so.
        let past = expectAMCError { try root.setValue("x", forKeyPath: "subviews.7.title") }
        #expect(past == AMCError(.keyPathNotFound(reason: "the array has 2 elements, none at 7"), keyPath: "subviews.7"))
        let atElement = expectAMCError { try root.setValue("x", forKeyPath: "subviews.0") }
        #expect(atElement?.keyPath == "subviews.0")
    }

    // MARK: - Typos in configurations

    @Test func aTypoInASettingsFileIsAnErrorNamingTheFileKeyAndNearestKey() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = try folder.write("settings.json", #"{"prot": 8080, "logLevle": "debug", "server": {"hots": "example.com"}}"#)
        let config = try AMCConfig(contentsOf: url)
        let error = expectAMCError { _ = try config.object(AppSettings.self) }
        // (A configuration's keys are in order of their names.)
        #expect(
            error
                == AMCError(
                    .unusedKey(key: "logLevle", typeName: "AppSettings", suggestion: "logLevel"), keyPath: "logLevle",
                    file: url.path))
        // Lenient reading lists every one, nested ones with their key paths.
        let report = try config.lenientObject(AppSettings.self)
        #expect(report.problems.map(\.keyPath) == ["logLevle", "prot", "server.hots"])
        #expect(report.problems.map(\.error.kind).last == .unusedKey(key: "hots", typeName: "ServerSettings", suggestion: "host"))
        // Asked to, strict reading ignores them.
        #expect(try config.object(AppSettings.self, ignoringUnknownKeys: true).port == 80)
    }

    @Test func aMisspeltEnvironmentVariableOrArgumentIsAnError() throws {
        let environment = AMCConfig(
            environment: ["MYAPP_SERVR_HOST": "example.com", "MYAPP_PORT": "8080", "HOME": "/root"], prefix: "MYAPP")
        let defaults = AMCConfig(dictionary: ["logLevel": "warning"])
        let config = AMCConfig(layers: [environment, defaults])
        let error = expectAMCError { _ = try config.object(AppSettings.self) }
        #expect(
            error
                == AMCError(
                    .unusedKey(key: "MYAPP_SERVR_HOST", typeName: "AppSettings", suggestion: "MYAPP_SERVER_HOST"),
                    file: "the environment variable MYAPP_SERVR_HOST"))
        let report = try config.lenientObject(AppSettings.self)
        #expect(report.object.port == 8080)
        #expect(report.problems.map(\.error.file) == ["the environment variable MYAPP_SERVR_HOST"])
        // Spelt right, it applies.
        let right = AMCConfig(layers: [AMCConfig(environment: ["MYAPP_SERVER_HOST": "example.com"], prefix: "MYAPP"), defaults])
        #expect(try right.object(AppSettings.self).server.host == "example.com")

        let arguments = AMCConfig(layers: [AMCConfig(arguments: ["--servr.host=example.com"]), defaults])
        let argumentError = expectAMCError { _ = try arguments.object(AppSettings.self) }
        #expect(argumentError?.file == "the command line")
        #expect(argumentError?.kind == .unusedKey(key: "servr", typeName: "AppSettings", suggestion: "server"))
    }

    // MARK: - Smaller things

    @Test func aBoldOrItalicSuffixMeansWhatItSaysForEveryFamily() throws {
        let helvetica = try AMCFont(amcStringValue: "Helvetica-Bold 14")
        #expect(helvetica == AMCFont(name: "Helvetica", size: 14, isBold: true))
        #expect(try AMCFont(amcStringValue: "System-Bold 15") == AMCFont(size: 15, isBold: true))
        #expect(try AMCFont(amcStringValue: "Georgia-Italic") == AMCFont(name: "Georgia", isItalic: true))
        #expect(
            try AMCFont(amcStringValue: "HelveticaNeue-BoldItalic 12")
                == AMCFont(name: "HelveticaNeue", size: 12, isBold: true, isItalic: true))
        // Other suffixes are part of the name.
        #expect(try AMCFont(amcStringValue: "Avenir-Heavy 20") == AMCFont(name: "Avenir-Heavy", size: 20))
        // And the string written reads back the same font.
        #expect(try AMCFont(amcStringValue: helvetica.amcStringValue) == helvetica)
    }

    @Test func lenientProblemsComeInDeclarationOrderLetsIncluded() throws {
        AMC.register(Sheet.self)
        let report = try AMC.lenientObject(
            Sheet.self, from: Data(#"{"class": "Sheet", "width": "wide", "kind": "card", "height": "tall"}"#.utf8))
        #expect(report.problems.map(\.keyPath) == ["width", "kind", "height"])
    }

    // MARK: - Errors name the file

    @Test func everyErrorOfAFunctionThatTookAURLNamesTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let malformed = try folder.write("broken.json", #"{"class": "Gamer", "name": "#)
        let badValue = try folder.write("bad.json", #"{"class": "Gamer", "name": ["not", "a", "string"]}"#)
        let array = try folder.write("array.json", "[1, 2]")
        let unwritable = folder.file("out.plist")

        let failures: [(URL, AMCError?)] = [
            (malformed, expectAMCError { _ = try AMC.read(Gamer.self, from: malformed) }),
            (malformed, expectAMCError { _ = try AMC.read(from: malformed) }),
            (badValue, expectAMCError { _ = try AMC.read(Gamer.self, from: badValue) }),
            (badValue, expectAMCError { _ = try AMCArchiver().read(from: badValue) }),
            (array, expectAMCError { _ = try AMC.dictionary(contentsOf: array) }),
            (malformed, expectAMCError { _ = try AMC.lenientRead(Gamer.self, from: malformed) }),
            (unwritable, expectAMCError { try AMC.write(dictionary: ["gap": NSNull()], to: unwritable) }),
            (unwritable, expectAMCError { try AMC.write(Unwritable(), to: unwritable) }),
        ]
        for (url, error) in failures {
            #expect(error?.file == url.path)
            #expect(error?.description.hasPrefix("In \(url.path)") == true, "\(String(describing: error))")
        }
        #expect(failures[2].1?.keyPath == "name")
        // Lenient reading lists its problems with the file too.
        let report = try AMC.lenientRead(Gamer.self, from: badValue)
        #expect(report.problems.map(\.error.file) == [badValue.path])
        // And no-throw mode reports the error naming it.
        let heard = swallowed(matching: "") { _ = try? AMC.read(Gamer.self, from: badValue) }
        #expect(heard.map(\.file) == [badValue.path])
    }
}

/// Exact numbers: what a long JSON number must read into without rounding.
final class ExactLedger: AMCCodable {
    var total = Int128(0)
    var unsigned = UInt128(0)
    var balance = Decimal(0)
    var count = UInt64(0)
    var ratio = 0.0
    var anything: Any?
    required init() {}
}

/// App settings read from a file, the environment and the command line.
final class AppSettings: AMCCodable {
    var port = 80
    var logLevel = "info"
    var server = ServerSettings()
    required init() {}
}

final class ServerSettings: AMCCodable {
    var host = "localhost"
    var timeout = 30.0
    required init() {}
}

/// A `let` between two `var`s: its problem is listed in its place.
final class Sheet: AMCCodable {
    var width = 0
    let kind = "sheet"
    var height = 0
    required init() {}
}

/// A view tree: objects and structs in arrays, reached by index.
final class Panel: AMCCodable {
    var subviews: [Panel] = []
    var frame = CGRect.zero
    var margins: [Margin] = []
    var title = ""
    required init() {}
}

struct Margin: AMCCodable {
    var width = 0.0
    var label = ""
}

/// A property that cannot be archived.
final class Unwritable: AMCCodable {
    var action: () -> Void = {}
    required init() {}
}
