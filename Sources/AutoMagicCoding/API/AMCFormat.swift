import Foundation

/// A file format the archiver reads and writes itself, without Foundation's serializers.
///
/// ```swift
/// let data = try AMC.data(for: company, format: .binaryPropertyList)
/// AMCFormat(detecting: data)            // .binaryPropertyList
/// AMCFormat(pathExtension: "plist")     // .xmlPropertyList
/// ```
public enum AMCFormat: String, Sendable, Equatable, CaseIterable, CustomStringConvertible {
    /// JSON (RFC 8259). Dates are ISO 8601 strings and data is base64, read back into `Date` and
    /// `Data` properties.
    case json
    /// Apple's XML property list (`<plist version="1.0">`).
    case xmlPropertyList
    /// Apple's binary property list (`bplist00`).
    case binaryPropertyList

    /// The format a file name's extension implies when writing: `.json` is JSON and `.plist` an
    /// XML property list; nil for anything else (pass a format explicitly then).
    ///
    /// ```swift
    /// AMCFormat(pathExtension: "JSON")   // .json
    /// AMCFormat(pathExtension: "txt")    // nil
    /// ```
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "json": self = .json
        case "plist": self = .xmlPropertyList
        default: return nil
        }
    }

    /// `format`, or the one `url`'s extension names; throws when neither says.
    static func resolved(_ format: AMCFormat?, for url: URL) throws -> AMCFormat {
        if let format { return format }
        guard let inferred = AMCFormat(pathExtension: url.pathExtension) else {
            throw AMCError(
                .unknownFormat(
                    reason: "\"\(url.lastPathComponent)\" has no .json or .plist extension; "
                        + "pass format: to say how to write it"))
        }
        return inferred
    }

    /// The first bytes of every binary property list.
    static let binaryMagic: [UInt8] = Array("bplist00".utf8)

    /// The format of `bytes`, told from their start: `bplist00` is a binary property list, `<`
    /// (after white space or a byte-order mark, UTF-8 or UTF-16) an XML property list, `{`, `[`
    /// or any other JSON value JSON. Nil for anything else; never looks at a file name.
    ///
    /// ```swift
    /// AMCFormat(detecting: Data("{\"class\": \"Foo\"}".utf8))   // .json
    /// AMCFormat(detecting: Data("<plist version=\"1.0\">".utf8))   // .xmlPropertyList
    /// ```
    public init?<Bytes: Collection>(detecting bytes: Bytes) where Bytes.Element == UInt8 {
        // Compared where the bytes lie side by side when they do (a byte at a time through the
        // collection took longer than the rest of reading a small binary file's header).
        let magic = Self.binaryMagic
        if bytes.withContiguousStorageIfAvailable({ $0.starts(with: magic) }) ?? bytes.starts(with: magic) {
            self = .binaryPropertyList
            return
        }
        if UTF16Text.firstCharacter(bytes) == UInt16(UInt8(ascii: "<")) {
            self = .xmlPropertyList
            return
        }
        var rest = bytes[...]
        if rest.starts(with: [0xEF, 0xBB, 0xBF]) { rest = rest.dropFirst(3) }
        rest = rest.drop(while: TextWhitespace.contains)
        guard let first = rest.first else { return nil }
        switch first {
        case UInt8(ascii: "<"):
            self = .xmlPropertyList
        case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "-"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            self = .json
        default:
            return nil
        }
    }

    /// The usual file name extension: `json`, or `plist` for both property-list formats.
    public var pathExtension: String {
        self == .json ? "json" : "plist"
    }

    /// `JSON`, `XML property list`, `binary property list`.
    public var description: String {
        switch self {
        case .json: return "JSON"
        case .xmlPropertyList: return "XML property list"
        case .binaryPropertyList: return "binary property list"
        }
    }
}

/// How files lay out what they write, and which objects name their class.
///
/// ```swift
/// let data = try AMC.data(for: company, format: .json, options: .readable)
/// ```
public struct AMCWriteOptions: Sendable, Equatable {
    /// Line breaks and indentation: two spaces in JSON, a tab per level in XML (as Foundation's
    /// writer). Binary property lists ignore it.
    public var prettyPrinted: Bool
    /// Dictionary keys in ascending order, so that files diff well; otherwise an object's keys
    /// come in ``AMCCodable/amcKeys`` order, after `"class"`. Applies to every format.
    public var sortedKeys: Bool
    /// Which objects carry a `"class"` key: by default only those whose class the reader cannot
    /// tell from the property holding them (see ``AMCClassNames``).
    public var classNames: AMCClassNames

    /// Makes options.
    ///
    /// ```swift
    /// let options = AMCWriteOptions(prettyPrinted: true, sortedKeys: false)
    /// let everyClass = AMCWriteOptions(prettyPrinted: false, sortedKeys: false, classNames: .everyObject)
    /// ```
    public init(prettyPrinted: Bool, sortedKeys: Bool, classNames: AMCClassNames = .whereNeeded) {
        self.prettyPrinted = prettyPrinted
        self.sortedKeys = sortedKeys
        self.classNames = classNames
    }

    /// Pretty-printed with sorted keys: what `AMC.write` uses unless told otherwise.
    public static let readable = AMCWriteOptions(prettyPrinted: true, sortedKeys: true)
    /// No white space, keys in property order: the fastest, what `AMC.data(for:format:)` uses
    /// unless told otherwise.
    public static let compact = AMCWriteOptions(prettyPrinted: false, sortedKeys: false)
}

/// Which objects of a file carry a `"class"` key.
///
/// The root object always does. Below it, an object whose class is exactly the declared type of
/// the property (or array, or dictionary) holding it can go without: the reader takes the
/// declared type, as `Codable` does for every value. An object of a subclass, one in an `Any` or
/// protocol-typed place, and one in a struct hook's or `Codable` value's care keep their class.
/// ``AMCCodable/dictionaryRepresentation()`` always names every class, as the original AMC did.
///
/// Changing a property's declared type later to a superclass or a protocol makes the objects
/// files hold there without a class read as the new declared type (or not at all, for a
/// protocol): write files with ``everyObject`` when that is planned.
///
/// ```swift
/// let data = try AMC.data(for: folder, format: .json)  // {"class":"Folder","files":[{"name":…}]}
/// let tagged = try AMC.data(for: folder, format: .json,
///                           options: AMCWriteOptions(prettyPrinted: false, sortedKeys: false, classNames: .everyObject))
/// ```
public enum AMCClassNames: Sendable, Equatable {
    /// Only where the reader cannot tell the class from the declared type (the default).
    case whereNeeded
    /// Every object, as the original AMC and ``AMCCodable/dictionaryRepresentation()`` do.
    case everyObject
}
