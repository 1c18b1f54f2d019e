/// A type the archiver turns into a dictionary with a `"class"` key and back, with no per-type
/// code: the successor of AMC's `+AMCEnabled`.
///
/// ```swift
/// final class Bar: AMCCodable {
///     var someString: String?
///     required init() {}                  // the only requirement without a default
/// }
///
/// let bar = Bar()
/// bar.someString = "hello"
/// let dict = try bar.dictionaryRepresentation()   // ["class": "Bar", "someString": "hello"]
/// let copy = try AMC.object(Bar.self, from: dict)
/// ```
///
/// Classes (with inheritance) and structs can conform. Every customisation point has a default.
/// As with any Swift protocol, a subclass can override one only when the root class of the
/// hierarchy implements it itself (a protocol extension's default cannot be overridden).
public protocol AMCCodable {
    /// Makes an instance with default values; decoding fills its properties afterwards.
    init()

    /// The name written under `"class"`. Default: the type's unqualified name (`"Bar"`).
    ///
    /// ```swift
    /// final class Bar: AMCCodable {
    ///     static var amcClassName: String { "LegacyBar" }   // keep old files readable
    ///     required init() {}
    /// }
    /// ```
    static var amcClassName: String { get }

    /// The keys encoded and decoded, in order: AMC's `AMCKeysForDictionaryRepresentation`.
    /// Default: every stored property (private ones included, computed and `lazy` ones not),
    /// superclass properties first, then each class's own, in declaration order. When a type
    /// declares its own, archiving asks each object once as it writes or fills it, so keys may
    /// differ from one instance to the next (a decoded object is asked right after its `init()`).
    ///
    /// ```swift
    /// var amcKeys: [String] { ["name", "age"] }   // leave the cache out
    /// ```
    var amcKeys: [String] { get }

    /// The key under which the property `name` is written and read: in archives, in configs
    /// (``AMCConfig/object(_:ignoringUnknownKeys:)``) and in styles (BSConfig's `keyForPropertyName:`). Default: the
    /// name itself. ``amcKeys`` and Key-Value Coding keep using property names. For a property
    /// this returns unchanged, the type's ``amcKeyNaming`` (or the archiver's) makes the key;
    /// two properties under one key are an error (``AMCError/Kind/sharedKey(key:typeName:properties:)``).
    ///
    /// ```swift
    /// static func amcKey(forProperty name: String) -> String {
    ///     name == "tintColor" ? "tint_color" : name      // files say "tint_color"
    /// }
    /// ```
    static func amcKey(forProperty name: String) -> String

    /// The rule for all of the type's keys (snake_case, kebab-case, a prefix), in archives,
    /// configs and styles; ``amcKey(forProperty:)`` still overrides single properties. Decoding
    /// also accepts each property's own name. Default: ``AMCKeyNaming/archiverDefault``, the
    /// archiver's ``AMCArchiver/keyNaming``.
    ///
    /// ```swift
    /// static var amcKeyNaming: AMCKeyNaming { .snakeCase }   // "max_retries", "base_url"
    /// ```
    static var amcKeyNaming: AMCKeyNaming { get }

    /// Keys a property was written under before it was renamed, by property name: read, in order,
    /// when the property's own key is absent (in archives, configs and styles); never written.
    /// Default: none.
    ///
    /// ```swift
    /// static var amcFormerKeys: [String: [String]] { ["title": ["name", "heading"]] }
    /// ```
    static var amcFormerKeys: [String: [String]] { get }

    /// The version of the type's archived form. An archive records it once per document for each
    /// type whose version is not 0 (under `"$versions"` in its root object), and decoding an
    /// object an older version wrote calls ``amcMigrate(_:from:)`` first. A document from a newer
    /// version is an error (``AMCError/Kind/newerVersion(className:found:known:)``). Default: 0,
    /// which is not written; a document that records no version for the type is version 0.
    ///
    /// ```swift
    /// static var amcVersion: Int { 2 }
    /// ```
    static var amcVersion: Int { get }

