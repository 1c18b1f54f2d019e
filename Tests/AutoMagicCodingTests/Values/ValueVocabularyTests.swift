import Foundation
import Testing

@testable import AutoMagicCoding

// MARK: - Models for one rule per type

final class StyledLayer: AMCCodable {
    var cornerRadius = 0.0
    var borderWidth = 1.0
    required init() {}
}

final class StyledView: AMCCodable {
    var alpha = 1.0
    var isHidden = false
    var frame = CGRect.zero
    var layer = StyledLayer()
    var badge: StyledLayer?
    required init() {}
}

final class FixedParts: AMCCodable {
    let layer = StyledLayer()
    let card = Card()
    required init() {}
}

enum Tier: Int, CaseIterable {
    case low = 1
    case high
}

final class Endpoint: AMCCodable {
    var host = ""
    var port = 0
    required init() {}
}

final class ServiceConfig: AMCCodable {
    var tier = Tier.high
    var endpoints: [Endpoint] = []
    var home: URL?
    required init() {}
}

/// One property of type `T`, for the conversion table.
final class Box<T: TableValue>: AMCCodable {
    var value = T.placeholder
    required init() {}
}

protocol TableValue: Equatable { static var placeholder: Self { get } }
extension Int: TableValue { static var placeholder: Int { -1 } }
extension UInt8: TableValue { static var placeholder: UInt8 { 99 } }
extension Double: TableValue { static var placeholder: Double { -1 } }
extension Float: TableValue { static var placeholder: Float { -1 } }
extension CGFloat: TableValue { static var placeholder: CGFloat { -1 } }
extension Bool: TableValue { static var placeholder: Bool { false } }
extension String: TableValue { static var placeholder: String { "placeholder" } }
extension Character: TableValue { static var placeholder: Character { "?" } }
extension Date: TableValue { static var placeholder: Date { Date(timeIntervalSince1970: 0) } }
extension Data: TableValue { static var placeholder: Data { Data() } }
extension URL: TableValue { static var placeholder: URL { URL(string: "https://placeholder.example")! } }
extension UUID: TableValue { static var placeholder: UUID { UUID(uuidString: "00000000-0000-0000-0000-000000000000")! } }
extension CGPoint: TableValue { static var placeholder: CGPoint { CGPoint(x: -1, y: -1) } }
extension CGSize: TableValue { static var placeholder: CGSize { CGSize(width: -1, height: -1) } }
extension CGRect: TableValue { static var placeholder: CGRect { CGRect(x: -1, y: -1, width: -1, height: -1) } }
extension AMCEdgeInsets: TableValue { static var placeholder: AMCEdgeInsets { AMCEdgeInsets(top: -1) } }
extension AMCOffset: TableValue { static var placeholder: AMCOffset { AMCOffset(horizontal: -1) } }
extension AMCColor: TableValue { static var placeholder: AMCColor { AMCColor(white: 0.5) } }
extension AMCFont: TableValue { static var placeholder: AMCFont { AMCFont(name: "placeholder") } }
extension AMCImage: TableValue { static var placeholder: AMCImage { AMCImage(name: "placeholder") } }
extension AMCURLRequest: TableValue {
    static var placeholder: AMCURLRequest { AMCURLRequest(url: URL(string: "https://placeholder.example")!) }
}
extension AMCTextAlignment: TableValue { static var placeholder: AMCTextAlignment { .natural } }
extension AMCLineBreakMode: TableValue { static var placeholder: AMCLineBreakMode { .clip } }
extension Version: TableValue { static var placeholder: Version { Version(major: 0, minor: 0) } }
extension Optional: TableValue where Wrapped: TableValue { static var placeholder: Wrapped? { Wrapped.placeholder } }

/// What every entry point should make of one input: a value, or an error of one kind.
enum Outcome<T> {
    case value(T)
    case typeMismatch
    case outOfRange
    case hookFailed
}

/// One row of the conversion table: `input` (a string or a native value) for a property of type `T`.
struct Row<T: TableValue> {
    let input: Any?
    let expected: Outcome<T>
    /// What an archive makes of it, where that differs: archives refuse a Boolean for a number
    /// and a number for a Boolean, which configurations, styles and Key-Value Coding forgive.
    let archive: Outcome<T>?
    let line: Int

