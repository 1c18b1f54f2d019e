import Foundation
import Testing

@testable import AutoMagicCoding

enum TreeShape: String, CaseIterable {
    case round, square
}

final class TreeNode: AMCMarkupElement {
    var title = ""
    var count = 0
    var ratio = 1.5
    var flag = false
    var optionalRatio: Double? = 2
    var optionalName: String?
    var shape = TreeShape.round
    var size = CGSize(width: 1, height: 1)
    var note = ""
    var children: [TreeNode] = []
    var header: TreeLeaf?
    var link: TreeLeaf?
    var extras = [TreeLeaf()]
    static var amcMarkupContentKey: String? { "children" }
    static var amcMarkupTextKey: String? { "note" }
    required init() {}
}

final class TreeLeaf: AMCCodable {
    var label = "leaf"
    var weight = 0
    required init() {}
}

/// A generator of the same numbers on every run.
private struct SeededNumbers: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

private func treeBuilder() -> AMCMarkupBuilder {
    var builder = AMCMarkupBuilder()
    let registry = AMCRegistry()
    registry.register(TreeNode.self, TreeLeaf.self)
    builder.archiver.registry = registry
    return builder
}

private func treeWriter() -> AMCMarkupWriter {
    var writer = AMCMarkupWriter()
    writer.archiver = treeBuilder().archiver
    return writer
}

private func randomText(_ numbers: inout SeededNumbers) -> String {
    let pieces = ["a", "Zoë", " ", "@x", "$y", "^z", "<&>", "\"q\"", "\n", "\t", "]]", "日本", "0.5", ""]
    return (0..<Int.random(in: 0...4, using: &numbers)).map { _ in pieces.randomElement(using: &numbers)! }.joined()
}

private func randomTree(_ numbers: inout SeededNumbers, depth: Int, leaves: inout [TreeLeaf]) -> TreeNode {
    let node = TreeNode()
    node.title = randomText(&numbers)
    node.count = Int.random(in: -1_000_000...1_000_000, using: &numbers)
    node.ratio = [0, -0.0, 1e-300, 123.456, .pi, -2.5e10].randomElement(using: &numbers)!
    node.flag = Bool.random(using: &numbers)
    node.optionalRatio = [nil, 0.25, 2].randomElement(using: &numbers)!
    node.optionalName = [nil, "n", ""].randomElement(using: &numbers)!
    node.shape = TreeShape.allCases.randomElement(using: &numbers)!
    node.size = CGSize(width: Double(Int.random(in: 0...50, using: &numbers)), height: 2.5)
    let note = randomText(&numbers)
    node.note = note.contains("]]>") ? "" : note
    if Bool.random(using: &numbers) {
        let leaf = TreeLeaf()
        leaf.label = randomText(&numbers)
        leaf.weight = Int.random(in: 0...9, using: &numbers)
        node.header = leaf
        leaves.append(leaf)
    }
    if !leaves.isEmpty, Int.random(in: 0...3, using: &numbers) == 0 { node.link = leaves.randomElement(using: &numbers) }
    if Bool.random(using: &numbers) {
        node.extras = (0..<Int.random(in: 0...2, using: &numbers)).map { _ in
            let extra = TreeLeaf()
            extra.weight = Int.random(in: 0...9, using: &numbers)
            return extra
        }
    }
    if depth < 4 {
        node.children = (0..<Int.random(in: 0...3, using: &numbers)).map { _ in
            randomTree(&numbers, depth: depth + 1, leaves: &leaves)
        }
    }
    return node
}

@Suite("Markup writer: what it writes builds back into an equal tree")
struct MarkupWriterTests {
    @Test func randomTreesComeBackEqual() throws {
        var numbers = SeededNumbers(state: 48)
        for round in 0..<200 {
            var leaves: [TreeLeaf] = []
            let tree = randomTree(&numbers, depth: 0, leaves: &leaves)
            let text = try treeWriter().markup(of: tree)
            let built = try AMCMarkup(string: text).build(TreeNode.self, using: treeBuilder())
            // The same archive, sharing included, and the same markup written again.
            let archiver = treeBuilder().archiver
            #expect(
                try archiver.data(for: built, format: .json) == archiver.data(for: tree, format: .json),
                "round \(round):\n\(text)")
            #expect(try treeWriter().markup(of: built) == text, "round \(round)")
        }
    }

    @Test func theMarkupIsReadable() throws {
        let node = TreeNode()
        node.title = "@home"
        node.count = 3
        node.optionalRatio = nil
        let leaf = TreeLeaf()
        leaf.weight = 2
        node.header = leaf
        node.link = leaf
        let child = TreeNode()
        child.note = "Hi & bye"
        node.children = [child]
        #expect(
            try treeWriter().markup(of: node) == """
                <?xml version="1.0" encoding="UTF-8"?>
                <TreeNode title="^@home" count="3" optionalRatio="" link="$object1">
                    <TreeNode.header>
                        <TreeLeaf amc:id="object1" weight="2"/>
                    </TreeNode.header>
                    <TreeNode>Hi &amp; bye</TreeNode>
                </TreeNode>

                """)
    }

    @Test func whatMarkupCannotHoldIsAnErrorNamingTheProperty() throws {
        final class Tagged: AMCCodable {
            var tags: [String: Int] = ["a": 1]
            required init() {}
        }
        let writer = treeWriter()
        let unregistered = #expect(throws: AMCError.self) { _ = try writer.markup(of: Tagged()) }
        #expect(unregistered?.description.contains("Tagged is not registered") == true)
        writer.archiver.registry.register(Tagged.self)
        let dictionary = #expect(throws: AMCError.self) { _ = try writer.markup(of: Tagged()) }
        #expect(dictionary?.keyPath == "/Tagged/@tags")
        final class Constant: AMCCodable {
            let limit: Int
            var id = 0
            var note = ""
            init(limit: Int) { self.limit = limit }
            required init() { limit = 3 }
        }
        writer.archiver.registry.register(Constant.self)
        #expect(throws: Never.self) { _ = try writer.markup(of: Constant()) }
        let changedLet = #expect(throws: AMCError.self) { _ = try writer.markup(of: Constant(limit: 4)) }
        #expect(changedLet?.keyPath == "/Constant/@limit")
        let withID = Constant()
        withID.id = 7
        let plainID = #expect(throws: AMCError.self) { _ = try writer.markup(of: withID) }
        #expect(plainID?.description.contains(".prefixed") == true)
        var prefixed = writer
        prefixed.reservedAttributes = .prefixed
        #expect(try prefixed.markup(of: withID).contains("id=\"7\""))
        let control = Constant()
        control.note = "bell \u{7}"
        let controlError = #expect(throws: AMCError.self) { _ = try writer.markup(of: control) }
        #expect(controlError?.keyPath == "/Constant/@note")
        let optionalName = TreeNode()
        optionalName.optionalName = nil
        let node = TreeNode()
        node.optionalName = "x"
        #expect(throws: Never.self) { _ = try writer.markup(of: optionalName) }
    }
}
