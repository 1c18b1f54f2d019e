/// Numbers by string, found by a look at each while there are few and through a dictionary once
/// there are more: a small document's few keys and pointers cost less to compare than to hash,
/// and need no dictionary made for each read or write. The strings keep the order they were
/// first given in, so that a table numbering them by that order finds a string by its number.
///
/// ```swift
/// var numbers = StringNumbers()
/// numbers["#/from"] = 7
/// numbers["#/from"]          // 7
/// numbers["#/to"]            // nil
/// numbers.string(at: 0)      // "#/from": the first string given
/// ```
struct StringNumbers {
    /// The strings, in the order first given, and the number of each.
    private var entries: [(string: String, number: Int)] = []
    /// The position of each string in `entries`, once there are more than ``scanned``.
    private var positions: [String: Int] = [:]
    /// At most this many strings are found without the dictionary.
    static let scanned = 8

    /// How many strings have a number.
    var count: Int { entries.count }

    /// The number of `key`; setting nil is not allowed (nothing is ever forgotten but all).
    subscript(key: String) -> Int? {
        get { position(of: key).map { entries[$0].number } }
        set {
            guard let number = newValue else { preconditionFailure("a string's number is never removed alone") }
            if let position = position(of: key) {
                entries[position].number = number
            } else {
                append(key, number)
            }
        }
    }

    /// The number of `key`, given on first use as its position (``count`` then), so that
    /// ``string(at:)`` finds it by its number (when every string got its number here).
    mutating func positionalNumber(of key: String) -> Int {
        if let position = position(of: key) { return entries[position].number }
        append(key, count)
        return count - 1
    }

    /// The string given `position`-th (0 for the first).
    func string(at position: Int) -> String { entries[position].string }

    private func position(of key: String) -> Int? {
        entries.count <= Self.scanned ? entries.firstIndex(where: { $0.string == key }) : positions[key]
    }

    private mutating func append(_ key: String, _ number: Int) {
        entries.append((key, number))
        if entries.count > Self.scanned + 1 {
            positions[key] = entries.count - 1
        } else if entries.count == Self.scanned + 1 {
            // Past the few: every one goes into the dictionary, which finds them from now on.
            for (position, entry) in entries.enumerated() { positions[entry.string] = position }
        }
    }

    /// Forgets every string, keeping the room.
    mutating func removeAll() {
        entries.removeAllKeepingRoom()
        if !positions.isEmpty { positions.removeAll(keepingCapacity: true) }
    }
}
