import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes the process's `malloc` has handed out and not taken back: what the benchmark
/// weighs a parsed document with. The one file of the benchmark that touches a C pointer.
public enum AllocatedBytes {
    #if canImport(Glibc)
        /// glibc's `malloc_info`, looked up once.
        nonisolated(unsafe) private static let mallocInfo = dlsym(dlopen(nil, RTLD_NOW), "malloc_info")
    #endif

    /// The bytes allocated now; nil where the C library does not tell (it does on Linux).
    ///
    /// ```swift
    /// let before = AllocatedBytes.now
    /// let markup = try AMCMarkup(data: data)
    /// let held = AllocatedBytes.now.flatMap { after in before.map { after - $0 } }
    /// ```
    public static var now: Int? {
        #if canImport(Glibc)
            // glibc's malloc_info (its header is not in the Glibc module) writes, in XML, what
            // malloc holds from the system, what of it is free, and what it mapped for large blocks.
            typealias MallocInfo = @convention(c) (Int32, UnsafeMutablePointer<FILE>?) -> Int32
            guard let symbol = mallocInfo else { return nil }
            var buffer: UnsafeMutablePointer<CChar>?
            var size = 0
            guard let file = open_memstream(&buffer, &size) else { return nil }
            _ = unsafeBitCast(symbol, to: MallocInfo.self)(0, file)
            fclose(file)
            guard let buffer else { return nil }
            defer { free(buffer) }
            // The totals over every arena follow the last arena's own figures.
            let totals = String(cString: buffer).components(separatedBy: "</heap>").last ?? ""
            func figure(_ tag: String) -> Int? {
                guard let start = totals.range(of: "<\(tag) size=\"", options: .regularExpression) else { return nil }
                return Int(totals[start.upperBound...].prefix { $0.isNumber })
            }
            guard let system = figure("system type=\"current\""), let fast = figure("total type=\"fast\" count=\"\\d+\""),
                let rest = figure("total type=\"rest\" count=\"\\d+\""), let mapped = figure("total type=\"mmap\" count=\"\\d+\"")
            else { return nil }
            return system - fast - rest + mapped
        #else
            return nil
        #endif
    }
}
