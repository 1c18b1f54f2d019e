import AMCExample
import Foundation
import Testing

@testable import AutoMagicCoding

/// A few settings of every kind a binary writer shares or numbers: bools, repeated numbers and
/// dates, keys and strings.
private final class Preferences: AMCCodable {
    var name = "Ada"
    var darkMode = true
    var compact = false
    var fontSize = 15.0
    var zoom = 15.0
    var opened = Date(timeIntervalSinceReferenceDate: 785_000_000.5)
    var saved = Date(timeIntervalSinceReferenceDate: 785_000_000.5)
    var tags = ["a", "b", "a"]
    required init() {}
}

/// Two numbers and a dictionary whose keys can outnumber what a kept key table holds.
private final class NumberedPair: AMCCodable {
    var a = 0
    var b = 0
    var extra: [String: Int] = [:]
    required init() {}
}

/// Someone a note is from or to.
private final class Correspondent: AMCCodable {
    var name = ""
    required init() {}
}

/// A note whose reply goes to one of its correspondents.
private final class Note: AMCCodable {
    var from = Correspondent(), to = Correspondent(), replyTo = Correspondent()
    required init() {}
}

@Suite("Storage kept from one call for the next works as new storage would")
struct RecyclingTests {
    init() {
        Company.registerModel()
        AMC.register(Preferences.self)
        AMC.register(NumberedPair.self)
        AMC.register(Note.self, Correspondent.self)
    }

    /// Reads one after the other of documents whose references name the same places, other
    /// places, and none: each read's reference is to its own document's object, and nothing the
    /// reads before made is still held once their results are let go.
    @Test(arguments: [AMCFormat.json, .binaryPropertyList])
    func documentsReadOneAfterAnotherFollowTheirOwnReferences(format: AMCFormat) throws {
        weak var earlier: Correspondent?
        for (round, replyTo) in ["from", "from", "to", "none", "from", "to"].enumerated() {
            let note = Note()
            (note.from.name, note.to.name) = ("From \(round)", "To \(round)")
            if replyTo == "from" { note.replyTo = note.from }
            if replyTo == "to" { note.replyTo = note.to }
            let data = try AMC.data(for: note, format: format)
            let read = try #require(try AMC.object(Note.self, from: data))
            #expect(read.from.name == "From \(round)" && read.to.name == "To \(round)")
            #expect((read.replyTo === read.from) == (replyTo == "from"))
            #expect((read.replyTo === read.to) == (replyTo == "to"))
            #expect(earlier == nil, "round \(round): an object of the read before is still held")
            earlier = read.from
        }
    }

    /// The documents written one after the other: each leaves tables of another shape (its own
    /// keys, bools, numbers, strings, references) for the next.
    static let documents: [@Sendable () throws -> any AMCCodable] = [
        { Preferences() },
        { Company.sample() },
        {
            let other = Preferences()
            (other.darkMode, other.compact, other.fontSize, other.tags) = (false, true, 12, ["b", "c"])
            return other
        },
        {
            // Enough one-off strings to grow the cache of recent strings to its large size.
            let company = Company.sample()
            company.people += (0..<40).map { Person(name: "Member \($0)", role: .designer) }
            return company
        },
        { Preferences() },
    ]

    /// The bytes of `object` and the writer that wrote them.
    private func written(_ object: any AMCCodable, with writer: BinaryPlistWriter) throws -> ([UInt8], BinaryPlistWriter) {
        var (sink, _) = try ArchiveEncoder.encode(
            object, into: writer, restarting: { $0.restarted() }, archiver: AMCArchiver())
        return (sink.finish(), sink)
    }

    /// A document whose references name the places the one before named, but which has an object
    /// table (an entry no reference names, as a hand edit leaves), is checked against its own
    /// table, not the targets of the one before.
    @Test func aDocumentWithAnObjectTableAfterOneWithoutIsCheckedAgainstItsOwn() throws {
        let plain = ##"{"class": "Note", "from": {"name": "a"}, "to": {"name": "b"}, "replyTo": {"$ref": "#/from"}}"##
        let tabled =
            ##"{"class": "Note", "$objects": [{"name": "x"}], "from": {"name": "a"}, "to": {"name": "b"}, "replyTo": {"$ref": "#/from"}}"##
        for _ in 0..<2 {
            let read = try #require(try AMC.object(Note.self, from: Data(plain.utf8)))
            #expect(read.replyTo === read.from)
            let error = #expect(throws: AMCError.self) { try AMC.object(Note.self, from: Data(tabled.utf8)) }
            #expect(error?.keyPath == "$objects[0]")
        }
    }