    /// Brings the fields of an object written by an older ``amcVersion`` up to date, before they
    /// are set: `fields` is the object's dictionary representation (with `"class"`; nested
    /// objects are dictionaries, references `["$ref": "#/…"]`), its values as the document holds
    /// them (JSON has no dates or data: a date there is its ISO 8601 string, which
    /// `AMC.value(Date.self, from:)` reads); `version` is the one the document records. A value
    /// moved unchanged to another key keeps its identity (references to it find the same object).
    /// Errors it throws fail the decode at the object's key path (lenient decoding leaves the
    /// object out). Default: changes nothing.
    ///
    /// ```swift
    /// static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {
    ///     if version < 2, let full = fields.removeValue(forKey: "fullName") as? String {
    ///         let parts = full.split(separator: " ", maxSplits: 1).map(String.init)
    ///         fields["firstName"] = parts.first ?? ""
    ///         fields["lastName"] = parts.count > 1 ? parts[1] : ""
    ///     }
    /// }
    /// ```
    static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws

    /// Keys that are not stored properties but that ``amcSetString(_:forKey:)`` takes
    /// (pseudo-properties such as an action name). Styles check their keys against the stored
    /// properties and these before changing anything. Default: none.
    ///
    /// ```swift
    /// static var amcSpecialKeys: Set<String> { ["action"] }
    /// ```
    static var amcSpecialKeys: Set<String> { get }

    /// How the field under `key` is treated, for every instance of the type: a fact about the
    /// type, which the archiver may ask once and remember. Default: inferred from the property's declared type
    /// (``AMC/inferredFieldType(of:forKey:)``); return ``AMCFieldType/structure`` to route a field
    /// through the struct hooks instead.
    ///
    /// ```swift
    /// static func amcFieldType(forKey key: String) -> AMCFieldType {
    ///     key == "tint" ? .structure : AMC.inferredFieldType(of: Self.self, forKey: key)
    /// }
    /// ```
    static func amcFieldType(forKey key: String) -> AMCFieldType

    /// Encodes a struct with no ``AMCStructCodable`` conformance held by this object (directly or in
    /// its collections) as a string; `structName` is the type's unqualified name. Fall back to
    /// ``AMC/defaultEncodeStruct(_:named:)`` for names you don't handle, as AMC's `[super ...]`.
    ///
    /// ```swift
    /// func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
    ///     if let custom = value as? CustomStruct { return "\(custom.a);\(custom.b)" }
    ///     return try AMC.defaultEncodeStruct(value, named: structName)
    /// }
    /// ```
    func amcEncodeStruct(_ value: Any, named structName: String) throws -> String

    /// Decodes a struct written by ``amcEncodeStruct(_:named:)``. Fall back to
    /// ``AMC/defaultDecodeStruct(_:named:)`` for names you don't handle (it throws
    /// ``AMCError/Kind/unsupportedStruct(typeName:operation:)``). For a string you cannot read,
    /// throw another error, such as ``AMCError/Kind/typeMismatch(expected:found:)``, and never
    /// trap: data may hold anything, and ``AMC/check(_:)`` asks with an empty string to learn
    /// which names you handle.
    ///
    /// ```swift
    /// func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
    ///     guard structName == "CustomStruct" else { return try AMC.defaultDecodeStruct(string, named: structName) }
    ///     guard let custom = CustomStruct(parsing: string) else {
    ///         throw AMCError(.typeMismatch(expected: "a CustomStruct as \"a;b\"", found: "\"\(string)\""))
    ///     }
    ///     return custom
    /// }
    /// ```
    func amcDecodeStruct(_ string: String, named structName: String) throws -> Any

    /// Called after decoding set every field: AMC's "do your own init routines after".
    /// A class implements it as a plain (non-`mutating`) method. In a document with references
    /// (shared objects, cycles, the object table), a class's runs once every object of the
    /// document is filled, in the order they were filled (an object nested in another first).
    ///
    /// ```swift
    /// func amcDidDecode() throws {
    ///     if members == nil { members = [] }
    /// }
    /// ```
    mutating func amcDidDecode() throws

    /// Takes over setting `key` from a string before string coding converts it
    /// (StringCoding's `set<Property>AsString:`): for properties whose type says too little, and
    /// for pseudo-properties that are not stored properties at all. Return true when handled;
    /// the default handles nothing.
    ///
    /// ```swift
    /// func amcSetString(_ string: String, forKey key: String) throws -> Bool {
    ///     guard key == "touchUpInside" else { return false }
    ///     actions[.touchUpInside] = string   // an action name
    ///     return true
    /// }
    /// ```
    func amcSetString(_ string: String, forKey key: String) throws -> Bool
}

