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
/// `[n]` counts its same-named siblings in the branches of `<?if?>` that are built.
final class MarkupPaths: Sendable {
    let nodes: [MarkupNode]
    let conditions: Set<String>

    init(nodes: [MarkupNode], conditions: Set<String>) {
        self.nodes = nodes
        self.conditions = conditions
    }

    /// The path of the element node at `target`, from the document's root element down.
    func path(of target: Int) -> String {
        var path = ""
        // The root element has no index; below it, every element is looked for among its
        // parent's children.
        var parent: Int?
        var child = 0
        var end = nodes.count
        while child < end {
            let node = nodes[child]
            guard child <= target, target < node.end, case let .element(name, _) = node.content else {
                child = node.end
                continue
            }
            if let parent, let index = siblingIndex(of: child, in: parent) {
                path += "/\(name)[\(index)]"
            } else {
                path += "/" + name
            }
            if child == target { break }
            parent = child
            end = node.end
            child += 1
        }
        return path
    }

    /// The `[n]` of the child element at `child` of `parent`: its place among same-named
    /// siblings, nil when it has none.
    private func siblingIndex(of child: Int, in parent: Int) -> Int? {
        guard case let .element(name, _) = nodes[child].content else { return nil }
        var count = 0
        var index: Int?
        var skipping: [Bool] = []
        var next = parent + 1
        while next < nodes[parent].end {
            let node = nodes[next]
            defer { next = node.end }
            if condition(node, skipping: &skipping) || skipping.last == true { continue }
            guard case let .element(other, _) = node.content, other == name else { continue }
            count += 1
            if next == child { index = count }
        }
        return count > 1 ? index : nil
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
