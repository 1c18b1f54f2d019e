import AutoMagicCoding
import Foundation

/// A model `amc bench` times: a graph of ``AMCCodable`` classes and a `Codable` twin of the same
/// content made of `final class`es with the same field types, built from the same numbers.
///
/// ```swift
/// BenchNotes.register()
/// let (notebook, twin) = BenchNotes.make(records: 1_000)
/// let data = try AMC.data(for: notebook, format: .json)
/// ```
public protocol BenchModel {
    /// The root of our graph.
    associatedtype Root: AMCCodable & AnyObject
    /// The root of the `Codable` twin.
    associatedtype Twin: Codable
    /// The model's name in row names: `amc notes json write`.
    static var name: String { get }
    /// Registers the model's classes with the archiver.
    static func register()
    /// A graph of `records` records and its twin.
    static func make(records: Int) -> (Root, Twin)
}

// MARK: - Notes: string-heavy records

/// What kind of note.
public enum BenchNoteKind: Int, Codable, Sendable, CaseIterable {
    /// Plain text, a checklist, a drawing, a recording.
    case text, checklist, sketch, audio
}

/// String-heavy records, as a note-taking app stores them: ids, dates, an `Int` enum, string
/// arrays and dictionaries, and long text that needs escapes (quotes, backslashes, new lines,
/// non-ASCII).
///
/// ```swift
/// let (notebook, twin) = BenchNotes.make(records: 20_000)
/// ```
public enum BenchNotes: BenchModel {
    public static let name = "notes"

    public static func register() {
        AMC.register(BenchNotebook.self, BenchNote.self)
    }

    public static func make(records: Int) -> (BenchNotebook, CodableNotebook) {
        let notebook = BenchNotebook()
        let twin = CodableNotebook()
        notebook.title = "Field notes \"2026\""
        twin.title = notebook.title
        let start = Date(timeIntervalSinceReferenceDate: 780_000_000)
        for index in 0..<records {
            let note = BenchNote()
            note.id = UUID(uuid: uuidBytes(index))
            note.created = start.addingTimeInterval(Double(index) * 97)
            note.modified = note.created.addingTimeInterval(Double(index % 1_000) * 3.5)
            note.kind = BenchNoteKind.allCases[index % 4]
            note.title = "Note \(index): meeting with \(["Ada", "Grace", "Zoë", "Linus"][index % 4])"
            note.body =
                "Line one of note \(index) says \"hello\" to C:\\Users\\\(index).\n"
                + "Second line: café, naïve, 東京, emoji 📝; tabs\tand more text to make the body long. "
                + String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 1 + index % 4)
            note.tags = ["work", "idea-\(index % 50)", index % 3 == 0 ? "urgent" : "later"]
            note.attributes = [
                "color": ["red", "blue", "green"][index % 3], "device": "phone-\(index % 7)",
                "lang": index % 2 == 0 ? "en" : "fr",
            ]
            note.pinned = index % 10 == 0
            let copy = CodableNote()
            (copy.id, copy.created, copy.modified, copy.kind) = (note.id, note.created, note.modified, note.kind)
            (copy.title, copy.body, copy.tags, copy.attributes, copy.pinned) = (
                note.title, note.body, note.tags, note.attributes, note.pinned
            )
            notebook.notes.append(note)
            twin.notes.append(copy)
        }
        return (notebook, twin)
    }

    private static func uuidBytes(_ index: Int) -> uuid_t {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: UInt64(index) >> (56 - 8 * $0)) }
        return (
            0x5A, 0x11, 0x0C, 0x4E, 0x90, 0x21, 0x4F, 0x7A, bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6],
            bytes[7]
        )
    }
}

/// A notebook of ``BenchNote``s.
public final class BenchNotebook: AMCCodable {
    /// The notebook's title.
    public var title = ""
    /// Every note, oldest first.
    public var notes: [BenchNote] = []
    /// An empty notebook.
    public required init() {}
}

