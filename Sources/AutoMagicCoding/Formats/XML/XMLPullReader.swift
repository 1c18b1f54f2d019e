import Foundation

/// An XML document as element events, one at a time, for readers that give elements their own
/// meaning (markup): start tags with their attributes (references resolved, values normalised, a
/// repeated name refused), end tags, text and CDATA, and processing instructions with their data,
/// each with the offset it starts at. Comments are left out. What is not well-formed XML 1.0 is
/// refused, and so are what a reader of untrusted markup must not act on: entity declarations,
/// and control characters (which XML 1.0 cannot hold). Lexing is ``XMLScanner``'s.
///
/// ```swift
/// var reader = try XMLPullReader(scanner)        // a scanner from XMLScanner.scanning(data)
/// while let event = try reader.next() {
///     if case let .start(name, _) = event { print(name, reader.attributes.map(\.name)) }
/// }
/// ```
struct XMLPullReader {
    /// An attribute of a start tag: its value with references resolved and white space
    /// normalised, and the offset of its name.
    struct Attribute: Equatable {
        let name: String
        let value: String
        let offset: Int
        /// The name's number in the reader's ``names``.
        var nameNumber = -1
        /// The value's number in the reader's ``values``; -1 when it numbers none.
        var valueNumber = -1

        /// The same attribute: numbers are the reader's bookkeeping, not the document's.
        static func == (first: Self, second: Self) -> Bool {
            first.name == second.name && first.value == second.value && first.offset == second.offset
        }
    }

    enum Event: Equatable {
        /// A start tag (a self-closing one is followed by its end), at the offset of its `<`; its
        /// attributes are the reader's ``attributes`` until the next event.
        case start(name: String, offset: Int)
        case end(name: String, offset: Int)
        /// Text between tags (white space too, unless ``skipsBlankText``), with references resolved and line ends read as
        /// line feeds, or the content of a CDATA section.
        case text(String, isCDATA: Bool, offset: Int)
        /// `<?target data?>`; `data` is nil for `<?target?>`.
        case instruction(target: String, data: String?, offset: Int)
    }

    private(set) var scanner: XMLScanner
    /// The attributes of the start tag read last.
    private(set) var attributes: [Attribute] = []
    /// Tag and attribute names, each made a string once: a name repeated in every element
    /// shares it. A reader of several documents hands its table from one to the next.
    var names = KeyTable()
    /// The number of the name of the start tag read last, in ``names``.
    private(set) var nameNumber = -1
    /// When set, attribute values are numbered too, each made a string once (markup repeats its
    /// values, and numbers tell a builder which it has met).
    var values: KeyTable?
    /// The names of the elements open, innermost last, and their bytes.
    private var open: [(name: String, bytes: Range<Int>)] = []
    /// The end event a self-closing tag owes.
    private var owedEnd: Event?
    private var part = Part.prolog
    private var sawDoctype = false

    private enum Part { case prolog, content, epilog, done }

    /// Whether text of white space alone between tags is left out (CDATA sections are not).
    let skipsBlankText: Bool

    /// A reader from `scanner`'s position, the start of a document: reads its declaration.
    /// With `skipsBlankText`, text that is only white space up to a tag gives no event.
    init(_ scanner: XMLScanner, skipsBlankText: Bool = false) throws {
        self.scanner = scanner
        self.skipsBlankText = skipsBlankText
        try self.scanner.readDeclaration()
    }

