import Foundation
import Testing

@testable import AutoMagicCoding

class MarkupView: AMCMarkupElement {
    var weight = 0.0
    var subviews: [MarkupView] = []
    class var amcMarkupContentKey: String? { "subviews" }
    /// A class var, so that subclasses can give their own (a `static var` of a subclass is not
    /// the conformance's).
    class var amcMarkupTextKey: String? { nil }
    required init() {}
    /// Declared here, so that subclasses can override it (the protocol's default is no method of
    /// the class).
    func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {}
}

final class MarkupColumn: MarkupView {
    var spacing = 0.0
    var layoutMarginBottom = 0.0
}

final class MarkupRow: MarkupView {
    var spacing = 0.0
    var alignToBaseline = false
}

final class MarkupLabel: MarkupView {
    var text = ""
    var font = AMCFont()
    var textColor = AMCColor(white: 0)
    var numberOfLines = 1
    override class var amcMarkupTextKey: String? { "text" }
}

final class MarkupImage: MarkupView {
    var image = ""
}

final class PharmacyCell: AMCCodable {
    var nameLabel: MarkupLabel?
    var distanceLabel: MarkupLabel?
    var addressLabel: MarkupLabel?
    var content: MarkupView?
    required init() {}
}

final class MarkupCell: MarkupView {
    var checked = false
    var title = ""
    override class var amcMarkupTextKey: String? { "title" }
}

final class MarkupSection: AMCCodable {
    var cells: [MarkupCell] = []
    required init() {}
}

final class MarkupTable: AMCMarkupElement {
    var sections: [MarkupSection] = [MarkupSection()]
    var selectionModes: [String] = []
    static var amcMarkupInstructions: Set<String> { ["sectionBreak", "sectionSelectionMode"] }
    static func amcMarkupFactory(_ name: String) -> MarkupTable? { name == "grouped" ? MarkupTable() : nil }
    static var amcMarkupFactoryNames: [String] { ["grouped"] }
    required init() {}

    func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
        guard let cell = child as? MarkupCell else { throw context.error("a table holds cells only") }
        sections[sections.count - 1].cells.append(cell)
    }

    func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws {
        switch target {
        case "sectionBreak": sections.append(MarkupSection())
        case "sectionSelectionMode": selectionModes.append(data ?? "")
        default: throw context.refusal("<?\(target)?>", of: Self.self, taking: Self.amcMarkupInstructions, as: "instruction")
        }
    }
}

/// A class written as a struct string: each attribute must make an instance of its own.
final class MarkupTag: AMCStructCodable {
    let name: String
    var amcStringValue: String { name }
    init(amcStringValue string: String) { name = string }
}

final class TaggedView: MarkupView {
    var tag = MarkupTag(amcStringValue: "")
    var center = CGPoint.zero
    var size = CGSize.zero
}

private let pharmacyCell = """
    <MarkupColumn spacing="4" layoutMarginBottom="8">
        <MarkupRow alignToBaseline="true" spacing="4">
            <MarkupLabel id="nameLabel" weight="1" font="bold 16"/>
            <MarkupLabel id="distanceLabel" font="14" textColor="#808080"/>
        </MarkupRow>
        <MarkupLabel id="addressLabel" numberOfLines="0" font="14"/>
        <MarkupColumn spacing="4">
            <MarkupRow>
                <MarkupImage image="phone_icon"/>
                <MarkupLabel weight="1" font="12"/>
            </MarkupRow>
        </MarkupColumn>
    </MarkupColumn>
    """

private func registeredBuilder() -> AMCMarkupBuilder {
    var builder = AMCMarkupBuilder()
    let registry = AMCRegistry()
    registry.register(MarkupView.self, MarkupColumn.self, MarkupRow.self, MarkupLabel.self, MarkupImage.self)
    registry.register(
        MarkupCell.self, MarkupTable.self, MarkupSection.self, LinkedLabel.self, MarkupBadge.self, PickyLabel.self,
        MarkupFrame.self, MarkupPanel.self, TaggedView.self, MarkupShelf.self, GuardedLabel.self, GuardedStack.self,
        LabelStack.self, CountingStack.self, BuiltCounter.self, PrefilledStack.self)
    builder.archiver.registry = registry
    return builder
}

private func faults(_ body: () throws -> Void) -> [AMCError] {
    do {
        try body()
    } catch let error as AMCError {
        if case let .invalidMarkup(errors) = error.kind { return errors }
        return [error]
    } catch {
        return []
    }
    return []
}

/// An owner holding an object of its own, which references can reach.
final class LiveOwner: AMCCodable {
    var label = LinkedLabel()
    var theme = "dark"
    required init() {}
}

/// A view pointing at a label.
final class LabelPair: MarkupView {
    var partner: LinkedLabel?
}

final class WeakOwner: AMCCodable {
    weak var title: MarkupLabel?
    var theme = "dark"
    required init() {}
}

final class LinkedLabel: MarkupView {
    var buddy: MarkupView?
    var caption = ""
    var id = 0
}

/// Refuses to finish when told to.
final class PickyLabel: MarkupView {
    var refuses = false

    override func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {
        if refuses { throw context.error("not today") }
    }
}

final class OutletOwner: AMCCodable {
    weak var weakOutlet: MarkupView?
    var strongOutlet: MarkupView?
    required init() {}
}

