import Foundation

/// An XML markup document that describes a tree of objects (MarkupKit's job): each element
/// names a registered type, each attribute sets a property from a string by key path, child
/// elements go to their parent, and `id`s bind objects to an owner's properties. Parsed once
/// (includes read, limits checked), it builds any number of trees.
///
/// ```swift
/// let markup = try AMCMarkup(string: """
///     <Column spacing="4">
///         <Label id="nameLabel" text="CVS" font="bold 16"/>
///         <Label text="0.42 mi" textColor="#808080"/>
///     </Column>
///     """)
/// let cell = PharmacyCell()
/// let column = try markup.build(Column.self, owner: cell)   // cell.nameLabel is the first label
/// ```
///
/// Only types in the builder's registry are ever instantiated. Building is all or nothing: on
/// any fault, nothing is assigned to the owner, and one ``AMCError`` lists every fault with its
/// file, line, column and element path.
public struct AMCMarkup: Sendable {
    /// Limits on what a document (with everything it includes) may make the reader do.
    ///
    /// ```swift
    /// var options = AMCMarkup.Options()
    /// options.maximumDepth = 64
    /// let markup = try AMCMarkup(contentsOf: url, options: options)
    /// ```
    public struct Options: Sendable {
        /// How deeply includes may nest.
        public var maximumIncludeDepth = 16
        /// How deeply elements may nest; the root is at depth 1.
        public var maximumDepth = 256
        /// How many elements the document and its includes may hold.
        public var maximumElements = 1_000_000
        /// How many bytes the document and its includes may hold.
        public var maximumBytes = 64 << 20

        /// The default limits.
        ///
        /// ```swift
        /// let options = AMCMarkup.Options()   // 16 includes deep, 256 elements deep
        /// ```
        public init() {}
    }

    /// The document's nodes in document order: an element's descendants follow it, up to its
    /// ``MarkupNode/end``. Whitespace-only text is left out; includes are read in.
    let nodes: [MarkupNode]
    /// The attributes of every element, one after another (see ``MarkupNode/Content/element(name:attributes:)``).
    let attributes: [MarkupAttribute]
    /// The files nodes come from, as errors name them: the document's first (nil when it has
    /// no URL), then each included one with where it was included.
    let files: [String?]
    /// How many numbers the element and attribute names were given (see
    /// ``MarkupNode/nameNumber``): every number is below it.
    let nameCount: Int

    /// Reads the markup in the file at `url`; includes are read relative to it.
    ///
    /// ```swift
    /// let markup = try AMCMarkup(contentsOf: Bundle.main.url(forResource: "PharmacyCell", withExtension: "xml")!)
    /// ```
    public init(contentsOf url: URL, options: Options = Options()) throws {
        let data = try MarkupReader.read(url, limit: options.maximumBytes, file: url.relativePath)
        try self.init(data: data, url: url, options: options)
    }

    /// Reads markup from `data`; `url`, when given, is where includes are read relative to and
    /// what errors name.
    ///
    /// ```swift
    /// let markup = try AMCMarkup(data: Data("<Label text=\"Hi\"/>".utf8))
    /// ```
    public init(data: Data, url: URL? = nil, options: Options = Options()) throws {
        var reader = MarkupReader(options: options, root: url)
        try reader.read(data, url: url, includedAt: nil)
        nodes = Self.fitted(reader.nodes)
        attributes = Self.fitted(reader.attributes)
        files = reader.files
        nameCount = reader.names.keys.count
    }

    /// `array` in storage of its own size: a document is kept for many builds, so the room
    /// its arrays grew into while it was read is given back.
    private static func fitted<Element>(_ array: [Element]) -> [Element] {
        guard array.capacity > array.count + array.count / 8 else { return array }
        var fitted: [Element] = []
        fitted.reserveCapacity(array.count)
        fitted.append(contentsOf: array)
        return fitted
    }

    /// Reads markup from a string.
    ///
    /// ```swift
    /// let markup = try AMCMarkup(string: "<Label text=\"Hi\"/>")
    /// ```
    public init(string: String, url: URL? = nil, options: Options = Options()) throws {
        try self.init(data: Data(string.utf8), url: url, options: options)
    }
}

/// One node of a parsed ``AMCMarkup``.
struct MarkupNode: Sendable {
    enum Content: Sendable {
        /// An element, whose attributes are these of ``AMCMarkup/attributes``.
        case element(name: String, attributes: Range<Int>)
        /// Text with something besides white space in it, or a CDATA section.
        case text(String, isCDATA: Bool)
        case instruction(target: String, data: String?)
    }

    let content: Content
    /// For an element, the index past its last descendant; for others, the index past itself.
    var end: Int
    /// Which of ``AMCMarkup/files`` the node is in.
    let file: Int
    let line: Int32
    let column: Int32
    /// An element's name's number, the same for each element of that name in the document and
    /// its includes; -1 for other nodes.
    let nameNumber: Int32
}

