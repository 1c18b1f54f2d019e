import Foundation
import Testing

/// `AMC` is `AMCArchiver` with the process-wide settings: every operation on objects that `AMC`
/// offers, an archiver offers with the same name and labels, so code can move from one to the
/// other. What only `AMC` has is listed here with its reason.
@Suite("AMC and AMCArchiver offer the same operations")
struct FacadeParityTests {
    /// `AMC` members with no archiver twin, on purpose.
    static let processWide: Set<String> = [
        // The process-wide registry and settings themselves (an archiver has `registry`, `noThrow`).
        "register(_:)", "register(_:formerNames:)", "withNoThrow(_:)",
        // Facts about types and the runtime, not settings.
        "check(_:)", "checkRuntime()", "inferredFieldType(of:forKey:)",
        "defaultEncodeStruct(_:named:)", "defaultDecodeStruct(_:named:)",
        // Documents without objects: no class is made, so no setting applies.
        "convert(_:to:options:textForDatesAndData:)", "lint(_:)", "printedTree(of:)",
        "write(dictionary:to:format:options:)", "dictionary(contentsOf:)", "write(data:to:)",
    ]

    @Test func everyOperationOnObjectsHasAnArchiverTwin() throws {
        let facade = try Self.signatures(static: true, in: ["enum AMC", "extension AMC "])
        let archiver = try Self.signatures(static: false, in: ["struct AMCArchiver", "extension AMCArchiver "])
        #expect(facade.count > 20 && archiver.count > 10)
        let missing = facade.subtracting(archiver).subtracting(Self.processWide)
        #expect(missing.isEmpty, "AMC has these, AMCArchiver does not: \(missing.sorted())")
        // The list above names only members that exist.
        #expect(Self.processWide.subtracting(facade).isEmpty, "\(Self.processWide.subtracting(facade).sorted())")
    }

    /// The public functions declared directly in the declarations whose first line starts with
    /// one of `openings` (`public static func` or `public func`), as `name(label:label:)`.
    static func signatures(static isStatic: Bool, in openings: [String]) throws -> Set<String> {
        let sources = FixtureFiles.packageRoot.appendingPathComponent("Sources/AutoMagicCoding")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
        let keyword = isStatic ? "    public static func " : "    public func "
        var found = Set<String>()
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            var inside = false
            var pending: String?
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                if !line.hasPrefix(" "), !line.isEmpty, !line.hasPrefix("}"), !line.hasPrefix("//") {
                    inside = openings.contains { line.hasPrefix($0) || line.hasPrefix("public " + $0) }
                }
                guard inside else { continue }
                if line.hasPrefix(keyword) { pending = "" }
                guard pending != nil else { continue }
                pending! += line + "\n"
                if let signature = signature(of: pending!) {
                    found.insert(signature)
                    pending = nil
                }
            }
        }
        return found
    }

    /// `name(label:label:)` of the declaration starting `text`, once its parameter list is whole.
    static func signature(of text: String) -> String? {
        guard let open = text.firstIndex(of: "("), let funcRange = text.range(of: "func ") else { return nil }
        let name = text[funcRange.upperBound..<open].prefix { $0 != "<" }
        var depth = 0
        var parameters: [String] = []
        var current = ""
        for character in text[text.index(after: open)...] {
            switch character {
            case ">" where current.last == "-": break  // an arrow, not a closing bracket
            case "(", "[", "<": depth += 1
            case ")" where depth == 0:
                if !current.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { parameters.append(current) }
                let labels = parameters.map { parameter in
                    String(parameter.trimmingCharacters(in: .whitespacesAndNewlines).prefix { $0 != " " && $0 != ":" }) + ":"
                }
                return name + "(" + labels.joined() + ")"
            case ")", "]", ">": depth -= 1
            case "," where depth == 0:
                parameters.append(current)
                current = ""
                continue
            default: break
            }
            current.append(character)
        }
        return nil
    }
}
