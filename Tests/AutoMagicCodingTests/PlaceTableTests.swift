import Testing

@testable import AutoMagicCoding

/// The encoder's table of where each object was written.
@Suite("Place table")
struct PlaceTableTests {
    @Test func placesAreFoundRebuiltAndForgotten() {
        let objects = (0..<5_000).map { _ in Node() }
        var table = PlaceTable()
        #expect(table.place(of: ObjectIdentifier(objects[0])) == nil)
        var expected: [[KeyPathTracker.Component]] = []
        for (index, object) in objects.enumerated() {
            // Every shape of the path from the parent: none (the root), a key, a key and an
            // index, and unusual ones (an index alone, two keys, a key and two indices). More
            // keys than the table keeps at hand, each met again later.
            let shapes: [[KeyPathTracker.Component]] = [
                [.key("next")], [.key("children"), .index(index)], [.index(index)], [.key("field\(index % 7)")],
                [.key("lookup"), .key("k\(index)")], [.key("groups"), .index(1), .index(index)],
            ]
            let relative = index == 0 ? [] : shapes[index % shapes.count]
            let parent = index == 0 ? -1 : index / 2
            #expect(table.record(ObjectIdentifier(object), parent: parent, components: relative) == index)
            expected.append((index == 0 ? [] : expected[parent]) + relative)
        }
        for (index, object) in objects.enumerated() {
            #expect(table.place(of: ObjectIdentifier(object)) == index)
            #expect(table.components(of: index) == expected[index])
        }
        #expect(table.pointer(of: 3) == ObjectReference.pointer(of: expected[3]))

        table.forget(since: 2_500)
        #expect(table.count == 2_500)
        for (index, object) in objects.enumerated() {
            #expect(table.place(of: ObjectIdentifier(object)) == (index < 2_500 ? index : nil))
        }
        // Recorded again, the forgotten ones get new places and paths.
        for index in 2_500..<5_000 {
            #expect(table.record(ObjectIdentifier(objects[index]), parent: 0, components: [.key("again")]) == index)
        }
        #expect(table.place(of: ObjectIdentifier(objects[4_999])) == 4_999)
        #expect(table.components(of: 4_999) == [.key("again")])
        #expect(table.place(of: ObjectIdentifier(Node())) == nil)
    }

    /// Objects made one after another take slots side by side (few cache misses on a large
    /// graph), and no spacing of objects piles them into a few slots: every 64 KB of memory
    /// starts at a slot of its own.
    @Test func slotsKeepNeighboursTogetherAndSpreadEverySpacing() {
        let count = 65_536
        let base: UInt64 = 0x7F3A_1234_0000
        // 20,000 objects of 48 bytes in a row: each three slots after the one before, but where
        // it crosses into the next 64 KB; and their first slots as spread as random ones would be
        // (about 86% of them distinct).
        let row = (0..<20_000).map { PlaceTable.slot(ofAddress: base + 48 * UInt64($0), in: count) }
        #expect(Set(row).count > row.count * 8 / 10)
        #expect(zip(row, row.dropFirst()).filter { ($1 - $0) & (count - 1) == 3 }.count > 19_000)
        // 4,096 objects at each spacing, among 8,192 slots: a random spread fills about 79% as
        // many first slots as objects.
        for spacing: UInt64 in [16, 48, 4_096, 65_536, 1 << 20, 1 << 24, 1 << 32] {
            let slots = Set((0..<4_096).map { PlaceTable.slot(ofAddress: base + spacing * UInt64($0), in: 8_192) })
            #expect(slots.count > 4_096 * 7 / 10, "objects \(spacing) bytes apart take \(slots.count) first slots")
        }
    }
}
