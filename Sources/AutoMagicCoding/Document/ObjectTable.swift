/// The object table: where a graph that is not shaped like a tree has its objects written, so that
/// no reference spells a long path and no document nests deeper than its data does.
///
/// Graph mode writes an object in full at its first occurrence, nested where it is met, while
/// every object's place is at most ``maximumDepth`` key path steps from the root: trees and trees
/// with shared objects in shallow places. When a place would be deeper (a long chain, or friends
/// of friends of friends), the encoder starts again and writes every object but the root once in
/// an array under the root's reserved key `"$objects"`, in the order the walk meets them, and
/// every occurrence as a reference to its entry, `{"$ref": "#/$objects/12"}`:
///
/// ```json
/// {
///   "class" : "Chain",
///   "head" : { "$ref" : "#/$objects/0" },
///   "$objects" : [
///     { "class" : "Link", "next" : { "$ref" : "#/$objects/1" }, "value" : 1 },
///     { "class" : "Link", "previous" : { "$ref" : "#/$objects/0" }, "value" : 2 }
///   ]
/// }
/// ```
///
/// The decoder follows such references without recursion: a reference to an object not decoded
/// yet creates it and queues it to be filled.
enum ObjectTable {
    /// The root's key of the table.
    static let key = "$objects"

    /// The deepest place, in key path steps from the root, that an object is written at in a
    /// document without a table (`children[3]` is two steps).
    static let maximumDepth = 32

    /// The entry `pointer` names when it names one whole (`#/$objects/12`: 12), else nil.
    static func entry(named pointer: String) -> Int? {
        var pointer = pointer
        // Read in place: a document with a table follows one such pointer for every reference.
        return pointer.withUTF8 { bytes in
            let prefix = entryPrefixBytes
            guard bytes.count > prefix.count, bytes.count <= prefix.count + 18,
                bytes.prefix(prefix.count).elementsEqual(prefix)
            else { return nil }
            let digits = bytes[prefix.count...]
            // Digits, without a leading zero but for 0 itself, as ``pointer(ofEntry:)`` writes them.
            guard digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
            var entry = 0
            for byte in digits {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                entry = entry * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return entry
        }
    }

    /// The bytes of an entry's pointer before its number, for writers that write it in place.
    static let entryPrefixBytes = Array(entryPrefix.utf8)
    private static let entryPrefix = "#/$objects/"

    /// The key path components of the table's entry `entry`: `$objects[12]`.
    static func components(ofEntry entry: Int) -> [KeyPathTracker.Component] {
        [.key(key), .index(entry)]
    }

    /// The pointer of the table's entry `entry`: `#/$objects/12`.
    static func pointer(ofEntry entry: Int) -> String {
        entryPrefix + String(entry)
    }
}
