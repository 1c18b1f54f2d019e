import Testing

@testable import AutoMagicCoding

/// The set of fields the decoder's first pass leaves for the second.
@Suite("Field set")
struct FieldSetTests {
    @Test func holdsExactlyTheFieldsInsertedInEveryWord() {
        let inserted: Set<Int> = [0, 3, 63, 64, 65, 127, 128, 200, 511]
        var set = FieldSet()
        for index in inserted.sorted(by: >) { set.insert(index) }  // a far word first, then nearer ones
        for index in 0..<600 {
            #expect(set.contains(index) == inserted.contains(index), "\(index)")
        }
        set.insert(3)  // again: no change
        #expect(set.contains(3) && !set.contains(4))
    }
}
