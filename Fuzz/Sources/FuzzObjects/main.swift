import FuzzSupport

/// `AMC.object(from:)`, `AMC.object(_:from:)` and lenient decoding of a model with every kind of field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    Objects.fuzz(fuzzData(start, count))
    return 0
}
