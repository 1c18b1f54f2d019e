import Foundation

// Every public declaration of the library has a documentation comment: reads the symbol graphs
// in the folder given (`swift package dump-symbol-graph`) and lists each symbol declared in
// Sources/AutoMagicCoding without one. Exit status 1 if any. (Members a conformance brings, such
// as `!=` or `hashValue`, are declared elsewhere and not counted.)
let folder = URL(fileURLWithPath: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : ".")
var undocumented: [String] = []
var counted = 0
for file in try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
where file.lastPathComponent.hasPrefix("AutoMagicCoding") && file.pathExtension == "json" {
    let graph = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    for symbol in graph["symbols"] as? [[String: Any]] ?? [] {
        let location = (symbol["location"] as? [String: Any])?["uri"] as? String ?? ""
        guard location.contains("/Sources/AutoMagicCoding/") else { continue }
        counted += 1
        let lines = ((symbol["docComment"] as? [String: Any])?["lines"] as? [[String: Any]]) ?? []
        if lines.allSatisfy({ ($0["text"] as? String ?? "").trimmingCharacters(in: .whitespaces).isEmpty }) {
            let path = (symbol["pathComponents"] as? [String] ?? []).joined(separator: ".")
            undocumented.append("\(URL(fileURLWithPath: location).lastPathComponent): \(path)")
        }
    }
}
guard counted > 0 else {
    print("doc-coverage: no symbols of AutoMagicCoding in \(folder.path)")
    exit(1)
}
if undocumented.isEmpty {
    print("doc-coverage: all \(counted) public declarations are documented")
} else {
    print("doc-coverage: \(undocumented.count) of \(counted) public declarations have no documentation comment:")
    for entry in undocumented.sorted() { print("  \(entry)") }
    exit(1)
}
