import Testing

@testable import AutoMagicCoding

@Suite("Emptying a kept table: every element goes, the room stays")
struct RemoveAllKeepingRoomTests {
    private final class Tracked {}

    /// A few elements (removed one by one) and many (removed at once) alike: none is left, none
    /// is still held, and the room the table had is kept for the next document.
    @Test(arguments: [0, 1, 3, 8, 9, 40])
    func everyElementGoesAndTheRoomStays(count: Int) {
        var table = (0..<count).map { _ in Tracked() }
        let released = table.map { Weak($0) }
        table.reserveCapacity(64)
        let room = table.capacity
        table.removeAllKeepingRoom()
        #expect(table.isEmpty && table.capacity == room)
        #expect(released.allSatisfy { $0.object == nil })
        table.append(Tracked())
        #expect(table.count == 1 && table.capacity == room)
    }

    /// A table whose storage another array shares keeps its room too (the first removal copies
    /// the storage), and the other array keeps its elements.
    @Test func aTableSharingItsStorageKeepsItsRoom() {
        var table = [Tracked(), Tracked(), Tracked()]
        table.reserveCapacity(64)
        let room = table.capacity
        let other = table
        table.removeAllKeepingRoom()
        #expect(table.isEmpty && table.capacity >= room && other.count == 3)
    }

    private struct Weak {
        weak var object: Tracked?
        init(_ object: Tracked) { self.object = object }
    }
}