/// A note.
public final class BenchNote: AMCCodable {
    /// Its identity.
    public var id = UUID()
    /// When it was made, and last changed.
    public var created = Date(timeIntervalSinceReferenceDate: 0), modified = Date(timeIntervalSinceReferenceDate: 0)
    /// What kind of note.
    public var kind = BenchNoteKind.text
    /// A line, and the text.
    public var title = "", body = ""
    /// Free-form tags.
    public var tags: [String] = []
    /// Settings by name.
    public var attributes: [String: String] = [:]
    /// Shown first.
    public var pinned = false
    /// An empty note.
    public required init() {}
}

/// The `Codable` twin of ``BenchNotebook``.
public final class CodableNotebook: Codable {
    /// See ``BenchNotebook``.
    public var title = "", notes: [CodableNote] = []
    /// An empty notebook.
    public init() {}
}

/// The `Codable` twin of ``BenchNote``.
public final class CodableNote: Codable {
    /// See ``BenchNote``.
    public var id = UUID(), created = Date(timeIntervalSinceReferenceDate: 0), modified = Date(timeIntervalSinceReferenceDate: 0)
    /// See ``BenchNote/kind``.
    public var kind = BenchNoteKind.text
    /// See ``BenchNote``.
    public var title = "", body = "", tags: [String] = [], attributes: [String: String] = [:], pinned = false
    /// An empty note.
    public init() {}
}

// MARK: - Series: long numeric arrays

/// Long numeric arrays with repeated values, as a measuring app stores them: each record a
/// series of 100 samples (times, readings, counts, flags).
///
/// ```swift
/// let (dataset, twin) = BenchSeries.make(records: 2_000)
/// ```
public enum BenchSeries: BenchModel {
    public static let name = "series"

    public static func register() {
        AMC.register(BenchDataset.self, BenchSamples.self)
    }

    public static func make(records: Int) -> (BenchDataset, CodableDataset) {
        let dataset = BenchDataset()
        let twin = CodableDataset()
        dataset.name = "sensors"
        twin.name = dataset.name
        for index in 0..<records {
            let series = BenchSamples()
            series.sensor = "sensor-\(index % 40)"
            series.start = 780_000_000 + Double(index) * 60
            series.times = (0..<100).map { Double($0) * 0.5 }
            series.readings = (0..<100).map { Double((index + $0 * 7) % 23) * 0.25 - 2 }
            series.counts = (0..<100).map { ($0 * index) % 5 }
            series.flags = (0..<100).map { ($0 + index) % 4 == 0 }
            let copy = CodableSamples()
            (copy.sensor, copy.start, copy.times) = (series.sensor, series.start, series.times)
            (copy.readings, copy.counts, copy.flags) = (series.readings, series.counts, series.flags)
            dataset.series.append(series)
            twin.series.append(copy)
        }
        return (dataset, twin)
    }
}

/// A dataset of ``BenchSamples``.
public final class BenchDataset: AMCCodable {
    /// The dataset's name.
    public var name = ""
    /// Every series.
    public var series: [BenchSamples] = []
    /// An empty dataset.
    public required init() {}
}

/// One series of samples.
public final class BenchSamples: AMCCodable {
    /// Which sensor.
    public var sensor = ""
    /// Seconds from 2001 of the first sample.
    public var start = 0.0
    /// Seconds from the start, the readings, event counts and alarms of each sample.
    public var times: [Double] = [], readings: [Double] = []
    /// Events in each sample.
    public var counts: [Int] = []
    /// Alarms in each sample.
    public var flags: [Bool] = []
    /// An empty series.
    public required init() {}
}

/// The `Codable` twin of ``BenchDataset``.
public final class CodableDataset: Codable {
    /// See ``BenchDataset``.
    public var name = "", series: [CodableSamples] = []
    /// An empty dataset.
    public init() {}
}

