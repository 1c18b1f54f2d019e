import FuzzSupport

/// `AMCDocument` edits: the result lints; removing what was inserted gives the original.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Entries.fuzzEdits(fuzzData(start, count))
    return 0
}
