/// A value type that the archiver writes as one string, in every class that holds it, with no
/// per-class hooks. It is used before the owner's struct hooks
/// (``AMCCodable/amcEncodeStruct(_:named:)``).
///
/// ```swift
/// struct Version: AMCStructCodable, Equatable {
///     var major = 0, minor = 0
///     var amcStringValue: String { "\(major).\(minor)" }
///     init(major: Int, minor: Int) { self.major = major; self.minor = minor }
///     init(amcStringValue string: String) throws {
///         let parts = string.split(separator: ".").compactMap { Int($0) }
///         guard parts.count == 2 else { throw VersionError.malformed(string) }
///         (major, minor) = (parts[0], parts[1])
///     }
/// }
/// // A `var version: Version` property is written as "2.1".
/// ```
///
/// `CGPoint`, `CGSize` and `CGRect` conform, with the strings `NSStringFromCGPoint` and friends
/// print (`"{15, 16}"`, `"{{39, 235}, {1233.09, 124}}"`).
public protocol AMCStructCodable {
    /// The string the archiver writes for this value.
    var amcStringValue: String { get }
    /// Rebuilds the value from ``amcStringValue``; throws when the string is malformed.
    init(amcStringValue string: String) throws
}
