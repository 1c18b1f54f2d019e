import Foundation

/// Typed values from a configuration file (BSConfig's job): constants, insets, colours, images…
/// read by key path, from native plist/JSON values or strings in any string-coding form.
///
/// ```swift
/// let config = try AMCConfig(contentsOf: url)        // XML or binary plist, or JSON
/// let tint = try config.color(forKeyPath: "colors.tint")          // AMCColor?, nil when missing
/// let size = try config.value(CGSize.self, forKeyPath: "layout.cardSize")
/// let theme = try config.object(Theme.self)
/// ```
///
/// A missing key gives nil; a value that cannot become the type throws ``AMCError`` naming the
/// file, the key path, the type and the value. The `default:` variants never throw. Layers
/// (``init(layers:)``) answer from the first layer that has the key. Reading is thread-safe,
/// also while ``reload()`` or a ``watch(every:onChange:)`` replaces the values.
public final class AMCConfig: @unchecked Sendable {
    /// The file the values come from; nil for a dictionary or layers.
    public let url: URL?
    /// The settings values are converted and objects made with (the base of relative URLs, the
    /// registry of classes a `"class"` key may name).
    public let archiver: AMCArchiver
    private let layers: [AMCConfig]
    private let state: Locked<State>

    private struct State {
        var dictionary: [String: Any]
        var signature: FileSignature?
    }

    /// Reads a configuration file: an XML or binary property list or JSON, told from the bytes,
    /// with a dictionary at the top.
    ///
    /// ```swift
    /// let config = try AMCConfig(contentsOf: Bundle.main.url(forResource: "Config", withExtension: "plist")!)
    /// ```
    public init(contentsOf url: URL, archiver: AMCArchiver = AMCArchiver()) throws {
        self.url = url
        self.archiver = archiver
        self.layers = []
        let (dictionary, signature) = try Self.load(url)
        self.state = Locked(State(dictionary: dictionary, signature: signature))
    }

    /// A configuration held in memory.
    ///
    /// ```swift
    /// let config = AMCConfig(dictionary: ["layout": ["cardSize": "300 x 200"]])
    /// ```
    public init(dictionary: [String: Any], archiver: AMCArchiver = AMCArchiver()) {
        self.url = nil
        self.archiver = archiver
        self.layers = []
        self.state = Locked(State(dictionary: dictionary, signature: nil))
    }

    /// Configurations looked up in order: the first layer with a value for a key path wins, so
    /// put user settings before the app's defaults.
    ///
    /// ```swift
    /// let config = AMCConfig(layers: [try AMCConfig(contentsOf: userURL), try AMCConfig(contentsOf: defaultsURL)])
    /// ```
    public init(layers: [AMCConfig], archiver: AMCArchiver = AMCArchiver()) {
        self.url = nil
        self.archiver = archiver
        self.layers = layers
        self.state = Locked(State(dictionary: [:], signature: nil))
    }

    // MARK: - Values

    /// The value at `keyPath` (keys separated by `.`; a top-level key may hold dots) as a `type`,
    /// converted exactly as the archive decoder converts a property of that type: any type string
    /// coding supports, an ``AMCCodable`` type (from a nested dictionary, with arrays and
    /// dictionaries of them), or the native value's own type; nil when the key is missing (or
    /// JSON's `null`).
    ///
    /// ```swift
    /// let size = try config.value(CGSize.self, forKeyPath: "layout.cardSize")   // from "300 x 200"
    /// ```
    public func value<T>(_ type: T.Type, forKeyPath keyPath: String) throws -> T? {
        guard let (raw, file) = find(KeyPathWalker.components(keyPath)), !(raw is NSNull) else { return nil }
        do {
            var decoder = ArchiveDecoder(archiver: archiver, fillsExistingValues: true)
            let value = try decoder.decodeValue(try ConfigValues.document(raw), as: T.self)
            guard let typed = value as? T else {
                throw AMCError(.typeMismatch(expected: AMC.withArticle(AMC.unqualifiedName(of: T.self)),
                                             found: ConfigValues.describe(raw)))
            }
            return typed
        } catch let error as AMCError {
            throw error.under(keyPath).inFile(file)
        }
    }

    /// ``value(_:forKeyPath:)``, or `fallback` when the key is missing or its value is bad (the
    /// error then goes to ``AMC/swallowedErrorHandler``).
    ///
    /// ```swift
    /// let radius = config.value(Double.self, forKeyPath: "layout.cornerRadius", default: 8)
    /// ```
    public func value<T>(_ type: T.Type, forKeyPath keyPath: String, default fallback: T) -> T {
        do {
            return try value(type, forKeyPath: keyPath) ?? fallback
        } catch {
            if let error = error as? AMCError { AMC.reportSwallowed(error) }
            return fallback
        }
    }

