import AutoMagicCoding
import Foundation

/// `AMC.value(_:from:)` for every string-coded type, on the input as text.
public enum Strings {
    public static func fuzz(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        _ = try? AMC.value(Int.self, from: text)
        _ = try? AMC.value(Int8.self, from: text)
        _ = try? AMC.value(UInt8.self, from: text)
        _ = try? AMC.value(UInt64.self, from: text)
        _ = try? AMC.value(Int128.self, from: text)
        _ = try? AMC.value(Double.self, from: text)
        _ = try? AMC.value(Float.self, from: text)
        _ = try? AMC.value(Decimal.self, from: text)
        _ = try? AMC.value(Bool.self, from: text)
        _ = try? AMC.value(Date.self, from: text)
        _ = try? AMC.value(URL.self, from: text)
        _ = try? AMC.value(UUID.self, from: text)
        _ = try? AMC.value(CGPoint.self, from: text)
        _ = try? AMC.value(CGSize.self, from: text)
        _ = try? AMC.value(CGRect.self, from: text)
        _ = try? AMC.value(AMCEdgeInsets.self, from: text)
        _ = try? AMC.value(AMCOffset.self, from: text)
        _ = try? AMC.value(AMCColor.self, from: text)
        _ = try? AMC.value(AMCFont.self, from: text)
        _ = try? AMC.value(AMCImage.self, from: text)
        _ = try? AMC.value(AMCTextAlignment.self, from: text)
        _ = try? AMC.value(AMCLineBreakMode.self, from: text)
        _ = try? AMC.value(AMCURLRequest.self, from: text)
        _ = try? AMC.value(FuzzState.self, from: text)
        // What parses writes back as a string that parses to the same value.
        if let color = try? AMC.value(AMCColor.self, from: text) {
            invariant(
                (try? AMC.value(AMCColor.self, from: color.amcStringValue)) == color, "a colour's string does not read back")
        }
        if let rect = try? AMC.value(CGRect.self, from: text), rect.origin.x.isFinite, rect.size.width.isFinite,
            rect.origin.y.isFinite, rect.size.height.isFinite
        {
            invariant((try? AMC.value(CGRect.self, from: rect.amcStringValue)) == rect, "a rect's string does not read back")
        }
    }
}
