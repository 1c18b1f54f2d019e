import Foundation

/// Lays a document out as an indented tree for `amc print`.
enum TreePrinter {
    /// `value`, found in the document `root` at `path`, after `indent` levels. Throws when the
    /// thread's stack has no room for a level more (see ``StackRoom``), and when the text grows
    /// past `limit` bytes.
    static func print(
        _ value: ArchiveValue, root: ArchiveValue, indent: Int, path: inout KeyPathTracker, to text: inout String,
        limit: Int = .max
    ) throws {
        let inner = String(repeating: "  ", count: indent + 1)
        switch value {
        case let .dictionary(dictionary) where ObjectReference.pointer(in: dictionary) != nil:
            text += link(to: ObjectReference.pointer(in: dictionary) ?? "", in: root)
        case let .dictionary(dictionary):
            let className = value.className
            if let className { text += "\(className) " }
            let entries = dictionary.entries.filter { className == nil || $0.key != "class" }
                .sorted { $0.key < $1.key }
            guard !entries.isEmpty else {
                text += "{}"
                return
            }
            try ArchiveValue.enter(indent, path: path, readBack: nil)
            text += "{\n"
            for entry in entries {
                text += inner + (isPlainKey(entry.key) ? entry.key : quoted(entry.key)) + " = "
                path.push(key: entry.key)
                defer { path.pop() }
                try print(entry.value, root: root, indent: indent + 1, path: &path, to: &text, limit: limit)
                text += "\n"
                if text.utf8.count > limit { throw path.error(.outputTooLarge(limit: limit)) }
            }
            text += String(repeating: "  ", count: indent) + "}"
        case let .array(elements):
            guard !elements.isEmpty else {
                text += "[]"
                return
            }
            try ArchiveValue.enter(indent, path: path, readBack: nil)
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += "\(inner)\(index): "
                path.push(index: index)
                defer { path.pop() }
                try print(element, root: root, indent: indent + 1, path: &path, to: &text, limit: limit)
                text += "\n"
                if text.utf8.count > limit { throw path.error(.outputTooLarge(limit: limit)) }
            }
            text += String(repeating: "  ", count: indent) + "]"
        case let .string(string): text += quoted(string)
        case let .int(int): text += String(int)
        case let .uint(uint): text += String(uint)
        case let .double(double): text += String(double)
        case let .longNumber(digits): text += digits
        case let .bool(bool): text += String(bool)
        case let .date(date):
            text += ISODate.described(date)
        case let .data(data):
            text +=
                "<\(data.count) bytes" + (data.isEmpty ? "" : ": ")
                + data.prefix(16).map { ByteText.hex($0).lowercased() }.joined() + (data.count > 16 ? "…>" : ">")
        case .null: text += "null"
        case let .foreign(box): text += "\(box.value)"
        }
    }

    /// A reference as a link to its target's place and class: `-> #/people/0 (Person)`.
    private static func link(to pointer: String, in root: ArchiveValue) -> String {
        guard let (target, _) = try? ObjectReference.target(of: pointer, in: root) else { return "-> \(pointer) (nothing there)" }
        return "-> \(pointer) (\(target.className ?? target.summary))"
    }

    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "-" }
    }

    private static func quoted(_ string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
