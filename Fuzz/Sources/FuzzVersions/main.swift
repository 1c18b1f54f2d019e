import FuzzSupport

/// Documents with arbitrary `$versions` through migrations, strictly and leniently.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Entries.fuzzVersions(fuzzData(start, count))
    return 0
}
