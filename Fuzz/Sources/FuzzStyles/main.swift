import FuzzSupport

/// `AMCStylesheet` from bytes, applied to a small graph.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Configs.fuzzStylesheet(fuzzData(start, count))
    return 0
}
