@_spi(Benchmarks) import AutoMagicCoding
import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The views of the markup benchmark: the seed's pharmacy cell, as plain classes.
public class BenchMarkupView: AMCMarkupElement {
    public var weight = 0.0
    public var subviews: [BenchMarkupView] = []
    public class var amcMarkupContentKey: String? { "subviews" }
    public required init() {}
}

public final class BenchMarkupColumn: BenchMarkupView {
    public var spacing = 0.0
    public var layoutMarginBottom = 0.0
}

public final class BenchMarkupRow: BenchMarkupView {
    public var spacing = 0.0
    public var alignToBaseline = false
}

public final class BenchMarkupLabel: BenchMarkupView {
    public var text = ""
    public var font = AMCFont()
    public var textColor = AMCColor(white: 0)
    public var numberOfLines = 1
}

public final class BenchMarkupImage: BenchMarkupView {
    public var image = ""
}

/// The owner of a cell's outlets.
public final class BenchPharmacyCell: AMCCodable {
    public var nameLabel: BenchMarkupLabel?
    public var distanceLabel: BenchMarkupLabel?
    public required init() {}
}

extension Benchmark {
    /// The name `run(records:models:)` takes for markup.
    public static let markupName = "markup"

    /// The bars of markup, against Foundation's `XMLParser` in the same run: the reader, a
    /// parse and build, a build of a parsed document; and setting by key path against the
    /// conversion alone.
    /// `reader` is the element reader's alone (reading into a kept document is reported beside
    /// it, with no bar of its own: the parse-and-build bar covers it); `memory`: the bytes a
    /// parsed document holds, against its source's.
    static let markupBars = (reader: 1.0 / 3, parseAndBuild: 1.0, build: 0.5, setting: 1.5, memory: 3.0)

    static let markupBuilder: AMCMarkupBuilder = {
        var builder = AMCMarkupBuilder()
        let registry = AMCRegistry()
        registry.register(
            BenchMarkupView.self, BenchMarkupColumn.self, BenchMarkupRow.self, BenchMarkupLabel.self, BenchMarkupImage.self)
        builder.archiver.registry = registry
        return builder
    }()

    /// A column of pharmacy cells (the seed's `PharmacyCell.xml`, 10 elements each) with about
    /// `elements` elements in all.
    static func markupDocument(elements: Int) -> String {
        let cell = """
                <BenchMarkupColumn spacing="4" layoutMarginBottom="8">
                    <BenchMarkupRow alignToBaseline="true" spacing="4">
                        <BenchMarkupLabel weight="1" font="bold 16" text="CVS"/>
                        <BenchMarkupLabel font="14" textColor="#808080" text="0.42 mi"/>
                    </BenchMarkupRow>
                    <BenchMarkupLabel numberOfLines="0" font="14" text="263 Washington Street"/>
                    <BenchMarkupColumn spacing="4">
                        <BenchMarkupRow>
                            <BenchMarkupImage image="phone_icon"/>
                            <BenchMarkupLabel weight="1" font="12" text="617-742-7035"/>
                        </BenchMarkupRow>
                    </BenchMarkupColumn>
                </BenchMarkupColumn>

            """
        let cells = String(repeating: cell, count: max(1, (elements - 1) / 10))
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<BenchMarkupColumn>\n" + cells + "</BenchMarkupColumn>\n"
    }

