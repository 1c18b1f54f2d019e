import Foundation

/// A format writer: an encoding sink that ends in the bytes of a whole document.
protocol DocumentWriter: EncodingSink {
    /// A writer whose pending bytes have room for `capacity` (see ``ByteDrain/pendingCapacity``).
    init(options: AMCWriteOptions, capacity: Int)
    /// Where the writer passes its bytes on as it goes, if anywhere.
    var link: DrainLink { get set }
    /// The bytes written so far, where the writer counts them (the text writers); 0 elsewhere.
    var outputSize: Int { get }
    /// A writer as `init(options:capacity:)` makes one, with the room of tables that a write
    /// before it made when the writer keeps them (see ``recycle()``).
    static func reused(options: AMCWriteOptions, capacity: Int) -> Self
    /// Keeps this finished writer's tables, emptied, for the next ``reused(options:capacity:)``,
    /// where the writer keeps any.
    consuming func recycle()
    /// A writer made as this one was, with nothing written, for writing the document again from
    /// its start: the drain takes back what was passed on to it.
    func restarted() -> Self
    /// The finished document: what was not passed on to ``link``'s drain.
    mutating func finish() -> [UInt8]
    /// A writer to write the document again with, when what this one wrote cannot be finished
    /// (see ``BinaryPlistWriter/wider``); nil when it can.
    var wider: Self? { get }
}

extension DocumentWriter {
    init(options: AMCWriteOptions) { self.init(options: options, capacity: 4096) }

    var outputSize: Int { 0 }

    var wider: Self? { nil }

    static func reused(options: AMCWriteOptions, capacity: Int) -> Self { Self(options: options, capacity: capacity) }

    consuming func recycle() {}
}

extension JSONWriter: DocumentWriter {
    init(options: AMCWriteOptions, capacity: Int) { self.init(pretty: options.prettyPrinted, capacity: capacity) }

    mutating func finish() -> [UInt8] {
        if pretty { bytes.append("\n") }
        return bytes
    }
}

extension XMLPlistWriter: DocumentWriter {
    init(options: AMCWriteOptions, capacity: Int) { self.init(pretty: options.prettyPrinted, capacity: capacity) }
}

extension BinaryPlistWriter: DocumentWriter {
    init(options: AMCWriteOptions, capacity: Int) { self.init(capacity: capacity) }

    static func reused(options: AMCWriteOptions, capacity: Int) -> BinaryPlistWriter { reused(capacity: capacity) }
}

/// A document as a reader parsed it.
struct ParsedDocument {
    let value: ArchiveValue
    let format: AMCFormat
    /// False when no dictionary in the document is a reference (`{"$ref": …}`): the decoder then
    /// skips its walk of the whole document looking for them.
    let holdsReferences: Bool
}

/// Object graphs and documents to and from the bytes of each format.
enum DocumentCodec {
    /// The bytes of a parsed or converted document in `format`; more than `outputLimit` bytes
    /// of text throw ``AMCError/Kind/outputTooLarge(limit:)``.
    static func encode(
        _ value: ArchiveValue, format: AMCFormat, options: AMCWriteOptions, outputLimit: Int = .max,
        textForDatesAndData: Bool = true
    ) throws -> [UInt8] {
        // Only JSON lacks dates and data; the property lists hold them as they are.
        let textForDatesAndData = format != .json || textForDatesAndData
        switch format {
        case .json:
            return try encode(value, with: JSONWriter(options: options), options, outputLimit, textForDatesAndData)
        case .xmlPropertyList:
            return try encode(value, with: XMLPlistWriter(options: options), options, outputLimit, textForDatesAndData)
        case .binaryPropertyList:
            return try encode(value, with: BinaryPlistWriter(options: options), options, outputLimit, textForDatesAndData)
        }
    }

    /// The document in `data`, whose format is told from its first bytes.
    static func parse(_ data: Data) throws -> ParsedDocument {
        // Through a view: `Data`'s own iteration made telling the format a fixed cost of reading.
        guard let format = ByteView.withBytes(of: data, { AMCFormat(detecting: $0) }) else {
            let reason =
                data.isEmpty
                ? "the data is empty"
                : UTF16Text.isBigEndian(data) != nil
                    ? "the data is UTF-16 text that is not XML; JSON is read in UTF-8 only (RFC 8259)"
                    : "the data is not JSON, an XML property list or a binary property list"
            throw AMCError(.unknownFormat(reason: reason))
        }
        let parsed =
            switch format {
            case .json: try JSONReader.parse(data)
            case .xmlPropertyList: try XMLPlistReader.parse(data)
            case .binaryPropertyList: try BinaryPlistReader.parse(data)
            }
        return ParsedDocument(value: parsed.value, format: format, holdsReferences: parsed.holdsReferences)
    }