// MARK: - Defaults

extension AMCCodable {
    /// The type's unqualified name: of the dynamic type (`self`), not the static `Self`, so that
    /// a subclass reached through a base-typed reference is named correctly.
    public static var amcClassName: String { AMC.unqualifiedName(of: self) }

    /// Handles no key: string coding converts every string itself.
    public func amcSetString(_ string: String, forKey key: String) throws -> Bool { false }

    /// Every stored property, superclass ones first, in declaration order.
    public var amcKeys: [String] { TypePlan.of(Swift.type(of: self)).defaultKeys }

    /// The property's own name.
    public static func amcKey(forProperty name: String) -> String { name }

    /// The archiver's rule.
    public static var amcKeyNaming: AMCKeyNaming { .archiverDefault }

    /// No former keys.
    public static var amcFormerKeys: [String: [String]] { [:] }

    /// Version 0: nothing is written.
    public static var amcVersion: Int { 0 }

    /// Changes nothing.
    public static func amcMigrate(_ fields: inout [String: Any], from version: Int) throws {}

    /// No special keys.
    public static var amcSpecialKeys: Set<String> { [] }

    /// The field type inferred from the property's declared type.
    public static func amcFieldType(forKey key: String) -> AMCFieldType {
        AMC.inferredFieldType(of: Self.self, forKey: key)
    }

    /// Handles the built-in structs, otherwise throws the unsupported-struct ``AMCError``.
    public func amcEncodeStruct(_ value: Any, named structName: String) throws -> String {
        try AMC.defaultEncodeStruct(value, named: structName)
    }

    /// Handles the built-in structs, otherwise throws the unsupported-struct ``AMCError``.
    public func amcDecodeStruct(_ string: String, named structName: String) throws -> Any {
        try AMC.defaultDecodeStruct(string, named: structName)
    }

    /// Does nothing.
    public func amcDidDecode() throws {}
}

// MARK: - Encoding and loading

extension AMCCodable {
    /// The dictionary representation: `"class"` holds ``amcClassName``, every key of ``amcKeys``
    /// holds its property's value (`nil` optionals are left out), nested objects are dictionaries.
    ///
    /// ```swift
    /// let dict = try bar.dictionaryRepresentation()
    /// dict["class"] as? String   // "Bar"
    /// ```
    ///
    /// Throws ``AMCError`` for a value that cannot be archived. In no-throw mode (``AMC/noThrow``,
    /// `AMC.withNoThrow(_:)`) it leaves such keys out, reports each error to
    /// ``AMC/swallowedErrorHandler``, and returns the rest.
    public func dictionaryRepresentation() throws -> [String: Any] {
        try AMCArchiver().dictionaryRepresentation(of: self)
    }

    /// Sets one property from a dictionary representation: AMC's
    /// `loadValueForKey:fromDictionaryRepresentation:`.
    ///
    /// ```swift
    /// var settings = Settings()            // a struct: loadValue is mutating
    /// try settings.loadValue(forKey: "volume", from: ["volume": 7])
    /// ```
    ///
    /// Throws when the type has no stored property `key` or it is read-only; does nothing when the
    /// dictionary has no value for `key`. In no-throw mode it does nothing instead of throwing.
    public mutating func loadValue(forKey key: String, from dictionary: [String: Any]) throws {
        try AMC.guarded(fallback: ()) {
            var decoder = ArchiveDecoder()
            try decoder.loadValue(forKey: key, from: dictionary, into: &self)
        }
    }
}

extension AMCCodable where Self: AnyObject {
    /// Sets one property of this object from a dictionary representation: AMC's
    /// `loadValueForKey:fromDictionaryRepresentation:`. Works on an instance held in a `let`.
    ///
    /// ```swift
    /// let foo = Foo()
    /// try foo.loadValue(forKey: "integerValue", from: ["integerValue": 17])
    /// ```
    ///
    /// Throws when the type has no stored property `key` or it is read-only; does nothing when the
    /// dictionary has no value for `key`. In no-throw mode it does nothing instead of throwing.
    public func loadValue(forKey key: String, from dictionary: [String: Any]) throws {
        try AMC.guarded(fallback: ()) {
            var decoder = ArchiveDecoder()
            var object = self
            try decoder.loadValue(forKey: key, from: dictionary, into: &object)
        }
    }
}
