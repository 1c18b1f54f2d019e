import Foundation

/// Writes JSON bytes as the encoder walks the graph: no intermediate dictionaries. Dates become
/// ISO 8601 strings and data base64 strings; infinity and NaN throw (JSON has neither).
struct JSONWriter: EncodingSink {
    /// The bytes not passed on to ``link``'s drain yet (all of them, without one).
    var bytes: [UInt8] = []
    /// Where the bytes go as the writer goes, if anywhere (see ``ByteDrain``).
    var link = DrainLink()
    var outputSize: Int { link.size(with: bytes) }
    var holdsNull: Bool { true }
    let pretty: Bool
    /// The room the pending bytes were made with.
    private let capacity: Int
    /// How many containers are open.
    private var depth = 0
    /// Whether the innermost open container has an element yet (a comma comes before the next):
    /// kept apart from the outer ones', which only opening and closing a container touch.
    private var hasElements = false
    /// For each open container around the innermost: whether it has an element yet.
    private var outerHaveElements: [Bool] = []
    /// A key was just written: its value follows without a separator.
    private var afterKey = false

    init(pretty: Bool, capacity: Int = 4096) {
        self.pretty = pretty
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
    }

    static var vacant: JSONWriter { JSONWriter(pretty: false, capacity: 0) }

    func restarted() -> JSONWriter {
        link.drain?.restart()
        var writer = JSONWriter(pretty: pretty, capacity: capacity)
        writer.link.drain = link.drain
        return writer
    }

    mutating func beginDictionary() {
        beforeValue()
        bytes.append(UInt8(ascii: "{"))
        open()
    }

    mutating func endDictionary() { close("}") }

    mutating func beginArray() {
        beforeValue()
        bytes.append(UInt8(ascii: "["))
        open()
    }

    mutating func endArray() { close("]") }

    mutating func key(_ key: String) {
        separate()
        appendString(key)
        afterKeyText()
    }

    mutating func key(_ key: InternedKey) {
        separate()
        bytes.append(bytesOf: key.json)
        afterKeyText()
    }

    mutating func className(_ name: InternedKey) throws {
        key(InternedKey.classKey)
        beforeValue()
        bytes.append(bytesOf: name.json)
    }

    /// The colon after a key.
    private mutating func afterKeyText() {
        if pretty { bytes.append(": ") } else { bytes.append(UInt8(ascii: ":")) }
        afterKey = true
    }

    /// `string` as a JSON string, quoted and escaped, as a key or a value is written.
    static func quoted(_ string: String) -> [UInt8] {
        var writer = JSONWriter(pretty: false, capacity: string.utf8.count + 2)
        writer.appendString(string)
        return writer.bytes
    }

    mutating func scalar(_ value: ArchiveScalar) throws {
        beforeValue()
        switch value {
        case let .string(string):
            appendString(string)
        case let .bool(bool):
            bytes.append(bool ? "true" : "false")
        case let .int(int):
            bytes.appendDecimal(int)
        case let .uint(uint):
            bytes.appendDecimal(uint)
        case let .float(float):
            guard float.isFinite else { throw Self.nonFinite("\(float)") }
            bytes.append(contentsOf: float.description.utf8)
        case let .double(double):
            guard double.isFinite else { throw Self.nonFinite("\(double)") }
            bytes.appendShortest(double)
        case let .date(date):
            bytes.append("\"")
            guard ISODate.append(date, to: &bytes) else {
                bytes.removeLast()
                throw ISODate.unwritable(date)
            }
            bytes.append("\"")
        case let .data(data):
            appendString(data.base64EncodedString())
        case .null:
            bytes.append("null")
        case let .longNumber(text):
            bytes.append(contentsOf: text.utf8)
        }
    }

    mutating func entryReference(_ entry: Int) {
        beginDictionary()
        key(ObjectReference.key)
        beforeValue()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(bytesOf: ObjectTable.entryPrefixBytes)
        bytes.appendDecimal(UInt64(entry))
        bytes.append(UInt8(ascii: "\""))
        endDictionary()
    }

    mutating func mark() -> (count: Int, depth: Int, hasElements: Bool) {
        (outputSize, depth, hasElements)
    }

    mutating func rewind(to mark: (count: Int, depth: Int, hasElements: Bool)) {
        link.rewind(&bytes, to: mark.count)
        outerHaveElements.removeLast(outerHaveElements.count - max(mark.depth - 1, 0))
        depth = mark.depth
        hasElements = mark.hasElements
        afterKey = false
    }

    // MARK: - Layout

    /// Before a value: nothing after a key, else a separator inside an array.
    private mutating func beforeValue() {
        if afterKey {
            afterKey = false
        } else if depth > 0 {
            separate()
        }
    }

    /// A comma after the previous element, then a line break and indentation when pretty.
    private mutating func separate() {
        link.settle(&bytes)  // the previous element is complete
        if hasElements { bytes.append(UInt8(ascii: ",")) }
        hasElements = true
        if pretty { newline(depth: depth) }
    }

    /// A container begun: it has no element yet.
    private mutating func open() {
        if depth > 0 { outerHaveElements.append(hasElements) }
        depth += 1
        hasElements = false
    }

    private mutating func close(_ bracket: StaticString) {
        let hadElements = hasElements
        depth -= 1
        hasElements = depth > 0 ? outerHaveElements.removeLast() : false
        if hadElements { newline(depth: depth) }
        bytes.append(bracket)
    }

    private mutating func newline(depth: Int) {
        guard pretty else { return }
        bytes.append("\n")
        bytes.append(UInt8(ascii: " "), times: depth * 2)
    }

    // MARK: - Strings

    /// Appends `string` quoted, escaping what JSON requires. Eight bytes at a time where none of
    /// them needs an escape (most text), then byte by byte.
    private mutating func appendString(_ string: String) {
        bytes.append(UInt8(ascii: "\""))
        ByteView.withBytes(of: string) { utf8 in
            let count = utf8.count
            var runStart = 0
            var index = 0
            while index < count {
                if index + 8 <= count, !ByteWords.mayNeedJSONEscape(utf8.word(at: index)) {
                    index += 8
                    continue
                }
                let byte = utf8[index]
                if byte < ASCII.space || byte == ASCII.quote || byte == ASCII.backslash {
                    utf8.append(runStart..<index, to: &bytes)
                    appendEscape(byte)
                    runStart = index + 1
                }
                index += 1
            }
            utf8.append(runStart..<count, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private mutating func appendEscape(_ byte: UInt8) {
        switch byte {
        case ASCII.quote: bytes.append("\\\"")
        case ASCII.backslash: bytes.append("\\\\")
        case ASCII.lineFeed: bytes.append("\\n")
        case ASCII.carriageReturn: bytes.append("\\r")
        case ASCII.tab: bytes.append("\\t")
        case ASCII.backspace: bytes.append("\\b")
        case ASCII.formFeed: bytes.append("\\f")
        default:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append("\\u00")
            bytes.append(hex[Int(byte >> 4)])
            bytes.append(hex[Int(byte & 0xF)])
        }
    }

    private static func nonFinite(_ value: String) -> AMCError {
        AMCError(.unsupportedType(typeName: "Double", reason: "JSON cannot hold \(value)"))
    }
}
