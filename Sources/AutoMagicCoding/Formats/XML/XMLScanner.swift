import Foundation

/// The lexical layer of XML the package reads (property lists, markup): a document's bytes as
/// UTF-8 (UTF-16 with a byte-order mark transcoded), its declaration and DOCTYPE checked, then
/// tags, attributes, text with references resolved and CDATA taken literally, comments and
/// processing instructions, each refused where it is not well-formed XML 1.0; errors with line
/// and column. What the elements mean is the reader's.
///
/// ```swift
/// try XMLScanner.scanning(data) { scanner in
///     try scanner.readProlog()
///     let tag = try scanner.openTag()       // ("plist", selfClosing: false)
///     // ... the reader's elements ...
///     try scanner.expectEnd(after: "the property list")
/// }
/// ```
struct XMLScanner {
    let bytes: ByteView
    /// Whether the document was UTF-16, transcoded to the UTF-8 in `bytes`.
    let isUTF16: Bool
    var position = 0
    /// The text ``readContent(of:)`` read last.
    var text: [UInt8] = []

    private init(bytes: ByteView, isUTF16: Bool) {
        self.bytes = bytes
        self.isUTF16 = isUTF16
    }

    /// Runs `body` with a scanner at the start of `data`'s document (after a UTF-8 byte-order
    /// mark); a UTF-16 document (with its byte-order mark) is transcoded to UTF-8 first.
    static func scanning<Result>(_ data: Data, _ body: (inout XMLScanner) throws -> Result) throws -> Result {
        guard let bigEndian = UTF16Text.isBigEndian(data) else {
            return try ByteView.withBytes(of: data) { bytes in
                var scanner = XMLScanner(bytes: bytes, isUTF16: false)
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { scanner.position = 3 }
                return try body(&scanner)
            }
        }
        let utf8: [UInt8]
        do throws(UTF16Text.Failure) {
            utf8 = try UTF16Text.utf8(from: data, bigEndian: bigEndian)
        } catch {
            throw AMCError(.malformedData(format: .xmlPropertyList, location: .byteOffset(error.offset), reason: error.reason))
        }
        return try ByteView.withBytes(of: Data(utf8)) { bytes in
            var scanner = XMLScanner(bytes: bytes, isUTF16: true)
            return try body(&scanner)
        }
    }

    /// `XMLDecl? Misc* (doctypedecl Misc*)?`, up to the root element, where `Misc` is comments,
    /// processing instructions and white space. The bytes are checked as UTF-8 after the
    /// declaration, so that a document in another encoding is refused for what it says it is.
    mutating func readProlog() throws {
        try readDeclaration()
        try skipMarkup()
        if startsWith("<!DOCTYPE") {
            try readDoctype()
            try skipMarkup()
        }
    }

    /// The XML declaration, when the document starts with one, then the check that the bytes
    /// are UTF-8.
    mutating func readDeclaration() throws {
        if startsWith("<?xml"), position + 5 < bytes.count, TextWhitespace.contains(bytes[position + 5]) {
            try parseDeclaration()
        }
        if !isUTF16, let invalid = UTF8Validation.firstInvalidOffset(in: bytes) {
            throw error("invalid UTF-8 (byte 0x\(ByteText.hex(bytes[invalid])))", at: invalid)
        }
    }

    /// `Misc*` to the end of the data, after the root element: `what` names the root's content
    /// for the error.
    mutating func expectEnd(after what: String) throws {
        try skipMarkup()
        guard position == bytes.count else { throw error("unexpected \(found) after \(what)") }
    }

    // MARK: - Tags

    /// `<name attributes…>` or `<name/>`; the attributes (`version="1.0"` on `<plist>`) are
    /// checked and left out.
    mutating func openTag() throws -> (name: String, selfClosing: Bool) {
        let name = try tagName()
        var selfClosing = false
        while try nextAttribute(ofTag: name, selfClosing: &selfClosing) != nil {}
        return (bytes.string(name), selfClosing)
    }

