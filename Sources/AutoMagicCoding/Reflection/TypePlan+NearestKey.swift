extension TypePlan {
    /// The property name, key or special key (``AMCCodable/amcSpecialKeys``) of the type nearest
    /// to `key` (by edits, ignoring case), when it is near enough to be a likely typo: at most 2
    /// edits, or a third of the key's length. What an unknown style key or an unused archive or
    /// config key suggests.
    func nearestKey(to key: String) -> String? {
        Self.nearest(to: key, among: Set(fields.flatMap { [$0.name, $0.key] + $0.alternateKeys }).union(specialKeys))
    }

    /// The one of `candidates` nearest to `key` by the rule of ``nearestKey(to:)``, if near enough.
    static func nearest(to key: String, among candidates: Set<String>) -> String? {
        let wanted = Array(key.lowercased())
        let limit = max(2, wanted.count / 3)
        var best: (candidate: String, distance: Int)?
        var previous: [Int] = []
        var row: [Int] = []
        for candidate in candidates.sorted() {
            let other = Array(candidate.lowercased())
            // Lengths further apart than the limit are more edits apart than it.
            guard abs(other.count - wanted.count) <= min(limit, best?.distance ?? limit) else { continue }
            let distance = editDistance(wanted, other, previous: &previous, row: &row)
            if distance <= limit, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// The edits between `one` and `two`, in two rows the caller keeps between calls.
    private static func editDistance(_ one: [Character], _ two: [Character], previous: inout [Int], row: inout [Int]) -> Int {
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: 0...two.count)
        for (i, first) in one.enumerated() {
            row.removeAll(keepingCapacity: true)
            row.append(i + 1)
            for (j, second) in two.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (first == second ? 0 : 1)))
            }
            swap(&previous, &row)
        }
        return previous[two.count]
    }
}
