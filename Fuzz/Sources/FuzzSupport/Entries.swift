import AutoMagicCoding
import Foundation

// The entry points added since the first campaign: lenient decoding, reference-heavy graphs,
// versions, configuration layers and document edits, each with what must hold for every input.

/// A graph whose objects point at each other in every ownership: nodes hold each other
/// strongly and weakly, and their owner (the document's root) unowned.
public final class FuzzNode: AMCCodable {
    public var name = ""
    public var next: FuzzNode?
    public var links: [FuzzNode] = []
    public var byKey: [String: FuzzNode] = [:]
    public weak var parent: FuzzNode?
    public unowned var owner: FuzzOwner = FuzzOwner.anchor
    public unowned(unsafe) var bare: FuzzOwner = FuzzOwner.anchor
    public required init() {}
}

public final class FuzzOwner: AMCCodable {
    public var name = ""
    public var nodes: [FuzzNode] = []
    public weak var favourite: FuzzNode?
    public required init() {}
    /// What `unowned` fields hold before decoding sets them (never freed).
    nonisolated(unsafe) public static let anchor = FuzzOwner()
}

/// A type at version 3 that renames and converts fields written by versions 1 and 2.
public final class FuzzVersioned: AMCCodable {
    public var title = ""
    public var size = 0
    public var tags: [String] = []
    public required init() {}
    public static var amcVersion: Int { 3 }
    public static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {
        if version < 2, let name = fields.removeValue(forKey: "name") { fields["title"] = name }
        if version < 3, let size = fields["size"] as? String { fields["size"] = Int(size) ?? 0 }
    }
}

/// Settings read from configuration layers.
public final class FuzzSettings: AMCCodable {
    public final class Server: AMCCodable {
        public var host = ""
        public var port = 0
        public required init() {}
    }
    public var server = Server()
    public var backup: Server?
    public var logLevel = "info"
    public var retries = 3
    public var tint = AMCColor(white: 0)
    public required init() {}
}

/// Every swallowed error, counted for the harness on this thread (libFuzzer runs one input at a time).
nonisolated(unsafe) private var reported = 0

private func listening() {
    if AMC.swallowedErrorHandler == nil { AMC.swallowedErrorHandler = { _ in reported += 1 } }
}

public enum Entries {
    /// Lenient decoding with unknown keys reported: it lists problems exactly when strict
    /// decoding throws or reports (unknown keys aside, which strict decoding ignores), and every
    /// problem prints.
    public static func fuzzLenient(_ data: Data) {
        FuzzModels.register()
        listening()
        reported = 0
        let strict = Result { try AMC.object(FuzzModel.self, from: data) }
        let strictReported = reported
        guard let lenient = try? AMC.lenientObject(FuzzModel.self, from: data, reportingUnknownKeys: true) else { return }
        for problem in lenient.problems { _ = "\(problem)" }
        let problems = lenient.problems.filter {
            if case .unusedKey = $0.error.kind { return false }
            return true
        }
        let strictFailed = (try? strict.get()) == nil || strictReported > 0
        invariant(
            problems.isEmpty == !strictFailed,
            "lenient decoding listed \(problems.count) problems; strict decoding \(strictFailed ? "failed" : "did not")"
                + ": \(problems.first.map { "\($0)" } ?? String(describing: strict))")
    }

    /// A graph decoded from the input writes, reads back and writes the same bytes again, and
    /// no field anywhere points at a freed object (AddressSanitizer watches).
    public static func fuzzGraph(_ data: Data) {
        AMC.register(FuzzNode.self, FuzzOwner.self)
        for format in [AMCFormat.json, .binaryPropertyList] {
            guard let node = try? AMC.object(FuzzOwner.self, from: data) else { continue }
            touch(node)
            guard let first = try? AMC.data(for: node, format: format, options: .readable) else { continue }
            let copy: FuzzOwner?
            do {
                copy = try AMC.object(FuzzOwner.self, from: first)
            } catch {
                return invariant(false, "our own \(format) does not read back: \(error)")
            }
            guard let copy else { return invariant(false, "our own \(format) reads back as nothing") }
            touch(copy)
            let second = try? AMC.data(for: copy, format: format, options: .readable)
            invariant(second == first, "a graph read back from our own \(format) writes other bytes")
        }
    }