    /// The `<` and name of a start tag: the name's bytes. Its attributes follow
    /// (``nextAttribute(ofTag:selfClosing:)``).
    mutating func tagName() throws -> Range<Int> {
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw error("expected an element, found \(found)")
        }
        position += 1
        let name = readNameBytes()
        guard !name.isEmpty else { throw error("expected an element name, found \(found)") }
        return name
    }

    /// The next attribute of the start tag whose name's bytes are `tag`: the bytes of its name,
    /// of its value between the quotes (see ``attributeValue(_:)``) and the offset of its name;
    /// nil at the tag's end, with `selfClosing` set for `/>`.
    mutating func nextAttribute(ofTag tag: Range<Int>, selfClosing: inout Bool) throws -> (
        name: Range<Int>, value: Range<Int>, offset: Int
    )? {
        let spaced = skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: ">") {
            position += 1
            return nil
        }
        if consume("/>") {
            selfClosing = true
            return nil
        }
        let bytes = bytes
        guard position < bytes.count else { throw error("unterminated <\(bytes.string(tag))> tag") }
        guard spaced else {
            throw error("expected white space, \">\" or \"/>\" in the <\(bytes.string(tag))> tag, found \(found)")
        }
        let offset = position
        let (name, value) = try parseAttribute(in: "the <\(bytes.string(tag))> tag")
        return (name, value, offset)
    }

    /// Whether the attribute value whose bytes are `range` is its bytes as they are: no
    /// reference, no white space to normalise, no control character.
    func isPlainAttributeValue(_ range: Range<Int>) -> Bool {
        let value = bytes.view(range)
        return value.end(ofRunFrom: 0, { $0 >= ASCII.space && $0 != UInt8(ascii: "&") }) == value.count
    }

    /// An attribute's value whose bytes between the quotes are `range`, when they are not plain
    /// (see ``isPlainAttributeValue(_:)``, whose bytes are the value as they are): references
    /// resolved, and each white-space character a space (a carriage return and line feed one),
    /// as XML normalises attribute values.
    mutating func normalizedAttributeValue(_ range: Range<Int>) throws -> String {
        let resumeAt = position
        defer { position = resumeAt }
        text.removeAll(keepingCapacity: true)
        position = range.lowerBound
        var runStart = position
        while position < range.upperBound {
            let byte = bytes[position]
            guard byte == UInt8(ascii: "&") || byte == ASCII.tab || byte == ASCII.lineFeed || byte == ASCII.carriageReturn else {
                position += 1
                continue
            }
            bytes.append(runStart..<position, to: &text)
            if byte == UInt8(ascii: "&") {
                try parseReference()
            } else {
                text.append(ASCII.space)
                position += 1
                if byte == ASCII.carriageReturn, position < range.upperBound, bytes[position] == ASCII.lineFeed { position += 1 }
            }
            runStart = position
        }
        bytes.append(runStart..<range.upperBound, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// `name = "value"` (or `'value'`): the bytes of the name and of the value between the
    /// quotes; `what` (the tag, for errors) is made only for an error.
    private mutating func parseAttribute(in what: @autoclosure () -> String) throws -> (
        name: Range<Int>, value: Range<Int>
    ) {
        let range = readNameBytes()
        guard !range.isEmpty else { throw error("expected an attribute in \(what()), found \(found)") }
        let bytes = bytes
        let name = { bytes.string(range) }
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "=") else {
            throw error("expected \"=\" after \(name()) in \(what()), found \(found)")
        }
        position += 1
        skipWhitespace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
            throw error("expected a quoted value for \(name()) in \(what()), found \(found)")
        }
        let quote = bytes[position]
        let start = position + 1
        let end = bytes.end(ofRunFrom: start) { $0 != quote && $0 != UInt8(ascii: "<") }
        if end < bytes.count, bytes[end] == UInt8(ascii: "<") {
            throw error("\"<\" in the value of \(name()) in \(what())", at: end)
        }
        guard end < bytes.count else { throw error("unterminated value of \(name()) in \(what())", at: start - 1) }
        position = end + 1
        return (range, start..<end)
    }

    /// `</name>`; given `nameBytes`, the bytes of `name` in the document (its start tag's), the
    /// end tag's name is compared with them, with no string made.
    mutating func closeTag(_ name: String, bytes nameBytes: Range<Int>? = nil) throws {
        let start = position
        guard consume("</") else { throw error("expected </\(name)>, found \(found)") }
        let found = readNameBytes()
        skipWhitespace()
        let matches = nameBytes.map { bytes.bytes(found, equal: bytes.view($0)) } ?? (bytes.string(found) == name)
        guard matches else { throw error("expected </\(name)>, found </\(bytes.string(found))>", at: start) }
        guard consume(">") else { throw error("expected \">\" to end </\(name), found \(self.found)") }
    }

    var isAtCloseTag: Bool {
        position + 1 < bytes.count && bytes[position] == UInt8(ascii: "<") && bytes[position + 1] == UInt8(ascii: "/")
    }

    /// An XML name: letters, digits, `_`, `:`, `-`, `.` and any non-ASCII character, not starting
    /// with a digit, `-` or `.`; empty when there is none.
    mutating func readName() -> String {
        bytes.string(readNameBytes())
    }

    /// The bytes of the XML name here (see ``readName()``), read past.
    mutating func readNameBytes() -> Range<Int> {
        let start = position
        guard position < bytes.count, Self.startsName(bytes[position]) else { return start..<start }
        position = bytes.end(ofRunFrom: position + 1, Self.continuesName)
        return start..<position
    }

    /// Whether `byte` may be in an XML name after its first character: a letter, a digit, `_`,
    /// `:`, `-`, `.` or (part of) a non-ASCII character. One bit a byte, looked up in two words.
    @inline(__always)
    private static func continuesName(_ byte: UInt8) -> Bool {
        guard byte < 0x80 else { return true }
        let bits: UInt64 = byte < 64 ? 0x07FF_6000_0000_0000 : 0x07FF_FFFE_87FF_FFFE
        return (bits >> (byte & 63)) & 1 != 0
    }

    /// Whether `byte` may start an XML name: a letter, `_`, `:` or (part of) a non-ASCII character.
    @inline(__always)
    private static func startsName(_ byte: UInt8) -> Bool {
        (byte | ASCII.lowercaseBit) &- UInt8(ascii: "a") < 26 || byte >= 0x80 || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ":")
    }

    // MARK: - Text

    /// Reads the text up to `</name>` into ``text``, with references resolved, CDATA taken
    /// literally and comments left out.
    mutating func readContent(of name: String) throws {
        let start = position
        text.removeAll(keepingCapacity: true)
        while true {
            try appendText()
            guard position < bytes.count else { throw error("unterminated <\(name)> element", at: start) }
            if startsWith("<![CDATA[") {
                try appendCDATA()
            } else if startsWith("<!--") {
                try skipComment()
            } else {
                return try closeTag(name)
            }
        }
    }

    /// Appends to ``text`` the text from here to the next `<` (or the end of the data), with
    /// references resolved and each carriage return (and CR LF) a line feed, as XML reads them.
    mutating func appendText() throws {
        var runStart = position
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "<"):
                return bytes.append(runStart..<position, to: &text)
            case UInt8(ascii: "&"):
                bytes.append(runStart..<position, to: &text)
                try parseReference()
                runStart = position
            case ASCII.carriageReturn:
                bytes.append(runStart..<position, to: &text)
                text.append(ASCII.lineFeed)
                position += 1
                if position < bytes.count, bytes[position] == ASCII.lineFeed { position += 1 }
                runStart = position
            default:
                position += 1
            }
        }
        bytes.append(runStart..<position, to: &text)
    }

    /// Appends to ``text`` the content of the CDATA section here, as it is.
    mutating func appendCDATA() throws {
        position += 9
        let end = try find("]]>", what: "CDATA section")
        bytes.append(position..<end, to: &text)
        position = end + 3
    }

    /// `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;`, `&#N;` and `&#xN;`.
    private mutating func parseReference() throws {
        let start = position
        position += 1
        let end = try find(";", what: "entity reference", limit: 12)
        let name = bytes.string(position..<end)
        position = end + 1
        switch name {
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "amp": text.append(UInt8(ascii: "&"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            let isHex = name.hasPrefix("#x")
            let number = name.hasPrefix("#") ? ScalarStrings.unsigned(name.dropFirst(isHex ? 2 : 1), radix: isHex ? 16 : 10) : nil
            guard let number, number != 0, let scalar = UInt32(exactly: number).flatMap(Unicode.Scalar.init) else {
                throw error("unknown entity \"&\(name);\"", at: start)
            }
            text.append(contentsOf: String(Character(scalar)).utf8)
        }
    }

    // MARK: - Markup between elements

    /// Skips white space, comments and processing instructions.
    mutating func skipMarkup() throws {
        while true {
            skipWhitespace()
            if startsWith("<!--") {
                try skipComment()
            } else if startsWith("<?") {
                try skipProcessingInstruction()
            } else {
                return
            }
        }
    }

    /// `<!-- … -->`, with no `--` inside.
    mutating func skipComment() throws {
        let start = position
        position += 4
        let dashes = try find("--", what: "comment")
        guard dashes + 2 < bytes.count, bytes[dashes + 2] == UInt8(ascii: ">") else {
            throw error(
                "\"--\" inside a comment (a comment ends at the first \"--\", which must be followed by \">\")", at: start)
        }
        position = dashes + 3
    }

    /// `<?target …?>`, whose target is not `xml`: that name is the declaration's, which comes first.
    private mutating func skipProcessingInstruction() throws {
        _ = try processingInstructionTarget()
        position = try find("?>", what: "processing instruction") + 2
    }

    /// `<?target data?>` or `<?target?>`: its target, and its data (what follows the target and
    /// its white space) when it has any.
    mutating func readProcessingInstruction() throws -> (target: String, data: String?) {
        let target = try processingInstructionTarget()
        let spaced = skipWhitespace()
        let end = try find("?>", what: "processing instruction")
        guard spaced || end == position else {
            throw error("expected white space or \"?>\" after <?\(target), found \(found)")
        }
        defer { position = end + 2 }
        return (target, end == position ? nil : bytes.string(position..<end))
    }

    /// Reads `<?` and a processing instruction's target, which must not be `xml`.
    private mutating func processingInstructionTarget() throws -> String {
        let start = position
        position += 2
        let target = readName()
        guard !target.isEmpty else { throw error("expected a processing instruction's name, found \(found)") }
        guard target.lowercased() != "xml" else {
            throw error(
                target == "xml"
                    ? "the XML declaration <?xml …?> must come first in the document"
                    : "<?\(target) is not an XML declaration: it is written <?xml, in lower case", at: start)
        }
        return target
    }

    /// The declaration's encoding, which must be the document's: UTF-8 (or ASCII, its first 128
    /// characters, or `UTF8`, a common misspelling), or UTF-16 when the document starts with a
    /// UTF-16 byte-order mark.
    private func checkEncoding(_ name: String, at start: Int) throws {
        let utf8 = ["utf-8", "utf8", "us-ascii", "ascii"].contains(name.lowercased())
        let utf16 = ["utf-16", "utf-16le", "utf-16be"].contains(name.lowercased())
        switch (utf8, utf16, isUTF16) {
        case (true, _, false), (_, true, true):
            return
        case (true, _, true):
            throw error(
                "the XML declaration says \(name.debugDescription), but the document is UTF-16 (it starts with a UTF-16 byte-order mark)",
                at: start)
        case (_, true, false):
            throw error(
                "the XML declaration says \(name.debugDescription), but the document has no UTF-16 byte-order mark", at: start)
        default:
            throw error(
                "the document is in \(name.debugDescription); only UTF-8 (or ASCII) and UTF-16 are read: convert it to UTF-8",
                at: start)
        }
    }

    /// `<?xml version="1.x" encoding="UTF-8" standalone="yes|no"?>`, the last two optional, in that
    /// order. Only UTF-8 (and ASCII, a part of it) and UTF-16 are read.
    private mutating func parseDeclaration() throws {
        position += 5
        var names: [String] = []
        while true {
            let spaced = skipWhitespace()
            if consume("?>") { break }
            guard position < bytes.count else { throw error("unterminated XML declaration") }
            guard spaced else { throw error("expected white space or \"?>\" in the XML declaration, found \(found)") }
            let start = position
            let (nameBytes, range) = try parseAttribute(in: "the XML declaration")
            let name = bytes.string(nameBytes)
            let value = bytes.string(range)
            let valid: Bool
            switch (name, names) {
            case ("version", []):
                let minor = value.utf8.dropFirst(2)
                valid =
                    value.hasPrefix("1.") && !minor.isEmpty
                    && minor.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            case ("encoding", ["version"]):
                try checkEncoding(value, at: start)
                valid = true
            case ("standalone", ["version"]), ("standalone", ["version", "encoding"]): valid = value == "yes" || value == "no"
            case ("encoding", []), ("standalone", []):
                throw error("the XML declaration has no version (version=\"1.0\" must come first in it)", at: start)
            default: throw error("unexpected \(name) in the XML declaration", at: start)
            }
            guard valid else { throw error("\(value.debugDescription) is not a valid \(name) in the XML declaration", at: start) }
            names.append(name)
        }
        guard names.first == "version" else { throw error("the XML declaration has no version") }
    }

    /// `<!DOCTYPE name>`, with an external id (`PUBLIC "…" "…"` or `SYSTEM "…"`) and an internal
    /// subset (`[…]`) when present: skipped, since nothing reads what it declares. With
    /// `refusingEntities`, an entity declaration in it is an error: a reader that expands no
    /// entity says so where a document relies on one.
    mutating func readDoctype(refusingEntities: Bool = false) throws {
        let start = position
        position += 9
        guard skipWhitespace(), !readName().isEmpty else {
            throw error("expected the root element's name in the DOCTYPE, found \(found)")
        }
        var spaced = skipWhitespace()
        let externalIDs: [(StaticString, Int)] = [("PUBLIC", 2), ("SYSTEM", 1)]
        for (keyword, literals) in externalIDs where spaced && startsWith(keyword) {
            position += 6
            for literal in 0..<literals {
                guard skipWhitespace() else { throw error("expected white space and a quoted id in the DOCTYPE, found \(found)") }
                guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                    throw error("expected a quoted id in the DOCTYPE, found \(found)")
                }
                let quote = bytes[position]
                position += 1
                let isPublicID = literals == 2 && literal == 0
                while position < bytes.count, bytes[position] != quote {
                    if isPublicID, !Self.isPublicIDCharacter(bytes[position]) {
                        let byte = bytes[position]
                        let shown = byte < 0x80 ? "\"\(Character(Unicode.Scalar(byte)))\"" : "the byte 0x\(ByteText.hex(byte))"
                        throw error(
                            "\(shown) in the DOCTYPE's public id, which holds letters, digits, white space and -'()+,./:=?;!*#@$_% only"
                        )
                    }
                    position += 1
                }
                guard position < bytes.count else { throw error("unterminated DOCTYPE", at: start) }
                position += 1
            }
            spaced = skipWhitespace()
        }
        if consume("[") {
            try skipInternalSubset(start: start, refusingEntities: refusingEntities)
            skipWhitespace()
        }
        guard consume(">") else {
            guard position < bytes.count else { throw error("unterminated DOCTYPE", at: start) }
            throw error("expected \">\" to end the DOCTYPE, found \(found)")
        }
    }

    /// The declarations of a DOCTYPE's internal subset, up to and including its `]`.
    private mutating func skipInternalSubset(start: Int, refusingEntities: Bool) throws {
        var quote: UInt8?
        while position < bytes.count {
            let byte = bytes[position]
            if refusingEntities, quote == nil, startsWith("<!ENTITY") {
                throw error(
                    "the DOCTYPE declares an entity (<!ENTITY …>), and entities are not expanded: write the text itself")
            }
            position += 1
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "]") {
                return
            }
        }
        throw error("unterminated DOCTYPE", at: start)
    }

    // MARK: - Scanning

    /// Skips XML white space (space, tab, line feed, carriage return); whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = position
        position = bytes.end(ofRunFrom: position, TextWhitespace.contains)
        return position > start
    }

    /// XML's `PubidChar`.
    private static func isPublicIDCharacter(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == ASCII.space || byte == ASCII.lineFeed || byte == ASCII.carriageReturn
            || "-'()+,./:=?;!*#@$_%".utf8.contains(byte)
    }

    /// An ASCII letter or digit.
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | ASCII.lowercaseBit)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    func startsWith(_ prefix: StaticString) -> Bool {
        bytes.matches(prefix, at: position)
    }

    mutating func consume(_ prefix: StaticString) -> Bool {
        guard startsWith(prefix) else { return false }
        position += prefix.utf8CodeUnitCount
        return true
    }

    /// The offset of the next `terminator` from the current position (at most `limit` bytes on).
    func find(_ terminator: StaticString, what: String, limit: Int = .max) throws -> Int {
        let end = limit == .max ? bytes.count : min(bytes.count, position + limit)
        guard let found = bytes.firstOffset(of: terminator, from: position, to: end) else { throw error("unterminated \(what)") }
        return found
    }

    var found: String {
        guard position < bytes.count else { return "the end of the data" }
        let end = min(position + 12, bytes.count)
        let excerpt = bytes.string(position..<end)
        return "\"\(excerpt.prefix { $0 != "\n" })\""
    }

    func error(_ reason: String, at offset: Int? = nil) -> AMCError {
        AMCError(
            .malformedData(format: .xmlPropertyList, location: TextLocation.of(offset ?? position, in: bytes), reason: reason))
    }
}
