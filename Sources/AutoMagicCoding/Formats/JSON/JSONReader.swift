import Foundation

/// Parses JSON (RFC 8259) into a ``DocumentTape``: strict about syntax and UTF-8, nesting
/// limited to ``AMC/maximumDepth``, errors with line and column.
struct JSONReader {
    private typealias Slot = DocumentTape.Slot

    private let bytes: ByteView
    private var position = 0
    private var nesting = NestingDepth()
    private var tape: TapeBuilder
    /// Whether a dictionary read may be a reference (see ``ParsedDocument/holdsReferences``).
    private var holdsReferences = false

    private init(bytes: ByteView) {
        self.bytes = bytes
        // A slot takes at least two bytes of JSON (`0,`; `"":0` is two slots in four).
        tape = TapeBuilder(maximumSlots: bytes.count / 2 + 1, keys: .reused())
    }

    /// The document `data` holds, and whether it may hold references.
    static func parse(_ data: Data) throws -> (value: ArchiveValue, holdsReferences: Bool) {
        try ByteView.withBytes(of: data) { bytes in
            var reader = JSONReader(bytes: bytes)
            if reader.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.position = 3 }
            try reader.parseValue()
            reader.skipWhitespace()
            guard reader.position == reader.bytes.count else {
                throw reader.error("unexpected \(reader.found) after the document")
            }
            return (reader.tape.finish(source: bytes), reader.holdsReferences)
        }
    }

    // MARK: - Values

    /// Reads a value onto the tape.
    private mutating func parseValue() throws {
        skipWhitespace()
        guard position < bytes.count else { throw error("expected a value, found the end of the data") }
        switch bytes[position] {
        case UInt8(ascii: "{"): try parseObject()
        case UInt8(ascii: "["): try parseArray()
        case UInt8(ascii: "\""): tape.append(try parseString())
        case UInt8(ascii: "t"): try literal("true", Slot(.bool, payload: 1))
        case UInt8(ascii: "f"): try literal("false", Slot(.bool, payload: 0))
        case UInt8(ascii: "n"): try literal("null", Slot(.null))
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): tape.append(try parseNumber())
        default: throw error("expected a value, found \(found)")
        }
    }

    private mutating func parseObject() throws {
        try nesting.enter()
        defer { nesting.leave() }
        position += 1
        skipWhitespace()
        let start = tape.openCount
        if consume(UInt8(ascii: "}")) { return try close(.dictionary, from: start) }
        var repeated: Set<String>?
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a key string, found \(found)")
            }
            let keyStart = position
            let key = tape.key(try parseString(), in: bytes)
            if tape.isRepeated(key, from: start, seen: &repeated) {
                position = keyStart
                throw error(RepeatedKeys.reason(tape.string(key)))
            }
            tape.append(key)
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected \":\" after a key, found \(found)") }
            try parseValue()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) {
                if tape.isReference(from: start) { holdsReferences = true }
                return try close(.dictionary, from: start)
            }
            throw error("expected \",\" or \"}\", found \(found)")
        }
    }

    private mutating func parseArray() throws {
        try nesting.enter()
        defer { nesting.leave() }
        position += 1
        skipWhitespace()
        let start = tape.openCount
        if consume(UInt8(ascii: "]")) { return try close(.array, from: start) }
        while true {
            try parseValue()
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return try close(.array, from: start) }
            throw error("expected \",\" or \"]\", found \(found)")
        }
    }

    private mutating func close(_ kind: DocumentTape.Slot.Kind, from start: Int) throws {
        guard let container = tape.close(kind, from: start) else { throw error(TapeBuilder.overflow) }
        tape.append(container)
    }

    private mutating func literal(_ word: StaticString, _ slot: Slot) throws {
        guard bytes.matches(word, at: position) else { throw error("expected a value, found \(found)") }
        position += word.utf8CodeUnitCount
        tape.append(slot)
    }

    // MARK: - Strings

    /// Reads a string: its bytes in the document when it has no escapes, else its UTF-8 appended
    /// to the tape's unescaped text.
    private mutating func parseString() throws -> Slot {
        let start = position
        position += 1
        var runStart = position
        var isASCII = true
        var unescapedStart: Int?
        var highBits: UInt64 = 0
        while true {
            // Eight bytes at a time where none ends the string or needs a look (most text); else
            // straight to the first that does.
            if position + 8 <= bytes.count {
                let word = bytes.word(at: position)
                let plain = ByteWords.plainJSONBytes(word)
                if plain == 8 {
                    highBits |= word
                    position += 8
                    continue
                }
                highBits |= word & (1 << (8 * plain) &- 1)
                position += plain
            }
            guard position < bytes.count else {
                position = start
                throw error("unterminated string")
            }
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                if unescapedStart == nil { unescapedStart = tape.unescaped.count }
                bytes.append(runStart..<position, to: &tape.unescaped)
                try parseEscape()
                runStart = position
                continue
            }
            if byte == ASCII.lineFeed {
                position = start
                throw error("unterminated string (a line break inside a string must be written \\n)")
            }
            if byte < ASCII.space {
                throw error("a control character (U+00\(ByteText.hex(byte))) inside a string must be escaped")
            }
            if byte >= 0x80 { isASCII = false }
            position += 1
        }
        defer { position += 1 }
        if highBits & ByteWords.highBits != 0 { isASCII = false }
        if !isASCII { try validate((start + 1)..<position) }
        guard let unescapedStart else { return try stringSlot(.text, runStart..<position) }
        bytes.append(runStart..<position, to: &tape.unescaped)
        return try stringSlot(.unescaped, unescapedStart..<tape.unescaped.count)
    }

    private func stringSlot(_ kind: Slot.Kind, _ range: Range<Int>) throws -> Slot {
        guard let slot = TapeBuilder.slot(kind, range) else { throw error(TapeBuilder.tooLong(kind)) }
        return slot
    }

    private mutating func parseEscape() throws {
        position += 1
        guard position < bytes.count else { throw error("unterminated string") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): tape.unescaped.append(byte)
        case UInt8(ascii: "b"): tape.unescaped.append(ASCII.backspace)
        case UInt8(ascii: "f"): tape.unescaped.append(ASCII.formFeed)
        case UInt8(ascii: "n"): tape.unescaped.append(ASCII.lineFeed)
        case UInt8(ascii: "r"): tape.unescaped.append(ASCII.carriageReturn)
        case UInt8(ascii: "t"): tape.unescaped.append(ASCII.tab)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800...0xDBFF).contains(scalar) {
                guard consume(UInt8(ascii: "\\")), consume(UInt8(ascii: "u")) else {
                    throw error("a high surrogate \\u\(String(scalar, radix: 16)) must be followed by a low one")
                }
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate \\u\(String(low, radix: 16))") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(scalar) {
                throw error("a lone low surrogate \\u\(String(scalar, radix: 16))")
            }
            tape.unescaped.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            position -= 1
            throw error("invalid escape \"\\\(Character(Unicode.Scalar(byte)))\"")
        }
    }

    private mutating func parseHex4() throws -> UInt32 {
        guard bytes.count - position >= 4 else { throw error("expected 4 hexadecimal digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let digit = ScalarStrings.hexDigitValue(bytes[position]) else {
                throw error("expected 4 hexadecimal digits after \\u, found \(found)")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    private func validate(_ range: Range<Int>) throws {
        guard let invalid = UTF8Validation.firstInvalidOffset(in: bytes.view(range)) else { return }
        let offset = range.lowerBound + invalid
        throw error("invalid UTF-8 (byte 0x\(ByteText.hex(bytes[offset])))", at: offset)
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws -> Slot {
        let start = position
        let negative = consume(UInt8(ascii: "-"))
        let integerStart = position
        var magnitude: UInt64 = 0
        var overflow = false
        while position < bytes.count, case let digit = bytes[position] &- 0x30, digit < 10 {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            overflow = overflow || overflow1 || overflow2
            magnitude = sum
            position += 1
        }
        let integerDigits = position - integerStart
        guard integerDigits > 0 else { throw error("expected a digit, found \(found)") }
        guard bytes[integerStart] != UInt8(ascii: "0") || integerDigits == 1 else {
            throw error("a number cannot start with 0", at: integerStart)
        }
        var isInteger = true
        var fractionDigits = 0
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            fractionDigits = skipDigits()
            guard fractionDigits > 0 else { throw error("expected a digit after \".\", found \(found)") }
        }
        let mantissaEnd = position
        if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
            isInteger = false
            _ = consume(UInt8(ascii: "+")) || consume(UInt8(ascii: "-"))
            guard skipDigits() > 0 else { throw error("expected a digit in the exponent, found \(found)") }
        }
        if isInteger, !overflow {
            if !negative {
                return magnitude <= UInt64(Int64.max) ? Slot(.int, payload: magnitude) : Slot(.uint, payload: magnitude)
            }
            if magnitude <= UInt64(Int64.max) + 1 { return Slot(.int, payload: 0 &- magnitude) }
        }
        // An integer beyond 64 bits, or more digits than a double tells apart, keeps its text, so
        // that exact types read it exactly and errors quote it as written.
        if isInteger { return try longNumber(from: start) }
        guard let value = DecimalText.double(bytes.view(start..<position)), value.isFinite else {
            throw error("the number \(bytes.string(start..<position)) is out of range", at: start)
        }
        if integerDigits + fractionDigits > DecimalText.doubleDigits,
            DecimalText.significantDigits(bytes.view(integerStart..<mantissaEnd)) > DecimalText.doubleDigits
        {
            return try longNumber(from: start)
        }
        return Slot(.double, payload: value.bitPattern)
    }

    /// The slot of the number from `start` to here, as its text (see ``ArchiveValue/longNumber(_:)``).
    private mutating func longNumber(from start: Int) throws -> Slot {
        guard let slot = tape.appendUnescaped(.longNumber, bytes.view(start..<position)) else {
            throw error(TapeBuilder.tooLong(.longNumber), at: start)
        }
        return slot
    }

    private mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, bytes[position] &- 0x30 < 10 { position += 1 }
        return position - start
    }

    // MARK: - Scanning

    private mutating func skipWhitespace() {
        while position < bytes.count, TextWhitespace.contains(bytes[position]) { position += 1 }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    /// What is at the current position, for messages: `"x"`, or `the end of the data`.
    private var found: String {
        guard position < bytes.count else { return "the end of the data" }
        let byte = bytes[position]
        return byte >= ASCII.space && byte < ASCII.delete
            ? "\"\(Character(Unicode.Scalar(byte)))\"" : "byte 0x\(ByteText.hex(byte))"
    }

    private func error(_ reason: String, at offset: Int? = nil) -> AMCError {
        AMCError(.malformedData(format: .json, location: TextLocation.of(offset ?? position, in: bytes), reason: reason))
    }
}
