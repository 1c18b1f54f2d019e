// Checks, in a release build (whole-module optimization), the behaviour that depends on the
// optimizer: which `let` properties decoding restores, read back through compiled code, and
// `weak`/`unowned` properties written through the runtime; and the depth limits where a document
// is 10,000 levels deep, which sanitizers cannot follow (their shadow call stacks are shallower
// than that). `.ci/run` runs it:
//
//     swift run -c release ReleaseChecks
import AutoMagicCoding
import Foundation

/// A record whose identity and creation date are `let`s made per instance, with two `let`s every
/// new instance agrees on: one from its declaration, one set in `init()` (both folded into the
/// code by the optimizer in this build when they are integers or floating point).
final class Note: AMCCodable {
    let id: UUID
    let created: Date
    let version = 3
    let scale: Double
    var title = ""
    weak var parent: Folder?
    unowned var owner: Folder

    required init() {
        id = UUID()
        created = Date()
        scale = 1.5
        owner = Folder.placeholder
    }
}

final class Folder: AMCCodable, @unchecked Sendable {  // for `placeholder`; never shared across threads
    var notes: [Note] = []
    required init() {}
    static let placeholder = Folder()
}

// Reading through functions the optimizer cannot see through from the call site.
@inline(never) func id(of note: Note) -> UUID { note.id }
@inline(never) func created(of note: Note) -> Date { note.created }
@inline(never) func version(of note: Note) -> Int { note.version }
@inline(never) func scale(of note: Note) -> Double { note.scale }
@inline(never) func parent(of note: Note) -> Folder? { note.parent }
@inline(never) func owner(of note: Note) -> Folder { note.owner }

var failures = 0
@MainActor func check(_ condition: Bool, _ what: String) {
    print("\(condition ? "ok  " : "FAIL") \(what)")
    if !condition { failures += 1 }
}

// The runtime self-test passes on the optimized library too (see AMC.checkRuntime()).
do {
    try AMC.checkRuntime()
    check(true, "the runtime reports the canaries' fields as declared, as MemoryLayout and the language do")
} catch {
    check(false, "the runtime self-test: \(error)")
}

AMC.register(Note.self, Folder.self)
let folder = Folder()
let note = Note()
note.title = "release"
note.parent = folder
note.owner = folder
folder.notes = [note]

do {
    for format in [AMCFormat.json, .binaryPropertyList] {
        let copy = try AMC.object(Folder.self, from: try AMC.data(for: folder, format: format))
        let decoded = copy?.notes.first
        check(decoded.map(id(of:)) == note.id, "\(format): let id made in init() is restored")
        check(decoded.map(created(of:)) == note.created, "\(format): let created (a Date) is restored exactly")
        check(decoded.map(version(of:)) == 3 && decoded.map(scale(of:)) == 1.5, "\(format): constant lets keep their value")
        check(
            decoded.flatMap(parent(of:)) === copy && decoded.map(owner(of:)) === copy,
            "\(format): weak and unowned point at the decoded folder")
    }
    for (key, value) in [("version", 4.0), ("scale", 2.5)] {
        do {
            _ = try AMC.object(Note.self, from: ["class": "Note", key: value])
            check(false, "another value for the constant let \(key) is an error")
        } catch let error as AMCError {
            check(
                error.kind == .unrestorableLet(key: key, typeName: "Note"),
                "another value for the constant let \(key) is an error: \(error)")
        }
    }
} catch {
    check(false, "unexpected error: \(error)")
}
withExtendedLifetime(folder) {}

/// Chains of replies, each holding the next.
final class Reply: AMCCodable {
    var next: Reply?
    required init() {}
}
AMC.register(Reply.self)

/// The error `body` throws on a thread with a stack of `stackSize` bytes, as text (nil: none);
/// what the body made is released on that thread too, which has room for it.
func errorOnThread(stackSize: Int, _ body: @escaping @Sendable () throws -> Void) -> AMCError? {
    final class Outcome: @unchecked Sendable { var error: AMCError? }
    let outcome = Outcome()
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        do { try body() } catch { outcome.error = error as? AMCError }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return outcome.error
}

