import Foundation

/// The string forms of `CGPoint`, `CGSize` and `CGRect`: what Apple's `NSStringFromCGPoint` and
/// friends print (`"{15, 16}"`, `"{{39, 235}, {1233.09, 124}}"`), on every platform.
enum GeometryStrings {
    /// `"{a, b}"`, or `"{{a, b}, {c, d}}"` for four numbers, each in ``number(_:)``'s form.
    static func braced(_ numbers: CGFloat...) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8 * numbers.count + 8)
        if numbers.count == 4 { bytes.append("{") }
        for (index, number) in numbers.enumerated() {
            bytes.append(index == 0 ? "{" : index == 2 ? "}, {" : ", ")
            appendNumber(number, to: &bytes)
        }
        bytes.append(numbers.count == 4 ? "}}" : "}")
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The shortest string that reads back to the same value: `15`, `1233.09`, `-0`, `1e-05`.
    static func number(_ value: CGFloat) -> String {
        var bytes: [UInt8] = []
        appendNumber(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendNumber(_ value: CGFloat, to bytes: inout [UInt8]) {
        let double = Double(value)
        if double == double.rounded(), abs(double) < 1e15 {
            if double == 0, double.sign == .minus { bytes.append("-0") } else { bytes.appendDecimal(Int64(double)) }
        } else {
            bytes.append(contentsOf: "\(double)".utf8)
        }
    }

    /// ``numbers(in:pairs:)``, throwing the ``AMCError`` that names `typeName` and its `form`.
    static func numbers(in string: String, pairs: Int, typeName: String, form: String) throws -> [CGFloat] {
        guard let numbers = numbers(in: string, pairs: pairs) else {
            throw AMCError(
                .typeMismatch(expected: "\(AMC.withArticle(typeName)) string like \"\(form)\"", found: "\"\(string)\""))
        }
        return numbers
    }

    /// The numbers of a `"{a, b}"` string (`pairs: 1`) or a `"{{a, b}, {c, d}}"` string
    /// (`pairs: 2`), also in Linux Foundation's `"{{1.0, 2.0}, {3.0, 4.0}}"` form, white space
    /// (see ``TextTrimming``) allowed around every part; nil when the string has another shape.
    static func numbers(in string: String, pairs: Int) -> [CGFloat]? {
        ByteView.withBytes(of: string) { bytes in
            var scanner = GeometryScanner(bytes: bytes)
            var numbers: [CGFloat] = []
            numbers.reserveCapacity(pairs * 2)
            func pair() -> Bool {
                guard scanner.take(UInt8(ascii: "{")), let a = scanner.number(), scanner.take(UInt8(ascii: ",")),
                    let b = scanner.number(), scanner.take(UInt8(ascii: "}"))
                else { return false }
                numbers.append(CGFloat(a))
                numbers.append(CGFloat(b))
                return true
            }
            let matched =
                pairs == 1
                ? pair()
                : scanner.take(UInt8(ascii: "{")) && pair() && scanner.take(UInt8(ascii: ",")) && pair()
                    && scanner.take(UInt8(ascii: "}"))
            if matched && scanner.isAtEnd { return numbers }
            return flatNumbers(bytes, count: pairs * 2)
        }
    }

    /// `count` numbers in one pair of braces (`"{top, left, bottom, right}"`, as
    /// `NSStringFromUIEdgeInsets` prints them) or in the flat form of ``flatNumbers(_:count:)``.
    static func numbers(in string: String, count: Int) -> [CGFloat]? {
        ByteView.withBytes(of: string) { bytes in
            var scanner = GeometryScanner(bytes: bytes)
            var numbers: [CGFloat] = []
            if scanner.take(UInt8(ascii: "{")) {
                while numbers.count < count, let number = scanner.number() {
                    numbers.append(CGFloat(number))
                    if numbers.count < count, !scanner.take(UInt8(ascii: ",")) { return nil }
                }
                return numbers.count == count && scanner.take(UInt8(ascii: "}")) && scanner.isAtEnd ? numbers : nil
            }
            return flatNumbers(bytes, count: count)
        }
    }

    /// Exactly `count` numbers separated by white space, or by one `,`, `;` or `x` each with any
    /// white space around it: `"100 300"`, `"100 , 300"`, `"20 ; 5"`, `"-200 x 50"`.
    private static func flatNumbers(_ bytes: ByteView, count: Int) -> [CGFloat]? {
        var scanner = GeometryScanner(bytes: bytes)
        var numbers: [CGFloat] = []
        while let number = scanner.number() {
            numbers.append(CGFloat(number))
            guard numbers.count < count else { break }
            _ =
                scanner.take(UInt8(ascii: ",")) || scanner.take(UInt8(ascii: ";")) || scanner.take(UInt8(ascii: "x"))
                || scanner.take(UInt8(ascii: "X"))
        }
        return numbers.count == count && scanner.isAtEnd ? numbers : nil
    }
}

/// Walks the bytes of a geometry string.
private struct GeometryScanner {
    let bytes: ByteView
    var index = 0

    var isAtEnd: Bool {
        mutating get {
            skipSpaces()
            return index == bytes.count
        }
    }

    mutating func take(_ byte: UInt8) -> Bool {
        skipSpaces()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// A finite decimal number up to the next white space, brace or separator (`,`, `;`, `x`).
    mutating func number() -> Double? {
        skipSpaces()
        let start = index
        scan: while index < bytes.count, TextTrimming.spaceLength(in: bytes, at: index) == 0 {
            switch bytes[index] {
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "x"), UInt8(ascii: "X"):
                break scan
            default: index += 1
            }
        }
        guard let value = DecimalText.double(bytes.view(start..<index)), value.isFinite else {
            return nil
        }
        return value
    }

    private mutating func skipSpaces() {
        index = TextTrimming.skipSpaces(in: bytes, from: index)
    }
}

// MARK: - CGPoint

extension CGPoint: AMCStructCodable {
    /// `"{x, y}"`, as `NSStringFromCGPoint` prints it: `CGPoint(x: 15, y: 16)` → `"{15, 16}"`.
    public var amcStringValue: String { GeometryStrings.braced(x, y) }

    /// Parses `"{x, y}"`, or the two numbers separated by white space, `,`, `;` or `x` (`"10 20"`,
    /// `"-200 x 50"`); throws ``AMCError`` for any other shape.
    ///
    /// ```swift
    /// let point = try CGPoint(amcStringValue: "{15, 16.5}")   // (15.0, 16.5)
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try GeometryStrings.numbers(in: string, pairs: 1, typeName: "CGPoint", form: "{x, y}")
        self.init(x: n[0], y: n[1])
    }
}

