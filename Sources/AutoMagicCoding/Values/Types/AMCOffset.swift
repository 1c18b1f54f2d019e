import Foundation

/// A horizontal and vertical offset: a platform-neutral `UIOffset`.
///
/// ```swift
/// let shadow = try AMC.value(AMCOffset.self, from: "10, 5")   // horizontal 10, vertical 5
/// ```
public struct AMCOffset: Hashable, Sendable, AMCStructCodable {
    /// The offset along the x axis, in points.
    public var horizontal: Double
    /// The offset along the y axis, in points.
    public var vertical: Double

    /// An offset by `horizontal` and `vertical`.
    ///
    /// ```swift
    /// let offset = AMCOffset(horizontal: 0, vertical: -1)
    /// ```
    public init(horizontal: Double = 0, vertical: Double = 0) {
        (self.horizontal, self.vertical) = (horizontal, vertical)
    }

    /// `"{horizontal, vertical}"`, as `NSStringFromUIOffset` prints it.
    ///
    /// ```swift
    /// AMCOffset(horizontal: 10, vertical: 5).amcStringValue   // "{10, 5}"
    /// ```
    public var amcStringValue: String { LayoutStrings.braced([horizontal, vertical]) }

    /// Parses `"{horizontal, vertical}"` or the two numbers separated by white space, `,`, `;` or
    /// `x`.
    ///
    /// ```swift
    /// let offset = try AMCOffset(amcStringValue: "10 5")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try LayoutStrings.numbers(string, count: 2, typeName: "AMCOffset", form: "horizontal, vertical")
        self.init(horizontal: n[0], vertical: n[1])
    }
}
