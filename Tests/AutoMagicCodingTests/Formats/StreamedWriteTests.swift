import Foundation
import Testing

@testable import AutoMagicCoding

/// Writers pass their bytes on a block at a time (``ByteDrain``): to the temporary file of
/// `AMC.write`, or to the `Data` of `AMC.data(for:)`. Documents larger than a block come out as
/// the writer would have made them whole, and a write that fails late leaves the previous file.
@Suite("Large documents are written as they are made")
struct StreamedWriteTests {
    init() { AMC.register(Player.self, Squad.self, Folder.self, Item.self, Node.self) }

    /// A folder of `count` items with long titles (several blocks of output), each item's
    /// `delegate` a weak reference to the one before, but every hundredth from the 2,000th on to
    /// the next: that one is not written yet, so the encoder starts over once it has passed
    /// blocks on.
    private static func folder(items count: Int) -> Folder {
        let folder = Folder()
        folder.name = "big"
        folder.items = (0..<count).map { index in
            let item = Item()
            item.title = "item \(index) " + String(repeating: "é\"x", count: 300)
            item.parent = folder
            return item
        }
        for index in 1..<(count - 1) {
            folder.items[index].delegate = folder.items[index >= 2_000 && index % 100 == 0 ? index + 1 : index - 1]
        }
        return folder
    }

    @Test(arguments: [AMCFormat.json, .xmlPropertyList, .binaryPropertyList])
    func aDocumentOfManyBlocksIsTheDocumentTheWriterMakesWhole(format: AMCFormat) throws {
        let folder = Self.folder(items: 3_000)
        let temporary = try TemporaryFolder()
        defer { temporary.cleanUp() }
        let url = temporary.file("big.\(format.pathExtension)")
        try AMC.write(folder, to: url, format: format, options: .compact)
        let written = try Data(contentsOf: url)
        #expect(written.count > 3 * ByteDrain.blockSize)
        // No-throw mode keeps the whole document in the writer (it may have to rewind), so its
        // bytes are the writer's own, made without a drain.
        var whole = AMCArchiver()
        whole.noThrow = true
        #expect(written == (try whole.data(for: folder, format: format)))
        #expect(written == (try AMC.data(for: folder, format: format)))

        let read = try #require(try AMC.read(Folder.self, from: url))
        #expect(read.items.count == 3_000)
        #expect(read.items[0].title == folder.items[0].title)
        #expect(read.items[1_999].delegate === read.items[1_998])
        #expect(read.items[2_100].delegate === read.items[2_101])
        #expect(read.items[1_234].parent === read)
    }

    /// Binary documents on either side of a block, written through a drain and whole: the
    /// writer puts a small document's containers, offset table and trailer together at once, a
    /// larger one's a piece at a time, and both ways give the same bytes, which read back.
    @Test func binaryDocumentsAroundABlockAreTheSameWrittenEitherWay() throws {
        var whole = AMCArchiver()
        whole.noThrow = true
        var sizes: [Int] = []
        for count in stride(from: 700, through: 1_100, by: 25) {
            let lines = Lines()
            lines.lines = (0..<count).map { "line \($0) of a document near a block" }
            let drained = try AMC.data(for: lines, format: .binaryPropertyList)
            #expect(drained == (try whole.data(for: lines, format: .binaryPropertyList)), "\(count) lines")
            #expect(try AMC.object(Lines.self, from: drained)?.lines == lines.lines)
            sizes.append(drained.count)
        }
        #expect(sizes.contains { $0 < ByteDrain.blockSize } && sizes.contains { $0 > ByteDrain.blockSize }, "\(sizes)")
    }

    private final class Lines: AMCCodable {
        var lines: [String] = []
        required init() {}
    }

