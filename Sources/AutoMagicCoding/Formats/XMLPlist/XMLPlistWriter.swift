import Foundation

/// Writes an XML property list as the encoder walks the graph, laid out as Foundation lays it out
/// (a tab per level), or on one line when not pretty.
struct XMLPlistWriter: EncodingSink {
    /// The bytes not passed on to ``link``'s drain yet (all of them, without one).
    private(set) var bytes: [UInt8] = []
    /// Where the bytes go as the writer goes, if anywhere (see ``ByteDrain``).
    var link = DrainLink()
    var outputSize: Int { link.size(with: bytes) }
    let pretty: Bool
    /// The room the pending bytes were made with.
    private let capacity: Int
    /// For each open container: its tag and whether it has an element yet (an empty one closes
    /// itself: `<dict/>`).
    private var open: [(tag: StaticString, hasElements: Bool)] = []

    init(pretty: Bool, capacity: Int = 4096) {
        self.pretty = pretty
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
        bytes.append(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """)
    }

    static var vacant: XMLPlistWriter { XMLPlistWriter(pretty: false, capacity: 0) }

    func restarted() -> XMLPlistWriter {
        link.drain?.restart()
        var writer = XMLPlistWriter(pretty: pretty, capacity: capacity)
        writer.link.drain = link.drain
        return writer
    }

    /// The end of the document: what was not passed on to ``link``'s drain.
    mutating func finish() -> [UInt8] {
        bytes.append("</plist>\n")
        return bytes
    }

    mutating func beginDictionary() { begin("dict") }
    mutating func endDictionary() { end() }
    mutating func beginArray() { begin("array") }
    mutating func endArray() { end() }

    mutating func key(_ key: String) {
        startLine()
        bytes.append("<key>")
        appendEscaped(key)
        bytes.append("</key>")
        endLine()
    }

    mutating func scalar(_ value: ArchiveScalar) throws {
        startLine()
        switch value {
        case let .string(string):
            bytes.append("<string>")
            appendEscaped(string)
            bytes.append("</string>")
        case let .bool(bool):
            bytes.append(bool ? "<true/>" : "<false/>")
        case let .int(int):
            bytes.append("<integer>")
            bytes.appendDecimal(int)
            bytes.append("</integer>")
        case let .uint(uint):
            bytes.append("<integer>")
            bytes.appendDecimal(uint)
            bytes.append("</integer>")
        case let .float(float):
            appendReal(float.isFinite ? float.description : Self.nonFinite(Double(float)))
        case let .double(double):
            appendReal(double.isFinite ? double.description : Self.nonFinite(double))
        case let .date(date):
            bytes.append("<date>")
            guard ISODate.appendWholeSeconds(date, to: &bytes) else { throw ISODate.unwritable(date) }
            bytes.append("</date>")
        case let .data(data):
            bytes.append("<data>")
            bytes.append(contentsOf: data.base64EncodedString().utf8)
            bytes.append("</data>")
        case .null:
            throw AMCError(.unsupportedType(typeName: "null", reason: "property lists have no null"))
        case let .longNumber(text):
            // A <real>, integer or not: Foundation refuses an <integer> beyond 64 bits, and reads
            // this as its nearest double; this package's reader keeps the digits.
            appendReal(text)
        }
        endLine()
    }

    mutating func mark() -> (count: Int, depth: Int, hasElements: Bool) {
        (outputSize, open.count, open.last?.hasElements ?? false)
    }

    mutating func rewind(to mark: (count: Int, depth: Int, hasElements: Bool)) {
        link.rewind(&bytes, to: mark.count)
        open.removeLast(open.count - mark.depth)
        if !open.isEmpty { open[open.count - 1].hasElements = mark.hasElements }
    }

    // MARK: - Layout

    private mutating func begin(_ tag: StaticString) {
        startLine()
        bytes.append("<")
        bytes.append(tag)
        bytes.append(">")
        if pretty { bytes.append("\n") }
        open.append((tag, false))
    }

    private mutating func end() {
        let (tag, hasElements) = open.removeLast()
        if hasElements {
            indent()
            bytes.append("</")
            bytes.append(tag)
            bytes.append(">")
        } else {
            bytes.removeLast(pretty ? 2 : 1)  // "<dict>\n" becomes "<dict/>"
            bytes.append("/>")
        }
        endLine()
    }

    private mutating func startLine() {
        if !open.isEmpty { open[open.count - 1].hasElements = true }
        // The previous line is complete, and the open container, having an element now, will
        // not turn back into `<dict/>`.
        link.settle(&bytes)
        indent()
    }

    private mutating func indent() {
        if pretty { bytes.append(UInt8(ascii: "\t"), times: open.count) }
    }

    private mutating func endLine() {
        if pretty || open.isEmpty { bytes.append("\n") }
    }

    private mutating func appendReal(_ text: String) {
        bytes.append("<real>")
        bytes.append(contentsOf: text.utf8)
        bytes.append("</real>")
    }

    /// Foundation's spelling of the values `strtod` also reads.
    private static func nonFinite(_ value: Double) -> String {
        value.isNaN ? "nan" : value < 0 ? "-infinity" : "+infinity"
    }

    /// Text content: `&`, `<` and `>` as entities, and a carriage return as `&#13;` so that XML's
    /// line-end normalisation keeps it.
    private mutating func appendEscaped(_ string: String) {
        ByteView.withBytes(of: string) { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated()
            where byte == ASCII.ampersand || byte == ASCII.lessThan || byte == ASCII.greaterThan || byte == ASCII.carriageReturn {
                utf8.append(runStart..<index, to: &bytes)
                switch byte {
                case ASCII.ampersand: bytes.append("&amp;")
                case ASCII.lessThan: bytes.append("&lt;")
                case ASCII.greaterThan: bytes.append("&gt;")
                default: bytes.append("&#13;")
                }
                runStart = index + 1
            }
            utf8.append(runStart..<utf8.count, to: &bytes)
        }
    }
}
