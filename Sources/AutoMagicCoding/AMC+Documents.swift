import Foundation

extension AMC {
    /// Converts a document from any of the three formats (told from its bytes) to `format`, as
    /// `plutil -convert` does: every value is kept, nothing is decoded into objects, so no class
    /// needs registering.
    ///
    /// ```swift
    /// let xml = try AMC.convert(jsonData, to: .xmlPropertyList)
    /// ```
    ///
    /// Throws ``AMCError`` for malformed data, and for what `format` cannot hold: JSON's null in a
    /// property list, infinity or NaN in JSON. Dates and data become strings in JSON.
    public static func convert(_ data: Data, to format: AMCFormat, options: AMCWriteOptions = .readable) throws -> Data {
        Data(try DocumentCodec.encode(try DocumentCodec.parse(data).value, format: format, options: options))
    }

    /// Checks that `data` is a well-formed document and says which format it is in, as `plutil
    /// -lint` does.
    ///
    /// ```swift
    /// try AMC.lint(data)   // .json, or an AMCError naming the line and column
    /// ```
    @discardableResult
    public static func lint(_ data: Data) throws -> AMCFormat {
        try DocumentCodec.parse(data).format
    }

    /// A readable tree of a document, as `plutil -p` prints one: a dictionary with a `"class"`
    /// shows as `ClassName { … }`, arrays number their elements.
    ///
    /// ```swift
    /// print(try AMC.printedTree(of: data))
    /// // Company {
    /// //   name = "Acme"
    /// //   offices = [
    /// //     0: Office {
    /// // …
    /// ```
    public static func printedTree(of data: Data) throws -> String {
        var text = ""
        TreePrinter.print(try DocumentCodec.parse(data).value, indent: 0, to: &text)
        return text + "\n"
    }
}

/// Lays a document out as an indented tree for `amc print`.
enum TreePrinter {
    static func print(_ value: ArchiveValue, indent: Int, to text: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        switch value {
        case let .dictionary(dictionary):
            let className = value.className
            if let className { text += "\(className) " }
            let entries = dictionary.entries.filter { className == nil || $0.key != "class" }
                .sorted { $0.key < $1.key }
            guard !entries.isEmpty else { return text += "{}" }
            text += "{\n"
            for entry in entries {
                text += inner + (isPlainKey(entry.key) ? entry.key : quoted(entry.key)) + " = "
                print(entry.value, indent: indent + 1, to: &text)
                text += "\n"
            }
            text += String(repeating: "  ", count: indent) + "}"
        case let .array(elements):
            guard !elements.isEmpty else { return text += "[]" }
            text += "[\n"
            for (index, element) in elements.enumerated() {
                text += "\(inner)\(index): "
                print(element, indent: indent + 1, to: &text)
                text += "\n"
            }
            text += String(repeating: "  ", count: indent) + "]"
        case let .string(string): text += quoted(string)
        case let .int(int): text += String(int)
        case let .uint(uint): text += String(uint)
        case let .double(double): text += String(double)
        case let .bool(bool): text += String(bool)
        case let .date(date): text += ISODate.string(from: date)
        case let .data(data):
            text += "<\(data.count) bytes" + (data.isEmpty ? "" : ": ")
                + data.prefix(16).map { JSONReader.hex($0).lowercased() }.joined() + (data.count > 16 ? "…>" : ">")
        case .null: text += "null"
        case let .foreign(box): text += "\(box.value)"
        }
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
