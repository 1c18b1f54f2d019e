import Foundation

/// Stops the process when an invariant fails, so that libFuzzer keeps the input as a finding
/// (as it does for a crash): a harness checks what must hold, not only that nothing crashed.
public func invariant(_ condition: Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID, line: UInt = #line) {
    guard !condition else { return }
    FileHandle.standardError.write(Data("invariant failed: \(message())\n".utf8))
    fatalError("invariant failed", file: file, line: line)
}

/// The input bytes libFuzzer hands a harness, as `Data`.
public func fuzzData(_ start: UnsafeRawPointer?, _ count: Int) -> Data {
    guard let start, count > 0 else { return Data() }
    return Data(bytes: start, count: count)
}

/// A file holding the input, for the entry points that read files (configs, stylesheets):
/// one per process, rewritten for each input.
public func fuzzFile(_ data: Data, name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("amc-fuzz-\(getpid())-\(name)")
    try? data.write(to: url)
    return url
}