    /// A binary writer emptied after each document writes the next byte for byte as a new writer
    /// does: nothing of the document before (an object's number, a shared string, number or bool)
    /// is left to be referred to.
    @Test func anEmptiedBinaryWriterWritesEachDocumentAsANewOne() throws {
        var writer = BinaryPlistWriter()
        for make in Self.documents {
            let object = try make()
            let (fresh, _) = try written(object, with: BinaryPlistWriter())
            let (again, used) = try written(object, with: writer)
            #expect(again == fresh)
            writer = used
            writer.removeAll()
        }
    }

    /// Writes through the API, whose writers and encoders come from what earlier writes left,
    /// read back as written, in each format (keys sorted: a dictionary read back has its own
    /// order).
    @Test(arguments: AMCFormat.allCases)
    func documentsWrittenOneAfterAnotherReadBack(format: AMCFormat) throws {
        for make in Self.documents + Self.documents {
            let data = try AMC.data(for: try make(), format: format, options: .readable)
            let read = try #require(try AMC.object(from: data))
            #expect(try AMC.data(for: read, format: format, options: .readable) == data)
        }
    }

    /// An encoder keeps the type plans of the last write only for a write under the same key
    /// naming: one under another names the same type's keys its own way.
    @Test func aWriteUnderAnotherKeyNamingUsesItsOwnKeys() throws {
        var snake = AMCArchiver()
        snake.keyNaming = .snakeCase
        let preferences = Preferences()
        func keys(_ data: Data) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        for _ in 0..<2 {
            let plain = try keys(try AMC.data(for: preferences, format: .json))
            let snaked = try keys(try snake.data(for: preferences, format: .json))
            #expect(plain["darkMode"] != nil && plain["dark_mode"] == nil)
            #expect(snaked["dark_mode"] != nil && snaked["darkMode"] == nil)
        }
    }

    /// A read numbers keys with the table the read before kept, and finds each key's field from
    /// what the read before found, while the numbering is the same: a document with more keys
    /// than a kept table holds makes the next read number them afresh (`a` then `b` where they
    /// were `b` then `a`), and the fields found for the old numbers are not used.
    @Test func aReadUnderAnotherNumberingOfKeysFindsEachKeysOwnField() throws {
        let many = (0..<600).map { "\"k\($0)\": \($0)" }.joined(separator: ", ")
        let documents = [
            #"{"b": 2, "a": 1}"#,
            #"{"extra": {\#(many)}, "a": 1, "b": 2}"#,
            #"{"a": 1, "b": 2}"#,
            #"{"extra": {"x": 0}, "b": 2, "a": 1}"#,
        ]
        for _ in 0..<3 {
            for text in documents {
                let pair = try #require(try AMC.object(NumberedPair.self, from: Data(text.utf8)))
                #expect(pair.a == 1 && pair.b == 2, "\(text.prefix(40))")
            }
        }
    }

    /// A decoder keeps the type plans of the read before only for a read under the same key
    /// naming.
    @Test func aReadUnderAnotherKeyNamingFindsItsOwnKeys() throws {
        var snake = AMCArchiver()
        snake.keyNaming = .snakeCase
        let plain = Data(#"{"darkMode": false, "fontSize": 9}"#.utf8)
        let snaked = Data(#"{"dark_mode": false, "font_size": 9}"#.utf8)
        for _ in 0..<2 {
            for (archiver, data) in [(AMCArchiver(), plain), (snake, snaked)] {
                let read = try #require(try archiver.object(Preferences.self, from: data))
                #expect(read.darkMode == false && read.fontSize == 9)
            }
        }
    }

    /// Reads on eight threads at once, of documents whose keys come in different orders, each
    /// find every value: what one read kept and the next took never mixes two reads' keys.
    @Test func readsOnManyThreadsAtOnceFindTheirOwnValues() async throws {
        let orders = [
            #"{"a": 1, "b": 2, "extra": {"x": 3}}"#, #"{"extra": {"y": 3}, "b": 2, "a": 1}"#,
            #"{"b": 2, "extra": {"z": 3}, "a": 1}"#,
        ]
        try await withThrowingTaskGroup(of: Int.self) { group in
            for thread in 0..<8 {
                group.addTask {
                    var wrong = 0
                    for round in 0..<300 {
                        let text = orders[(thread + round) % orders.count]
                        let pair = try #require(try AMC.object(NumberedPair.self, from: Data(text.utf8)))
                        if pair.a != 1 || pair.b != 2 || pair.extra.values.first != 3 { wrong += 1 }
                    }
                    return wrong
                }
            }
            for try await wrong in group { #expect(wrong == 0) }
        }
    }

    @Test func aRecyclerKeepsUpToItsLimitAndHandsBackWhatItKept() {
        let recycler = Recycler<[Int]>(limit: 2)
        #expect(recycler.take() == nil)
        recycler.keep([1])
        recycler.keep([2])
        recycler.keep([3])  // over the limit: dropped
        #expect(recycler.take() == [2])
        #expect(recycler.take() == [1])
        #expect(recycler.take() == nil)
    }
}