/// The `Codable` twin of ``BenchSamples``.
public final class CodableSamples: Codable {
    /// See ``BenchSamples``.
    public var sensor = "", start = 0.0, times: [Double] = [], readings: [Double] = [], counts: [Int] = [], flags: [Bool] = []
    /// An empty series.
    public init() {}
}

// MARK: - Folders: deep trees of small objects with optional fields

/// A deep tree of small objects with optional fields, as a file browser stores it: folders of
/// folders (six levels, four children each) and files, about half of the optional fields set.
///
/// ```swift
/// let (root, twin) = BenchFolders.make(records: 20_000)   // about 20,000 folders and files
/// ```
public enum BenchFolders: BenchModel {
    public static let name = "folders"

    public static func register() {
        AMC.register(BenchFolder.self, BenchFile.self)
    }

    public static func make(records: Int) -> (BenchFolder, CodableFolder) {
        var made = 0
        func folder(_ name: String, depth: Int) -> (BenchFolder, CodableFolder) {
            let node = BenchFolder()
            let twin = CodableFolder()
            node.name = name
            node.color = made % 3 == 0 ? ["red", "blue"][made % 2] : nil
            node.comment = made % 5 == 0 ? "kept for \(made) days" : nil
            node.modified = made % 2 == 0 ? Date(timeIntervalSinceReferenceDate: 780_000_000 + Double(made)) : nil
            (twin.name, twin.color, twin.comment, twin.modified) = (node.name, node.color, node.comment, node.modified)
            made += 1
            for index in 0..<3 where made < records {
                let file = BenchFile()
                let twinFile = CodableFile()
                file.name = "\(name)-\(index).txt"
                file.size = (made * 131) % 100_000
                file.tag = made % 4 == 0 ? "draft" : nil
                file.hidden = made % 9 == 0 ? true : nil
                (twinFile.name, twinFile.size, twinFile.tag, twinFile.hidden) = (file.name, file.size, file.tag, file.hidden)
                node.files.append(file)
                twin.files.append(twinFile)
                made += 1
            }
            guard depth < 6 else { return (node, twin) }
            for index in 0..<4 where made < records {
                let (child, twinChild) = folder("\(name)/\(index)", depth: depth + 1)
                node.children.append(child)
                twin.children.append(twinChild)
            }
            return (node, twin)
        }
        let (root, twin) = folder("root", depth: 0)
        // More records than one six-level tree holds: further trees under the root.
        while made < records {
            let (child, twinChild) = folder("root-\(root.children.count)", depth: 1)
            root.children.append(child)
            twin.children.append(twinChild)
        }
        return (root, twin)
    }
}

/// A folder.
public final class BenchFolder: AMCCodable {
    /// Its name.
    public var name = ""
    /// A label colour, a comment, when it last changed: each optional.
    public var color: String?, comment: String?, modified: Date?
    /// What it holds.
    public var children: [BenchFolder] = [], files: [BenchFile] = []
    /// An empty folder.
    public required init() {}
}

/// A file in a ``BenchFolder``.
public final class BenchFile: AMCCodable {
    /// Its name and size in bytes.
    public var name = "", size = 0
    /// An optional tag, and whether it is hidden when that was set.
    public var tag: String?, hidden: Bool?
    /// An empty file.
    public required init() {}
}

/// The `Codable` twin of ``BenchFolder``.
public final class CodableFolder: Codable {
    /// See ``BenchFolder``.
    public var name = "", color: String?, comment: String?, modified: Date?, children: [CodableFolder] = [],
        files: [CodableFile] = []
    /// An empty folder.
    public init() {}
}

/// The `Codable` twin of ``BenchFile``.
public final class CodableFile: Codable {
    /// See ``BenchFile``.
    public var name = "", size = 0, tag: String?, hidden: Bool?
    /// An empty file.
    public init() {}
}

