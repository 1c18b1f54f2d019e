import FuzzSupport

/// The document readers on inputs grown from this format's seeds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Documents.fuzz(fuzzData(start, count))
    return 0
}
