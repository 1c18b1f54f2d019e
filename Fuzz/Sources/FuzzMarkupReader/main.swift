import FuzzSupport

/// The markup element reader: `AMCMarkup(data:)` and its printed tree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Markups.fuzzReader(fuzzData(start, count))
    return 0
}
