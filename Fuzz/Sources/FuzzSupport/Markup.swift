import AutoMagicCoding
import Foundation

/// A view tree for markup: every kind of attribute, children, text, instructions, untyped
/// elements, a factory and a property element.
public class FuzzMarkupView: AMCMarkupElement {
    public var name = ""
    public var count = 0
    public var ratio = 1.0
    public var hidden = false
    public var alpha: Double? = 1
    public var state = FuzzState.draft
    public var size = CGSize.zero
    public var color = AMCColor(white: 0)
    public var note = ""
    public var subviews: [FuzzMarkupView] = []
    public var header: FuzzMarkupLeaf?
    public var breaks = 0
    public class var amcMarkupContentKey: String? { "subviews" }
    public class var amcMarkupTextKey: String? { "note" }
    public class var amcMarkupInstructions: Set<String> { ["break"] }
    public class var amcMarkupElements: Set<String> { ["section"] }
    public class var amcMarkupFactoryNames: [String] { ["big"] }
    public required init() {}

    public static func amcMarkupFactory(_ name: String) -> Self? {
        guard name == "big" else { return nil }
        let view = Self()
        view.size = CGSize(width: 100, height: 100)
        return view
    }

    public func amcProcessMarkupInstruction(_ target: String, data: String?, _ context: AMCMarkupContext) throws {
        guard target == "break" else { throw context.error("no instruction <?\(target)?>") }
        breaks += 1
    }

    public func amcProcessMarkupElement(
        _ name: String, attributes: [(name: String, value: String)], _ context: AMCMarkupContext
    ) throws {
        count += attributes.count
    }
}

public final class FuzzMarkupLabel: FuzzMarkupView {}

public final class FuzzMarkupLeaf: AMCCodable {
    public var label = ""
    public var weight = 0
    public required init() {}
}

public enum Markups {
    /// Builds are made with these types only.
    static let builder: AMCMarkupBuilder = {
        var builder = AMCMarkupBuilder()
        let registry = AMCRegistry()
        registry.register(FuzzMarkupView.self, FuzzMarkupLabel.self, FuzzMarkupLeaf.self)
        builder.archiver.registry = registry
        builder.strings = ["title": "Title", "empty": ""]
        return builder
    }()

    /// The element reader: a document parses, or its error says where; what parses prints a
    /// tree that parses into the same tree.
    public static func fuzzReader(_ data: Data) {
        let markup: AMCMarkup
        do {
            markup = try AMCMarkup(data: data)
        } catch let error as AMCError {
            invariant(error.location != nil, "a reader error without a place: \(error)")
            return
        } catch {
            invariant(false, "not an AMCError: \(error)")
            return
        }
        let printed = markup.printedTree
        do {
            let again = try AMCMarkup(string: printed)
            invariant(again.printedTree == printed, "the printed tree reads differently:\n\(printed)\n---\n\(again.printedTree)")
            invariant(again.elementCount == markup.elementCount, "element counts differ")
        } catch {
            invariant(false, "the printed tree does not read: \(error)\n\(printed)")
        }
    }

    /// The builder: a tree builds, or every fault says where; what builds writes markup that
    /// builds into the same tree.
    public static func fuzzBuilder(_ data: Data) {
        guard let markup = try? AMCMarkup(data: data) else { return }
        let owner = FuzzMarkupLeafOwner()
        let view: FuzzMarkupView
        do {
            view = try markup.build(FuzzMarkupView.self, owner: owner, using: builder)
        } catch let error as AMCError {
            guard case let .invalidMarkup(faults) = error.kind else {
                invariant(false, "a build error that is no list of faults: \(error)")
                return
            }
            invariant(!faults.isEmpty, "an empty list of faults")
            for fault in faults { invariant(fault.location != nil, "a fault without a place: \(fault)") }
            invariant(owner.first == nil, "a failed build assigned to the owner")
            return
        } catch {
            invariant(false, "not an AMCError: \(error)")
            return
        }
        var writer = AMCMarkupWriter()
        writer.archiver = builder.archiver
        guard let written = try? writer.markup(of: view) else { return }  // what markup cannot hold (a nil after a value)
        do {
            let rebuilt = try AMCMarkup(string: written).build(FuzzMarkupView.self, using: builder)
            invariant(try writer.markup(of: rebuilt) == written, "the tree built from its markup differs:\n\(written)")
        } catch {
            invariant(false, "written markup does not build: \(error)\n\(written)")
        }
    }
}

/// An owner with one outlet.
final class FuzzMarkupLeafOwner: AMCCodable {
    var first: FuzzMarkupView?
    required init() {}
}
