import FuzzSupport

/// `AMCConfig` from bytes: its accessors, `object(_:)` and `lenientObject(_:)`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Configs.fuzzConfig(fuzzData(start, count))
    return 0
}
