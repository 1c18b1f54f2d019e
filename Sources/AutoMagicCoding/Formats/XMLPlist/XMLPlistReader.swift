import Foundation

/// Parses an XML property list into a ``DocumentTape``: the plist elements, with comments,
/// processing instructions, a DOCTYPE, character and entity references and CDATA sections
/// wherever XML allows them, and nowhere else: what is not well-formed XML 1.0 (a malformed
/// declaration, DOCTYPE or tag, `--` in a comment, a second root) is refused, as XML requires of
/// every reader (see ``XMLScanner``). One exception, for Foundation's files: control characters
/// in text, which XML 1.0 cannot hold and Foundation writes as they are. UTF-8 (or ASCII), or
/// UTF-16 with a byte-order mark; errors with line and column.
struct XMLPlistReader {
    private typealias Slot = DocumentTape.Slot

    private var scanner: XMLScanner
    private var nesting = NestingDepth()
    private var tape: TapeBuilder
    /// Whether a dictionary read may be a reference (see ``ParsedDocument/holdsReferences``).
    private var holdsReferences = false

    private init(scanner: XMLScanner) {
        self.scanner = scanner
        // A value takes at least four bytes (`<a/>`); a key, with its value, at least eleven.
        tape = TapeBuilder(maximumSlots: scanner.bytes.count / 4 + 1, keys: .reused())
    }

    /// The document `data` holds, and whether it may hold references.
    static func parse(_ data: Data) throws -> (value: ArchiveValue, holdsReferences: Bool) {
        try XMLScanner.scanning(data) { scanner in
            var reader = XMLPlistReader(scanner: scanner)
            return (try reader.parseDocument(), reader.holdsReferences)
        }
    }

    /// The prolog, the root element (`<plist>` or a value), and nothing after it but `Misc`.
    private mutating func parseDocument() throws -> ArchiveValue {
        try scanner.readProlog()
        let start = scanner.position
        let tag = try scanner.openTag()
        if tag.name == "plist" {
            guard !tag.selfClosing else { throw scanner.error("the <plist> element is empty", at: start) }
            try scanner.skipMarkup()
            try parseValue()
            try scanner.skipMarkup()
            try scanner.closeTag("plist")
        } else {
            scanner.position = start
            try parseValue()
        }
        try scanner.expectEnd(after: "the property list")
        return tape.finish(source: scanner.bytes)
    }

    // MARK: - Elements

    /// Reads a value onto the tape.
    private mutating func parseValue() throws {
        let start = scanner.position
        let tag = try scanner.openTag()
        switch tag.name {
        case "dict": try parseDictionary(empty: tag.selfClosing)
        case "array": try parseArray(empty: tag.selfClosing)
        default: try parseScalar(tag, at: start)
        }
    }

    /// Reads the value of an element that is not a container onto the tape: apart from
    /// ``parseValue()``, whose frame every level of nesting takes.
    private mutating func parseScalar(_ tag: (name: String, selfClosing: Bool), at start: Int) throws {
        switch tag.name {
        case "string":
            tape.append(tag.selfClosing ? Slot(.text) : try contentSlot(of: "string"))
        case "true", "false":
            if !tag.selfClosing { try scanner.closeTag(tag.name) }
            tape.append(Slot(.bool, payload: tag.name == "true" ? 1 : 0))
        case "integer":
            let digits = try trimmedContent(of: tag)
            switch ScalarStrings.number(digits) {
            case let .int(value)?: tape.append(Slot(.int, payload: UInt64(bitPattern: value)))
            case let .uint(value)?: tape.append(Slot(.uint, payload: value))
            default:
                // Beyond 64 bits: its digits, for exact types to read (see ``ArchiveValue/longNumber(_:)``),
                // when they are written as JSON would write them.
                guard ScalarStrings.isInteger(digits) else { throw scanner.error("\"\(digits)\" is not an integer", at: start) }
                guard DecimalText.isJSONNumber(digits) else {
                    throw scanner.error("the integer \(digits) does not fit in 64 bits", at: start)
                }
                try appendLongNumber(digits, at: start)
            }
        case "real":
            let digits = try trimmedContent(of: tag)
            guard let real = Self.real(digits) else { throw scanner.error("\"\(digits)\" is not a real number", at: start) }
            // Kept as written when a double cannot hold it, as JSON keeps it: more digits than a
            // double tells apart, or an integer beyond a double's range (ours write long JSON
            // integers as <real>).
            let isLong =
                real.isFinite
                ? DecimalText.significantDigits(digits.utf8) > DecimalText.doubleDigits : ScalarStrings.isInteger(digits)
            if isLong, DecimalText.isJSONNumber(digits) {
                try appendLongNumber(digits, at: start)
            } else {
                tape.append(Slot(.double, payload: real.bitPattern))
            }
        case "date":
            let text = try trimmedContent(of: tag)
            guard let date = ISODate.date(from: text) else {
                throw scanner.error("\"\(text)\" is not an ISO 8601 date", at: start)
            }
            tape.append(Slot(.date, payload: date.timeIntervalSinceReferenceDate.bitPattern))
        case "data":
            guard let data = Self.base64(try trimmedContent(of: tag)) else {
                throw scanner.error("the <data> element is not base64", at: start)
            }
            guard let slot = tape.appendUnescaped(.data, data) else { throw scanner.error(TapeBuilder.tooLong(.data), at: start) }
            tape.append(slot)
        case "key":
            throw scanner.error("a <key> outside a <dict>", at: start)
        default:
            throw scanner.error("unknown element <\(tag.name)>", at: start)
        }
    }

