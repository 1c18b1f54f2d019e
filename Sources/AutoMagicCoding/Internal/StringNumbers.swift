/// Numbers by string, found by a look at each while there are few and through a dictionary once
/// there are more: a small document's few keys and pointers cost less to compare than to hash,
/// and need no dictionary made for each read or write.
///
/// ```swift
/// var numbers = StringNumbers()
/// numbers["#/from"] = 0
/// numbers["#/from"]   // 0
/// numbers["#/to"]     // nil
/// ```
struct StringNumbers {
    private var few: [(key: String, number: Int)] = []
    private var many: [String: Int] = [:]
    /// At most this many strings are found without the dictionary.
    static let scanned = 8

    /// The number of `key`; setting nil is not allowed (nothing is ever forgotten but all).
    subscript(key: String) -> Int? {
        get {
            guard few.count > Self.scanned else { return few.first(where: { $0.key == key })?.number }
            return many[key]
        }
        set {
            guard let number = newValue else { preconditionFailure("a string's number is never removed alone") }
            if few.count > Self.scanned {
                many[key] = number
            } else if let index = few.firstIndex(where: { $0.key == key }) {
                few[index].number = number
            } else {
                few.append((key, number))
                // Past the few: every one goes into the dictionary, which finds them from now on.
                if few.count > Self.scanned { for (key, number) in few { many[key] = number } }
            }
        }
    }

    /// Forgets every string, keeping the room of the few.
    mutating func removeAll() {
        few.removeAll(keepingCapacity: true)
        many.removeAll()
    }
}
