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
        let scored = candidates.sorted().map { ($0, editDistance(wanted, Array($0.lowercased()))) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, wanted.count / 3) else { return nil }
        return best.0
    }

    private static func editDistance(_ one: [Character], _ two: [Character]) -> Int {
        var previous = Array(0...two.count)
        for (i, first) in one.enumerated() {
            var row = [i + 1]
            for (j, second) in two.enumerated() {
                row.append(min(previous[j + 1] + 1, row[j] + 1, previous[j] + (first == second ? 0 : 1)))
            }
            previous = row
        }
        return previous[two.count]
    }
}
