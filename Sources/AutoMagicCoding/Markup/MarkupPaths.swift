/// The element path of a place in a build (`/Column/Row/Label[2]/@textColour`), worked out when
/// an error or a hook asks: a build makes a place for every element, and few are ever named.
struct MarkupPlace: Sendable {
    /// The document's paths; nil for a place outside every element.
    let paths: MarkupPaths?
    /// The element node the path leads to.
    let element: Int
    /// What follows the element's path: `/@name` for an attribute, a key path for a style's entry.
    let suffix: String

    var path: String { (paths?.path(of: element) ?? "") + suffix }

    /// The place `suffix` further on: `place.appending("/@font")`.
    func appending(_ more: String) -> MarkupPlace {
        MarkupPlace(paths: paths, element: element, suffix: suffix + more)
    }
}

/// The element paths of a parsed document's nodes under a build's conditions: an element's
/// `[n]` counts its same-named siblings in the branches of `<?if?>` that are built. What a path
/// needs (each node's parent, each parent's sibling indexes) is worked out once, when first
/// asked, so that a document with a fault at every element costs no more than its size.
final class MarkupPaths: Sendable {
    let nodes: [MarkupNode]
    let conditions: Set<String>
    private let known = Locked(Known())

    private struct Known {
        /// Each node's parent element, -1 for none; empty until a path is asked for.
        var parents: [Int32] = []
        /// For each parent asked about, its child elements' `[n]` (those with same-named siblings).
        var siblingIndexes: [Int: [Int: Int]] = [:]
    }

    init(nodes: [MarkupNode], conditions: Set<String>) {
        self.nodes = nodes
        self.conditions = conditions
    }

    /// The path of the element node at `target`, from the document's root element down.
    func path(of target: Int) -> String {
        known.withLock { known in
            if known.parents.isEmpty { known.parents = parents() }
            var chain = [target]
            var up = Int(known.parents[target])
            while up >= 0 {
                chain.append(up)
                up = Int(known.parents[up])
            }
            var path = ""
            var parent: Int?
            for element in chain.reversed() {
                guard case let .element(name, _) = nodes[element].content else { break }
                path += "/" + name
                if let parent {
                    if known.siblingIndexes[parent] == nil { known.siblingIndexes[parent] = siblingIndexes(in: parent) }
                    if let index = known.siblingIndexes[parent]?[element] { path += "[\(index)]" }
                }
                parent = element
            }
            return path
        }
    }

    /// Each node's parent element (-1 for the top level), in one pass.
    private func parents() -> [Int32] {
        var parents = [Int32](repeating: -1, count: nodes.count)
        var open: [Int] = []
        for index in nodes.indices {
            while let last = open.last, nodes[last].end <= index { open.removeLast() }
            parents[index] = Int32(open.last ?? -1)
            if case .element = nodes[index].content { open.append(index) }
        }
        return parents
    }

    /// The `[n]` of the child elements of `parent` that have same-named siblings among those
    /// built.
    private func siblingIndexes(in parent: Int) -> [Int: Int] {
        var built: [(index: Int, name: String)] = []
        var counts: [String: Int] = [:]
        var skipping: [Bool] = []
        var next = parent + 1
        while next < nodes[parent].end {
            let node = nodes[next]
            defer { next = node.end }
            if condition(node, skipping: &skipping) || skipping.last == true { continue }
            guard case let .element(name, _) = node.content else { continue }
            built.append((next, name))
            counts[name, default: 0] += 1
        }
        var seen: [String: Int] = [:]
        var indexes: [Int: Int] = [:]
        for (index, name) in built where counts[name, default: 0] > 1 {
            seen[name, default: 0] += 1
            indexes[index] = seen[name]
        }
        return indexes
    }

    /// Whether `node` is `<?if?>`, `<?else?>` or `<?end?>`, then followed in `skipping` (for each
    /// open `<?if?>`, whether its branch is skipped).
    func condition(_ node: MarkupNode, skipping: inout [Bool]) -> Bool {
        guard case let .instruction(target, data) = node.content else { return false }
        switch target {
        case "if":
            let condition = data ?? ""
            let holds =
                condition.hasPrefix("!") ? !conditions.contains(String(condition.dropFirst())) : conditions.contains(condition)
            skipping.append((skipping.last ?? false) || !holds)
        case "else":
            let outer = skipping.count > 1 ? skipping[skipping.count - 2] : false
            skipping[skipping.count - 1] = outer || !skipping[skipping.count - 1]
        case "end":
            skipping.removeLast()
        default:
            return false
        }
        return true
    }
}