    /// The bytes of `value` written with `writer`, or with its ``DocumentWriter/wider`` one.
    static func encode<Writer: DocumentWriter>(
        _ value: ArchiveValue, with writer: consuming Writer, _ options: AMCWriteOptions, _ outputLimit: Int,
        _ textForDatesAndData: Bool
    ) throws -> [UInt8] {
        var path = KeyPathTracker()
        let marked = StackRoom.beginWriting()
        defer { if marked { StackRoom.endWriting() } }
        try value.write(
            to: &writer, sortedKeys: options.sortedKeys, path: &path, outputLimit: outputLimit,
            textForDatesAndData: textForDatesAndData)
        if let wider = writer.wider {
            writer = wider  // the first try's tables go before the second starts
            return try encode(value, with: consume writer, options, outputLimit, textForDatesAndData)
        }
        return writer.finish()
    }
}

extension ArchiveValue {
    /// Replays this document into a sink (to convert between formats, or write a dictionary),
    /// stopping once the sink holds more than `outputLimit` bytes. Without `textForDatesAndData`,
    /// a date or data throws (a conversion to JSON, which would make them strings).
    func write<Writer: DocumentWriter>(
        to sink: inout Writer, sortedKeys: Bool, path: inout KeyPathTracker, outputLimit: Int = .max,
        textForDatesAndData: Bool = true
    ) throws {
        func scalar(_ value: ArchiveScalar) throws {
            if !textForDatesAndData, let kind = value.jsonLessKind {
                throw path.error(
                    .unsupportedType(
                        typeName: kind,
                        reason: "JSON has no \(kind == "date" ? "dates" : "data"); convert with dates and data as text "
                            + "(ISO 8601 strings and base64) to write it as a string"))
            }
            do {
                try sink.scalar(value)
            } catch let error as AMCError {
                throw error.at(path.rendered)
            }
        }
        switch self {
        case let .string(value): try scalar(.string(value))
        case let .int(value): try scalar(.int(value))
        case let .uint(value): try scalar(.uint(value))
        case let .double(value): try scalar(.double(value))
        case let .longNumber(text): try scalar(.longNumber(text))
        case let .bool(value): try scalar(.bool(value))
        case let .date(value): try scalar(.date(value))
        case let .data(value): try scalar(.data(value))
        case .null: try scalar(.null)
        case let .array(elements):
            try ArchiveValue.enter(path.components.count, path: path, readBack: .documents)
            sink.beginArray()
            for (index, element) in elements.enumerated() {
                path.push(index: index)
                defer { path.pop() }
                try element.write(
                    to: &sink, sortedKeys: sortedKeys, path: &path, outputLimit: outputLimit,
                    textForDatesAndData: textForDatesAndData)
                if sink.outputSize > outputLimit { throw path.error(.outputTooLarge(limit: outputLimit)) }
            }
            sink.endArray()
        case let .dictionary(dictionary):
            try ArchiveValue.enter(path.components.count, path: path, readBack: .documents)
            sink.beginDictionary()
            for entry in sortedKeys ? dictionary.entries.sorted(by: { $0.key < $1.key }) : Array(dictionary.entries) {
                path.push(key: entry.key)
                defer { path.pop() }
                sink.key(entry.key)
                try entry.value.write(
                    to: &sink, sortedKeys: sortedKeys, path: &path, outputLimit: outputLimit,
                    textForDatesAndData: textForDatesAndData)
                if sink.outputSize > outputLimit { throw path.error(.outputTooLarge(limit: outputLimit)) }
            }
            sink.endDictionary()
        case let .foreign(box):
            throw path.error(
                .unsupportedType(
                    typeName: AMC.unqualifiedName(of: type(of: box.value)),
                    reason: "only strings, numbers, bools, dates, data, arrays and dictionaries can be written"))
        }
    }
}

extension ArchiveScalar {
    /// "date" or "data" for the values JSON has no type for; nil for the rest.
    fileprivate var jsonLessKind: String? {
        switch self {
        case .date: "date"
        case .data: "data"
        default: nil
        }
    }
}
