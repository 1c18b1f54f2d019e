import FuzzSupport

/// Lenient decoding, unknown keys reported: problems exactly when strict decoding fails.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Entries.fuzzLenient(fuzzData(start, count))
    return 0
}