/// An attribute of a markup element, where its name starts, with the numbers of its name and
/// value: the same for each attribute of that name, or of that value, in the document and its
/// includes.
struct MarkupAttribute: Sendable {
    let name: String
    let value: String
    let line: Int32
    let column: Int32
    let nameNumber: Int32
    let valueNumber: Int32
}

/// Reads a markup document and what it includes into nodes, within the options' limits.
struct MarkupReader {
    let options: Options
    typealias Options = AMCMarkup.Options
    /// The folder includes may not leave: the first document's.
    let rootFolder: String?
    var nodes: [MarkupNode] = []
    var attributes: [MarkupAttribute] = []
    var files: [String?] = []
    /// The element and attribute names met, numbered across the document and its includes.
    var names = KeyTable()
    /// The attribute values met, numbered across the document and its includes.
    var values = KeyTable()
    private var elementCount = 0
    private var byteCount = 0
    /// The files being read, outermost first, for include cycles.
    private var chain: [String] = []
    /// The elements open across includes, for the depth limit.
    private var depth = 0

    init(options: Options, root: URL?) {
        self.options = options
        rootFolder = root.map { Self.canonical($0.deletingLastPathComponent()) }
    }

    /// Reads `data`, the document at `url` (included at the instruction `includedAt`
    /// describes, or the first document).
    mutating func read(_ data: Data, url: URL?, includedAt: String?) throws {
        let file = files.count
        // Named as given (relative paths stay relative), as a user wrote it.
        let name = url?.relativePath
        files.append(includedAt.map { "\(name ?? "") (included from \($0))" } ?? name)
        byteCount += data.count
        guard byteCount <= options.maximumBytes else {
            throw fault("the markup and its includes hold more than \(options.maximumBytes) bytes (maximumBytes)", file: file)
        }
        if let url { chain.append(Self.canonical(url)) }
        defer { if url != nil { chain.removeLast() } }
        do {
            try XMLScanner.scanning(data) { scanner in
                // Room for the first document's nodes and attributes, so that their arrays need
                // not grow while it is read nor be copied into storage of their size after (see
                // `fitted`), as long as the counts (which see `<` and `=` in text and comments
                // too) are near; never more than the element limit allows. An included document's
                // arrays grow as arrays do.
                if includedAt == nil {
                    let (startTags, equalSigns) = scanner.bytes.markupCounts()
                    let elements = min(startTags, options.maximumElements)
                    nodes.reserveCapacity(elements + elements / 16)
                    attributes.reserveCapacity(min(equalSigns, elements * Self.reservedAttributesPerElement))
                }
                var events = try XMLPullReader(scanner, skipsBlankText: true)
                events.values = KeyTable()
                // The tables go to the reader of each document, and come back after it.
                swapTables(with: &events)
                defer { swapTables(with: &events) }
                var lines = LineCounter()
                var sawRoot = false
                var open: [Int] = []
                // The open <?if?>s: the element depth each is at, and whether it has met its <?else?>.
                var conditions: [(depth: Int, sawElse: Bool)] = []
                while let event = try events.next() {
                    switch event {
                    case let .start(name, offset):
                        sawRoot = true
                        elementCount += 1
                        depth += 1
                        let (line, column) = lines.position(of: offset, in: events.scanner)
                        guard elementCount <= options.maximumElements else {
                            throw fault(
                                "more than \(options.maximumElements) elements (maximumElements)", file: file, line: line,
                                column: column)
                        }
                        guard depth <= options.maximumDepth else {
                            throw fault(
                                "elements nested more than \(options.maximumDepth) deep (maximumDepth)", file: file, line: line,
                                column: column)
                        }
                        let first = attributes.count
                        for attribute in events.attributes {
                            let (line, column) = lines.position(of: attribute.offset, in: events.scanner)
                            attributes.append(
                                MarkupAttribute(
                                    name: attribute.name, value: attribute.value, line: line, column: column,
                                    nameNumber: Int32(attribute.nameNumber), valueNumber: Int32(attribute.valueNumber)))
                        }
                        open.append(nodes.count)
                        append(
                            .element(name: name, attributes: first..<attributes.count), file: file, line: line, column: column,
                            nameNumber: Int32(events.nameNumber))
                    case let .end(_, offset):
                        if let last = conditions.last, last.depth == open.count {
                            let (line, column) = lines.position(of: offset, in: events.scanner)
                            throw fault("an <?if?> in this element has no <?end?>", file: file, line: line, column: column)
                        }
                        depth -= 1
                        nodes[open.removeLast()].end = nodes.count
                    case let .text(text, isCDATA, offset):
                        guard isCDATA || !TextTrimming.isBlank(text) else { continue }
                        let (line, column) = lines.position(of: offset, in: events.scanner)
                        append(.text(text, isCDATA: isCDATA), file: file, line: line, column: column)
                    case let .instruction(target, data, offset):
                        let (line, column) = lines.position(of: offset, in: events.scanner)
                        switch target {
                        case "include":
                            guard !open.isEmpty else {
                                throw fault("<?include?> belongs inside an element", file: file, line: line, column: column)
                            }
                            swapTables(with: &events)
                            defer { swapTables(with: &events) }
                            try include(data, from: url, file: file, line: line, column: column)
                        case "if", "else", "end":
                            try checkCondition(
                                target, data: data, open: &conditions, depth: open.count, file: file, line: line, column: column)
                            append(.instruction(target: target, data: data), file: file, line: line, column: column)
                        default:
                            // Before the root only <?properties?> means anything; after it, nothing.
                            guard !open.isEmpty || (target == "properties" && !sawRoot) else { continue }
                            append(.instruction(target: target, data: data), file: file, line: line, column: column)
                        }
                    }
                }
            }
        } catch let error as AMCError {
            guard case let .malformedData(_, location, reason) = error.kind else { throw error }
            throw AMCError(.markupFault(reason: "malformed XML: \(reason)"), file: files[file], location: location)
        }
    }