// MARK: - Forum: shared references

/// Shared references, as a forum stores them: posts whose author, likes and the post they answer
/// are objects shared with the rest of the graph (references in our files, full copies in the
/// `Codable` twin's, as `Codable` has no identity).
///
/// ```swift
/// let (forum, twin) = BenchForum.make(records: 20_000)   // 20,000 posts by 2,000 users
/// ```
public enum BenchForum: BenchModel {
    public static let name = "forum"

    public static func register() {
        AMC.register(BenchBoard.self, BenchUser.self, BenchPost.self)
    }

    public static func make(records: Int) -> (BenchBoard, CodableBoard) {
        let board = BenchBoard()
        let twin = CodableBoard()
        for index in 0..<max(1, records / 10) {
            let user = BenchUser()
            let copy = CodableUser()
            user.handle = "@user\(index)"
            user.name = "User \(index)"
            user.joined = Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 3_600)
            user.followers = (index * 37) % 5_000
            (copy.handle, copy.name, copy.joined, copy.followers) = (user.handle, user.name, user.joined, user.followers)
            board.users.append(user)
            twin.users.append(copy)
        }
        let users = board.users.count
        for index in 0..<records {
            let post = BenchPost()
            let copy = CodablePost()
            post.id = index
            post.text = "Post \(index): what do you think of \(index % 17)?"
            post.author = board.users[index % users]
            post.likedBy = (0..<(index % 4)).map { board.users[(index + $0 * 13) % users] }
            // Threads of three: the first post of each, which answers nothing, is the one answered.
            post.replyTo = index % 3 == 0 ? nil : board.posts[index - index % 3]
            copy.id = post.id
            copy.text = post.text
            copy.author = twin.users[index % users]
            copy.likedBy = (0..<(index % 4)).map { twin.users[(index + $0 * 13) % users] }
            copy.replyTo = post.replyTo.map { twin.posts[$0.id] }
            board.posts.append(post)
            twin.posts.append(copy)
        }
        return (board, twin)
    }
}

/// A forum: its users and their posts.
public final class BenchBoard: AMCCodable {
    /// Everyone who posts.
    public var users: [BenchUser] = []
    /// Every post, oldest first.
    public var posts: [BenchPost] = []
    /// An empty forum.
    public required init() {}
}

/// A user of a ``BenchBoard``.
public final class BenchUser: AMCCodable {
    /// `@handle` and full name.
    public var handle = "", name = ""
    /// When they joined.
    public var joined = Date(timeIntervalSinceReferenceDate: 0)
    /// How many follow them.
    public var followers = 0
    /// Nobody yet.
    public required init() {}
}

/// A post of a ``BenchBoard``.
public final class BenchPost: AMCCodable {
    /// Its number.
    public var id = 0
    /// What it says.
    public var text = ""
    /// Who wrote it, and who liked it: shared users.
    public var author: BenchUser?
    /// Who liked it.
    public var likedBy: [BenchUser] = []
    /// The earlier post it answers.
    public var replyTo: BenchPost?
    /// An empty post.
    public required init() {}
}

/// The `Codable` twin of ``BenchBoard``.
public final class CodableBoard: Codable {
    /// See ``BenchBoard``.
    public var users: [CodableUser] = [], posts: [CodablePost] = []
    /// An empty forum.
    public init() {}
}

/// The `Codable` twin of ``BenchUser``.
public final class CodableUser: Codable {
    /// See ``BenchUser``.
    public var handle = "", name = "", joined = Date(timeIntervalSinceReferenceDate: 0), followers = 0
    /// Nobody yet.
    public init() {}
}

/// The `Codable` twin of ``BenchPost``.
public final class CodablePost: Codable {
    /// See ``BenchPost``.
    public var id = 0, text = "", author: CodableUser?, likedBy: [CodableUser] = [], replyTo: CodablePost?
    /// An empty post.
    public init() {}
}
