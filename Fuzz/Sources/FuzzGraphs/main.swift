import FuzzSupport

/// Graphs with weak, unowned and unowned(unsafe) fields: decode, encode, decode gives the same bytes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Entries.fuzzGraph(fuzzData(start, count))
    return 0
}