    /// Reads every reference of the graph, so that a freed one is a report.
    private static func touch(_ owner: FuzzOwner) {
        var seen = Set<ObjectIdentifier>()
        var pending = owner.nodes + (owner.favourite.map { [$0] } ?? [])
        while let current = pending.popLast(), seen.insert(ObjectIdentifier(current)).inserted {
            _ = (current.parent?.name, current.owner.name, current.bare.name)
            pending += current.links + Array(current.byKey.values) + (current.next.map { [$0] } ?? [])
        }
    }

    /// Versions from the input's `$versions`: strict and lenient decoding never crash, and what
    /// decodes writes at the current version and reads back the same.
    public static func fuzzVersions(_ data: Data) {
        AMC.register(FuzzVersioned.self)
        _ = try? AMC.lenientObject(FuzzVersioned.self, from: data)
        guard let object = try? AMC.object(FuzzVersioned.self, from: data) else { return }
        guard let written = try? AMC.data(for: object, format: .json) else { return }
        let copy = try? AMC.object(FuzzVersioned.self, from: written)
        invariant(
            copy?.title == object.title && copy?.size == object.size && copy?.tags == object.tags,
            "a migrated object does not read back as written")
    }

    /// Configuration layers from the input: lines `NAME=value` are environment variables, lines
    /// starting `--` arguments, before a file layer. Strict and lenient decoding agree: lenient
    /// lists problems exactly when strict throws.
    public static func fuzzConfigLayers(_ data: Data) {
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        var environment: [String: String] = [:]
        var arguments: [String] = []
        for line in lines.prefix(64) {
            if line.hasPrefix("--") {
                arguments.append(String(line))
            } else if let equals = line.firstIndex(of: "=") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...])
            }
        }
        let defaults = AMCConfig(dictionary: ["server": ["host": "localhost", "port": 80], "logLevel": "info"])
        let config = AMCConfig(layers: [
            AMCConfig(arguments: arguments), AMCConfig(environment: environment, prefix: "FUZZ"), defaults,
        ])
        let strict = Result { try config.object(FuzzSettings.self) }
        guard let lenient = try? config.lenientObject(FuzzSettings.self) else { return }
        for problem in lenient.problems { _ = "\(problem)" }
        let strictFailed = (try? strict.get()) == nil
        invariant(
            lenient.problems.isEmpty == !strictFailed,
            "lenient config decoding listed \(lenient.problems.count) problems; strict \(strictFailed ? "threw" : "did not")"
                + ": \(lenient.problems.first.map { "\($0)" } ?? String(describing: strict))")
    }

    /// Edits of a document from the input: inserting a value and removing it again gives the
    /// document back, and every edit that succeeds on a document that lints leaves one that lints.
    public static func fuzzEdits(_ data: Data) {
        guard let document = try? AMCDocument(data: data), let original = try? document.data(format: .json),
            (try? AMC.lint(original)) != nil
        else { return }
        let keyPaths = ["a", "a.0", "items.0", "items.1", "team.0", "captain", "$objects.0", "x.y"]
        for keyPath in keyPaths {
            var edited = document
            guard (try? edited.insert(.string("inserted"), atKeyPath: keyPath)) != nil else { continue }
            guard let after = try? edited.data(format: .json) else {
                return invariant(false, "an edited document does not write")
            }
            invariant((try? AMC.lint(after)) != nil, "inserting at \(keyPath) made a document that does not lint")
            guard (try? edited.remove(atKeyPath: keyPath)) != nil else {
                return invariant(false, "what was inserted at \(keyPath) cannot be removed")
            }
            invariant(
                (try? edited.data(format: .json)) == original, "removing what was inserted at \(keyPath) changed the document")
        }
        for keyPath in keyPaths {
            var edited = document
            guard (try? edited.remove(atKeyPath: keyPath)) != nil else { continue }
            guard let after = try? edited.data(format: .json) else {
                return invariant(false, "an edited document does not write")
            }
            invariant((try? AMC.lint(after)) != nil, "removing \(keyPath) broke the document")
        }
    }
}
