// Conversions between the platform-neutral value types and UIKit's, AppKit's, Core Graphics'
// and Foundation's own, where those exist. Linux has none of them, so nothing here is compiled
// there; each conversion is a line or two over public initialisers.

#if canImport(UIKit)
    import UIKit
#elseif canImport(AppKit)
    import AppKit
#endif

#if canImport(Darwin)
    import Foundation

    extension AMCURLRequest {
        /// The `URLRequest` for this method and URL.
        ///
        /// ```swift
        /// let request = try AMC.value(AMCURLRequest.self, from: "POST https://example.com/items").urlRequest
        /// request.httpMethod   // "POST"
        /// ```
        public var urlRequest: URLRequest {
            var request = URLRequest(url: url)
            request.httpMethod = method
            return request
        }
    }
#endif

#if canImport(CoreGraphics)
    import CoreGraphics

    extension AMCColor {
        /// The colour as a `CGColor` in the sRGB colour space.
        ///
        /// ```swift
        /// layer.borderColor = try AMC.value(AMCColor.self, from: "#ff000080").cgColor
        /// ```
        public var cgColor: CGColor {
            CGColor(srgbRed: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
        }
    }
#endif

#if canImport(UIKit)
    extension AMCColor {
        /// The colour as a `UIColor`.
        ///
        /// ```swift
        /// label.textColor = try AMC.value(AMCColor.self, from: "darkGray").uiColor
        /// ```
        public var uiColor: UIColor {
            UIColor(red: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
        }

        /// The components of a `UIColor` (nil when it has no RGB form, as for a pattern).
        ///
        /// ```swift
        /// let color = AMCColor(UIColor.systemRed)
        /// ```
        public init?(_ color: UIColor) {
            var (red, green, blue, alpha): (CGFloat, CGFloat, CGFloat, CGFloat) = (0, 0, 0, 0)
            guard color.getRed(&red, green: &green, blue: &blue, alpha: &alpha) else { return nil }
            self.init(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha))
        }
    }

    extension AMCEdgeInsets {
        /// The insets as `UIEdgeInsets`.
        ///
        /// ```swift
        /// button.contentEdgeInsets = try AMC.value(AMCEdgeInsets.self, from: "8, 16, 8, 16").uiEdgeInsets
        /// ```
        public var uiEdgeInsets: UIEdgeInsets {
            UIEdgeInsets(top: CGFloat(top), left: CGFloat(left), bottom: CGFloat(bottom), right: CGFloat(right))
        }
    }

    extension AMCOffset {
        /// The offset as a `UIOffset`.
        ///
        /// ```swift
        /// item.titlePositionAdjustment = try AMC.value(AMCOffset.self, from: "0, -2").uiOffset
        /// ```
        public var uiOffset: UIOffset { UIOffset(horizontal: CGFloat(horizontal), vertical: CGFloat(vertical)) }
    }

    extension AMCFont {
        /// The font as a `UIFont`: the named font (the system font when there is no name or no such
        /// font), at the size, with the bold and italic traits applied where the family has them.
        ///
        /// ```swift
        /// label.font = try AMC.value(AMCFont.self, from: "bold 15").uiFont
        /// ```
        public var uiFont: UIFont {
            platformFont(
                named: { UIFont(name: $0, size: $1) }, system: { UIFont.systemFont(ofSize: $0) },
                styled: { base in
                    var traits = base.fontDescriptor.symbolicTraits
                    if isBold { traits.insert(.traitBold) }
                    if isItalic { traits.insert(.traitItalic) }
                    return base.fontDescriptor.withSymbolicTraits(traits).map { UIFont(descriptor: $0, size: CGFloat(size)) }
                })
        }
    }

    extension AMCImage {
        /// The named image from the main bundle, resizable with the cap insets when there are any;
        /// nil when there is no such image.
        ///
        /// ```swift
        /// button.setBackgroundImage(try AMC.value(AMCImage.self, from: "button.png 5, 10").uiImage, for: .normal)
        /// ```
        public var uiImage: UIImage? {
            guard let image = UIImage(named: name) else { return nil }
            return capInsets.map { image.resizableImage(withCapInsets: $0.uiEdgeInsets) } ?? image
        }
    }

#elseif canImport(AppKit)
    extension AMCColor {
        /// The colour as an `NSColor` in the sRGB colour space.
        ///
        /// ```swift
        /// textField.textColor = try AMC.value(AMCColor.self, from: "darkGray").nsColor
        /// ```
        public var nsColor: NSColor {
            NSColor(srgbRed: CGFloat(red), green: CGFloat(green), blue: CGFloat(blue), alpha: CGFloat(alpha))
        }

        /// The sRGB components of an `NSColor` (nil when it has none, as for a pattern).
        ///
        /// ```swift
        /// let color = AMCColor(NSColor.systemRed)
        /// ```
        public init?(_ color: NSColor) {
            guard let srgb = color.usingColorSpace(.sRGB) else { return nil }
            self.init(
                red: Double(srgb.redComponent), green: Double(srgb.greenComponent),
                blue: Double(srgb.blueComponent), alpha: Double(srgb.alphaComponent))
        }
    }

    extension AMCEdgeInsets {
        /// The insets as `NSEdgeInsets`.
        ///
        /// ```swift
        /// stackView.edgeInsets = try AMC.value(AMCEdgeInsets.self, from: "8, 16, 8, 16").nsEdgeInsets
        /// ```
        public var nsEdgeInsets: NSEdgeInsets {
            NSEdgeInsets(top: CGFloat(top), left: CGFloat(left), bottom: CGFloat(bottom), right: CGFloat(right))
        }
    }

    extension AMCFont {
        /// The font as an `NSFont`: the named font (the system font when there is no name or no such
        /// font), at the size, with the bold and italic traits applied where the family has them.
        ///
        /// ```swift
        /// textField.font = try AMC.value(AMCFont.self, from: "bold 15").nsFont
        /// ```
        public var nsFont: NSFont {
            platformFont(
                named: { NSFont(name: $0, size: $1) }, system: { NSFont.systemFont(ofSize: $0) },
                styled: { base in
                    var traits = base.fontDescriptor.symbolicTraits
                    if isBold { traits.insert(.bold) }
                    if isItalic { traits.insert(.italic) }
                    return NSFont(descriptor: base.fontDescriptor.withSymbolicTraits(traits), size: CGFloat(size))
                })
        }
    }

    extension AMCImage {
        /// The named image, with the cap insets and tiling mode set when there are insets; nil when
        /// there is no such image.
        ///
        /// ```swift
        /// button.image = try AMC.value(AMCImage.self, from: "button.png 5, 10").nsImage
        /// ```
        public var nsImage: NSImage? {
            guard let image = NSImage(named: name) else { return nil }
            if let caps = capInsets {
                image.capInsets = caps.nsEdgeInsets
                image.resizingMode = .stretch
            }
            return image
        }
    }

#endif

#if canImport(UIKit) || canImport(AppKit)
    extension AMCTextAlignment {
        /// The matching `NSTextAlignment`.
        ///
        /// ```swift
        /// label.textAlignment = try AMC.value(AMCTextAlignment.self, from: "center").nsTextAlignment
        /// ```
        public var nsTextAlignment: NSTextAlignment {
            switch self {
            case .left: return .left
            case .center: return .center
            case .right: return .right
            case .justified: return .justified
            case .natural: return .natural
            }
        }
    }

    extension AMCLineBreakMode {
        /// The matching `NSLineBreakMode`.
        ///
        /// ```swift
        /// label.lineBreakMode = try AMC.value(AMCLineBreakMode.self, from: "truncateTail").nsLineBreakMode
        /// ```
        public var nsLineBreakMode: NSLineBreakMode {
            switch self {
            case .wordWrap: return .byWordWrapping
            case .charWrap: return .byCharWrapping
            case .clip: return .byClipping
            case .truncateHead: return .byTruncatingHead
            case .truncateTail: return .byTruncatingTail
            case .truncateMiddle: return .byTruncatingMiddle
            }
        }
    }
#endif
