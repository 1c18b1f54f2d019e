import Foundation

/// The archiver's entry points: the class registry, decoding, the default struct codecs and the
/// process-wide settings.
///
/// ```swift
/// AMC.register(Company.self, Person.self, Manager.self)
/// let dict = try company.dictionaryRepresentation()
/// let copy = try AMC.object(from: dict) as? Company
/// ```
public enum AMC {
    /// Registers types that data may name under `"class"`. Decoding instantiates a class named in
    /// data only when it is registered, or is exactly the statically expected type, so data can
    /// never make the library construct an arbitrary type. Safe to call at any time, from any
    /// thread. Two types with one ``AMCCodable/amcClassName`` are reported and never decoded as
    /// each other (see ``AMCRegistry/register(_:)-(AMCCodable....)``).
    ///
    /// ```swift
    /// AMC.register(Foo.self, Bar.self)
    /// ```
    public static func register(_ types: any AMCCodable.Type...) {
        AMCRegistry.shared.register(types)
    }

    /// The same as `AMC.register(_:)` (variadic) for a list of types.
    ///
    /// ```swift
    /// AMC.register([Foo.self, Bar.self])
    /// ```
    public static func register(_ types: [any AMCCodable.Type]) {
        AMCRegistry.shared.register(types)
    }

    /// Registers `type` and the class names it had before a rename, so that old files naming
    /// them decode as `type` (see ``AMCRegistry/register(_:formerNames:)``).
    ///
    /// ```swift
    /// AMC.register(Note.self, formerNames: ["OldNote"])   // {"class": "OldNote", …} is a Note
    /// ```
    public static func register(_ type: any AMCCodable.Type, formerNames: [String]) {
        AMCRegistry.shared.register(type, formerNames: formerNames)
    }

    /// Decodes an object whose type the dictionary's `"class"` names; the type must be registered.
    ///
    /// ```swift
    /// let any = try AMC.object(from: ["class": "Bar", "someString": "hi"])   // a Bar
    /// ```
    ///
    /// Throws ``AMCError`` for a missing or unregistered class and for bad data; in no-throw mode
    /// returns nil instead.
    public static func object(from dictionary: [String: Any]) throws -> (any AMCCodable)? {
        try AMCArchiver().object(from: dictionary)
    }

    /// Decodes a `T` (or a registered subclass of it, when the dictionary's `"class"` names one).
    /// A dictionary without `"class"` decodes as `T`.
    ///
    /// ```swift
    /// let foo = try AMC.object(Foo.self, from: dict)   // Foo?
    /// ```
    ///
    /// Throws ``AMCError`` for an unrelated class and for bad data; in no-throw mode returns nil
    /// instead.
    public static func object<T: AMCCodable>(_ type: T.Type, from dictionary: [String: Any]) throws -> T? {
        try AMCArchiver().object(T.self, from: dictionary)
    }

    /// The field type the archiver infers for `key` of `type` from the property's declared type;
    /// ``AMCFieldType/scalar`` for a key that is no stored property. What
    /// ``AMCCodable/amcFieldType(forKey:)`` returns by default.
    ///
    /// ```swift
    /// AMC.inferredFieldType(of: Company.self, forKey: "people")   // .collectionArray
    /// ```
    public static func inferredFieldType(of type: any AMCCodable.Type, forKey key: String) -> AMCFieldType {
        TypePlan.of(type).fieldsByName[key]?.kind.fieldType ?? .scalar
    }

    /// Encodes the built-in structs (any ``AMCStructCodable`` value, such as `CGPoint`, `CGSize`,
    /// `CGRect`); throws the unsupported-struct ``AMCError`` for anything else. The fallback of
    /// ``AMCCodable/amcEncodeStruct(_:named:)`` overrides.
    ///
    /// ```swift
    /// try AMC.defaultEncodeStruct(CGPoint(x: 15, y: 16), named: "CGPoint")   // "{15, 16}"
    /// ```
    public static func defaultEncodeStruct(_ value: Any, named structName: String) throws -> String {
        guard let codable = value as? any AMCStructCodable else {
            throw AMCError(.unsupportedStruct(typeName: structName, operation: .encode))
        }
        return codable.amcStringValue
    }

    /// Decodes the built-in structs by name (`"CGPoint"`, `"CGSize"`, `"CGRect"`, and their `NS`
    /// names); throws the unsupported-struct ``AMCError`` for any other name. The fallback of
    /// ``AMCCodable/amcDecodeStruct(_:named:)`` overrides.
    ///
    /// ```swift
    /// try AMC.defaultDecodeStruct("{15, 16}", named: "CGPoint") as? CGPoint   // (15.0, 16.0)
    /// ```
    public static func defaultDecodeStruct(_ string: String, named structName: String) throws -> Any {
        switch structName {
        case "CGPoint", "NSPoint": return try CGPoint(amcStringValue: string)
        case "CGSize", "NSSize": return try CGSize(amcStringValue: string)
        case "CGRect", "NSRect": return try CGRect(amcStringValue: string)
        default: throw AMCError(.unsupportedStruct(typeName: structName, operation: .decode))
        }
    }

    /// A type's name without its module: `"Company"`, `"Box<Int>"`; cached, as it is asked for
    /// every object encoded.
    static func unqualifiedName(of type: Any.Type) -> String {
        // What `String(describing:)` prints for a type, without the conformance look-ups it makes
        // to see whether a metatype prints itself, which cost a scan of the process's conformance
        // records for each type a process meets first.
        typeNames.value(for: type) { _typeName(type, qualified: false) }
    }

    private static let typeNames = TypeCache<String>()

    /// `name` after its indefinite article, for error messages: "a CGSize", "an AMCColor",
    /// "a UInt8" (a leading U is read "you").
    static func withArticle(_ name: String) -> String {
        (name.first.map { "AEIOaeio".contains($0) } == true ? "an " : "a ") + name
    }
}