    /// How many attributes an element is given room for, at most, before a document is read.
    private static let reservedAttributesPerElement = 4

    /// Trades the tables of names and values with `events`': lent to the reader of a document,
    /// taken back for an include (read by a reader of its own), returned after it.
    private mutating func swapTables(with events: inout XMLPullReader) {
        swap(&events.names, &names)
        swap(&events.values!, &values)
    }

    /// (`nameNumber`: an element's name's number.)
    private mutating func append(
        _ content: MarkupNode.Content, file: Int, line: Int32, column: Int32, nameNumber: Int32 = -1
    ) {
        nodes.append(
            MarkupNode(content: content, end: nodes.count + 1, file: file, line: line, column: column, nameNumber: nameNumber))
    }

    private func checkCondition(
        _ target: String, data: String?, open: inout [(depth: Int, sawElse: Bool)], depth: Int, file: Int, line: Int32,
        column: Int32
    ) throws {
        guard depth > 0 else { throw fault("<?\(target)?> belongs inside an element", file: file, line: line, column: column) }
        switch target {
        case "if":
            guard let data, !data.isEmpty else {
                throw fault("<?if?> needs a condition: <?if name?> or <?if !name?>", file: file, line: line, column: column)
            }
            open.append((depth, false))
        case "else":
            guard let last = open.last, last.depth == depth, !last.sawElse else {
                throw fault("<?else?> with no <?if?> before it in this element", file: file, line: line, column: column)
            }
            open[open.count - 1].sawElse = true
        default:
            guard let last = open.last, last.depth == depth else {
                throw fault("<?end?> with no <?if?> before it in this element", file: file, line: line, column: column)
            }
            open.removeLast()
        }
    }

    /// Reads the file `<?include path?>` names, as a child of the open element.
    private mutating func include(_ path: String?, from url: URL?, file: Int, line: Int32, column: Int32) throws {
        let path = path ?? ""
        func refuse(_ reason: String) -> AMCError {
            fault("cannot include \"\(path)\": \(reason)", file: file, line: line, column: column)
        }
        guard let url, let rootFolder else { throw refuse("markup read without a URL includes nothing") }
        guard !path.isEmpty, !path.hasPrefix("/"), !path.hasPrefix("~"), !path.contains(":"), !path.contains("\\") else {
            throw refuse("an include names a file relative to the including one, with no scheme")
        }
        let target = url.deletingLastPathComponent().appendingPathComponent(path)
        let canonical = Self.canonical(target)
        guard canonical.hasPrefix(rootFolder + "/") else { throw refuse("it is outside the first document's folder") }
        guard !chain.contains(canonical) else {
            let names = (chain + [canonical]).map { ($0 as NSString).lastPathComponent }
            throw refuse("the includes go round in a circle: \(names.joined(separator: " → "))")
        }
        guard chain.count <= options.maximumIncludeDepth else {
            throw refuse("includes nest more than \(options.maximumIncludeDepth) deep (maximumIncludeDepth)")
        }
        let data = try MarkupReader.read(
            target, limit: options.maximumBytes - byteCount, file: files[file], location: .line(Int(line), column: Int(column)))
        let place = "\(files[file].map { ($0 as NSString).lastPathComponent } ?? "the markup"), line \(line), column \(column)"
        try read(data, url: target, includedAt: place)
    }

