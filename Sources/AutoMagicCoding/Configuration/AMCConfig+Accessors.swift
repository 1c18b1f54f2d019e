import Foundation

// The typed accessors of AMCConfig: one pair per value type of string coding, each a thin
// ``AMCConfig/value(_:forKeyPath:)`` / ``AMCConfig/value(_:forKeyPath:default:)``.

extension AMCConfig {
    /// A string at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.string(forKeyPath: "strings.title")
    /// ```
    public func string(forKeyPath keyPath: String) throws -> String? { try value(String.self, forKeyPath: keyPath) }

    /// ``string(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.string(forKeyPath: "strings.title", default: "Welcome")
    /// ```
    public func string(forKeyPath keyPath: String, default fallback: String) -> String {
        value(String.self, forKeyPath: keyPath, default: fallback)
    }

    /// An integer (from a number or a string such as `"0x1F"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.int(forKeyPath: "layout.columns")
    /// ```
    public func int(forKeyPath keyPath: String) throws -> Int? { try value(Int.self, forKeyPath: keyPath) }

    /// ``int(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.int(forKeyPath: "layout.columns", default: 3)
    /// ```
    public func int(forKeyPath keyPath: String, default fallback: Int) -> Int {
        value(Int.self, forKeyPath: keyPath, default: fallback)
    }

    /// A number at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.double(forKeyPath: "layout.cornerRadius")
    /// ```
    public func double(forKeyPath keyPath: String) throws -> Double? { try value(Double.self, forKeyPath: keyPath) }

    /// ``double(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.double(forKeyPath: "layout.cornerRadius", default: 8)
    /// ```
    public func double(forKeyPath keyPath: String, default fallback: Double) -> Double {
        value(Double.self, forKeyPath: keyPath, default: fallback)
    }

    /// A bool (from a plist bool, a number, or `yes`/`no`, `true`/`false`, `on`/`off`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.bool(forKeyPath: "features.sharing")
    /// ```
    public func bool(forKeyPath keyPath: String) throws -> Bool? { try value(Bool.self, forKeyPath: keyPath) }

    /// ``bool(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.bool(forKeyPath: "features.sharing", default: false)
    /// ```
    public func bool(forKeyPath keyPath: String, default fallback: Bool) -> Bool {
        value(Bool.self, forKeyPath: keyPath, default: fallback)
    }

    /// A date (a plist date or an ISO 8601 string) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.date(forKeyPath: "launch.date")
    /// ```
    public func date(forKeyPath keyPath: String) throws -> Date? { try value(Date.self, forKeyPath: keyPath) }

    /// ``date(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.date(forKeyPath: "launch.date", default: Date())
    /// ```
    public func date(forKeyPath keyPath: String, default fallback: Date) -> Date {
        value(Date.self, forKeyPath: keyPath, default: fallback)
    }

    /// A URL (absolute, or relative to `AMC.baseURL`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.url(forKeyPath: "links.help")
    /// ```
    public func url(forKeyPath keyPath: String) throws -> URL? { try value(URL.self, forKeyPath: keyPath) }

    /// ``url(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.url(forKeyPath: "links.help", default: URL(string: "https://example.com")!)
    /// ```
    public func url(forKeyPath keyPath: String, default fallback: URL) -> URL {
        value(URL.self, forKeyPath: keyPath, default: fallback)
    }

    /// A size (`"300 x 200"`, `"{300, 200}"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.size(forKeyPath: "layout.cardSize")
    /// ```
    public func size(forKeyPath keyPath: String) throws -> CGSize? { try value(CGSize.self, forKeyPath: keyPath) }

    /// ``size(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.size(forKeyPath: "layout.cardSize", default: CGSize(width: 300, height: 200))
    /// ```
    public func size(forKeyPath keyPath: String, default fallback: CGSize) -> CGSize {
        value(CGSize.self, forKeyPath: keyPath, default: fallback)
    }

    /// A point (`"10 20"`, `"{10, 20}"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.point(forKeyPath: "layout.origin")
    /// ```
    public func point(forKeyPath keyPath: String) throws -> CGPoint? { try value(CGPoint.self, forKeyPath: keyPath) }

