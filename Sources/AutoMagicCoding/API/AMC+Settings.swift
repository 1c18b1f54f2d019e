import Foundation

extension AMC {
    /// The deepest nesting of objects and collections that encoding and decoding accept; deeper
    /// data throws ``AMCError/Kind/nestingTooDeep(limit:)`` instead of overflowing the stack.
    ///
    /// ```swift
    /// AMC.maximumDepth   // 10000
    /// ```
    public static let maximumDepth = 10_000

    /// The process-wide no-throw default, false unless set: AMC's `AMC_NO_THROW`. In no-throw mode
    /// no entry point throws: decoding returns nil, `loadValue` does nothing, and
    /// `dictionaryRepresentation()` leaves out what it cannot encode. Prefer
    /// `AMC.withNoThrow(_:)` in code that runs beside other code (tests, libraries).
    ///
    /// ```swift
    /// AMC.noThrow = true
    /// let maybe = try AMC.object(from: untrustedDictionary)   // nil instead of an error
    /// ```
    public static var noThrow: Bool {
        get { settings.withLock { $0.noThrow } }
        set { settings.withLock { $0.noThrow = newValue } }
    }

    /// Receives every error that no-throw mode swallows, so that nothing vanishes unseen. Called
    /// on the thread that swallowed it.
    ///
    /// ```swift
    /// AMC.swallowedErrorHandler = { error in logger.warning("\(error)") }
    /// ```
    public static var swallowedErrorHandler: (@Sendable (AMCError) -> Void)? {
        get { settings.withLock { $0.swallowedErrorHandler } }
        set { settings.withLock { $0.swallowedErrorHandler = newValue } }
    }

    /// The base of relative URLs that string coding reads (`"images/logo.png"`); by default the
    /// main bundle's resource folder, as in StringCoding. Absolute paths and URLs with a scheme
    /// ignore it. An ``AMCArchiver`` may have its own.
    ///
    /// ```swift
    /// AMC.baseURL = URL(fileURLWithPath: "/srv/app/assets", isDirectory: true)
    /// ```
    public static var baseURL: URL? {
        get { settings.withLock { $0.baseURL } ?? mainResourceURL }
        set { settings.withLock { $0.baseURL = .some(newValue) } }
    }

    /// Runs `body` in no-throw mode for the current task (and the tasks it creates) only, whatever
    /// ``noThrow`` says, so code running in parallel is not affected.
    ///
    /// ```swift
    /// let dict = AMC.withNoThrow { try? node.dictionaryRepresentation() }
    /// ```
    public static func withNoThrow<R>(_ body: () throws -> R) rethrows -> R {
        try $taskNoThrow.withValue(true, operation: body)
    }

    /// The `async` form of `AMC.withNoThrow(_:)`.
    ///
    /// ```swift
    /// let object = await AMC.withNoThrow { try? await loadRemoteObject() }
    /// ```
    public static func withNoThrow<R>(_ body: () async throws -> R) async rethrows -> R {
        try await $taskNoThrow.withValue(true, operation: body)
    }

    /// Whether no-throw mode is on for the current task.
    static var isNoThrow: Bool {
        taskNoThrow ?? noThrow
    }

    /// Runs an entry point with the process-wide settings: errors propagate, or in no-throw mode
    /// go to the handler and give `fallback`.
    static func guarded<R>(fallback: R, _ body: () throws -> R) throws -> R {
        try AMCArchiver().guarded(fallback: fallback, body)
    }

    /// Hands a swallowed error to ``swallowedErrorHandler``.
    static func reportSwallowed(_ error: AMCError) {
        swallowedErrorHandler?(error.naming(AMCError.currentFile))
    }

    private struct Settings {
        var noThrow = false
        var swallowedErrorHandler: (@Sendable (AMCError) -> Void)?
        /// Set: the base, or nil for none; unset: the main bundle's resources.
        var baseURL: URL?? = nil
    }

    /// Looked up when a base is first needed: finding the main bundle is a cost every first
    /// call of a process would pay otherwise.
    private static let mainResourceURL = Bundle.main.resourceURL

    private static let settings = Locked(Settings())

    @TaskLocal private static var taskNoThrow: Bool?
}
