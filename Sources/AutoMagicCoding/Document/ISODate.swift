import Foundation

/// ISO 8601 dates as JSON files carry them (`2024-05-17T09:30:00Z`, with optional fractional
/// seconds and a `±hh:mm` offset), read and written without a formatter: the UTC calendar is plain
/// arithmetic (days from civil dates, Howard Hinnant's algorithm), proleptic Gregorian.
///
/// Years 0 to 9999 have four digits; later years more (`33658-…`), earlier ones a minus sign
/// (`-0001-…`, the year before year 0), as Foundation reads them. Dates more than
/// ``maximumInterval`` seconds from 2001 (about ±31 million years), and NaN or infinite ones, have
/// no text form: binary property lists hold them, the text formats refuse them.
enum ISODate {
    /// The farthest from 2001, in seconds, that a date with a text form may be.
    static let maximumInterval = 1e15

    /// `date` in UTC, with as many fractional digits as reading it back exactly takes (the
    /// shortest decimal form of its `timeIntervalSinceReferenceDate`); nil for a date with no
    /// text form.
    static func string(from date: Date) -> String? {
        var bytes: [UInt8] = []
        guard append(date, to: &bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `date` as messages and printed documents show it: its ``string(from:)``, or for a date
    /// with no text form (NaN, infinite, farther than ``maximumInterval``) its seconds from 2001.
    /// Never Foundation's `Date.description`, which traps on such dates.
    static func described(_ date: Date) -> String {
        string(from: date) ?? "date \(date.timeIntervalSinceReferenceDate) seconds from 2001"
    }

    /// The error of a date with no text form, for the writers of JSON and XML property lists.
    static func unwritable(_ date: Date) -> AMCError {
        AMCError(
            .unsupportedType(
                typeName: "Date",
                reason: "a \(described(date)) has no ISO 8601 form (JSON and XML "
                    + "property lists write dates within ±31 million years; binary property lists hold any)"))
    }

    /// Appends the bytes of ``string(from:)`` to `bytes`, building no string; false, appending
    /// nothing, for a date with no text form.
    ///
    /// The fraction is the decimal digits of the interval's shortest form (Swift's `description`,
    /// which reads back to the same `Double`) after its point, taken in decimal so that nothing
    /// rounds: `-0.25` seconds is `2000-12-31T23:59:59.75Z`.
    static func append(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.magnitude < maximumInterval else { return false }  // NaN too
        let whole = interval.rounded(.down)
        if whole == interval {
            appendDateTime(seconds: Int64(whole) + referenceDateOffset, to: &bytes)
        } else if interval > 0, let decimal = ShortestDecimal(interval) {
            appendDateTime(seconds: Int64(decimal.whole) + referenceDateOffset, to: &bytes)
            decimal.appendFraction(to: &bytes)
        } else {
            ByteView.withBytes(of: interval.magnitude.description) {
                appendFractional(shortest: $0, negative: interval < 0, to: &bytes)
            }
        }
        bytes.append("Z")
        return true
    }

    /// Appends the date-time of a magnitude whose shortest form is `text` (`780000000.5`,
    /// `1e-07`, never whole), negated when `negative`.
    private static func appendFractional(shortest text: ByteView, negative: Bool, to bytes: inout [UInt8]) {
        let zero = UInt8(ascii: "0")
        let exponentAt = text.firstIndex(of: UInt8(ascii: "e")) ?? text.count
        var exponent = 0
        if exponentAt < text.count {
            for index in (exponentAt + 1)..<text.count where text[index] >= zero {
                exponent = exponent * 10 + Int(text[index] - zero)
            }
            if text[exponentAt + 1] == UInt8(ascii: "-") { exponent = -exponent }
        }
        let pointAt = text[..<exponentAt].firstIndex(of: UInt8(ascii: ".")) ?? exponentAt
        let digitCount = exponentAt - (pointAt < exponentAt ? 1 : 0)
        /// The `index`th digit of the mantissa; zeros on either side of it.
        func digit(_ index: Int) -> UInt8 {
            guard index >= 0, index < digitCount else { return zero }
            return text[index < pointAt ? index : index + 1]
        }
        // The decimal point sits after `integerCount` digits; the fraction ends at its last
        // digit that is not 0 (there is one: the interval is not whole).
        let integerCount = pointAt + exponent
        var magnitude: Int64 = 0
        for index in 0..<max(integerCount, 0) { magnitude = magnitude * 10 + Int64(digit(index) - zero) }
        var last = digitCount - 1
        while digit(last) == zero { last -= 1 }
        // -(w + 0.f) = -(w + 1) + (1 - 0.f): each digit d of the complement is 9 - d, the last 10 - d.
        appendDateTime(seconds: (negative ? -magnitude - 1 : magnitude) + referenceDateOffset, to: &bytes)
        bytes.append(".")
        for index in integerCount...last {
            let d = digit(index) - zero
            bytes.append(zero + (negative ? (index == last ? 10 : 9) - d : d))
        }
    }

    /// Appends `date` in UTC rounded to whole seconds, as XML property lists hold dates; false,
    /// appending nothing, for a date with no text form.
    static func appendWholeSeconds(_ date: Date, to bytes: inout [UInt8]) -> Bool {
        guard date.timeIntervalSinceReferenceDate.magnitude < maximumInterval else { return false }  // NaN too
        let interval = date.timeIntervalSince1970
        let seconds = interval.rounded(.down)
        appendDateTime(seconds: Int64(seconds) + (interval - seconds >= 0.5 ? 1 : 0), to: &bytes)
        bytes.append("Z")
        return true
    }

    /// Appends `yyyy-MM-ddTHH:mm:ss` of `whole` seconds since 1970.
    private static func appendDateTime(seconds whole: Int64, to bytes: inout [UInt8]) {
        let days = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let secondOfDay = whole - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        // A year from 1000 to 9999: the 19 bytes are put together in three words and appended at once.
        if (1000...9999).contains(year) {
            /// `value`'s two digits as the two bytes of a word, the first lowest.
            func digits(_ value: Int64) -> UInt64 { UInt64(0x3030 | value / 10 | (value % 10) << 8) }
            let (hour, minute, second) = (secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
            let dash = UInt64(UInt8(ascii: "-"))
            let colon = UInt64(UInt8(ascii: ":"))
            let time = UInt64(UInt8(ascii: "T"))
            bytes.append(
                contentsOf: PackedBytes(
                    digits(year / 100) | digits(year % 100) << 16 | dash << 32 | digits(month) << 40 | dash << 56,
                    digits(day) | time << 16 | digits(hour) << 24 | colon << 40 | digits(minute) << 48,
                    colon | digits(second) << 8, count: 19))
            return
        }
        if year < 0 { bytes.append("-") }
        if year.magnitude < 1000 {
            bytes.append(UInt8(ascii: "0"), times: year.magnitude < 10 ? 3 : year.magnitude < 100 ? 2 : 1)
        }
        bytes.appendDecimal(year.magnitude)
        func twoDigits(after separator: Unicode.Scalar, _ value: Int64) {
            bytes.append(UInt8(ascii: separator))
            bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
            bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
        }
        twoDigits(after: "-", month)
        twoDigits(after: "-", day)
        twoDigits(after: "T", secondOfDay / 3600)
        twoDigits(after: ":", secondOfDay / 60 % 60)
        twoDigits(after: ":", secondOfDay % 60)
    }

    /// `1 - 0.digits`, as digits (the last one is not 0).
    private static func complement(_ digits: [UInt8]) -> [UInt8] {
        let zero = UInt8(ascii: "0")
        var result = digits.map { zero + 9 - ($0 - zero) }
        result[result.count - 1] += 1
        return result
    }

    /// Seconds from 1970 to 2001.
    private static let referenceDateOffset: Int64 = 978_307_200

    /// The date an ISO 8601 date-time string names; nil when it is not one, or names a date more
    /// than ``maximumInterval`` seconds from 2001, which has no text form here.
    static func date(from string: String) -> Date? {
        ByteView.withBytes(of: string) { date(from: $0[...]) }
    }

    private static func date(from text: Slice<ByteView>) -> Date? {
        var utf8 = text
        guard let year = takeYear(&utf8), skip(&utf8, "-"), let month = take(&utf8, digits: 2),
            skip(&utf8, "-"), let day = take(&utf8, digits: 2), skip(&utf8, "T") || skip(&utf8, "t") || skip(&utf8, " "),
            let hour = take(&utf8, digits: 2), skip(&utf8, ":"), let minute = take(&utf8, digits: 2),
            skip(&utf8, ":"), let second = take(&utf8, digits: 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else {
            return nil
        }
        var fraction = utf8[utf8.startIndex..<utf8.startIndex]
        if skip(&utf8, ".") || skip(&utf8, ",") {
            let start = utf8.startIndex
            while let byte = utf8.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { utf8.removeFirst() }
            fraction = text[start..<utf8.startIndex]
            guard !fraction.isEmpty else { return nil }
        }
        var offset: Int64 = 0
        if skip(&utf8, "Z") || skip(&utf8, "z") {
        } else if let sign = utf8.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            utf8.removeFirst()
            guard let hours = take(&utf8, digits: 2) else { return nil }
            _ = skip(&utf8, ":")
            guard let minutes = take(&utf8, digits: 2), hours < 24, minutes < 60 else { return nil }
            offset = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        } else {
            return nil
        }
        guard utf8.isEmpty else { return nil }
        let days = self.days(fromCivil: year, month, day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset
        // Only what ``string(from:)`` can write back: a date of year 5555552024 is refused, where
        // Foundation wraps its year to 32 bits and reads another date.
        guard Double(seconds - referenceDateOffset).magnitude < maximumInterval else { return nil }
        return Date(timeIntervalSinceReferenceDate: interval(seconds - referenceDateOffset, fraction))
    }

    /// `whole + 0.fraction` as the nearest `Double`: one correctly rounded conversion of the
    /// exact decimal, so that what ``string(from:)`` wrote reads back to the same value.
    ///
    /// When the decimal's digits, as one integer `n` (`whole · 10^k + fraction`), are below 2^53,
    /// `n` and `10^k` are both exact `Double`s, and one division rounds their quotient correctly:
    /// no text is made (most dates written with a fraction have a few digits of it).
    private static func interval(_ whole: Int64, _ digits: Slice<ByteView>) -> Double {
        var fraction = digits
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        guard !fraction.isEmpty else { return Double(whole) }
        if fraction.count < powersOfTen.count, whole.magnitude + 1 <= (1 << 53) / powersOfTen[fraction.count] {
            var scaled = whole
            for digit in fraction { scaled = scaled * 10 + Int64(digit - UInt8(ascii: "0")) }
            return Double(scaled) / Double(powersOfTen[fraction.count])
        }
        return interval(whole, text: Array(fraction))
    }

    /// 10^0 to 10^15, each an exact `Double` too.
    private static let powersOfTen: [UInt64] = (0...15).map { exponent in (0..<exponent).reduce(1) { power, _ in power * 10 } }

    /// ``interval(_:_:)`` for any digits: through the decimal's text.
    private static func interval(_ whole: Int64, text fraction: [UInt8]) -> Double {
        // whole + 0.f for whole < 0 is -((|whole| - 1) + (1 - 0.f)).
        let text =
            whole >= 0
            ? "\(whole)." + String(decoding: fraction, as: UTF8.self)
            : "-\(-(whole + 1))." + String(decoding: complement(fraction), as: UTF8.self)
        return Double(text) ?? Double(whole)
    }

    // MARK: - Calendar arithmetic

    private static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func days(fromCivil year: Int64, _ month: Int64, _ day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    // MARK: - Scanning

    /// A year: four digits or more (at most 11), after a minus sign for years before year 0.
    private static func takeYear(_ bytes: inout Slice<ByteView>) -> Int64? {
        let negative = skip(&bytes, "-")
        let count = bytes.prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }.count
        guard (4...11).contains(count), let year = take(&bytes, digits: count) else { return nil }
        return negative ? -year : year
    }

    private static func take(_ bytes: inout Slice<ByteView>, digits count: Int) -> Int64? {
        guard bytes.count >= count else { return nil }
        var value: Int64 = 0
        for byte in bytes.prefix(count) {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        bytes.removeFirst(count)
        return value
    }

    private static func skip(_ bytes: inout Slice<ByteView>, _ character: Unicode.Scalar) -> Bool {
        guard bytes.first == UInt8(ascii: character) else { return false }
        bytes.removeFirst()
        return true
    }
}