    @Test(arguments: [AMCFormat.json, .xmlPropertyList, .binaryPropertyList])
    func aWriteThatFailsAfterPassingBlocksOnLeavesThePreviousFile(format: AMCFormat) throws {
        let temporary = try TemporaryFolder()
        defer { temporary.cleanUp() }
        let url = temporary.file("nodes.\(format.pathExtension)")
        let small = Node()
        small.value = 1
        try AMC.write(small, to: url, format: format)
        let before = try Data(contentsOf: url)

        // Enough nodes for several blocks, the last one inside a cycle: tree mode refuses it
        // only when it gets there.
        let root = Node()
        root.children = (0..<80_000).map { index in
            let node = Node()
            node.value = index
            return node
        }
        root.children[79_999].children = [root]
        var tree = AMCArchiver()
        tree.graphMode = .tree
        let error = expectAMCError { try tree.write(root, to: url, format: format) }
        #expect(error?.kind == .referenceCycle(typeName: "Node"))
        #expect(error?.keyPath == "children[79999].children[0]")
        #expect(try Data(contentsOf: url) == before)
        #expect(temporary.contents == ["nodes.\(format.pathExtension)"])
        root.children[79_999].children = []
    }

    /// The writer holds about a block at a time, even inside one long dictionary of strings (the
    /// binary writer's containers and tables come at the end); what it passed on and what it
    /// held at the end are the document.
    @Test(arguments: [AMCFormat.json, .xmlPropertyList, .binaryPropertyList])
    func theWriterPassesItsBytesOnAsItGoes(format: AMCFormat) throws {
        let squad = Squad()
        squad.notes = Dictionary(uniqueKeysWithValues: (0..<40_000).map { ("key \($0)", "value \($0) of a long dictionary") })
        let drain = ByteDrain()
        let tail = try DocumentCodec.encode(squad, format: format, options: .compact, archiver: AMCArchiver(), passingOnTo: drain)
        var whole = AMCArchiver()
        whole.noThrow = true
        #expect(drain.data + tail == (try whole.data(for: squad, format: format)))
        #expect(drain.data.count > 10 * ByteDrain.blockSize)
        if format == .binaryPropertyList {
            // A container is written whole at the end: the dictionary's 80,000 references (3
            // bytes each). The offset table follows it in what the writer holds at the end.
            #expect(drain.largestPass < ByteDrain.blockSize + 3 * 80_000 + 16)
            #expect(tail.count < 3 * 80_010 + ByteDrain.blockSize)
        } else {
            #expect(drain.largestPass < ByteDrain.blockSize + 1_000)
            #expect(tail.count < ByteDrain.blockSize + 100)
        }
    }
}

/// The binary writer keeps each object's offset in a byte, the step from the object before.
@Suite("Object offsets of a binary property list")
struct ObjectOffsetsTests {
    /// What the offsets' iterator gives, nil for the containers that wait.
    private func all(_ offsets: ObjectOffsets) -> [Int?] { Array(offsets) }

    @Test func offsetsNearAndFarComeBackAsTheyWereAppended() {
        var offsets = ObjectOffsets()
        var expected: [Int?] = []
        var offset = 8
        // Steps of 1 to 600 bytes (254 and 255 among them), past 4 GB, and containers that wait.
        for index in 0..<3_000 {
            if index % 7 == 3 {
                offsets.appendWaiting()
                expected.append(nil)
                continue
            }
            offsets.append(offset)
            expected.append(offset)
            offset += index == 2_000 ? Int(UInt32.max) : 1 + index % 600
        }
        #expect(offsets.count == 3_000)
        #expect(all(offsets) == expected)
        #expect(expected.compactMap { $0 }.last! > Int(UInt32.max))
    }

    @Test func rewindingForgetsTheOffsetsSinceTheMark() {
        var offsets = ObjectOffsets()
        offsets.append(8)
        offsets.append(300)  // far
        let mark = offsets.mark
        offsets.append(310)
        offsets.appendWaiting()
        offsets.append(2_000)  // far
        offsets.rewind(to: mark)
        #expect(all(offsets) == [8, 300])
        // Appended again from the mark: steps from 300, not from 2,000.
        offsets.append(301)
        offsets.append(900)
        #expect(all(offsets) == [8, 300, 301, 900])
    }
}