    /// A new `T` filled from the configuration's top-level keys (BSConfig's category approach),
    /// by the archive decoder: each stored property reads the key
    /// ``AMCCodable/amcKey(forProperty:)`` gives, values convert as they do in archives (strings by
    /// string coding, arrays and dictionaries of objects, registered classes named by `"class"`),
    /// a nested dictionary fills the object or struct the property already holds, and properties
    /// without a key keep their initial values.
    ///
    /// ```swift
    /// let theme = try config.object(Theme.self)
    /// ```
    public func object<T: AMCCodable>(_ type: T.Type) throws -> T {
        var object = T()
        do {
            guard case let .dictionary(document) = try ConfigValues.document(dictionary) else { return object }
            var decoder = ArchiveDecoder(archiver: archiver, fillsExistingValues: true)
            try decoder.fill(&object, from: document)
        } catch let error as AMCError {
            let keys = KeyPathWalker.components(String(error.keyPath.prefix { $0 != "[" }))
            throw error.inFile(find(keys)?.file ?? url?.path)
        }
        return object
    }

    /// All the values, the layers merged (the first layer with a value at a key path wins).
    private var dictionary: [String: Any] {
        guard layers.isEmpty else { return ConfigValues.merged(layers.map(\.dictionary)) }
        return state.withLock { $0.dictionary }
    }

    /// The raw value at `keys` and the file it came from, from the first layer that has it.
    private func find(_ keys: [String]) -> (value: Any, file: String?)? {
        guard layers.isEmpty else { return layers.lazy.compactMap { $0.find(keys) }.first }
        let dictionary = state.withLock { $0.dictionary }
        // A top-level key with dots in it ("dotted.key") is found whole too.
        let value = ConfigValues.lookup(keys, in: dictionary) ?? (keys.count > 1 ? dictionary[keys.joined(separator: ".")] : nil)
        return value.map { ($0, url?.path) }
    }

    // MARK: - Reloading

    /// Reads the file again (every file, for layers). When it cannot be read or parsed, the
    /// configuration keeps its last good values and the error is thrown.
    ///
    /// ```swift
    /// try config.reload()
    /// ```
    public func reload() throws {
        for layer in layers { try layer.reload() }
        guard let url else { return }
        let (dictionary, signature) = try Self.load(url)
        state.withLock { $0 = State(dictionary: dictionary, signature: signature) }
    }

    /// Reloads when the file's modification date or size changed since the last read; true when
    /// it did reload. A file that fails to parse keeps the last good values, reports the error to
    /// ``AMC/swallowedErrorHandler`` and gives false (the same change is not retried until the
    /// file changes again).
    ///
    /// ```swift
    /// if config.reloadIfChanged() { applyTheme() }
    /// ```
    @discardableResult
    public func reloadIfChanged() -> Bool {
        var changed = false
        for layer in layers where layer.reloadIfChanged() { changed = true }
        guard let url else { return changed }
        let current = FileSignature(url)
        guard current != state.withLock({ $0.signature }) else { return changed }
        do {
            try reload()
            return true
        } catch {
            state.withLock { $0.signature = current }
            AMC.reportSwallowed((error as? AMCError) ?? AMCError(.fileSystem(path: url.path, reason: "\(error)")))
            return changed
        }
    }

    /// Checks the file every `seconds` on a background queue and calls `onChange` with this
    /// configuration after each reload, until the returned watch is cancelled (or released).
    /// Failed reloads keep the last good values and go to ``AMC/swallowedErrorHandler``.
    ///
    /// ```swift
    /// let watch = config.watch(every: 1) { config in
    ///     DispatchQueue.main.async { applyTheme(config) }
    /// }
    /// // later: watch.cancel()
    /// ```
    public func watch(every seconds: TimeInterval, onChange: @escaping @Sendable (AMCConfig) -> Void) -> AMCConfigWatch {
        let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "AutoMagicCoding.AMCConfig.watch"))
        timer.schedule(deadline: .now() + seconds, repeating: seconds)
        timer.setEventHandler { [weak self] in
            guard let self, self.reloadIfChanged() else { return }
            onChange(self)
        }
        timer.resume()
        return AMCConfigWatch(timer: timer)
    }

    /// The file's values; errors name the file.
    private static func load(_ url: URL) throws -> ([String: Any], FileSignature?) {
        let signature = FileSignature(url)
        do {
            return (try AMC.readDictionary(contentsOf: url), signature)
        } catch let error as AMCError {
            throw error.file == nil ? error.inFile(url.path) : error
        }
    }
}

/// A running ``AMCConfig/watch(every:onChange:)``: polling stops on ``cancel()`` or when the watch
/// is released.
public final class AMCConfigWatch: @unchecked Sendable {
    private let timer: DispatchSourceTimer

    init(timer: DispatchSourceTimer) {
        self.timer = timer
    }

    deinit { timer.cancel() }

    /// Stops polling: no check starts after this returns.
    ///
    /// ```swift
    /// watch.cancel()
    /// ```
    public func cancel() {
        timer.cancel()
    }
}

/// What tells a file changed without reading it: its modification date and size.
private struct FileSignature: Equatable {
    let modified: Date?
    let size: Int?

    init?(_ url: URL) {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        modified = attributes[.modificationDate] as? Date
        size = (attributes[.size] as? Int) ?? (attributes[.size] as? UInt64).map { Int(clamping: $0) }
    }
}