func nestedArrays(_ depth: Int, _ format: AMCFormat) -> Data {
    switch format {
    case .json: return Data((String(repeating: "[", count: depth) + String(repeating: "]", count: depth)).utf8)
    default:
        return Data(
            ("<plist>" + String(repeating: "<array>", count: depth) + String(repeating: "</array>", count: depth) + "</plist>")
                .utf8)
    }
}

let limitText = "nesting deeper than \(AMC.maximumDepth) levels"
for format in [AMCFormat.json, .xmlPropertyList] {
    let data = nestedArrays(100_000, format)
    let error = errorOnThread(stackSize: 64 << 20) { _ = try AMC.lint(data) }
    check(
        error?.kind == .nestingTooDeep(limit: AMC.maximumDepth) && error?.description == "N" + limitText.dropFirst() + ".",
        "\(format): 100,000 nested arrays stop at the count limit on a large stack: \(String(describing: error))")
    let small = errorOnThread(stackSize: 256 << 10) { _ = try AMC.lint(data) }
    if case .stackExhausted? = small?.kind {
        check(
            small?.description.hasSuffix("run it on a thread with a larger stack (Thread.stackSize).") == true,
            "\(format): and before a 256 KB stack runs out: \(String(describing: small))")
    } else {
        check(false, "\(format): a 256 KB stack stops it: \(String(describing: small))")
    }
}
let encodeError = errorOnThread(stackSize: 64 << 20) {
    let root = Reply()
    var last = root
    for _ in 0..<AMC.maximumDepth + 10 {
        let next = Reply()
        last.next = next
        last = next
    }
    defer {
        var chain: Reply? = root
        while let current = chain {
            chain = current.next
            current.next = nil
        }
    }
    var tree = AMCArchiver()
    tree.graphMode = .tree  // graph mode writes it in its object table
    _ = try tree.data(for: root, format: .json)
}
check(
    encodeError?.kind == .nestingTooDeep(limit: AMC.maximumDepth)
        && encodeError?.description.hasPrefix("At \"next ×\(AMC.maximumDepth)\": \(limitText)") == true,
    "tree mode: a chain deeper than the limit stops at it on encode: \(String(describing: encodeError))")
let decodeError = errorOnThread(stackSize: 64 << 20) {
    var nested: [String: Any] = ["class": "Reply"]
    for _ in 0..<12_000 { nested = ["class": "Reply", "next": nested] }
    _ = try AMC.object(Reply.self, from: nested)
}
check(
    decodeError?.kind == .nestingTooDeep(limit: AMC.maximumDepth),
    "a dictionary deeper than the limit stops at it on decode: \(String(describing: decodeError))")
/// A doubly linked list, `previous` weak.
final class ListLink: AMCCodable {
    var value = 0
    var next: ListLink?
    weak var previous: ListLink?
    required init() {}
}

final class LinkedList: AMCCodable {
    var head: ListLink?
    required init() {}

    /// `count` links, 0 to `count - 1`.
    convenience init(count: Int) {
        self.init()
        var last: ListLink?
        for value in 0..<count {
            let link = ListLink()
            link.value = value
            link.previous = last
            if let last { last.next = link } else { head = link }
            last = link
        }
    }

    /// Whether the links hold 0 to `count - 1` in order, each `previous` the link before.
    func isIntact(count: Int) -> Bool {
        var expected = 0
        var before: ListLink?
        var current = head
        while let link = current {
            guard link.value == expected, link.previous === before else { return false }
            (expected, before, current) = (expected + 1, link, link.next)
        }
        return expected == count
    }

    deinit {  // link by link: released from the head, the list would recurse as deep as it is long
        var current = head
        head = nil
        while let link = current {
            current = link.next
            link.next = nil
        }
    }
}
AMC.register(LinkedList.self, ListLink.self)

// A list of a million links round-trips on a main thread's 8 MB of stack in every format.
for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
    final class Result: @unchecked Sendable { var intact = false }
    let result = Result()
    let error = errorOnThread(stackSize: 8 << 20) {
        let data = try AMC.data(for: LinkedList(count: 1_000_000), format: format)
        result.intact = try AMC.object(LinkedList.self, from: data)?.isIntact(count: 1_000_000) == true
    }
    check(
        error == nil && result.intact,
        "\(format): a list of 1,000,000 links round-trips on an 8 MB stack" + (error.map { ": \($0)" } ?? ""))
}

