/// Capacity guesses for the containers a text reader builds: the size of the last dictionary
/// (or array) it finished at the same depth, since documents tend to repeat shapes (a list of
/// people, each with the same keys). Reserving that much saves the reallocations of growing
/// from empty. Guesses are capped, so a large container never makes small ones reserve much.
struct SizeHints {
    private var dictionaries: [Int] = []
    private var arrays: [Int] = []
    private static let cap = 64

    /// The capacity to reserve for a container at `depth`.
    func capacity(depth: Int, dictionary: Bool) -> Int {
        let counts = dictionary ? dictionaries : arrays
        return depth < counts.count ? counts[depth] : 0
    }

    /// Remembers the size of a finished container at `depth`.
    mutating func record(_ count: Int, depth: Int, dictionary: Bool) {
        let capped = min(count, Self.cap)
        if dictionary { Self.set(&dictionaries, depth, capped) } else { Self.set(&arrays, depth, capped) }
    }

    private static func set(_ counts: inout [Int], _ depth: Int, _ count: Int) {
        while counts.count <= depth { counts.append(0) }
        counts[depth] = count
    }
}
