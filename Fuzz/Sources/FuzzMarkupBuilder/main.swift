import FuzzSupport

/// The markup builder: a tree of registered views built from bytes, written back and built again.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Markups.fuzzBuilder(fuzzData(start, count))
    return 0
}