// MARK: - CGSize

extension CGSize: AMCStructCodable {
    /// `"{width, height}"`, as `NSStringFromCGSize` prints it.
    public var amcStringValue: String { GeometryStrings.braced(width, height) }

    /// Parses `"{width, height}"`, or the two numbers separated by white space, `,`, `;` or `x`
    /// (`"100 , 300"`); throws ``AMCError`` for any other shape.
    ///
    /// ```swift
    /// let size = try CGSize(amcStringValue: "{1233.09, 124}")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try GeometryStrings.numbers(in: string, pairs: 1, typeName: "CGSize", form: "{w, h}")
        self.init(width: n[0], height: n[1])
    }
}

// MARK: - CGRect

extension CGRect: AMCStructCodable {
    /// `"{{x, y}, {width, height}}"`, as `NSStringFromCGRect` prints it.
    public var amcStringValue: String {
        GeometryStrings.braced(origin.x, origin.y, size.width, size.height)
    }

    /// Parses `"{{x, y}, {width, height}}"`, or the four numbers separated by white space, `,`, `;`
    /// or `x` (`"10, 20, 300, 400"`); throws ``AMCError`` for any other shape.
    ///
    /// ```swift
    /// let rect = try CGRect(amcStringValue: "{{39, 235}, {1233.09, 124}}")
    /// ```
    public init(amcStringValue string: String) throws {
        let n = try GeometryStrings.numbers(in: string, pairs: 2, typeName: "CGRect", form: "{{x, y}, {w, h}}")
        self.init(x: n[0], y: n[1], width: n[2], height: n[3])
    }
}