/// Holds one child, in an optional.
final class MarkupFrame: AMCMarkupElement {
    var content: MarkupView?
    static var amcMarkupContentKey: String? { "content" }
    required init() {}
}

/// Names a content key that is neither an array nor an optional.
final class MarkupPanel: AMCMarkupElement {
    var body = MarkupView()
    static var amcMarkupContentKey: String? { "body" }
    required init() {}
}

struct MarkupBadge: AMCMarkupElement {
    var label: MarkupView?
}

/// A struct container whose hooks note whether they work on the only copy of it: a copy beside
/// it would make its arrays copy themselves whole at each child.
struct MarkupShelf: AMCMarkupElement {
    final class Marker: AMCCodable {
        required init() {}
    }
    var items: [MarkupView] = []
    var marker = Marker()
    var aloneInEveryHook = true
    var marks = 0
    var notes = 0
    var built = false
    static var amcMarkupContentKey: String? { "items" }
    static var amcMarkupInstructions: Set<String> { ["mark"] }
    static var amcMarkupElements: Set<String> { ["note"] }

    mutating func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
        aloneInEveryHook = aloneInEveryHook && isKnownUniquelyReferenced(&marker)
        guard let view = child as? MarkupView else { throw context.error("a shelf holds views") }
        items.append(view)
    }

    mutating func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws {
        aloneInEveryHook = aloneInEveryHook && isKnownUniquelyReferenced(&marker)
        marks += 1
    }

    mutating func amcProcessMarkupElement(
        _ name: String, attributes: [(name: String, value: String)], _ context: AMCMarkupContext
    ) throws {
        aloneInEveryHook = aloneInEveryHook && isKnownUniquelyReferenced(&marker)
        notes += 1
    }

    mutating func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {
        aloneInEveryHook = aloneInEveryHook && isKnownUniquelyReferenced(&marker)
        built = true
    }
}

/// Takes its name itself once locked, and counts the strings its hook is asked for.
final class GuardedLabel: AMCMarkupElement {
    var name = ""
    var size = 0.0
    var locked = false
    var asked = 0
    required init() {}

    func amcSetString(_ string: String, forKey key: String) throws -> Bool {
        asked += 1
        guard key == "name", locked else { return false }
        name = "locked: " + string
        return true
    }
}

/// Holds its own kind only, with the default hook.
final class GuardedStack: AMCMarkupElement {
    var labels: [GuardedLabel] = []
    static var amcMarkupContentKey: String? { "labels" }
    required init() {}
}

/// Holds labels only, with the default hook.
final class LabelStack: AMCMarkupElement {
    var labels: [MarkupLabel] = []
    static var amcMarkupContentKey: String? { "labels" }
    required init() {}
}

/// Takes its children with a hook of its own, which counts them and puts each first.
final class CountingStack: AMCMarkupElement {
    var items: [MarkupView] = []
    var appended = 0
    static var amcMarkupContentKey: String? { "items" }
    required init() {}

    func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
        appended += 1
        guard let view = child as? MarkupView else { throw context.error("a stack holds views") }
        items.insert(view, at: 0)
    }
}

/// Holds a view of its own before any child, with the default hook.
final class PrefilledStack: AMCMarkupElement {
    var items: [MarkupView] = [MarkupColumn()]
    static var amcMarkupContentKey: String? { "items" }
    required init() {}
}

/// Counts the times it is told it is built.
final class BuiltCounter: AMCMarkupElement {
    var builtCalls = 0
    required init() {}

    func amcDidBuildMarkup(_ context: AMCMarkupContext) throws {
        builtCalls += 1
    }
}

@Suite("Markup: object trees built from XML")
struct MarkupBuildTests {
    @Test func aDidBuildHookOfItsOwnIsCalledInEveryBuild() throws {
        let markup = try AMCMarkup(string: "<MarkupShelf><MarkupView/></MarkupShelf>")
        let counter = try AMCMarkup(string: "<BuiltCounter/>")
        let builder = registeredBuilder()
        for _ in 0..<3 {
            #expect(try markup.build(MarkupShelf.self, using: builder).built)
            #expect(try counter.build(BuiltCounter.self, using: builder).builtCalls == 1)
        }
    }

