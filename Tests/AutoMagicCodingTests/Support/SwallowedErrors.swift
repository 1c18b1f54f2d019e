import Foundation

@testable import AutoMagicCoding

// What no-throw mode swallows, collected per test: the handler is process-wide.

/// Collects what the swallowed-error handler receives during one test.
final class SwallowedErrors: @unchecked Sendable {
    private let lock = NSLock()
    private var errors: [AMCError] = []
    var all: [AMCError] { lock.withLock { errors } }
    func append(_ error: AMCError) { lock.withLock { errors.append(error) } }
}

/// Runs `body` in no-throw mode for this task and returns the errors it swallowed whose key path
/// starts with `marker` (the handler is process-wide; other tests' errors are filtered out).
func swallowed(matching marker: String, _ body: () throws -> Void) rethrows -> [AMCError] {
    let sink = SwallowedErrors()
    AMC.installTestHandler()
    try TestHandler.$current.withValue(sink) {
        try AMC.withNoThrow(body)
    }
    return sink.all.filter { $0.keyPath.hasPrefix(marker) || marker.isEmpty }
}

/// Runs `body` (not in no-throw mode) and returns what it reported to the swallowed-error
/// handler: what decoding leaves unset without throwing.
func heard(_ body: () throws -> Void) rethrows -> [AMCError] {
    let sink = SwallowedErrors()
    AMC.installTestHandler()
    try TestHandler.$current.withValue(sink, operation: body)
    return sink.all
}

enum TestHandler {
    @TaskLocal static var current: SwallowedErrors?
}

extension AMC {
    /// One process-wide handler that forwards to the current test's collector.
    static func installTestHandler() {
        if swallowedErrorHandler == nil {
            swallowedErrorHandler = { error in TestHandler.current?.append(error) }
        }
    }
}
