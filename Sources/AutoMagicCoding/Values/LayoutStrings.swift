import Foundation

/// Helpers for the value types' strings.
enum LayoutStrings {
    static func number(_ value: Double) -> String { GeometryStrings.number(CGFloat(value)) }

    /// The words of `string` between runs of white space (see ``TextTrimming``).
    static func words(_ string: String) -> [Substring] {
        TextTrimming.words(string.utf8).map { Substring($0) }
    }

    static func braced(_ values: [Double]) -> String {
        "{" + values.map(number).joined(separator: ", ") + "}"
    }

    static func numbers(_ string: String, count: Int, typeName: String, form: String) throws -> [Double] {
        guard let numbers = GeometryStrings.numbers(in: string, count: count) else {
            throw StringValues.mismatch("\(AMC.withArticle(typeName)) string like \"{\(form)}\" or \"\(form)\"", string)
        }
        return numbers.map { Double($0) }
    }
}