    init(_: T.Type, _ input: Any?, _ expected: Outcome<T>, archive: Outcome<T>? = nil, line: Int = #line) {
        self.input = input
        self.expected = expected
        self.archive = archive
        self.line = line
    }
}

protocol TableRow {
    /// Each entry point's result, by name: the value, or the error (kind and key path).
    func results() -> [(entry: String, result: Result<AnyHashableValue, AMCError>)]
    func matches(_ result: Result<AnyHashableValue, AMCError>, entry: String) -> Bool
    /// Whether archives have an outcome of their own for this input.
    var archiveDiffers: Bool { get }
    var label: String { get }
}

/// A value compared with `==` through its type.
struct AnyHashableValue: Equatable, CustomStringConvertible {
    let value: Any
    let equals: (Any) -> Bool
    static func == (a: Self, b: Self) -> Bool { a.equals(b.value) }
    var description: String { "\(value)" }
}

extension Row: TableRow {
    var label: String { "line \(line): \(T.self) from \(input.map { "\($0)" } ?? "nil")" }
    var archiveDiffers: Bool { archive != nil }

    func results() -> [(entry: String, result: Result<AnyHashableValue, AMCError>)] {
        func wrap(_ value: T) -> AnyHashableValue { AnyHashableValue(value: value) { ($0 as? T) == value } }
        func run(_ body: () throws -> T?) -> Result<AnyHashableValue, AMCError> {
            do {
                guard let value = try body() else { return .failure(AMCError(.missingClassName, keyPath: "nil result")) }
                return .success(wrap(value))
            } catch let error as AMCError {
                if case let .invalidStyle(errors) = error.kind, errors.count == 1 { return .failure(errors[0]) }
                return .failure(error)
            } catch {
                return .failure(AMCError(.hookFailed(hook: "test", typeName: "\(T.self)", reason: "\(error)")))
            }
        }
        let entry: [String: Any] = input.map { ["value": $0] } ?? ["value": NSNull()]
        var results: [(String, Result<AnyHashableValue, AMCError>)] = [
            ("archive", run { try AMC.object(Box<T>.self, from: entry)?.value }),
            (
                "setValue",
                run {
                    let box = Box<T>()
                    try box.setValue(input, forKey: "value")
                    return box.value
                }
            ),
            ("config value", run { try AMCConfig(dictionary: entry).value(T.self, forKeyPath: "value") }),
            ("config object", run { try AMCConfig(dictionary: entry).object(Box<T>.self).value }),
            (
                "style",
                run {
                    let box = Box<T>()
                    try box.apply(style: entry)
                    return box.value
                }
            ),
        ]
        if let string = input as? String {
            // AMC.value reads strings only, and has no key path of its own.
            results.append(
                (
                    "AMC.value",
                    run {
                        do { return try AMC.value(T.self, from: string) } catch let error as AMCError { throw error.at("value") }
                    }
                ))
        }
        return results
    }

    func matches(_ result: Result<AnyHashableValue, AMCError>, entry: String) -> Bool {
        switch (entry == "archive" ? archive ?? expected : expected, result) {
        case let (.value(value), .success(got)): return got.equals(value)
        case let (.typeMismatch, .failure(error)): if case .typeMismatch = error.kind { return true }
        case let (.outOfRange, .failure(error)): if case .valueOutOfRange = error.kind { return true }
        case let (.hookFailed, .failure(error)): if case .hookFailed = error.kind { return true }
        default: break
        }
        return false
    }
}

@Suite("One value vocabulary: archives, AMC.value, Key-Value Coding, configs and styles agree")
struct ValueVocabularyTests {
    // MARK: - The conversion table

