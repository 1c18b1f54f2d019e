import Foundation
import Testing

@testable import AutoMagicCoding

/// A note-taking app's model, written the way Swift developers write one today, with every kind
/// of field the archiver supports: `let` ids, enums with and without payloads, `Codable` values,
/// `Decimal`, non-`String` dictionary keys, sets, property wrappers, 128-bit numbers, a `weak`
/// parent, shared objects and a deep reply thread.
final class Notebook: AMCCodable {
    let id: UUID
    var name = ""
    var notes: [AppNote] = []
    var pinned: AppNote?
    required init() { id = UUID() }
}

final class AppNote: AMCCodable {
    enum Priority: Int, Sendable { case low, normal, high }
    enum Tint: CaseIterable, Sendable { case plain, sunny, ocean }

    let id: UUID
    let created: Date
    var title = ""
    var body = ""
    var edited: Date?
    var state = PublishState.draft
    var priority = Priority.normal
    var tint = Tint.plain
    var tags: Set<String> = []
    var attributes: [String: String] = [:]
    var scoresByWeek: [Int: Double] = [:]
    var linkCounts: [UUID: Int] = [:]
    var price: Decimal = 0
    var budget: Price?
    var zone = TimeZone(identifier: "UTC") ?? .current
    var lines: Range<Int> = 0..<0
    @Clamped var fontSize = 12
    @Bounded(0...1) var opacity = 1
    var views: Int128 = 0
    var attachment: Data?
    var link: URL?
    weak var notebook: Notebook?
    var thread: NoteReply?
    required init() {
        id = UUID()
        created = Date()
    }
}

final class NoteReply: AMCCodable {
    var text = ""
    var replies: [NoteReply] = []
    required init() {}
}

@Suite("A note-taking app's model, round trip in every format")
struct NoteAppTests {
    init() { AMC.register(Notebook.self, AppNote.self, NoteReply.self) }

    static func notebook() throws -> Notebook {
        let notebook = Notebook()
        notebook.name = "Work"
        let note = AppNote()
        note.title = "Plan \"Q3\""
        note.body = "line 1\nline 2\t\\ done 🌍"
        note.edited = Date(timeIntervalSinceReferenceDate: 815_000_000)
        note.state = .archived(reason: "done", at: Date(timeIntervalSinceReferenceDate: 816_000_000))
        note.priority = .high
        note.tint = .ocean
        note.tags = ["work", "q3", "plans", "a", "z"]
        note.attributes = ["author": "Ada", "mood": "calm"]
        note.scoresByWeek = [1: 0.5, 52: 99.25, -1: 0]
        note.linkCounts = [UUID(): 3]
        note.price = try #require(Decimal(string: "19.99"))
        note.budget = Price(amount: try #require(Decimal(string: "1000000.000000001")), currency: "EUR")
        note.zone = try #require(TimeZone(identifier: "Asia/Tokyo"))
        note.lines = 4..<40
        note.fontSize = 500  // clamped to 100
        note.opacity = 0.25
        note.views = Int128(UInt64.max) * 3
        note.attachment = Data([0, 1, 2, 254, 255])
        note.link = URL(string: "https://example.com/notes?id=1")
        note.notebook = notebook
        note.thread = replyChain(256)
        let other = AppNote()
        other.title = "Second"
        other.notebook = notebook
        notebook.notes = [note, other]
        notebook.pinned = note  // shared: the same object as notes[0]
        return notebook
    }

    static func replyChain(_ count: Int) -> NoteReply {
        let root = NoteReply()
        var last = root
        for index in 1..<count {
            let next = NoteReply()
            next.text = "reply \(index)"
            last.replies = [next]
            last = next
        }
        return root
    }

    static func replyTexts(_ root: NoteReply?) -> [String] {
        var texts: [String] = []
        var reply = root
        while let current = reply {
            texts.append(current.text)
            reply = current.replies.first
        }
        return texts
    }

    @Test func theModelPassesTheCheck() throws {
        try AMC.check(Notebook.self)
    }

    @Test(arguments: SwiftModelTests.formats)
    func everyFieldComesBack(format: AMCFormat) throws {
        let notebook = try Self.notebook()
        // A thread of 256 replies is 513 levels: on a main thread's stack, as apps save.
        let copy = try #require(
            try onThread(stackSize: 8 << 20) {
                try AMC.object(Notebook.self, from: try AMC.data(for: notebook, format: format))
            })
        #expect(copy.id == notebook.id && copy.name == "Work")
        #expect(copy.notes.count == 2)
        #expect(copy.pinned === copy.notes[0])
        for (original, read) in zip(notebook.notes, copy.notes) {
            #expect(read.id == original.id)
            // XML property lists keep whole seconds, as Apple's format does.
            let created =
                format == .xmlPropertyList
                ? original.created.timeIntervalSinceReferenceDate.rounded()
                : original.created.timeIntervalSinceReferenceDate
            #expect(read.created.timeIntervalSinceReferenceDate == created)
            #expect(read.title == original.title && read.body == original.body)
            #expect(read.edited == original.edited)
            #expect(read.state == original.state)
            #expect(read.priority == original.priority && read.tint == original.tint)
            #expect(read.tags == original.tags)
            #expect(read.attributes == original.attributes)
            #expect(read.scoresByWeek == original.scoresByWeek)
            #expect(read.linkCounts == original.linkCounts)
            #expect(read.price == original.price && read.budget == original.budget)
            #expect(read.zone == original.zone && read.lines == original.lines)
            #expect(read.fontSize == original.fontSize && read.opacity == original.opacity)
            #expect(read.views == original.views)
            #expect(read.attachment == original.attachment && read.link == original.link)
            #expect(read.notebook === copy)
            #expect(Self.replyTexts(read.thread) == Self.replyTexts(original.thread))
        }
        #expect(copy.notes[0].fontSize == 100)
        dismantleThreads(of: notebook)
        dismantleThreads(of: copy)
    }

    @Test func savingUnchangedDataWritesTheSameBytes() throws {
        let notebook = try Self.notebook()
        defer { dismantleThreads(of: notebook) }
        let write = { try onThread(stackSize: 8 << 20) { try AMC.data(for: notebook, format: .json, options: .readable) } }
        #expect(try write() == write())
    }

    private func dismantleThreads(of notebook: Notebook) {
        for note in notebook.notes {
            var pending = note.thread.map { [$0] } ?? []
            while let reply = pending.popLast() {
                pending += reply.replies
                reply.replies = []
            }
        }
    }
}