    private mutating func parseDictionary(empty: Bool) throws {
        let open = tape.openCount
        guard !empty else { return try close(.dictionary, from: open) }
        try nesting.enter()
        defer { nesting.leave() }
        var repeated: Set<String>?
        while true {
            try scanner.skipMarkup()
            if scanner.isAtCloseTag {
                try scanner.closeTag("dict")
                if tape.isReference(from: open) { holdsReferences = true }
                return try close(.dictionary, from: open)
            }
            let start = scanner.position
            let tag = try scanner.openTag()
            guard tag.name == "key" else { throw scanner.error("expected <key> in a <dict>, found <\(tag.name)>", at: start) }
            let key = tape.key(tag.selfClosing ? Slot(.text) : try contentSlot(of: "key"), in: scanner.bytes)
            if tape.isRepeated(key, from: open, seen: &repeated) {
                throw scanner.error(RepeatedKeys.reason(tape.string(key)), at: start)
            }
            tape.append(key)
            try scanner.skipMarkup()
            guard !scanner.isAtCloseTag, !scanner.startsWith("<key>"), !scanner.startsWith("<key/>") else {
                throw scanner.error(
                    "the key \"\(tape.string(key))\" has no value: expected a value element, found \(scanner.found)")
            }
            try parseValue()
        }
    }

    private mutating func parseArray(empty: Bool) throws {
        let open = tape.openCount
        guard !empty else { return try close(.array, from: open) }
        try nesting.enter()
        defer { nesting.leave() }
        while true {
            try scanner.skipMarkup()
            if scanner.isAtCloseTag {
                try scanner.closeTag("array")
                return try close(.array, from: open)
            }
            try parseValue()
        }
    }

    private mutating func close(_ kind: Slot.Kind, from open: Int) throws {
        guard let container = tape.close(kind, from: open) else { throw scanner.error(TapeBuilder.overflow) }
        tape.append(container)
    }

    // MARK: - Text

    /// The text of ``XMLScanner/readContent(of:)`` as a string slot: the document's own bytes when they are the
    /// text as they are (no reference, CDATA section, comment or carriage return), else the
    /// text appended to the tape's.
    private mutating func contentSlot(of name: String) throws -> Slot {
        let start = scanner.position
        var end = scanner.position
        while end < scanner.bytes.count, case let byte = scanner.bytes[end], byte != UInt8(ascii: "<"), byte != UInt8(ascii: "&"),
            byte != ASCII.carriageReturn
        {
            end += 1
        }
        scanner.position = end
        if end < scanner.bytes.count, scanner.bytes[end] == UInt8(ascii: "<"), !scanner.startsWith("<![CDATA["),
            !scanner.startsWith("<!--")
        {
            try scanner.closeTag(name)
            guard let slot = TapeBuilder.slot(.text, start..<end) else {
                throw scanner.error(TapeBuilder.tooLong(.text), at: start)
            }
            return slot
        }
        scanner.position = start
        try scanner.readContent(of: name)
        guard let slot = tape.appendUnescaped(.unescaped, scanner.text) else {
            throw scanner.error(TapeBuilder.tooLong(.unescaped), at: start)
        }
        return slot
    }

    private mutating func trimmedContent(of tag: (name: String, selfClosing: Bool)) throws -> String {
        guard !tag.selfClosing else { return "" }
        try scanner.readContent(of: tag.name)
        return String(TextTrimming.trimmed(String(decoding: scanner.text, as: UTF8.self)))
    }

    /// The bytes of base64 text, which may be broken by XML white space (and only by that), padded
    /// with `=` at its end (and only there).
    private static func base64(_ text: String) -> Data? {
        var characters = Array(text.utf8)
        characters.removeAll { TextWhitespace.contains($0) }
        let padding = characters.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard characters.count % 4 == 0, padding <= 2,
            !characters.dropLast(padding).contains(UInt8(ascii: "="))
        else { return nil }
        return Data(base64Encoded: Data(characters))
    }

    /// Appends a number's `text` as a long number (see ``ArchiveValue/longNumber(_:)``).
    private mutating func appendLongNumber(_ text: String, at start: Int) throws {
        guard let slot = tape.appendUnescaped(.longNumber, text.utf8) else {
            throw scanner.error(TapeBuilder.tooLong(.longNumber), at: start)
        }
        tape.append(slot)
    }

    /// A `<real>`: decimal, or `nan`, `inf`, `+infinity`, `-infinity` as Foundation writes them.
    /// A NUL byte is refused first: `Double(_:)` reads a C string, so `"0.1\0junk"` would be 0.1.
    private static func real(_ text: String) -> Double? {
        guard !text.utf8.contains(0) else { return nil }
        // A digit first (after a minus) cannot start one of the words: no case folding.
        let utf8 = text.utf8
        if let first = utf8.first(where: { $0 != UInt8(ascii: "-") }), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) {
            return Double(text)
        }
        switch text.lowercased() {
        case "nan": return .nan
        case "inf", "+inf", "infinity", "+infinity": return .infinity
        case "-inf", "-infinity": return -.infinity
        default: return Double(text)
        }
    }
}
