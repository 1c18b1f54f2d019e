import Foundation
import Testing

@testable import AutoMagicCoding

final class SnakeServer: AMCCodable {
    static var amcKeyNaming: AMCKeyNaming { .snakeCase }
    var maxRetries = 3
    var baseURL = ""
    var tlsPolicy = SnakePolicy()
    required init() {}
}

struct SnakePolicy: AMCCodable {
    static var amcKeyNaming: AMCKeyNaming { .snakeCase }
    var minVersion = "1.2"
    var allowsHTTP2 = true
}

final class KebabTheme: AMCCodable {
    static var amcKeyNaming: AMCKeyNaming { .kebabCase }
    var cornerRadius = 8.0
    var tintColor = AMCColor(red: 0, green: 0, blue: 0)
    required init() {}
}

final class PrefixedSettings: AMCCodable {
    static var amcKeyNaming: AMCKeyNaming { .prefix("BS") }
    var tintColor = ""
    var apiKey = ""
    // The per-property override still wins over the rule.
    static func amcKey(forProperty name: String) -> String { name == "apiKey" ? "API_KEY" : name }
    required init() {}
}

/// Follows the archiver's rule.
final class PlainServer: AMCCodable {
    var maxRetries = 3
    var requestTimeout = 30.0
    var backup: PlainServer?
    required init() {}
}

@Suite("Key naming rules")
struct KeyNamingTests {
    @Test(arguments: [
        ("maxRetries", "max_retries", "max-retries"), ("baseURL", "base_url", "base-url"),
        ("URLPath", "url_path", "url-path"), ("allowsHTTP2", "allows_http2", "allows-http2"),
        ("already_snake", "already_snake", "already-snake"), ("x", "x", "x"), ("userID", "user_id", "user-id"),
        ("größeMax", "größe_max", "größe-max"), ("ÉtatCourant", "état_courant", "état-courant"),
        ("naïveURLPath", "naïve_url_path", "naïve-url-path"), ("ΒάσηΤιμή", "βάση_τιμή", "βάση-τιμή"),
    ])
    func rulesSplitWordsAsSwiftNamesAreWritten(name: String, snake: String, kebab: String) {
        #expect(AMCKeyNaming.snakeCase.key(forProperty: name) == snake)
        #expect(AMCKeyNaming.kebabCase.key(forProperty: name) == kebab)
        #expect(AMCKeyNaming.prefix("BS").key(forProperty: name) == "BS" + name)
        #expect(AMCKeyNaming.propertyNames.key(forProperty: name) == name)
    }

    @Test(arguments: AMCFormat.allCases)
    func aTypesRuleNamesItsKeysBothWays(format: AMCFormat) throws {
        let server = SnakeServer()
        server.maxRetries = 5
        server.baseURL = "https://example.org"
        server.tlsPolicy.allowsHTTP2 = false
        let dictionary = try server.dictionaryRepresentation()
        #expect(Set(dictionary.keys) == ["class", "max_retries", "base_url", "tls_policy"])
        #expect(Set((dictionary["tls_policy"] as? [String: Any] ?? [:]).keys) == ["class", "min_version", "allows_http2"])
        let copy = try #require(try AMC.object(SnakeServer.self, from: try AMC.data(for: server, format: format)))
        #expect((copy.maxRetries, copy.baseURL, copy.tlsPolicy.allowsHTTP2) == (5, "https://example.org", false))

        let theme = try KebabTheme().dictionaryRepresentation()
        #expect(Set(theme.keys) == ["class", "corner-radius", "tint-color"])
        let settings = PrefixedSettings()
        settings.tintColor = "#336699"
        settings.apiKey = "secret"
        let prefixed = try settings.dictionaryRepresentation()
        #expect(Set(prefixed.keys) == ["class", "BStintColor", "API_KEY"])
        let back = try #require(try AMC.object(PrefixedSettings.self, from: try AMC.data(for: settings, format: format)))
        #expect((back.tintColor, back.apiKey) == ("#336699", "secret"))
    }