    /// The bytes of the file at `url`, refused unread when larger than `limit`.
    static func read(_ url: URL, limit: Int, file: String?, location: AMCError.Location? = nil) throws -> Data {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        guard size <= limit else {
            throw AMCError(
                .markupFault(reason: "\(url.lastPathComponent) would take the markup past its byte limit (maximumBytes)"),
                file: file, location: location)
        }
        guard let data = try? Data(contentsOf: url) else {
            let exists = FileManager.default.fileExists(atPath: url.path)
            throw AMCError(
                .fileSystem(path: url.relativePath, reason: exists ? "cannot be read" : "no such file"), file: file,
                location: location)
        }
        return data
    }

    /// `url`'s path with `.`, `..` and symbolic links resolved: what includes are compared by.
    private static func canonical(_ url: URL) -> String {
        url.standardizedFileURL.resolvingSymlinksInPath().path
    }

    private func fault(_ reason: String, file: Int, line: Int32? = nil, column: Int32? = nil) -> AMCError {
        AMCError(
            .markupFault(reason: reason), file: files[file],
            location: line.map { .line(Int($0), column: Int(column ?? 1)) })
    }
}

extension MarkupNode {
    var isInstruction: Bool {
        if case .instruction = content { return true }
        return false
    }
}

/// Lines and columns of offsets met in increasing order, counted once.
private struct LineCounter {
    private var offset = 0
    private var line: Int32 = 1
    private var lineStart = 0

    mutating func position(of target: Int, in scanner: XMLScanner) -> (line: Int32, column: Int32) {
        if target < offset {  // not in order: count again from the start
            offset = 0
            line = 1
            lineStart = 0
        }
        let (lineFeeds, start) = scanner.bytes.lineFeeds(in: offset..<target)
        line += Int32(clamping: lineFeeds)
        lineStart = start ?? lineStart
        offset = target
        return (line, Int32(clamping: target - lineStart + 1))
    }
}

extension AMCMarkup {
    /// The document's tree after includes, as `amc markup print` shows it: each element on a
    /// line of its own, indented by depth, with its attributes as written; text and instructions
    /// in place; where an included file starts, a comment naming it.
    ///
    /// ```swift
    /// print(try AMCMarkup(string: "<Column><Label text=\"Hi\"/></Column>").printedTree)
    /// // <Column>
    /// //   <Label text="Hi"/>
    /// // </Column>
    /// ```
    public var printedTree: String {
        var lines: [String] = []
        var open: [(end: Int, name: String, indent: String)] = []
        for (index, node) in nodes.enumerated() {
            while let last = open.last, last.end <= index {
                lines.append(last.indent + "</" + last.name + ">")
                open.removeLast()
            }
            let indent = String(repeating: "  ", count: open.count)
            if index > 0, node.file != nodes[index - 1].file, node.file != 0, case .element = node.content {
                lines.append(indent + "<!-- \(files[node.file] ?? "") -->")
            }
            switch node.content {
            case let .element(name, range):
                let written = attributes[range].map { " \($0.name)=\"\(MarkupWriting.escaped($0.value, attribute: true))\"" }
                    .joined()
                if node.end == index + 1 {
                    lines.append(indent + "<" + name + written + "/>")
                } else {
                    lines.append(indent + "<" + name + written + ">")
                    open.append((node.end, name, indent))
                }
            case let .text(text, isCDATA):
                lines.append(
                    indent
                        + (isCDATA
                            ? "<![CDATA[\(text)]]>"
                            : MarkupWriting.escaped(text.trimmingCharacters(in: .whitespacesAndNewlines), attribute: false)))
            case let .instruction(target, data):
                lines.append(indent + "<?" + target + (data.map { " " + $0 } ?? "") + "?>")
            }
        }
        while let last = open.popLast() { lines.append(last.indent + "</" + last.name + ">") }
        return lines.joined(separator: "\n")
    }

    /// How many elements the document holds, with what it includes.
    ///
    /// ```swift
    /// try AMCMarkup(string: "<Column><Label/></Column>").elementCount   // 2
    /// ```
    public var elementCount: Int {
        nodes.reduce(0) { count, node in
            if case .element = node.content { return count + 1 }
            return count
        }
    }
}

extension AMCMarkup {
    /// How many elements the XML document in `data` holds, read by the element reader markup is
    /// read with (every tag, attribute and reference checked; values not numbered) and nothing else made: what
    /// `amc bench` times against Foundation's `XMLParser`.
    ///
    /// ```swift
    /// @_spi(Benchmarks) import AutoMagicCoding
    /// let count = try AMCMarkup.countingElements(in: Data("<a><b/></a>".utf8))   // 2
    /// ```
    @_spi(Benchmarks) public static func countingElements(in data: Data) throws -> Int {
        try XMLScanner.scanning(data) { scanner in
            var reader = try XMLPullReader(scanner, skipsBlankText: true)
            var count = 0
            while let event = try reader.next() {
                if case .start = event { count += 1 }
            }
            return count
        }
    }
}