    /// Markup against `XMLParser`: reading, building, building again, each in turn with
    /// `XMLParser` run by run; then setting by key path.
    static func timeMarkup(elements: Int, timer: inout Timer) throws {
        let data = Data(markupDocument(elements: elements).utf8)
        let builder = markupBuilder
        let markup = try AMCMarkup(data: data)
        let read = "AMCMarkup(data:) (markup read)"
        try timer.compare(
            "XMLParser parse (markup, elements counted)", bytes: data, { try Self.countElements(data) },
            with: [
                .init(name: "element reader (markup, elements counted)", bar: markupBars.reader, bytes: data) {
                    try AMCMarkup.countingElements(in: data)
                },
                .init(name: read, bytes: data) { try AMCMarkup(data: data) },
                .init(name: "AMCMarkup(data:) + build (markup)", bar: markupBars.parseAndBuild, bytes: data) {
                    try AMCMarkup(data: data).build(BenchMarkupColumn.self, using: builder)
                },
                .init(name: "build from a parsed document (markup)", bar: markupBars.build, bytes: data) {
                    try markup.build(BenchMarkupColumn.self, using: builder)
                },
            ])
        // Size: the bytes a parsed document holds ÷ its source's, weighed on a document ten times
        // larger, beside which the small blocks malloc keeps for reuse weigh nothing.
        let large = Data(markupDocument(elements: elements * 10).utf8)
        var room = AMCMarkup.Options()
        room.maximumElements = Int.max
        room.maximumBytes = Int.max
        if let held = try allocatedBytes(by: { try AMCMarkup(data: large, options: room) }),
            let row = timer.rows.lastIndex(where: { $0.name == read })
        {
            timer.rows[row].sizeRatio = Double(held) / Double(large.count)
            timer.rows[row].sizeBar = markupBars.memory
        }
        try timeSetting(timer: &timer)
    }

    /// The attributes of a cell set by key path and as a style, against converting their
    /// strings alone.
    private static func timeSetting(timer: inout Timer) throws {
        let label = BenchMarkupLabel()
        let column = BenchMarkupColumn()
        func convert() throws {
            _ = try AMC.value(Double.self, from: "4")
            _ = try AMC.value(Double.self, from: "8")
            _ = try AMC.value(Double.self, from: "1")
            _ = try AMC.value(AMCFont.self, from: "bold 16")
            _ = try AMC.value(String.self, from: "CVS")
            _ = try AMC.value(AMCFont.self, from: "14")
            _ = try AMC.value(AMCColor.self, from: "#808080")
            _ = try AMC.value(Int.self, from: "0")
        }
        try timer.time("AMC.value(_:from:) (a cell's 8 attribute strings)") { try convert() }
        try timer.time(
            "setValue(string:forKeyPath:) (a cell's 8 attributes)", against: "AMC.value(_:from:) (a cell's 8 attribute strings)",
            bar: markupBars.setting
        ) {
            try column.setValue(string: "4", forKeyPath: "spacing")
            try column.setValue(string: "8", forKeyPath: "layoutMarginBottom")
            try label.setValue(string: "1", forKeyPath: "weight")
            try label.setValue(string: "bold 16", forKeyPath: "font")
            try label.setValue(string: "CVS", forKeyPath: "text")
            try label.setValue(string: "14", forKeyPath: "font")
            try label.setValue(string: "#808080", forKeyPath: "textColor")
            try label.setValue(string: "0", forKeyPath: "numberOfLines")
        }
        let styles: [(BenchMarkupView, [String: Any])] = [
            (column, ["spacing": "4", "layoutMarginBottom": "8"]),
            (label, ["weight": "1", "font": "bold 16", "text": "CVS"]),
            (BenchMarkupLabel(), ["font": "14", "textColor": "#808080", "numberOfLines": "0"]),
        ]
        try timer.time(
            "apply(style:) (a cell's 8 attributes, as 3 styles)", against: "AMC.value(_:from:) (a cell's 8 attribute strings)",
            bar: markupBars.setting
        ) {
            for (view, style) in styles { try view.apply(style: style) }
        }
    }

    /// The bytes what `make` returns holds (allocated while it ran and not freed when it
    /// returned); nil unless ``AllocatedBytes`` tells, and tells a known block's size within a
    /// twentieth.
    private static func allocatedBytes<T>(by make: () throws -> T) throws -> Int? {
        guard let start = AllocatedBytes.now else { return nil }
        let block = [UInt8](repeating: 1, count: 8 << 20)
        guard let before = AllocatedBytes.now, abs(before - start - block.count) < block.count / 20 else { return nil }
        let made = try make()
        guard let after = AllocatedBytes.now else { return nil }
        withExtendedLifetime((block, made)) {}
        return after - before
    }

    /// Parses `data` with Foundation's `XMLParser`, counting elements.
    private static func countElements(_ data: Data) throws -> Int {
        final class Counter: NSObject, XMLParserDelegate {
            var elements = 0
            func parser(
                _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]
            ) {
                elements += 1
            }
        }
        let parser = XMLParser(data: data)
        let counter = Counter()
        parser.delegate = counter
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.propertyListReadCorrupt) }
        return counter.elements
    }
}
