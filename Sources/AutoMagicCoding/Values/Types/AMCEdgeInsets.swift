import Foundation

/// Insets from the edges of a rectangle: a platform-neutral `UIEdgeInsets`.
///
/// ```swift
/// let insets = try AMC.value(AMCEdgeInsets.self, from: "3, 6, 4, 2")   // top, left, bottom, right
/// insets.amcStringValue                                               // "{3, 6, 4, 2}"
/// ```
public struct AMCEdgeInsets: Hashable, Sendable, AMCStructCodable {
    /// The inset from the top edge, in points.
    public var top: Double
    /// The inset from the left edge, in points.
    public var left: Double
    /// The inset from the bottom edge, in points.
    public var bottom: Double
    /// The inset from the right edge, in points.
    public var right: Double

    /// Insets with the given edges.
    ///
    /// ```swift
    /// let padding = AMCEdgeInsets(top: 8, left: 16, bottom: 8, right: 16)
    /// ```
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        (self.top, self.left, self.bottom, self.right) = (top, left, bottom, right)
    }

    /// `"{top, left, bottom, right}"`, as `NSStringFromUIEdgeInsets` prints it.
    ///
    /// ```swift
    /// AMCEdgeInsets(top: 1, left: 2, bottom: 3, right: 4).amcStringValue   // "{1, 2, 3, 4}"
    /// ```
    public var amcStringValue: String { LayoutStrings.braced([top, left, bottom, right]) }

    /// Parses `"{top, left, bottom, right}"` or the four numbers separated by white space, `,`,
    /// `;` or `x`.
    ///
    /// ```swift
    /// let insets = try AMCEdgeInsets(amcStringValue: "3 ; 6 ; 4 ; 2")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try LayoutStrings.numbers(string, count: 4, typeName: "AMCEdgeInsets", form: "top, left, bottom, right")
        self.init(top: n[0], left: n[1], bottom: n[2], right: n[3])
    }
}