/// A struct, a `Codable` value and `Any` arrays that nest in themselves, for the stack checks below.
struct Branch: AMCCodable {
    var children: [Branch] = []
}

struct Outline: Codable {
    var sections: [Outline] = []
}

final class Forest: AMCCodable {
    var root = Branch()
    var outline = Outline()
    var loose: [Any] = []
    required init() {}
}
AMC.register(Forest.self)

/// A document of `depth` levels written in `format`: replies in tree mode, structs, `Codable`
/// values, `Any` arrays, or a converted document.
func deepDocument(_ kind: String, _ depth: Int, _ format: AMCFormat) throws -> Data {
    var tree = AMCArchiver()
    tree.graphMode = .tree
    let forest = Forest()
    switch kind {
    case "replies":
        let root = Reply()
        for _ in 1..<depth {
            let reply = Reply()
            reply.next = root.next
            root.next = reply
        }
        return try tree.data(for: root, format: format)
    case "structs": for _ in 1..<depth { forest.root = Branch(children: [forest.root]) }
    case "Codable values": for _ in 1..<depth { forest.outline = Outline(sections: [forest.outline]) }
    case "Any arrays": for _ in 1..<depth { forest.loose = [forest.loose] }
    default:
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        return try AMC.convert(Data(json.utf8), to: format)
    }
    return try AMC.data(for: forest, format: format)
}

// Reading never refuses what writing accepted on the same thread: the deepest document each kind
// of nesting writes (found by doubling, then halving) reads back, on a main thread's stack and a secondary one's.
for stackSize in [8 << 20, 512 << 10] {
    for kind in ["replies", "structs", "Codable values", "Any arrays", "converted"] {
        for format in [AMCFormat.json, .xmlPropertyList, .binaryPropertyList] {
            final class Deepest: @unchecked Sendable { var depth = 0 }
            let deepest = Deepest()
            let error = errorOnThread(stackSize: stackSize) {
                // Doubling first: what a refused write made is released on this thread, recursively.
                var (accepted, refused) = (1, AMC.maximumDepth)
                var data = try deepDocument(kind, 1, format)
                while refused - accepted > 1 {
                    let depth = refused == AMC.maximumDepth ? min(accepted * 2, refused - 1) : (accepted + refused) / 2
                    do {
                        data = try deepDocument(kind, depth, format)
                        accepted = depth
                    } catch let error as AMCError {
                        switch error.kind {
                        case .stackExhausted, .outputTooLarge: refused = depth  // converting indents deep nesting
                        default: throw error
                        }
                    }
                }
                deepest.depth = accepted
                if kind == "converted" { _ = try AMC.lint(data) } else { _ = try AMC.object(from: data) }
            }
            check(
                error == nil && deepest.depth > 16 && deepest.depth < AMC.maximumDepth,
                "\(format): \(kind) written \(deepest.depth) levels deep on a \(stackSize >> 10) KB stack read back"
                    + (error.map { ": \($0)" } ?? ""))
        }
    }
}

// A struct element's hooks work on the only copy of it, in this build too: a second copy would
// make its children's array copy itself whole at each child.
struct Shelf: AMCMarkupElement {
    var items: [Note] = []
    var marker = Folder()
    var aloneInEveryHook = true
    static var amcMarkupContentKey: String? { "items" }

    mutating func amcAppendMarkupChild(_ child: any AMCCodable, _ context: AMCMarkupContext) throws {
        aloneInEveryHook = aloneInEveryHook && isKnownUniquelyReferenced(&marker)
        guard let note = child as? Note else { throw context.error("a shelf holds notes") }
        items.append(note)
    }
}
do {
    var builder = AMCMarkupBuilder()
    builder.archiver.registry = AMCRegistry()
    builder.archiver.registry.register(Shelf.self, Note.self)
    let markup = try AMCMarkup(string: "<Shelf>" + String(repeating: "<Note title=\"a\"/>", count: 100) + "</Shelf>")
    let shelf = try markup.build(Shelf.self, using: builder)
    check(shelf.items.count == 100 && shelf.aloneInEveryHook, "a struct element's hooks work on its only copy")
} catch {
    check(false, "a struct element's hooks: \(error)")
}

print(failures == 0 ? "release checks passed" : "\(failures) release checks failed")
exit(failures == 0 ? 0 : 1)
