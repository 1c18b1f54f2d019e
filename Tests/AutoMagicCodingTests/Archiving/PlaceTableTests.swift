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
            // Handed the whole path, as the encoder does, with where the relative part starts.
            let above: [KeyPathTracker.Component] = [.key("above"), .index(index)]
            #expect(table.record(ObjectIdentifier(object), parent: parent, components: above + relative, from: 2) == index)
            expected.append((index == 0 ? [] : expected[parent]) + relative)
        }
        for (index, object) in objects.enumerated() {
            #expect(table.place(of: ObjectIdentifier(object)) == index)
            #expect(table.pointer(of: index) == ObjectReference.pointer(of: expected[index]))
        }

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
        #expect(table.pointer(of: 4_999) == "#/again")  // not the forgotten place's pointer
        #expect(table.place(of: ObjectIdentifier(Node())) == nil)
    }

    /// A few places are found by a look at each, with no table of slots; the ninth makes the
    /// table, and every place is found before, across and after that, and after forgetting.
    @Test func aFewPlacesAreFoundWithoutSlotsAndThroughTheChange() {
        let objects = (0..<20).map { _ in Node() }
        var table = PlaceTable()
        func record(_ range: Range<Int>) {
            for index in range {
                #expect(table.record(ObjectIdentifier(objects[index]), parent: index - 1, components: [.key("next")]) == index)
            }
        }
        func expectFound(below count: Int) {
            for (index, object) in objects.enumerated() {
                #expect(table.place(of: ObjectIdentifier(object)) == (index < count ? index : nil))
            }
        }
        record(0..<8)
        expectFound(below: 8)
        table.forget(since: 5)
        expectFound(below: 5)
        record(5..<20)
        expectFound(below: 20)
        #expect(table.pointer(of: 12) == "#" + String(repeating: "/next", count: 13))  // the root's own, then one a level
        table.forget(since: 3)
        expectFound(below: 3)
    }

    /// Objects packed closer than the 128 bytes a slot covers (32 bytes apart, as an allocator
    /// lays out objects without stored properties): their slots by where they lie in memory
    /// would pile up, so the table takes to spreading them, and finds every one, before and after
    /// the change, and after forgetting some. (The identities are made from addresses, never
    /// used as objects: a test's own objects lie where the allocator and the tests running beside
    /// it put them.)
    @Test func objectsPackedCloseAreSpreadOverTheSlots() {
        let specks = Self.identities(20_000, apart: 32)
        var table = PlaceTable()
        #expect(!table.spreadsAddresses)
        var spreadFrom: Int?
        for (index, speck) in specks.enumerated() {
            #expect(table.record(speck, parent: index - 1, components: [.key("next")]) == index)
            if spreadFrom == nil, table.spreadsAddresses {
                spreadFrom = index
                // Those before the change, right after it (not only once the table has grown).
                #expect((0...index).allSatisfy { table.place(of: specks[$0]) == $0 })
            }
        }
        #expect(spreadFrom != nil)
        #expect(specks.indices.allSatisfy { table.place(of: specks[$0]) == $0 })
        table.forget(since: 10_000)
        #expect(specks.indices.allSatisfy { table.place(of: specks[$0]) == ($0 < 10_000 ? $0 : nil) })
        // Each hangs from the one before it, the first too (from the root).
        #expect(table.pointer(of: 9_999) == "#" + String(repeating: "/next", count: 10_000))
    }

    /// Objects 272 bytes apart, more than the 128 bytes a slot covers, keep their slots by where
    /// they lie in memory, and the places recorded last are forgotten and recorded again there as
    /// they are with slots from all of the address's bits.
    @Test func objectsFarApartKeepSlotsByAddressThroughForgetting() {
        let rooms = Self.identities(6_000, apart: 272)
        var table = PlaceTable()
        for (index, room) in rooms.enumerated() {
            #expect(table.record(room, parent: index - 1, components: [.key("next")]) == index)
        }
        #expect(!table.spreadsAddresses)
        for mark in [5_000, 2_345, 17] {
            table.forget(since: mark)
            #expect(rooms.indices.allSatisfy { table.place(of: rooms[$0]) == ($0 < mark ? $0 : nil) })
        }
        for index in 17..<6_000 {
            #expect(table.record(rooms[index], parent: 0, components: [.key("again")]) == index)
        }
        #expect(rooms.indices.allSatisfy { table.place(of: rooms[$0]) == $0 })
        #expect(table.pointer(of: 5_999) == "#/next/again")
    }

    /// A link holds a key numbered below 255 and an index below 2²⁴ − 1 in 8 bytes; paths past
    /// either (a model with more property names, an array of more objects) come back whole too.
    @Test func keysAndIndexesPastWhatALinkHoldsComeBackWhole() {
        let objects = Self.identities(600, apart: 256)
        var table = PlaceTable()
        var expected: [[KeyPathTracker.Component]] = []
        for (index, object) in objects.enumerated() {
            let relative: [KeyPathTracker.Component] =
                switch index {
                case 0: []
                case 1..<300: [.key("field\(index)")]  // the 255th key and those after it are numbered 255 on
                case 300..<400: [.key("items"), .index(1 << 24 - 3 + index % 4)]  // around the largest index held
                default: [.key("field\(index % 300)"), .index(index)]  // keys numbered before, met again
                }
            let parent = index == 0 ? -1 : index / 3
            #expect(table.record(object, parent: parent, components: relative) == index)
            expected.append((index == 0 ? [] : expected[parent]) + relative)
        }
        for index in objects.indices {
            #expect(table.place(of: objects[index]) == index)
            #expect(table.pointer(of: index) == ObjectReference.pointer(of: expected[index]))
        }
    }

    /// The columns of the place table and the binary writer: appended across chunks, read back by
    /// index and in order, set in full chunks and in the last, cut back to any length (within a
    /// chunk, at its end, to nothing) and appended to again.
    @Test func chunkedArraysKeepEveryEntryThroughCuts() {
        var numbers = ChunkedArray<Int>()
        let size = ChunkedArray<Int>.chunkSize
        for number in 0..<(3 * size + 5) { numbers.append(number * 7) }
        #expect(numbers.count == 3 * size + 5)
        #expect((0..<numbers.count).allSatisfy { numbers[$0] == $0 * 7 })
        #expect(Array(numbers) == (0..<numbers.count).map { $0 * 7 })
        var visited: [Int] = []
        for number in numbers { visited.append(number) }
        #expect(visited == (0..<numbers.count).map { numbers[$0] })
        for index in [0, size - 1, size, 3 * size + 4] {
            numbers[index] = -1
            #expect(numbers[index] == -1)
            numbers[index] = index * 7
        }
        for length in [2 * size + 9, 2 * size, size - 1, 0] {
            numbers.removeLast(numbers.count - length)
            #expect(numbers.count == length)
            #expect((0..<length).allSatisfy { numbers[$0] == $0 * 7 })
            // In order, a chunk at a time: to a chunk's end, the last chunk is empty.
            var inOrder: [Int] = []
            for number in numbers { inOrder.append(number) }
            #expect(inOrder == (0..<length).map { $0 * 7 })
            for number in length..<(length + size + 1) { numbers.append(number * 7) }
            #expect((0..<numbers.count).allSatisfy { numbers[$0] == $0 * 7 })
            numbers.removeLast(size + 1)
        }
    }

    /// `count` identities of objects `apart` bytes apart from one another in a row, as an
    /// allocator gives them: the table only hashes and compares an identity's bits.
    private static func identities(_ count: Int, apart: Int) -> [ObjectIdentifier] {
        (0..<count).map { unsafeBitCast(0x7F3A_0000_0000 + UInt($0 * apart), to: ObjectIdentifier.self) }
    }

    /// The tables' bits of taken slots: set and cleared one at a time, across word boundaries.
    @Test func slotBitsAreSetAndClearedOneByOne() {
        var taken = SlotBits(count: 130)
        for slot in [0, 63, 64, 127, 129] { taken[slot] = true }
        #expect((0..<130).filter { taken[$0] } == [0, 63, 64, 127, 129])
        taken[64] = false
        taken[63] = true
        #expect((0..<130).filter { taken[$0] } == [0, 63, 127, 129])
    }
}
