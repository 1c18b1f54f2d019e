import FuzzSupport

/// Configuration layers from arbitrary environment variables and arguments: strict and lenient agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Entries.fuzzConfigLayers(fuzzData(start, count))
    return 0
}
