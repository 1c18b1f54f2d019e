import Testing

@testable import AutoMagicCoding

@Suite("String numbers: the same answers with few strings and with many")
struct StringNumbersTests {
    @Test func everyStringKeepsItsNumberAcrossTheChangeToTheDictionary() {
        var numbers = StringNumbers()
        let pointers = (0..<(StringNumbers.scanned * 3)).map { "#/people/\($0)/friend" }
        for (number, pointer) in pointers.enumerated() {
            #expect(numbers[pointer] == nil)
            numbers[pointer] = number * 10
            // Every string so far, the few ones found by a look at each, then all by the dictionary.
            #expect(pointers.prefix(number + 1).enumerated().allSatisfy { numbers[$1] == $0 * 10 })
        }
        numbers[pointers[2]] = 7
        #expect(numbers[pointers[2]] == 7 && numbers["#/nobody"] == nil)
        // Strings equal as Swift compares them are one string, in both shapes.
        numbers["e\u{301}"] = 1
        #expect(numbers["é"] == 1)

        numbers.removeAll()
        #expect(pointers.allSatisfy { numbers[$0] == nil })
        numbers["é"] = 2
        numbers[pointers[0]] = 3
        #expect(numbers["e\u{301}"] == 2 && numbers[pointers[0]] == 3)
    }

    @Test func positionalNumbersFindTheirStringsAcrossTheChangeToTheDictionary() {
        var keys = StringNumbers()
        let names = (0..<(StringNumbers.scanned * 3)).map { "key\($0)" }
        for (position, name) in names.enumerated() {
            #expect(keys.positionalNumber(of: name) == position)
            // Asked again, every key so far keeps its number, and its number gives it back.
            #expect(names.prefix(position + 1).enumerated().allSatisfy { keys.positionalNumber(of: $1) == $0 })
            #expect(names.prefix(position + 1).enumerated().allSatisfy { keys.string(at: $0) == $1 })
        }
        #expect(keys.count == names.count)
        keys.removeAll()
        #expect(keys.count == 0 && keys[names[0]] == nil)
        // Refilled past the few: the strings forgotten stay forgotten in the dictionary too.
        let others = (0..<(StringNumbers.scanned + 2)).map { "other\($0)" }
        for (position, other) in others.enumerated() { #expect(keys.positionalNumber(of: other) == position) }
        #expect(names.allSatisfy { keys[$0] == nil })
        #expect(others.enumerated().allSatisfy { keys.string(at: $0) == $1 && keys[$1] == $0 })
    }
}
