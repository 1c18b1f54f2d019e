import FuzzSupport

/// `AMC.value(_:from:)` for every string-coded type.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Strings.fuzz(fuzzData(start, count))
    return 0
}