    /// ``point(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.point(forKeyPath: "layout.origin", default: .zero)
    /// ```
    public func point(forKeyPath keyPath: String, default fallback: CGPoint) -> CGPoint {
        value(CGPoint.self, forKeyPath: keyPath, default: fallback)
    }

    /// A rectangle (`"10, 20, 300, 400"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.rect(forKeyPath: "layout.frame")
    /// ```
    public func rect(forKeyPath keyPath: String) throws -> CGRect? { try value(CGRect.self, forKeyPath: keyPath) }

    /// ``rect(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.rect(forKeyPath: "layout.frame", default: .zero)
    /// ```
    public func rect(forKeyPath keyPath: String, default fallback: CGRect) -> CGRect {
        value(CGRect.self, forKeyPath: keyPath, default: fallback)
    }

    /// Edge insets (`"8, 16, 8, 16"`: top, left, bottom, right) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.edgeInsets(forKeyPath: "layout.padding")
    /// ```
    public func edgeInsets(forKeyPath keyPath: String) throws -> AMCEdgeInsets? {
        try value(AMCEdgeInsets.self, forKeyPath: keyPath)
    }

    /// ``edgeInsets(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.edgeInsets(forKeyPath: "layout.padding", default: AMCEdgeInsets(top: 8, left: 8, bottom: 8, right: 8))
    /// ```
    public func edgeInsets(forKeyPath keyPath: String, default fallback: AMCEdgeInsets) -> AMCEdgeInsets {
        value(AMCEdgeInsets.self, forKeyPath: keyPath, default: fallback)
    }

    /// An offset (`"0 -2"`: horizontal, vertical) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.offset(forKeyPath: "layout.shadowOffset")
    /// ```
    public func offset(forKeyPath keyPath: String) throws -> AMCOffset? { try value(AMCOffset.self, forKeyPath: keyPath) }

    /// ``offset(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.offset(forKeyPath: "layout.shadowOffset", default: AMCOffset(horizontal: 0, vertical: 1))
    /// ```
    public func offset(forKeyPath keyPath: String, default fallback: AMCOffset) -> AMCOffset {
        value(AMCOffset.self, forKeyPath: keyPath, default: fallback)
    }

    /// A colour (names, `#rrggbb[aa]`, `rgb(…)`, `rgba(…)`, `"r, g, b[, a]"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.color(forKeyPath: "colors.tint")
    /// ```
    public func color(forKeyPath keyPath: String) throws -> AMCColor? { try value(AMCColor.self, forKeyPath: keyPath) }

    /// ``color(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.color(forKeyPath: "colors.tint", default: AMCColor(white: 0))
    /// ```
    public func color(forKeyPath keyPath: String, default fallback: AMCColor) -> AMCColor {
        value(AMCColor.self, forKeyPath: keyPath, default: fallback)
    }

    /// A font (`"helvetica 17"`, `"bold 15"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.font(forKeyPath: "fonts.title")
    /// ```
    public func font(forKeyPath keyPath: String) throws -> AMCFont? { try value(AMCFont.self, forKeyPath: keyPath) }

    /// ``font(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.font(forKeyPath: "fonts.title", default: AMCFont(size: 17))
    /// ```
    public func font(forKeyPath keyPath: String, default fallback: AMCFont) -> AMCFont {
        value(AMCFont.self, forKeyPath: keyPath, default: fallback)
    }

    /// An image (`"button.png 5, 10"`) at `keyPath`; nil when the key is missing.
    ///
    /// ```swift
    /// let value = try config.image(forKeyPath: "images.button")
    /// ```
    public func image(forKeyPath keyPath: String) throws -> AMCImage? { try value(AMCImage.self, forKeyPath: keyPath) }

    /// ``image(forKeyPath:)``, or `fallback` when the key is missing or its value is bad.
    ///
    /// ```swift
    /// let value = config.image(forKeyPath: "images.button", default: AMCImage(name: "button.png"))
    /// ```
    public func image(forKeyPath keyPath: String, default fallback: AMCImage) -> AMCImage {
        value(AMCImage.self, forKeyPath: keyPath, default: fallback)
    }

}
