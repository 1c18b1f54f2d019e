import Foundation
import Testing

@testable import AutoMagicCoding

final class DeployedSettings: AMCCodable {
    var server = DeployedServer()
    var tint = AMCColor(red: 0, green: 0, blue: 0)
    var cardSize = CGSize(width: 1, height: 1)
    var verbose = false
    required init() {}
}

final class DeployedServer: AMCCodable {
    var host = "localhost"
    var port = 80
    var maxRetries = 1
    required init() {}
}

@Suite("Config layers from the environment and the command line")
struct ConfigLayerTests {
    @Test func environmentAndArgumentsOverrideAFile() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = folder.file("settings.json")
        try Data(##"{"server": {"host": "files.example", "port": 81, "maxRetries": 2}, "tint": "#000000"}"##.utf8).write(to: file)
        // Set in this process, as a deployment would.
        setenv("AMCLAYERTEST_SERVER_PORT", "8080", 1)
        setenv("AMCLAYERTEST_SERVER_MAX_RETRIES", "5", 1)
        setenv("AMCLAYERTEST_TINT", "#336699", 1)
        setenv("AMCLAYERTEST_CARD_SIZE", "10, 20", 1)
        defer {
            for name in ["SERVER_PORT", "SERVER_MAX_RETRIES", "TINT", "CARD_SIZE"] { unsetenv("AMCLAYERTEST_" + name) }
        }
        let config = AMCConfig(layers: [
            AMCConfig(arguments: ["--server.host=cli.example", "--verbose", "positional", "-x", "--", "--server.port=1"]),
            AMCConfig(environment: ProcessInfo.processInfo.environment, prefix: "AMCLAYERTEST"),
            try AMCConfig(contentsOf: file),
        ])
        let settings = try config.object(DeployedSettings.self)
        #expect(settings.server.host == "cli.example")  // the command line, first layer
        #expect(settings.server.port == 8080)  // the environment, over the file
        #expect(settings.server.maxRetries == 5)
        #expect(settings.tint == (try AMC.value(AMCColor.self, from: "#336699")))
        #expect(settings.cardSize == CGSize(width: 10, height: 20))
        #expect(settings.verbose)

        #expect(try config.int(forKeyPath: "server.port") == 8080)
        #expect(try config.string(forKeyPath: "server.host") == "cli.example")
        let server = try #require(try config.value(DeployedServer.self, forKeyPath: "server"))
        #expect((server.host, server.port, server.maxRetries) == ("cli.example", 8080, 5))
    }

    @Test func variableNamesFollowTheKeyPathsWords() throws {
        let environment = ["APP_SERVER_MAX_RETRIES": "3", "APP_SERVER_PORT": "eighty", "OTHER_SERVER_PORT": "1", "APP_": "x"]
        let config = AMCConfig(environment: environment, prefix: "APP_")
        #expect(try config.int(forKeyPath: "server.maxRetries") == 3)
        #expect(try config.int(forKeyPath: "server.max_retries") == 3)
        #expect(try config.string(forKeyPath: "nothing") == nil)
        let error = try #require(throws: AMCError.self) { try config.int(forKeyPath: "server.port") }
        #expect(
            error.description == "In the environment variable APP_SERVER_PORT, at \"server.port\": "
                + "expected a number of type Int, found the string \"eighty\".")
        let objectError = try #require(throws: AMCError.self) { try config.object(DeployedSettings.self) }
        #expect(
            objectError.description == "In the environment variable APP_SERVER_PORT, at \"server.port\": "
                + "expected a number of type Int, found the string \"eighty\".")
    }

    @Test func argumentsTakeKeyPathsAsTheFileHasThem() throws {
        let config = AMCConfig(arguments: ["--server.port=9", "--server.port=10", "--name=a=b", "--flag", "--empty="])
        #expect(try config.int(forKeyPath: "server.port") == 10)  // the later one wins
        #expect(try config.string(forKeyPath: "name") == "a=b")
        #expect(try config.bool(forKeyPath: "flag") == true)
        #expect(try config.string(forKeyPath: "empty") == "")
        let error = try #require(throws: AMCError.self) {
            try AMCConfig(arguments: ["--server.port=x"]).object(DeployedSettings.self)
        }
        #expect(
            error.description == "In the command line, at \"server.port\": expected a number of type Int, found the string \"x\"."
        )
        // An absurdly long key path nests 64 levels at most (the rest stays one key): no deep recursion.
        let long = AMCConfig(arguments: ["--" + Array(repeating: "a", count: 100_000).joined(separator: ".") + "=1"])
        let levels = Array(repeating: "a", count: 63).joined(separator: ".")
        #expect(try long.value([String: String].self, forKeyPath: levels)?.values.first == "1")
    }

    @Test func aConfigReportsKeysNoPropertyReadsWithSuggestions() throws {
        let folder = try TemporaryFolder()
        defer { folder.cleanUp() }
        let file = folder.file("settings.plist")
        try AMC.write(dictionary: ["sever": ["host": "x"], "server": ["prot": 8, "port": "eight"], "verbose": true], to: file)
        let report = try AMCConfig(contentsOf: file).lenientObject(DeployedSettings.self)
        #expect(report.object.verbose)
        #expect(
            report.problems.map(\.description).sorted() == [
                "In \(file.path), at \"server.port\": expected a number of type Int, found the string \"eight\". (value: \"eight\")",
                "In \(file.path), at \"server.prot\": no property of DeployedServer reads the key \"prot\" — did you mean \"port\"? (value: 8)",
                "In \(file.path), at \"sever\": no property of DeployedSettings reads the key \"sever\" — did you mean \"server\"? (value: a dictionary)",
            ])
    }

    @Test func aPlainValueWhereAnObjectBelongsIsAnErrorNotALoss() throws {
        let config = AMCConfig(layers: [
            AMCConfig(arguments: ["--server=oops"]),
            AMCConfig(dictionary: ["server": ["host": "file.example", "port": 8000]]),
        ])
        let error = try #require(throws: AMCError.self) { try config.object(DeployedSettings.self) }
        #expect(
            error.description == "In the command line, at \"server\": expected a dictionary describing a DeployedServer, "
                + "found the string \"oops\".")
    }

    @Test func aWeakReferenceToTheConfigsRootFindsTheObjectBeingFilled() throws {
        final class Plugin: AMCCodable {
            weak var settings: PluginSettings?
            required init() {}
        }
        final class PluginSettings: AMCCodable {
            var volume = 1
            var plugins: [Plugin] = []
            required init() {}
        }
        let dictionary: [String: Any] = ["volume": "x", "plugins": [["class": "Plugin", "settings": ["$ref": "#"]]]]
        let report = try AMCConfig(dictionary: dictionary).lenientObject(PluginSettings.self)
        #expect(report.problems.map(\.keyPath) == ["volume"])
        #expect(report.object.plugins.first?.settings === report.object)
        var fixed = dictionary
        fixed["volume"] = "3"
        let settings = try AMCConfig(dictionary: fixed).object(PluginSettings.self)
        #expect(settings.plugins.first?.settings === settings)
        #expect(settings.volume == 3)
    }
}
