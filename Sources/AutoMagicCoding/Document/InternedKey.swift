import Foundation

/// A key the encoder writes again and again, once per object: a field's key, `"class"`, a class
/// name. It carries a number given once per process to its exact UTF-8 bytes, so that a writer
/// remembers what it wrote for the key by number (an array index) instead of hashing and
/// comparing the text for every object.
///
/// ```swift
/// let key = InternedKey("name")
/// key.number == InternedKey("name").number   // true: the same bytes, the same number
/// ```
struct InternedKey: Sendable {
    let text: String
    /// From 0, dense: a writer's table of keys by number holds as many entries as the process has
    /// met distinct keys of types it archives (a few hundred, not a number that grows with data).
    let number: Int
    /// The key as a JSON string, quoted and escaped: written as it is, not looked through again
    /// for each object.
    let json: [UInt8]
    /// The key as a binary property list's string object, marker and all (see
    /// ``BinaryPlistWriter/stringObject(_:)``).
    let binary: [UInt8]

    init(_ text: String) {
        self.text = text
        json = JSONWriter.quoted(text)
        binary = BinaryPlistWriter.stringObject(text)
        // Found by text, told apart by bytes: "é" and "e\u{301}" are equal strings, yet each key
        // must be written as it was spelled.
        number = Self.numbers.withLock { numbers in
            let bytes = Array(text.utf8)
            if let known = numbers.byText[text]?.first(where: { $0.bytes == bytes }) { return known.number }
            numbers.count += 1
            numbers.byText[text, default: []].append((bytes, numbers.count - 1))
            return numbers.count - 1
        }
    }

    /// The key of every object's class name.
    static let classKey = InternedKey("class")

    /// The numbers given so far. Keyed by `String`, whose hashing every process has set up
    /// already: a table keyed by byte arrays would cost the first archive of a process a search
    /// of the runtime's conformance records.
    private static let numbers = Locked<(byText: [String: [(bytes: [UInt8], number: Int)]], count: Int)>(([:], 0))
}
