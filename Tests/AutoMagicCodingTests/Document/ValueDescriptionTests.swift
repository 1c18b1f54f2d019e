import Foundation
import Testing

@testable import AutoMagicCoding

/// How messages name a document value's kind: one table, read by errors and by `amc`'s `-type`.
@Suite("Value descriptions")
struct ValueDescriptionTests {
    @Test func everyKindHasItsTypeNameAndItsPhrase() {
        let cases: [(ArchiveValue, String, String)] = [
            (.bool(true), "bool", "a bool"), (.int(1), "integer", "an integer"), (.uint(.max), "integer", "an integer"),
            (.double(0.5), "float", "a float"), (.longNumber("123456789012345678901234567890"), "integer", "an integer"),
            (.longNumber("1e400"), "float", "a float"), (.string("x"), "string", "a string"),
            (.date(Date(timeIntervalSinceReferenceDate: 0)), "date", "a date"), (.data(Data([1])), "data", "data"),
            (.dictionary(ArchiveDictionary()), "dictionary", "a dictionary"), (.array(ArchiveArray([])), "array", "an array"),
            (.null, "null", "null"),
        ]
        for (value, typeName, phrase) in cases {
            #expect(value.typeName == typeName)
            #expect(value.kindPhrase == phrase, "\(typeName)")
        }
    }
}