    @Test func decodingUnderARuleAlsoAcceptsThePropertysOwnName() throws {
        let server = try #require(try AMC.object(SnakeServer.self, from: ["maxRetries": 9, "base_url": "b"]))
        #expect((server.maxRetries, server.baseURL) == (9, "b"))
        // The rule's key wins where both are present.
        let both = try #require(try AMC.object(SnakeServer.self, from: ["maxRetries": 9, "max_retries": 4]))
        #expect(both.maxRetries == 4)
    }

    @Test func anArchiversRuleAppliesToTypesWithoutOne() throws {
        var archiver = AMCArchiver()
        archiver.keyNaming = .kebabCase
        let server = PlainServer()
        server.backup = PlainServer()
        server.backup?.requestTimeout = 5
        let dictionary = try archiver.dictionaryRepresentation(of: server)
        #expect(Set(dictionary.keys) == ["class", "max-retries", "request-timeout", "backup"])
        #expect((dictionary["backup"] as? [String: Any])?["request-timeout"] as? Double == 5)
        let copy = try #require(try archiver.object(PlainServer.self, from: dictionary))
        #expect(copy.backup?.requestTimeout == 5)
        // A type's own rule wins over the archiver's.
        #expect(Set(try archiver.dictionaryRepresentation(of: SnakeServer()).keys).contains("max_retries"))
        // Other archivers are not affected.
        #expect(Set(try PlainServer().dictionaryRepresentation().keys) == ["class", "maxRetries", "requestTimeout"])
    }

    @Test func configsAndStylesFollowTheRules() throws {
        let config = AMCConfig(dictionary: ["max_retries": "7", "tls_policy": ["allows_http2": "no"]])
        let server = try config.object(SnakeServer.self)
        #expect((server.maxRetries, server.tlsPolicy.allowsHTTP2, server.tlsPolicy.minVersion) == (7, false, "1.2"))

        var archiver = AMCArchiver()
        archiver.keyNaming = .snakeCase
        let plain = try AMCConfig(dictionary: ["request_timeout": 2.5], archiver: archiver).object(PlainServer.self)
        #expect(plain.requestTimeout == 2.5)

        let theme = KebabTheme()
        try theme.apply(style: ["corner-radius": "12", "tintColor": "#336699"])
        #expect(theme.cornerRadius == 12)
        #expect(theme.tintColor == (try AMC.value(AMCColor.self, from: "#336699")))
        let error = try #require(throws: AMCError.self) { try theme.apply(style: ["corner-radios": 1]) }
        #expect(error.description.contains("did you mean \"corner-radius\"?"))
    }

    @Test func twoPropertiesUnderOneKeyAreAnErrorNotADuplicateKey() throws {
        final class Clash: AMCCodable {
            static var amcKeyNaming: AMCKeyNaming { .snakeCase }
            var userID = 1
            var userId = 2
            required init() {}
        }
        let message =
            "At the root: Clash.userID and Clash.userId would both be written under \"user_id\": "
            + "give each its own key with amcKey(forProperty:)."
        #expect(throws: AMCError.self) { try AMC.data(for: Clash(), format: .json) }
        let encodeError = try #require(throws: AMCError.self) { try Clash().dictionaryRepresentation() }
        #expect(encodeError.description == message)
        let decodeError = try #require(throws: AMCError.self) { try AMC.object(Clash.self, from: ["user_id": 5]) }
        #expect(decodeError.description == message)
        let checkError = try #require(throws: AMCError.self) { try AMC.check(Clash.self) }
        guard case let .unarchivable(errors) = checkError.kind else {
            Issue.record("\(checkError)")
            return
        }
        #expect(errors.map(\.kind) == [.sharedKey(key: "user_id", typeName: "Clash", properties: ["userID", "userId"])])
        #expect(errors.map(\.keyPath) == ["user_id"])
    }
}
