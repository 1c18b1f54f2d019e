import Foundation

/// A URL with the HTTP method to request it with: StringCoding's `NSURLRequestValue`, from
/// `"POST https://example.com/items"` or just a URL (`GET`).
///
/// ```swift
/// let request = try AMC.value(AMCURLRequest.self, from: "POST https://example.com/items")
/// request.method   // "POST"
/// ```
public struct AMCURLRequest: Hashable, Sendable, AMCStructCodable {
    /// `GET`, `POST`, `PUT`, `DELETE`, `HEAD`, `OPTIONS` or `PATCH`.
    public var method: String
    /// The address requested.
    public var url: URL

    /// The methods a request string may start with.
    public static let methods: Set<String> = ["GET", "POST", "PUT", "DELETE", "HEAD", "OPTIONS", "PATCH"]

    /// A request for `url` with `method`.
    ///
    /// ```swift
    /// let request = AMCURLRequest(method: "DELETE", url: URL(string: "https://example.com/items/1")!)
    /// ```
    public init(method: String = "GET", url: URL) {
        self.method = method
        self.url = url
    }

    /// `"METHOD url"`.
    ///
    /// ```swift
    /// AMCURLRequest(url: URL(string: "https://example.com")!).amcStringValue   // "GET https://example.com"
    /// ```
    public var amcStringValue: String { "\(method) \(url.absoluteString)" }

    /// Parses `"[METHOD ]url"`; the method in any case, the URL as string coding reads URLs.
    ///
    /// ```swift
    /// let request = try AMCURLRequest(amcStringValue: "post https://example.com/items")
    /// ```
    public init(amcStringValue string: String) throws {
        let text = TextTrimming.trimmed(string)
        if let space = text.utf8.indices.first(where: { TextTrimming.spaceLength(in: text.utf8, at: $0) > 0 }),
            Self.methods.contains(text[..<space].uppercased())
        {
            self.init(method: text[..<space].uppercased(), url: try StringValues.url(from: String(text[space...])))
        } else {
            self.init(url: try StringValues.url(from: String(text)))
        }
    }
}