    /// The next event; nil after the root element's end and what may follow it (comments,
    /// processing instructions, white space).
    mutating func next() throws -> Event? {
        if let owedEnd {
            self.owedEnd = nil
            return owedEnd
        }
        while true {
            switch part {
            case .prolog, .epilog:
                scanner.skipWhitespace()
                let offset = scanner.position
                if scanner.startsWith("<!--") {
                    try scanner.skipComment()
                } else if scanner.startsWith("<?") {
                    return try instruction()
                } else if part == .prolog, scanner.startsWith("<!DOCTYPE") {
                    guard !sawDoctype else { throw scanner.error("a second DOCTYPE", at: offset) }
                    sawDoctype = true
                    try scanner.readDoctype(refusingEntities: true)
                } else if scanner.position == scanner.bytes.count {
                    guard part == .epilog else { throw scanner.error("the document has no root element") }
                    part = .done
                    return nil
                } else if part == .prolog {
                    part = .content
                    return try startTag()
                } else {
                    throw scanner.error("unexpected \(scanner.found) after the root element")
                }
            case .content:
                let offset = scanner.position
                guard offset < scanner.bytes.count else {
                    throw scanner.error("unterminated <\(open.last?.name ?? "")> element: the data ends inside it")
                }
                // One look at the byte after a "<" tells what comes.
                let bytes = scanner.bytes
                if bytes[offset] == UInt8(ascii: "<") {
                    switch offset + 1 < bytes.count ? bytes[offset + 1] : 0 {
                    case UInt8(ascii: "/"):
                        let (name, nameBytes) = open.removeLast()
                        try scanner.closeTag(name, bytes: nameBytes)
                        if open.isEmpty { part = .epilog }
                        return .end(name: name, offset: offset)
                    case UInt8(ascii: "?"):
                        return try instruction()
                    case UInt8(ascii: "!") where scanner.startsWith("<!--"):
                        try scanner.skipComment()
                        continue
                    case UInt8(ascii: "!") where scanner.startsWith("<![CDATA["):
                        scanner.text.removeAll(keepingCapacity: true)
                        try scanner.appendCDATA()
                        return .text(try checkedText(at: offset), isCDATA: true, offset: offset)
                    default:
                        return try startTag()
                    }
                } else {
                    if skipsBlankText {
                        // White space up to a tag is no event: read past it without making text.
                        if scanner.skipWhitespace(), scanner.position < bytes.count, bytes[scanner.position] == UInt8(ascii: "<")
                        {
                            continue
                        }
                        scanner.position = offset
                    }
                    scanner.text.removeAll(keepingCapacity: true)
                    try scanner.appendText()
                    return .text(try checkedText(at: offset), isCDATA: false, offset: offset)
                }
            case .done:
                return nil
            }
        }
    }

    /// Where `offset` is, for errors: line and column.
    func location(of offset: Int) -> AMCError.Location {
        TextLocation.of(offset, in: scanner.bytes)
    }

    private mutating func startTag() throws -> Event {
        let offset = scanner.position
        let nameBytes = try scanner.tagName()
        var selfClosing = false
        attributes.removeAll(keepingCapacity: true)
        while let (attributeBytes, range, attributeOffset) = try scanner.nextAttribute(
            ofTag: nameBytes, selfClosing: &selfClosing)
        {
            let nameNumber = names.number(of: attributeBytes, in: scanner.bytes)
            let name = names.keys[nameNumber]
            if attributes.contains(where: { $0.name == name }) {
                throw scanner.error("the attribute \(name) appears twice in one tag", at: attributeOffset)
            }
            let value: String
            var valueNumber = -1
            if scanner.isPlainAttributeValue(range) {
                if values != nil {
                    valueNumber = values!.number(of: range, in: scanner.bytes)
                    value = values!.keys[valueNumber]
                } else {
                    value = scanner.bytes.string(range)
                }
            } else {
                value = try scanner.normalizedAttributeValue(range)
                if let control = Self.controlCharacter(in: value) {
                    throw scanner.error(
                        "\(control) in the value of \(name): XML holds no control characters", at: attributeOffset)
                }
                valueNumber = values?.number(of: value) ?? -1
            }
            attributes.append(
                Attribute(name: name, value: value, offset: attributeOffset, nameNumber: nameNumber, valueNumber: valueNumber))
        }
        nameNumber = names.number(of: nameBytes, in: scanner.bytes)
        let name = names.keys[nameNumber]
        if selfClosing {
            owedEnd = .end(name: name, offset: offset)
            if open.isEmpty { part = .epilog }
        } else {
            open.append((name, nameBytes))
        }
        return .start(name: name, offset: offset)
    }

    private mutating func instruction() throws -> Event {
        let offset = scanner.position
        let (target, data) = try scanner.readProcessingInstruction()
        if let data, let control = Self.controlCharacter(in: data) {
            throw scanner.error("\(control) in <?\(target)?>: XML holds no control characters", at: offset)
        }
        return .instruction(target: target, data: data, offset: offset)
    }

    /// The scanner's ``XMLScanner/text`` as a string, refused when it holds a control character.
    private func checkedText(at offset: Int) throws -> String {
        let text = String(decoding: scanner.text, as: UTF8.self)
        if let control = Self.controlCharacter(in: text) {
            throw scanner.error("\(control) in text: XML holds no control characters", at: offset)
        }
        return text
    }

    /// The first control character of `text` that XML 1.0 cannot hold (all but tab, line feed
    /// and carriage return), named for a message.
    private static func controlCharacter(in text: String) -> String? {
        for byte in text.utf8
        where byte < ASCII.space && byte != ASCII.tab && byte != ASCII.lineFeed && byte != ASCII.carriageReturn {
            return "the control character 0x\(ByteText.hex(byte))"
        }
        return nil
    }
}
