/// How the archiver treats one field of an ``AMCCodable`` type: the successor of AMC's
/// `AMCFieldType`.
///
/// The archiver infers the field type from the property's declared type. Override
/// ``AMCCodable/amcFieldType(forKey:)`` to return ``structure`` for a field whose value should go
/// through the struct codec hooks as one string instead:
///
/// ```swift
/// final class Sprite: AMCCodable {
///     var tint = Tint()               // an AMCCodable struct: a nested dictionary by default
///     required init() {}
///     static func amcFieldType(forKey key: String) -> AMCFieldType {
///         key == "tint" ? .structure : AMC.inferredFieldType(of: Sprite.self, forKey: key)
///     }
/// }
/// ```
public enum AMCFieldType: String, Sendable, CaseIterable {
    /// Strings, numbers, `Bool`, `Date`, `Data`, `URL`, `UUID`, raw-value enums, and fields typed
    /// `Any` (decided by the value at run time).
    case scalar
    /// A nested ``AMCCodable`` object or struct, written as a dictionary with a `"class"` key.
    case customObject
    /// An array, a set, or an ``AMCOrderedCollection``.
    case collectionArray
    /// A `[String: V]` dictionary or an ``AMCKeyedCollection``.
    case collectionHash
    /// A value type written as one string: an ``AMCStructCodable`` type, or any other struct
    /// handled by the owner's struct hooks.
    case structure
}