    static var rows: [any TableRow] {
        [
            Row(Int.self, "42", .value(42)), Row(Int.self, "-7", .value(-7)), Row(Int.self, "0x1F", .value(31)),
            Row(Int.self, " 42\n", .value(42)), Row(Int.self, "yes", .value(1)), Row(Int.self, 42, .value(42)),
            Row(Int.self, 42.0, .value(42)), Row(Int.self, true, .value(1), archive: .typeMismatch),
            Row(Int.self, "12 apples", .typeMismatch),
            Row(Int.self, 1.5, .outOfRange), Row(Int.self, [1], .typeMismatch),
            Row(UInt8.self, "0x20", .value(32)), Row(UInt8.self, "300", .outOfRange), Row(UInt8.self, 300, .outOfRange),
            Row(UInt8.self, -1, .outOfRange),
            Row(Double.self, "12.5", .value(12.5)), Row(Double.self, "-1e-3", .value(-0.001)),
            Row(Double.self, "0x10", .value(16)),
            Row(Double.self, 3, .value(3)), Row(Double.self, "abc", .typeMismatch), Row(Double.self, "nan", .typeMismatch),
            Row(Float.self, "0.1", .value(0.1)), Row(Float.self, 0.1, .value(0.1)), Row(Float.self, 1e300, .outOfRange),
            Row(CGFloat.self, "2.5", .value(2.5)), Row(CGFloat.self, 2, .value(2)),
            Row(Bool.self, "yes", .value(true)), Row(Bool.self, "NO", .value(false)), Row(Bool.self, "true", .value(true)),
            Row(Bool.self, "off", .value(false)), Row(Bool.self, "On", .value(true)), Row(Bool.self, "1", .value(true)),
            Row(Bool.self, "0", .value(false)), Row(Bool.self, true, .value(true)),
            Row(Bool.self, 1, .value(true), archive: .typeMismatch), Row(Bool.self, 0, .value(false), archive: .typeMismatch),
            Row(Bool.self, 2, .outOfRange, archive: .typeMismatch), Row(Bool.self, "maybe", .typeMismatch),
            Row(Double.self, false, .value(0), archive: .typeMismatch),
            Row(String.self, "hello", .value("hello")), Row(String.self, "", .value("")), Row(String.self, 5, .typeMismatch),
            Row(Character.self, "x", .value("x")), Row(Character.self, "xy", .typeMismatch),
            Row(Date.self, "2024-05-17T09:30:00Z", .value(Date(timeIntervalSince1970: 1_715_938_200))),
            Row(Date.self, Date(timeIntervalSince1970: 5), .value(Date(timeIntervalSince1970: 5))),
            Row(Date.self, "yesterday", .typeMismatch),
            Row(Data.self, "aGk=", .value(Data("hi".utf8))), Row(Data.self, Data([1, 2]), .value(Data([1, 2]))),
            Row(Data.self, "***", .typeMismatch),
            Row(URL.self, "https://example.com/a", .value(URL(string: "https://example.com/a")!)),
            Row(URL.self, "/tmp/x y", .value(URL(fileURLWithPath: "/tmp/x y"))),
            Row(URL.self, "docs/a.txt", .value(URL(string: "docs/a.txt", relativeTo: AMC.baseURL)!)),
            Row(URL.self, URL(string: "https://a.example")!, .value(URL(string: "https://a.example")!)),
            Row(URL.self, 7, .typeMismatch),
            Row(
                UUID.self, "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
                .value(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)),
            Row(UUID.self, "nope", .typeMismatch),
            Row(CGPoint.self, "{10, 20}", .value(CGPoint(x: 10, y: 20))),
            Row(CGPoint.self, "10 20", .value(CGPoint(x: 10, y: 20))),
            Row(CGPoint.self, CGPoint(x: 1, y: 2), .value(CGPoint(x: 1, y: 2))), Row(CGPoint.self, "{10}", .typeMismatch),
            Row(CGSize.self, "100 , 300", .value(CGSize(width: 100, height: 300))),
            Row(CGSize.self, "-200 x 50", .value(CGSize(width: -200, height: 50))),
            Row(CGSize.self, "20 ; 5", .value(CGSize(width: 20, height: 5))),
            Row(CGSize.self, "10,\r20", .value(CGSize(width: 10, height: 20))),
            Row(CGSize.self, "10\u{A0}20", .value(CGSize(width: 10, height: 20))),
            Row(CGRect.self, "10, 20, 300, 400", .value(CGRect(x: 10, y: 20, width: 300, height: 400))),
            Row(CGRect.self, "{{1, 2}, {3, 4}}", .value(CGRect(x: 1, y: 2, width: 3, height: 4))),
            Row(CGRect.self, "{{1.0, 2.0}, {3.0, 4.0}}", .value(CGRect(x: 1, y: 2, width: 3, height: 4))),
            Row(CGRect.self, 5, .typeMismatch),
            Row(AMCEdgeInsets.self, "{1, 2, 3, 4}", .value(AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))),
            Row(AMCEdgeInsets.self, "3 ; 6 ; 4 ; 2", .value(AMCEdgeInsets(top: 3, left: 6, bottom: 4, right: 2))),
            Row(AMCEdgeInsets.self, "1, 2, 3", .typeMismatch),
            Row(AMCOffset.self, "10 5", .value(AMCOffset(horizontal: 10, vertical: 5))),
            Row(AMCColor.self, "#ff000080", .value(AMCColor(red: 1, green: 0, blue: 0, alpha: 128 / 255))),
            Row(AMCColor.self, "red", .value(AMCColor(red: 1, green: 0, blue: 0))),
            Row(AMCColor.self, "rebeccapurple", .value(AMCColor(red: 0x66 / 255, green: 0x33 / 255, blue: 0x99 / 255))),
            Row(AMCColor.self, "rgb(255,128,0)", .value(AMCColor(red: 1, green: 128 / 255, blue: 0))),
            Row(AMCColor.self, "255,\t128, 0, 0.75", .value(AMCColor(red: 1, green: 128 / 255, blue: 0, alpha: 0.75))),
            Row(AMCColor.self, "color(srgb 1 0.5 0 / 0.4)", .value(AMCColor(red: 1, green: 0.5, blue: 0, alpha: 0.4))),
            Row(AMCColor.self, "#ff00", .typeMismatch),
            Row(AMCFont.self, "helvetica 17", .value(AMCFont(name: "helvetica", size: 17))),
            Row(AMCFont.self, "bold\u{2003}15", .value(AMCFont(size: 15, isBold: true))),
            Row(
                AMCImage.self, "image.png 5, 10",
                .value(AMCImage(name: "image.png", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10)))),
            Row(AMCImage.self, "night sky.png", .value(AMCImage(name: "night sky.png"))),
            Row(AMCImage.self, "a.png 1 2 3", .typeMismatch),
            Row(
                AMCURLRequest.self, "POST https://example.com/items",
                .value(AMCURLRequest(method: "POST", url: URL(string: "https://example.com/items")!))),
            Row(AMCTextAlignment.self, "NSTextAlignmentCenter", .value(.center)),
            Row(AMCTextAlignment.self, "justified", .value(.justified)),
            Row(AMCLineBreakMode.self, "truncateTail", .value(.truncateTail)),
            Row(Priority.self, "high", .value(.high)), Row(Priority.self, "10", .value(.high)),
            Row(Priority.self, 10, .value(.high)),
            Row(Priority.self, "PriorityLow", .value(.low)), Row(Priority.self, "urgent", .typeMismatch),
            Row(Priority.self, 3, .typeMismatch),
            Row(Mode.self, "model", .value(.model)), Row(Mode.self, "Plain", .value(.plain)), Row(Mode.self, 1, .typeMismatch),
            Row(Autoresizing.self, "flexibleWidth flexibleHeight", .value([.flexibleWidth, .flexibleHeight])),
            Row(Autoresizing.self, "none", .value([])), Row(Autoresizing.self, 3, .value([.flexibleWidth, .flexibleHeight])),
            Row(Autoresizing.self, "wobbly", .typeMismatch),
            Row(Version.self, "2.1", .value(Version(major: 2, minor: 1))), Row(Version.self, "x", .hookFailed),
            Row(Int?.self, "", .value(nil)), Row(Int?.self, "5", .value(5)),
            Row(String?.self, "", .value("")), Row(AMCColor?.self, " ", .value(nil)),
        ]
    }

    @Test func everyEntryPointGivesTheSameValueOrTheSameError() {
        for row in Self.rows {
            let results = row.results()
            for (entry, result) in results {
                #expect(row.matches(result, entry: entry), "\(row.label): \(entry) gave \(result)")
            }
            // Not only the same kind of error: the same error, at the same key path.
            let failures = results.compactMap { entry -> AMCError? in
                if row.archiveDiffers, entry.entry == "archive" { return nil }
                if case let .failure(error) = entry.result { return error }
                return nil
            }
            #expect(Set(failures.map(\.description)).count <= 1, "\(row.label): \(failures.map(\.description))")
            #expect(results.count >= 5)
        }
    }

    // MARK: - The six disagreements, each once

    /// 1. A style is checked and applied by one conversion, so what the check accepts is applied
    /// and what it refuses is refused before anything changes.
    @Test func aStyleAppliesWhatItsCheckAcceptsAndNothingElse() throws {
        let view = StyledView()
        try view.apply(style: ["alpha": 0.25, "isHidden": 1])
        #expect(view.alpha == 0.25 && view.isHidden)

        let before = try view.dictionaryRepresentation()
        let refused = expectAMCError { try view.apply(style: ["alpha": 0.5, "isHidden": 2]) }
        guard case let .invalidStyle(errors)? = refused?.kind else {
            Issue.record("expected invalidStyle, got \(String(describing: refused))")
            return
        }
        #expect(errors == [AMCError(.valueOutOfRange(value: "2", typeName: "Bool"), keyPath: "isHidden")])
        #expect(Canonical.text(try view.dictionaryRepresentation()) == Canonical.text(before))

        // A nested dictionary sets properties of the object already there, and only those.
        let layer = view.layer
        try view.apply(style: ["layer": ["cornerRadius": 4]])
        #expect(view.layer === layer && layer.cornerRadius == 4 && layer.borderWidth == 1)
        let nestedError = expectAMCError { try view.apply(style: ["alpha": 0.1, "layer": ["cornerRadius": "round"]]) }
        guard case let .invalidStyle(nested)? = nestedError?.kind else {
            Issue.record("expected invalidStyle, got \(String(describing: nestedError))")
            return
        }
        #expect(nested.map(\.keyPath) == ["layer.cornerRadius"])
        #expect(view.alpha == 0.25 && layer.cornerRadius == 4)
        // An object held in a `let` is changed in place; a struct in a `let` cannot be.
        let fixed = FixedParts()
        try fixed.apply(style: ["layer": ["cornerRadius": 3]])
        #expect(fixed.layer.cornerRadius == 3)
        #expect(
            expectAMCError { try fixed.apply(style: ["card": ["corner": 3]]) }.map { error -> [AMCError] in
                guard case let .invalidStyle(errors) = error.kind else { return [] }
                return errors
            } == [AMCError(.readOnlyKey(key: "card", typeName: "FixedParts"), keyPath: "card")])
        // Where there is no object yet, the dictionary makes one.
        try view.apply(style: ["badge": ["cornerRadius": 9]])
        #expect(view.badge?.cornerRadius == 9 && view.badge?.borderWidth == 1)

        // A number for a Bool: forgiven in Key-Value Coding, styles and configs; an archive
        // refuses it, as `Codable` does.
        #expect(expectAMCError { _ = try AMC.object(StyledView.self, from: ["isHidden": 1]) }?.keyPath == "isHidden")
        let other = StyledView()
        try other.setValue(1, forKey: "isHidden")
        #expect(other.isHidden)
        #expect(try AMCConfig(dictionary: ["isHidden": 1]).object(StyledView.self).isHidden)
        #expect(try AMCConfig(dictionary: ["flag": 0]).bool(forKeyPath: "flag") == false)
    }

    /// 2. `apply(styles: [a, b])` is `a`, then `b`.
    @Test func stylesApplyInOrder() throws {
        let narrow: [String: Any] = ["frame.size.width": 50]
        let whole: [String: Any] = ["frame": "0, 0, 10, 10"]
        for pair in [[narrow, whole], [whole, narrow]] {
            let together = StyledView()
            try together.apply(styles: pair)
            let oneByOne = StyledView()
            for style in pair { try oneByOne.apply(style: style) }
            #expect(together.frame == oneByOne.frame)
        }
        let view = StyledView()
        try view.apply(styles: [narrow, whole])
        #expect(view.frame.size.width == 10)
        try view.apply(styles: [whole, narrow])
        #expect(view.frame.size.width == 50)
        // Still checked as a whole: a bad later style changes nothing from an earlier one.
        #expect(expectAMCError { try view.apply(styles: [["alpha": 0.3], ["frame": "wide"]]) } != nil)
        #expect(view.alpha == 1)
    }

    /// 3. Archives accept what configs accept: enum names, arrays of objects, relative URLs.
    @Test func archivesConfigsAndStringsReadTheSameValues() throws {
        #expect(try AMC.object(ServiceConfig.self, from: ["tier": "low"])?.tier == .low)
        #expect(try AMCConfig(dictionary: ["tier": "low"]).object(ServiceConfig.self).tier == .low)
        #expect(try AMC.value(Tier.self, from: "low") == .low)
        // Whatever the wrong value, the error lists the names.
        let names = "one of \"low\", \"high\" for Tier"
        #expect(
            expectAMCError { _ = try AMC.object(ServiceConfig.self, from: ["tier": "top"]) }?.kind
                == .typeMismatch(expected: names, found: "the string \"top\""))
        #expect(
            expectAMCError { _ = try AMC.object(ServiceConfig.self, from: ["tier": ["a": 1]]) }?.kind
                == .typeMismatch(expected: names, found: "a dictionary"))

        let endpoints: [String: Any] = ["endpoints": [["host": "a.example", "port": 80], ["host": "b.example", "port": "443"]]]
        let fromConfig = try AMCConfig(dictionary: endpoints).object(ServiceConfig.self)
        let fromArchive = try #require(try AMC.object(ServiceConfig.self, from: endpoints))
        #expect(fromConfig.endpoints.map(\.port) == [80, 443] && fromArchive.endpoints.map(\.port) == [80, 443])
        #expect(
            try AMCConfig(dictionary: endpoints).value([Endpoint].self, forKeyPath: "endpoints")?.map(\.host)
                == ["a.example", "b.example"])
        // An object from a nested dictionary is filled as itself (the fuzzer's config crash).
        let one = try AMCConfig(dictionary: ["child": ["port": 42, "host": "x"]]).value(Endpoint.self, forKeyPath: "child")
        #expect(one?.port == 42 && one?.host == "x")

        var archiver = AMCArchiver()
        archiver.baseURL = URL(fileURLWithPath: "/srv/assets", isDirectory: true)
        let expected = URL(string: "docs/a.txt", relativeTo: archiver.baseURL)
        #expect(try archiver.object(ServiceConfig.self, from: ["home": "docs/a.txt"])?.home == expected)
        #expect(try AMCConfig(dictionary: ["home": "docs/a.txt"], archiver: archiver).object(ServiceConfig.self).home == expected)
        #expect(try archiver.value(URL.self, from: "docs/a.txt") == expected)
        #expect(expected?.path == "/srv/assets/docs/a.txt")
    }

    /// 4. White space is one thing in every value string.
    @Test func whiteSpaceMeansTheSameInEveryValueString() throws {
        for space in [" ", "\t", "\n", "\r", "\u{0B}", "\u{0C}", "\u{A0}", "\u{2003}", "\u{3000}"] {
            #expect(
                try AMC.value(CGSize.self, from: "10,\(space)20") == CGSize(width: 10, height: 20),
                "\(space.unicodeScalars.first!.value)")
            #expect(try AMC.value(CGSize.self, from: "10\(space)20") == CGSize(width: 10, height: 20))
            #expect(try AMC.value(CGRect.self, from: "{{1,\(space)2},\(space){3, 4}}") == CGRect(x: 1, y: 2, width: 3, height: 4))
            #expect(
                try AMC.value(AMCEdgeInsets.self, from: "1\(space)2\(space)3\(space)4")
                    == AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
            #expect(try AMC.value(AMCColor.self, from: "255,\(space)0, 0") == AMCColor(red: 1, green: 0, blue: 0))
            #expect(try AMC.value(AMCColor.self, from: "\(space)red\(space)") == AMCColor(red: 1, green: 0, blue: 0))
            #expect(try AMC.value(AMCFont.self, from: "bold\(space)15") == AMCFont(size: 15, isBold: true))
            #expect(
                try AMC.value(Autoresizing.self, from: "flexibleWidth\(space)flexibleHeight") == [
                    .flexibleWidth, .flexibleHeight,
                ])
            #expect(
                try AMC.value(AMCImage.self, from: "a.png\(space)5,\(space)10").capInsets
                    == AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10))
            #expect(try AMC.value(Int.self, from: "\(space)42\(space)") == 42)
            #expect(try AMC.value(AMCURLRequest.self, from: "POST\(space)https://example.com").method == "POST")
        }
        // Not white space: a zero-width space is part of the value.
        #expect(expectAMCError { _ = try AMC.value(CGSize.self, from: "10\u{200B}20") } != nil)
    }

    /// 5. Image names may hold spaces; the caps are the numbers at the end.
    @Test func imageNamesMayHoldSpaces() throws {
        #expect(try AMC.value(AMCImage.self, from: "night sky.png") == AMCImage(name: "night sky.png"))
        let beach = try AMC.value(AMCImage.self, from: "/Library/Desktop Pictures/Beach.jpg 5, 10")
        #expect(
            beach
                == AMCImage(
                    name: "/Library/Desktop Pictures/Beach.jpg", capInsets: AMCEdgeInsets(top: 5, left: 10, bottom: 5, right: 10))
        )
        #expect(
            try AMC.value(AMCImage.self, from: "photo 2024.png 1 2 3 4").capInsets
                == AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4))
        #expect(try AMC.value(AMCImage.self, from: "photo 2024.png").name == "photo 2024.png")
        // Trailing numbers that are no caps (three of them) are an error, not part of the name.
        #expect(expectAMCError { _ = try AMC.value(AMCImage.self, from: "a.png 1 2 3") } != nil)
        for image in [beach, AMCImage(name: "night sky.png")] {
            #expect(try AMC.value(AMCImage.self, from: image.amcStringValue) == image)
        }
    }

    /// 6. Every error that comes from a file names it.
    @Test func configParseErrorsNameTheFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let url = folder.file("Theme.json")
        try Data(##"{"tint": "#ff0000",}"##.utf8).write(to: url)
        let opening = expectAMCError { _ = try AMCConfig(contentsOf: url) }
        #expect(opening?.file == url.path)
        #expect(opening?.description.hasPrefix("In \(url.path): Malformed JSON at line 1") == true)

        try Data(##"{"tint": "#ff0000"}"##.utf8).write(to: url)
        let config = try AMCConfig(contentsOf: url)
        try Data(##"{"tint": "#00ff00""##.utf8).write(to: url)
        #expect(expectAMCError { try config.reload() }?.file == url.path)

        let layered = AMCConfig(layers: [config])
        try Data(#"{"tint": [1,}"#.utf8).write(to: url)
        let sink = SwallowedErrors()
        AMC.installTestHandler()
        let reloaded = TestHandler.$current.withValue(sink) { layered.reloadIfChanged() }
        #expect(!reloaded)
        #expect(sink.all.map(\.file) == [url.path])
        #expect(try layered.color(forKeyPath: "tint") == AMCColor(red: 1, green: 0, blue: 0))  // the last good values
    }

    // MARK: - Settings as values

    @Test func twoArchiversWithTheirOwnRegistriesAndSettings() throws {
        let notes = AMCRegistry()
        notes.register(Endpoint.self)
        var strict = AMCArchiver()
        strict.registry = AMCRegistry()
        var lenient = AMCArchiver()
        lenient.registry = notes
        lenient.noThrow = true
        let data: [String: Any] = ["class": "Endpoint", "host": "a", "port": 1]
        #expect(expectAMCError { _ = try strict.object(from: data) }?.kind == .unregisteredClass(className: "Endpoint"))
        #expect((try lenient.object(from: data) as? Endpoint)?.host == "a")
        #expect(try lenient.object(from: ["class": "Nope"]) == nil)  // no-throw for this archiver only
        #expect(expectAMCError { _ = try AMC.object(from: ["class": "Nope"]) } != nil)

        var shallow = AMCArchiver()
        shallow.maximumDepth = 2
        let nested: [String: Any] = ["endpoints": [["host": "a"]]]
        #expect(try AMCArchiver().object(ServiceConfig.self, from: nested)?.endpoints.count == 1)
        #expect(expectAMCError { _ = try shallow.object(ServiceConfig.self, from: nested) }?.kind == .nestingTooDeep(limit: 2))

        let endpoint = Endpoint()
        endpoint.host = "h"
        let json = try lenient.data(for: endpoint, format: .json)
        #expect(try lenient.object(Endpoint.self, from: json)?.host == "h")
    }
}

extension Priority: TableValue { static var placeholder: Priority { .low } }
extension Mode: TableValue { static var placeholder: Mode { .plain } }
extension Autoresizing: TableValue { static var placeholder: Autoresizing { [.flexibleTopMargin] } }
