import Foundation

/// An array in a parsed document: its elements, or a run of slots in a ``DocumentTape`` made
/// into values as they are read.
///
/// ```swift
/// let numbers = ArchiveArray([.int(1), .int(2)])
/// numbers.map(\.number)  // [.int(1), .int(2)]
/// ```
struct ArchiveArray: RandomAccessCollection, ExpressibleByArrayLiteral {
    private enum Storage {
        case values([ArchiveValue])
        case tape(DocumentTape, first: UInt32, count: UInt32)
    }

    private let storage: Storage

    init(_ values: [ArchiveValue] = []) {
        storage = .values(values)
    }

    init(arrayLiteral values: ArchiveValue...) {
        storage = .values(values)
    }

    /// The `count` slots from `first` in `tape`; both fit 32 bits (the reader checks).
    init(tape: DocumentTape, first: Int, count: Int) {
        storage = .tape(tape, first: UInt32(first), count: UInt32(count))
    }

    var startIndex: Int { 0 }

    var endIndex: Int {
        switch storage {
        case let .values(values): return values.count
        case let .tape(_, _, count): return Int(count)
        }
    }

    /// Calls `body` with each element that is a dictionary or an array, in order; the other
    /// elements are not made.
    func forEachContainer(_ body: (ArchiveValue) -> Void) {
        switch storage {
        case let .values(values):
            for value in values where value.isContainer { body(value) }
        case let .tape(tape, first, count):
            for index in Int(first)..<Int(first) + Int(count) where tape.holdsContainer(at: index) {
                body(tape.value(at: index))
            }
        }
    }

    subscript(index: Int) -> ArchiveValue {
        switch storage {
        case let .values(values): return values[index]
        case let .tape(tape, first, count):
            precondition(index >= 0 && index < Int(count), "element \(index) of an array of \(count)")
            return tape.value(at: Int(first) + index)
        }
    }
}