    @Test func childrenFollowWhatAContentArrayHeldInDocumentOrder() throws {
        let children = (1...9).map { #"<MarkupLabel text="\#($0)"/>"# }.joined()
        let markup = try AMCMarkup(string: "<PrefilledStack>\(children)<MarkupImage/></PrefilledStack>")
        for _ in 0..<3 {
            let items = try markup.build(PrefilledStack.self, using: registeredBuilder()).items
            #expect(items.count == 11 && items.first is MarkupColumn && items.last is MarkupImage)
            #expect(items.compactMap { ($0 as? MarkupLabel)?.text } == (1...9).map { "\($0)" })
        }
    }

    @Test func roomMadeBeforeReadingIsBoundedByTheElementLimit() throws {
        // `<` and `=` in a comment are counted before the document is read, but the room made for
        // them stays within what the element limit allows.
        var options = AMCMarkup.Options()
        options.maximumElements = 10
        let text = "<a><!-- " + String(repeating: "<b =", count: 250_000) + " --></a>"
        var reader = MarkupReader(options: options, root: nil)
        try reader.read(Data(text.utf8), url: nil, includedAt: nil)
        #expect(reader.nodes.count == 1 && reader.nodes.capacity < 100)
        #expect(reader.attributes.isEmpty && reader.attributes.capacity < 100)
    }

    @Test func moreValuesThanAreKeptCycleAndEachSetsItsOwn() throws {
        let sizes = (1...12).map { "\($0)" }
        let labels = (sizes + sizes).map { #"<MarkupLabel weight="\#($0)" font="\#($0)"/>"# }.joined()
        let markup = try AMCMarkup(string: "<MarkupColumn>\(labels)</MarkupColumn>")
        let built = try markup.build(MarkupColumn.self, using: registeredBuilder()).subviews.compactMap { $0 as? MarkupLabel }
        #expect(built.map(\.weight) == (sizes + sizes).map { Double($0)! })
        #expect(built.map(\.font) == (sizes + sizes).map { AMCFont(size: Double($0)!) })
    }

    @Test func aValueMetAgainSetsWhatItSetTheFirstTimeAfterTheHookIsAsked() throws {
        let markup = try AMCMarkup(
            string: """
                <GuardedStack>
                    <GuardedLabel name="a" size="2"/>
                    <GuardedLabel locked="true" name="a" size="2"/>
                    <GuardedLabel name="a" size="3"/>
                    <GuardedLabel name="b" size="2.50"/>
                    <GuardedLabel name="a" size="2"/>
                </GuardedStack>
                """)
        let builder = registeredBuilder()
        for _ in 0..<2 {
            let labels = try markup.build(GuardedStack.self, using: builder).labels
            #expect(labels.map(\.name) == ["a", "locked: a", "a", "b", "a"])
            #expect(labels.map(\.size) == [2, 2, 3, 2.5, 2])
            #expect(labels.map(\.asked) == [2, 3, 2, 2, 2])
        }
    }

    @Test func valuesAndNamesMeanTheSameInAnIncludedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Each file's first value and first element name: numbered alike, they would be taken for each other.
        try #"<MarkupColumn spacing="4"><?include Part.xml?><MarkupColumn spacing="4"/></MarkupColumn>"#.write(
            to: folder.appendingPathComponent("Screen.xml"), atomically: true, encoding: .utf8)
        try #"<MarkupRow spacing="8"><MarkupColumn spacing="4" layoutMarginBottom="8"/></MarkupRow>"#.write(
            to: folder.appendingPathComponent("Part.xml"), atomically: true, encoding: .utf8)
        let column = try AMCMarkup(contentsOf: folder.appendingPathComponent("Screen.xml")).build(
            MarkupColumn.self, using: registeredBuilder())
        let row = try #require(column.subviews.first as? MarkupRow)
        let inner = try #require(row.subviews.first as? MarkupColumn)
        #expect(column.spacing == 4 && row.spacing == 8 && inner.spacing == 4 && inner.layoutMarginBottom == 8)
        #expect((column.subviews.last as? MarkupColumn)?.spacing == 4)
    }

    @Test func aChildTheContentArrayCannotHoldIsAFaultEachTime() throws {
        let markup = try AMCMarkup(
            string: """
                <LabelStack>
                    <MarkupLabel text="1"/><MarkupLabel text="2"/><MarkupImage/><MarkupLabel text="3"/><MarkupImage/>
                </LabelStack>
                """)
        let errors = faults { _ = try markup.build(LabelStack.self, using: registeredBuilder()) }
        #expect(errors.map(\.keyPath) == ["/LabelStack/MarkupImage[1]", "/LabelStack/MarkupImage[2]"])
        let fine = try AMCMarkup(
            string: "<LabelStack><MarkupLabel text=\"1\"/><MarkupLabel text=\"2\"/><MarkupLabel text=\"3\"/></LabelStack>")
        #expect(try fine.build(LabelStack.self, using: registeredBuilder()).labels.map(\.text) == ["1", "2", "3"])
    }

    @Test func aTypesOwnContentHookTakesEveryChild() throws {
        let markup = try AMCMarkup(
            string: "<CountingStack><MarkupView/><MarkupLabel/><MarkupView/><MarkupLabel/><MarkupView/></CountingStack>")
        let stack = try markup.build(CountingStack.self, using: registeredBuilder())
        #expect(stack.appended == 5)
        #expect(stack.items.map { $0 is MarkupLabel } == [false, true, false, true, false])
    }

    @Test func thePharmacyCellBuildsWithItsOutlets() throws {
        let markup = try AMCMarkup(string: pharmacyCell)
        let cell = PharmacyCell()
        let column = try markup.build(MarkupColumn.self, owner: cell, using: registeredBuilder())
        #expect(column.spacing == 4 && column.layoutMarginBottom == 8 && column.subviews.count == 3)
        let row = try #require(column.subviews[0] as? MarkupRow)
        #expect(row.alignToBaseline && row.subviews.count == 2)
        #expect(cell.nameLabel === row.subviews[0] && cell.distanceLabel === row.subviews[1])
        #expect(cell.addressLabel?.numberOfLines == 0 && cell.nameLabel?.font.size == 16)
        #expect(cell.distanceLabel?.textColor == AMCColor(red: 128 / 255.0, green: 128 / 255.0, blue: 128 / 255.0))
        // One parse serves many builds.
        let again = try markup.build(MarkupColumn.self, using: registeredBuilder())
        #expect(again !== column && again.subviews.count == 3)
    }

    @Test func theGroupedTableTakesItsInstructionsAndACheckedCell() throws {
        let markup = try AMCMarkup(
            string: """
                <MarkupTable factory="grouped">
                    <?sectionSelectionMode singleCheckmark?>
                    <MarkupCell>Small</MarkupCell>
                    <MarkupCell checked="true"><![CDATA[ Medium ]]></MarkupCell>
                    <?sectionBreak?>
                    <MarkupCell title="Large"/>
                </MarkupTable>
                """)
        let table = try markup.build(MarkupTable.self, using: registeredBuilder())
        #expect(table.selectionModes == ["singleCheckmark"])
        #expect(table.sections.map { $0.cells.map(\.title) } == [["Small", " Medium "], ["Large"]])
        #expect(table.sections[0].cells.map(\.checked) == [false, true])
    }

    @Test func everyFaultIsListedWithItsPlaceAndTheOwnerIsUntouched() throws {
        let markup = try AMCMarkup(
            string: """
                <MarkupColumn spacing="wide">
                    <MarkupLabl text="a"/>
                    <MarkupLabel id="nameLabel" textColour="#fff"/>
                    <MarkupLabel id="nameLabel"/>
                </MarkupColumn>
                """)
        let cell = PharmacyCell()
        let errors = faults { _ = try markup.build(MarkupColumn.self, owner: cell, using: registeredBuilder()) }
        #expect(cell.nameLabel == nil)
        #expect(
            errors.map(\.location) == [.line(1, column: 15), .line(2, column: 5), .line(3, column: 33), .line(4, column: 18)])
        #expect(
            errors.map(\.keyPath) == [
                "/MarkupColumn/@spacing", "/MarkupColumn/MarkupLabl", "/MarkupColumn/MarkupLabel[1]/@textColour",
                "/MarkupColumn/MarkupLabel[2]/@id",
            ])
        #expect(errors[1].description.contains("did you mean MarkupLabel?"))
        #expect(errors[2].kind == .unknownStyleKey(key: "textColour", typeName: "MarkupLabel", suggestion: "textColor"))
        #expect(errors[3].description.contains("used twice"))
    }

    /// Faults of references and ids are listed with the others, not only once those are mended;
    /// a reference to an id a fault left out is no fault of its own; the owner stays unbound.
    @Test func referenceAndIdFaultsAreListedWithTheOthers() throws {
        let cell = PharmacyCell()
        let markup = try AMCMarkup(
            string: """
                <MarkupColumn spacing="wide">
                    <MarkupLabel id="nameLable"/>
                    <MarkupLabel id="addressLabel"/>
                    <LinkedLabel buddy="$nobody"/>
                </MarkupColumn>
                """)
        let errors = faults { _ = try markup.build(MarkupColumn.self, owner: cell, using: registeredBuilder()) }
        #expect(
            errors.map(\.keyPath) == [
                "/MarkupColumn/@spacing", "/MarkupColumn/MarkupLabel[1]/@id", "/MarkupColumn/LinkedLabel/@buddy",
            ])
        #expect(errors[1].kind == .unknownStyleKey(key: "nameLable", typeName: "PharmacyCell", suggestion: "nameLabel"))
        #expect(cell.addressLabel == nil)

        let leftOut = try AMCMarkup(
            string: """
                <MarkupColumn>
                    <LinkedLabel buddy="$inside"/>
                    <LinkedLabel buddy="$nobody"/>
                    <LinkedLabel buddy="$inProperty"/>
                    <MarkupLabl><MarkupLabel id="inside"/></MarkupLabl>
                    <MarkupColumn.nope><MarkupLabel id="inProperty"/></MarkupColumn.nope>
                </MarkupColumn>
                """)
        let listed = faults { _ = try leftOut.build(MarkupColumn.self, using: registeredBuilder()) }
        #expect(
            listed.map(\.keyPath) == [
                "/MarkupColumn/MarkupLabl", "/MarkupColumn/MarkupColumn.nope", "/MarkupColumn/LinkedLabel[2]/@buddy",
            ])
    }

    /// A build with faults stores no reference, not even into an object of the owner's that a
    /// reference reaches.
    @Test func aFailedBuildStoresNoReference() throws {
        let owner = LiveOwner()
        owner.label.caption = "before"
        let builder = registeredBuilder()
        builder.archiver.registry.register(LabelPair.self)
        let markup = try AMCMarkup(
            string: #"<MarkupColumn spacing="wide"><LabelPair partner="$label" partner.caption="$theme"/></MarkupColumn>"#)
        let errors = faults { _ = try markup.build(MarkupColumn.self, owner: owner, using: builder) }
        #expect(errors.map(\.keyPath) == ["/MarkupColumn/@spacing"])
        #expect(owner.label.caption == "before")
        // An id the owner has no property for is a fault found before references are stored.
        let unknownId = try AMCMarkup(
            string: #"<MarkupColumn><LabelPair amc:id="pair" partner="$label" partner.caption="$theme"/></MarkupColumn>"#)
        let idFaults = faults { _ = try unknownId.build(MarkupColumn.self, owner: owner, using: builder) }
        #expect(idFaults.map(\.keyPath) == ["/MarkupColumn/LabelPair/@amc:id"])
        #expect(owner.label.caption == "before")
        // Without the fault, the reference reaches the owner's label.
        _ = try AMCMarkup(string: #"<MarkupColumn><LabelPair partner="$label" partner.caption="$theme"/></MarkupColumn>"#)
            .build(MarkupColumn.self, owner: owner, using: builder)
        #expect(owner.label.caption == "dark")
    }

    @Test func aStructsHooksWorkOnItsOnlyCopySoItsChildrenAreNotCopiedAtEachOne() throws {
        let markup = try AMCMarkup(
            string: "<MarkupShelf><MarkupView/><?mark?><MarkupLabel/><note/><MarkupView/><?mark?></MarkupShelf>")
        let shelf = try markup.build(MarkupShelf.self, using: registeredBuilder())
        #expect(shelf.items.count == 3 && shelf.items[1] is MarkupLabel && shelf.marks == 2 && shelf.notes == 1 && shelf.built)
        #expect(shelf.aloneInEveryHook)
    }

    @Test func repeatedStructStringsSetEqualValuesAndClassesStayApart() throws {
        let markup = try AMCMarkup(
            string: """
                <MarkupColumn>
                    <MarkupLabel font="bold 16" textColor="#808080"/>
                    <MarkupLabel font="bold 16" textColor="#808080"/>
                    <MarkupLabel font="14"/>
                    <TaggedView tag="a" center="10 20" size="10 20"/>
                    <TaggedView tag="a" center="10 20" size="10 20"/>
                </MarkupColumn>
                """)
        let column = try markup.build(MarkupColumn.self, using: registeredBuilder())
        let labels = column.subviews.compactMap { $0 as? MarkupLabel }
        let bold = AMCFont(size: 16, isBold: true)
        #expect(labels.map(\.font) == [bold, bold, AMCFont(size: 14)])
        #expect(labels.map(\.textColor) == [AMCColor(white: 128 / 255), AMCColor(white: 128 / 255), AMCColor(white: 0)])
        let tagged = column.subviews.compactMap { $0 as? TaggedView }
        #expect(tagged.count == 2 && tagged.allSatisfy { $0.tag.name == "a" } && tagged[0].tag !== tagged[1].tag)
        // The same string for fields of two types converts for each type.
        #expect(tagged.allSatisfy { $0.center == CGPoint(x: 10, y: 20) && $0.size == CGSize(width: 10, height: 20) })
    }

    @Test func repeatedStructStringsAreRightWhenKeyPathPlansAreNotKept() throws {
        // Past the process-wide bound of kept plans, each plan lives only for its own call.
        let view = TaggedView()
        for index in 0..<5_000 { _ = try? view.setValue(string: "1", forKey: "unknown\(index)") }
        let cells = String(repeating: #"<TaggedView center="10 20" size="10 20"/>"#, count: 20)
        let column = try AMCMarkup(string: "<MarkupColumn>\(cells)</MarkupColumn>").build(
            MarkupColumn.self, using: registeredBuilder())
        let tagged = column.subviews.compactMap { $0 as? TaggedView }
        #expect(tagged.count == 20)
        #expect(tagged.allSatisfy { $0.center == CGPoint(x: 10, y: 20) && $0.size == CGSize(width: 10, height: 20) })
    }

    @Test func elementPathsCountTheSiblingsThatAreBuilt() throws {
        let markup = try AMCMarkup(
            string: """
                <MarkupColumn>
                    <?if wide?><MarkupLabel bad="1"/><?else?><MarkupLabel/><MarkupLabel/><?end?>
                    <MarkupColumn.subviews>
                        <MarkupImage bad="2"/>
                        <MarkupImage bad="3"/>
                    </MarkupColumn.subviews>
                    <MarkupImage>text</MarkupImage>
                    <MarkupRow><MarkupRow/><MarkupRow><?unknown?></MarkupRow></MarkupRow>
                </MarkupColumn>
                """)
        var builder = registeredBuilder()
        builder.conditions = ["wide"]
        let errors = faults { _ = try markup.build(MarkupColumn.self, using: builder) }
        #expect(
            errors.map(\.keyPath) == [
                "/MarkupColumn/MarkupLabel/@bad", "/MarkupColumn/MarkupColumn.subviews/MarkupImage[1]/@bad",
                "/MarkupColumn/MarkupColumn.subviews/MarkupImage[2]/@bad", "/MarkupColumn/MarkupImage",
                "/MarkupColumn/MarkupRow/MarkupRow[2]",
            ])
        #expect(
            errors.map(\.location) == [
                .line(2, column: 29), .line(4, column: 22), .line(5, column: 22), .line(7, column: 18), .line(8, column: 39),
            ])
    }

    @Test func idsAreCheckedAgainstTheOwner() {
        let markup = try? AMCMarkup(
            string: "<MarkupColumn><MarkupLabel id=\"nameLable\"/><MarkupImage id=\"addressLabel\"/></MarkupColumn>")
        let cell = PharmacyCell()
        let errors = faults { _ = try markup?.build(MarkupColumn.self, owner: cell, using: registeredBuilder()) }
        #expect(errors.count == 2)
        #expect(
            errors[0].kind
                == .typeMismatch(
                    expected: "an object PharmacyCell.addressLabel holds (Optional<MarkupLabel>)", found: "a MarkupImage"))
        #expect(errors[1].kind == .unknownStyleKey(key: "nameLable", typeName: "PharmacyCell", suggestion: "nameLabel"))
        #expect(cell.addressLabel == nil && cell.nameLabel == nil)
    }

    @Test func unregisteredTypesAreNeverInstantiated() {
        var builder = AMCMarkupBuilder()
        builder.archiver.registry = AMCRegistry()
        let errors = faults { _ = try AMCMarkup(string: "<MarkupLabel text=\"x\"/>").build(MarkupLabel.self, using: builder) }
        #expect(errors.first?.description.contains("no registered type is named MarkupLabel") == true)
    }

    @Test func childrenTextAndInstructionsWhereNotTakenAreFaults() throws {
        let markup = try AMCMarkup(
            string: "<MarkupTable><MarkupCell><MarkupImage/></MarkupCell>text<?sectionBrake?></MarkupTable>")
        let errors = faults { _ = try markup.build(MarkupTable.self, using: registeredBuilder()) }
        // Text is set at its element's end, after the instruction.
        #expect(errors.count == 2)
        #expect(errors[0].description.contains("did you mean \"sectionBreak\"?"))
        #expect(errors[1].description.contains("<MarkupTable> takes no text"))
    }

    @Test func textAroundCommentsAndCDATAIsOneText() throws {
        for (text, expected) in [
            ("Hello<!-- x --> World", "Hello World"), ("a <![CDATA[<b>]]> c", "a <b> c"),
            ("  <![CDATA[ kept ]]>  ", " kept "), ("one<MarkupImage/>two", "onetwo"),
        ] {
            let label = try AMCMarkup(string: "<MarkupLabel>\(text)</MarkupLabel>").build(
                MarkupLabel.self, using: registeredBuilder())
            #expect(label.text == expected, "\(text)")
        }
    }

    @Test func aSecondChildNeverReplacesTheFirst() throws {
        let errors = faults {
            _ = try AMCMarkup(string: "<MarkupFrame><MarkupView/><MarkupView/></MarkupFrame>").build(
                MarkupFrame.self, using: registeredBuilder())
        }
        #expect(errors.count == 1 && errors[0].description.contains("has one already"))
        let single = faults {
            _ = try AMCMarkup(string: "<MarkupPanel><MarkupView/></MarkupPanel>").build(
                MarkupPanel.self, using: registeredBuilder())
        }
        #expect(single.count == 1 && single[0].description.contains("not as a MarkupView"))
    }

    @Test func conditionsStringsReferencesAndStyles() throws {
        var builder = registeredBuilder()
        builder.strings = ["greeting": "Hello"]
        builder.conditions = ["linux"]
        let markup = try AMCMarkup(
            string: """
                <?properties {"title": {"font": "bold 20", "numberOfLines": 2}}?>
                <MarkupColumn>
                    <?if linux?><MarkupLabel text="@greeting" class="title"/><?else?><MarkupImage/><?end?>
                    <?if !linux?><MarkupImage/><?end?>
                    <MarkupLabel text="^@literal" numberOfLines="3" class="title"/>
                </MarkupColumn>
                """)
        let column = try markup.build(MarkupColumn.self, using: builder)
        let labels = column.subviews.compactMap { $0 as? MarkupLabel }
        #expect(column.subviews.count == 2 && labels.map(\.text) == ["Hello", "@literal"])
        #expect(labels.map(\.numberOfLines) == [2, 3] && labels[0].font.size == 20)
    }

    @Test func malformedXMLStopsAtTheFirstErrorWithItsPlace() {
        for (text, line, column) in [("<MarkupColumn>\n<MarkupRow></MarkupColumn>", 2, 12), ("<a x=\"1\" x=\"2\"/>", 1, 10)] {
            let error = #expect(throws: AMCError.self) { _ = try AMCMarkup(string: text) }
            #expect(error?.location == .line(line, column: column), "\(text)")
        }
    }

    @Test func entitiesAndDeepNestingAreRefusedFast() {
        let laughs = "<!DOCTYPE a [<!ENTITY l \"lol\"><!ENTITY l2 \"&l;&l;\">]><a>&l2;</a>"
        #expect(throws: AMCError.self) { _ = try AMCMarkup(string: laughs) }
        let deep = String(repeating: "<MarkupView>", count: 100_000) + String(repeating: "</MarkupView>", count: 100_000)
        let error = #expect(throws: AMCError.self) { _ = try AMCMarkup(string: deep) }
        #expect(error?.description.contains("maximumDepth") == true)
    }

    @Test func twoHundredFiftySixLevelsBuildOnASmallStack() async throws {
        let text = String(repeating: "<MarkupView>", count: 256) + String(repeating: "</MarkupView>", count: 256)
        let markup = try AMCMarkup(string: text)
        let builder = registeredBuilder()
        let depth: Int = await withCheckedContinuation { continuation in
            let thread = Thread {
                var depth = 0
                if var view = try? markup.build(MarkupView.self, using: builder) {
                    depth = 1
                    while let child = view.subviews.first {
                        depth += 1
                        view = child
                    }
                }
                continuation.resume(returning: depth)
            }
            thread.stackSize = 512 << 10
            thread.start()
        }
        #expect(depth == 256)
        let tooDeep = "<MarkupView>" + text + "</MarkupView>"
        let error = #expect(throws: AMCError.self) { _ = try AMCMarkup(string: tooDeep) }
        #expect(error?.location == .line(1, column: 1 + 12 * 256))
    }

    @Test func includesStayInTheFirstDocumentsFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markup-\(UUID())")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("parts"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "<MarkupColumn><?include parts/Row.xml?></MarkupColumn>".write(
            to: folder.appendingPathComponent("Screen.xml"), atomically: true, encoding: .utf8)
        try "<MarkupRow spacing=\"2\"><MarkupLabel text=\"in\"/></MarkupRow>".write(
            to: folder.appendingPathComponent("parts/Row.xml"), atomically: true, encoding: .utf8)
        let column = try AMCMarkup(contentsOf: folder.appendingPathComponent("Screen.xml")).build(
            MarkupColumn.self, using: registeredBuilder())
        #expect((column.subviews.first as? MarkupRow)?.spacing == 2)

        for (name, text, reason) in [
            ("Up.xml", "<MarkupColumn><?include ../x.xml?></MarkupColumn>", "outside"),
            ("Abs.xml", "<MarkupColumn><?include /etc/passwd?></MarkupColumn>", "relative"),
            ("Url.xml", "<MarkupColumn><?include file:x.xml?></MarkupColumn>", "relative"),
            ("Loop.xml", "<MarkupColumn><?include Loop.xml?></MarkupColumn>", "circle: Loop.xml → Loop.xml"),
        ] {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            let error = #expect(throws: AMCError.self) { _ = try AMCMarkup(contentsOf: folder.appendingPathComponent(name)) }
            #expect(error?.description.contains(reason) == true, "\(name): \(String(describing: error))")
        }
    }

    @Test func propertyElementsSetTheirParentsProperty() throws {
        let markup = try AMCMarkup(
            string:
                "<MarkupColumn><MarkupColumn.subviews><MarkupLabel text=\"a\"/><MarkupImage/></MarkupColumn.subviews></MarkupColumn>"
        )
        let column = try markup.build(MarkupColumn.self, using: registeredBuilder())
        #expect(column.subviews.count == 2 && (column.subviews[0] as? MarkupLabel)?.text == "a")
        let wrong = try AMCMarkup(string: "<MarkupColumn><MarkupRow.subviews><MarkupImage/></MarkupRow.subviews></MarkupColumn>")
        let errors = faults { _ = try wrong.build(MarkupColumn.self, using: registeredBuilder()) }
        #expect(errors.count == 1 && errors[0].keyPath == "/MarkupColumn/MarkupRow.subviews")
    }

    @Test func weakOutletsAndReferencesForwardAndToTheOwner() throws {
        let owner = WeakOwner()
        let markup = try AMCMarkup(
            string: """
                <MarkupColumn>
                    <LinkedLabel amc:id="first" buddy="$second" caption="$theme"/>
                    <MarkupLabel id="title" amc:id="second"/>
                </MarkupColumn>
                """)
        _ = markup  // `id` and `amc:id` on one element are the same attribute twice: an error
        let error = faults { _ = try markup.build(MarkupColumn.self, owner: owner, using: registeredBuilder()) }
        // The owner has no property for the other id: listed too. ($second, whose id was refused, is not.)
        #expect(error.count == 2 && error[0].description.contains("id is given twice"))
        #expect(error.last?.kind == .unknownStyleKey(key: "first", typeName: "WeakOwner", suggestion: nil))

        let column = try AMCMarkup(
            string: """
                <MarkupColumn>
                    <LinkedLabel buddy="$title" caption="$theme"/>
                    <MarkupLabel id="title"/>
                </MarkupColumn>
                """
        ).build(MarkupColumn.self, owner: owner, using: registeredBuilder())
        let linked = try #require(column.subviews[0] as? LinkedLabel)
        #expect(linked.buddy === column.subviews[1] && linked.caption == "dark")
        #expect(owner.title === column.subviews[1])
        let unknown = faults {
            _ = try AMCMarkup(string: "<LinkedLabel buddy=\"$nobody\"/>").build(LinkedLabel.self, using: registeredBuilder())
        }
        #expect(unknown.count == 1 && unknown[0].keyPath == "/LinkedLabel/@buddy")
    }

    @Test func aDidBuildHookThatThrowsLeavesTheOwnersOutletsAsTheyWere() throws {
        let owner = OutletOwner()
        let before = MarkupView()
        owner.weakOutlet = before
        owner.strongOutlet = before
        let text = "<MarkupColumn><MarkupLabel id=\"weakOutlet\"/><PickyLabel id=\"strongOutlet\" refuses=\"%@\"/></MarkupColumn>"
        let errors = faults {
            _ = try AMCMarkup(string: text.replacingOccurrences(of: "%@", with: "yes")).build(
                MarkupColumn.self, owner: owner, using: registeredBuilder())
        }
        #expect(errors.count == 1 && errors[0].description.contains("not today"))
        #expect(owner.weakOutlet === before && owner.strongOutlet === before)
        let emptyOwner = OutletOwner()
        _ = faults {
            _ = try AMCMarkup(string: text.replacingOccurrences(of: "%@", with: "yes")).build(
                MarkupColumn.self, owner: emptyOwner, using: registeredBuilder())
        }
        #expect(emptyOwner.weakOutlet == nil && emptyOwner.strongOutlet == nil)
        let column = try AMCMarkup(string: text.replacingOccurrences(of: "%@", with: "no")).build(
            MarkupColumn.self, owner: owner, using: registeredBuilder())
        #expect(owner.weakOutlet === column.subviews[0] && owner.strongOutlet === column.subviews[1])
    }

    @Test func theBuildersNamesAndPropertiesOfTheSameName() throws {
        // LinkedLabel has a property `id`: under .plain the attribute is the builder's, an error.
        let plain = faults {
            _ = try AMCMarkup(string: "<LinkedLabel id=\"3\"/>").build(LinkedLabel.self, using: registeredBuilder())
        }
        #expect(plain.count == 1 && plain[0].description.contains(".prefixed"))
        var prefixed = registeredBuilder()
        prefixed.reservedAttributes = .prefixed
        let label = try AMCMarkup(string: "<LinkedLabel id=\"3\" amc:id=\"x\"/>").build(LinkedLabel.self, using: prefixed)
        #expect(label.id == 3)
    }

    @Test func theBuildersNamesWithAndWithoutPrefix() throws {
        let styles = #"<?properties {"big": {"numberOfLines": 2}}?>"#
        let twice = faults {
            _ = try AMCMarkup(string: styles + #"<MarkupLabel class="big" amc:class="big"/>"#).build(
                MarkupLabel.self, using: registeredBuilder())
        }
        #expect(twice.count == 1 && twice[0].description.contains("class is given twice"))
        var prefixed = registeredBuilder()
        prefixed.reservedAttributes = .prefixed
        let label = try AMCMarkup(string: styles + #"<MarkupLabel amc:class="big"/>"#).build(MarkupLabel.self, using: prefixed)
        #expect(label.numberOfLines == 2)
        _ = try AMCMarkup(string: #"<MarkupTable amc:factory="grouped"/>"#).build(MarkupTable.self, using: prefixed)
        let plainName = faults {
            _ = try AMCMarkup(string: styles + #"<MarkupLabel class="big"/>"#).build(MarkupLabel.self, using: prefixed)
        }
        #expect(plainName.map(\.keyPath) == ["/MarkupLabel/@class"])
    }

    @Test func unknownStylesFactoriesAndStructReferences() throws {
        let markup = try AMCMarkup(
            string: """
                <?properties {"title": {"numberOfLines": 2}}?>
                <MarkupTable factory="plain">
                    <MarkupCell class="titel"/>
                    <MarkupBadge label="$x"/>
                </MarkupTable>
                """)
        let errors = faults { _ = try markup.build(MarkupTable.self, using: registeredBuilder()) }
        let paths = [
            "/MarkupTable/@factory", "/MarkupTable/MarkupCell/@class", "/MarkupTable/MarkupBadge/@label",
            "/MarkupTable/MarkupBadge",
        ]
        #expect(errors.map(\.keyPath) == paths)
        #expect(errors[3].description.contains("a table holds cells only"))
        #expect(errors[0].description.contains("no factory \"plain\": it has grouped"))
        #expect(errors[1].description.contains("did you mean \"title\"?"))
        #expect(errors[2].description.contains("is a struct"))
    }

    @Test func includeDepthAndSizeBombsAreRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markup-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A chain of includes deeper than the limit, and a file that includes itself's twin many times.
        for level in 0..<20 {
            try "<MarkupColumn><?include \(level + 1).xml?></MarkupColumn>".write(
                to: folder.appendingPathComponent("\(level).xml"), atomically: true, encoding: .utf8)
        }
        try "<MarkupColumn/>".write(to: folder.appendingPathComponent("20.xml"), atomically: true, encoding: .utf8)
        let deep = #expect(throws: AMCError.self) { _ = try AMCMarkup(contentsOf: folder.appendingPathComponent("0.xml")) }
        #expect(deep?.description.contains("maximumIncludeDepth") == true)
        #expect(deep?.file?.contains("(included from") == true)

        try String(repeating: "<?include leaf.xml?>", count: 1000).wrapped.write(
            to: folder.appendingPathComponent("wide.xml"), atomically: true, encoding: .utf8)
        try ("<MarkupColumn>" + String(repeating: "<MarkupView/>", count: 100) + "</MarkupColumn>").write(
            to: folder.appendingPathComponent("leaf.xml"), atomically: true, encoding: .utf8)
        var options = AMCMarkup.Options()
        options.maximumElements = 10_000
        let wide = #expect(throws: AMCError.self) {
            _ = try AMCMarkup(contentsOf: folder.appendingPathComponent("wide.xml"), options: options)
        }
        #expect(wide?.description.contains("maximumElements") == true)
        options.maximumElements = 1_000_000
        options.maximumBytes = 100_000
        let big = #expect(throws: AMCError.self) {
            _ = try AMCMarkup(contentsOf: folder.appendingPathComponent("wide.xml"), options: options)
        }
        #expect(big?.description.contains("maximumBytes") == true)
    }

    @Test func buildIntoTakesTheRootElementsAttributesAndChildren() throws {
        let column = MarkupColumn()
        try AMCMarkup(string: "<root spacing=\"6\"><MarkupLabel text=\"a\"/></root>").build(
            into: column, using: registeredBuilder())
        #expect(column.spacing == 6 && column.subviews.count == 1)
        let untouched = MarkupColumn()
        let errors = faults {
            try AMCMarkup(string: "<root spacing=\"6\"><MarkupLabel txt=\"a\"/></root>").build(
                into: untouched, using: registeredBuilder())
        }
        #expect(errors.count == 1 && untouched.spacing == 0 && untouched.subviews.isEmpty)
    }
}

extension String {
    /// The string as the content of a `<MarkupColumn>`.
    fileprivate var wrapped: String { "<MarkupColumn>" + self + "</MarkupColumn>" }
}
