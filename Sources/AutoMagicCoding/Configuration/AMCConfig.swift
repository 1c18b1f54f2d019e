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
/// (``init(layers:archiver:)``) answer from the first layer that has the key. Reading is thread-safe,
/// also while ``reload()`` or a ``watch(every:onChange:)`` replaces the values.
public final class AMCConfig: Sendable {
    /// The file the values come from; nil for a dictionary or layers.
    public let url: URL?
    /// The settings values are converted and objects made with (the base of relative URLs, the
    /// registry of classes a `"class"` key may name).
    public let archiver: AMCArchiver
    private let layers: [AMCConfig]
    private let state: Locked<State>
    /// An environment layer's variables, by name without the prefix; nil for other configurations.
    private let variables: (prefix: String, values: [String: String])?
    /// Where the values come from, as errors name it: the file's path, `the command line`.
    private let origin: String?

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
        self.variables = nil
        self.origin = url.path
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
        self.variables = nil
        self.origin = nil
        self.state = Locked(State(dictionary: dictionary, signature: nil))
    }

    /// A layer of environment variables whose names start with `prefix` (a `_` is added when it
    /// has none). A variable stands for the key path whose keys, split into words (at capitals,
    /// `_`, `-` and `.`) and joined by `_` in upper case, make the rest of its name:
    /// `MYAPP_SERVER_PORT` is `server.port`, `MYAPP_SERVER_MAX_RETRIES` is `server.maxRetries`
    /// (and `server.max_retries`). Values are strings, converted by string coding as any other
    /// (`"8080"`, `"#336699"`, `"10, 20"`). The key paths looked up are the ones the asked-for
    /// type has (``object(_:ignoringUnknownKeys:)``, ``value(_:forKeyPath:)``) and the ones the other layers hold.
    ///
    /// ```swift
    /// // MYAPP_SERVER_PORT=8080 ./myapp --server.host=example.com
    /// let config = AMCConfig(layers: [
    ///     AMCConfig(arguments: Array(CommandLine.arguments.dropFirst())),
    ///     AMCConfig(environment: ProcessInfo.processInfo.environment, prefix: "MYAPP"),
    ///     try AMCConfig(contentsOf: configURL),
    /// ])
    /// let settings = try config.object(Settings.self)   // settings.server.port == 8080
    /// ```
    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, prefix: String,
        archiver: AMCArchiver = AMCArchiver()
    ) {
        let prefix = prefix.isEmpty || prefix.hasSuffix("_") ? prefix : prefix + "_"
        var variables: [String: String] = [:]
        for (name, value) in environment where name.hasPrefix(prefix) && name.count > prefix.count {
            variables[String(name.dropFirst(prefix.count)).uppercased()] = value
        }
        self.url = nil
        self.archiver = archiver
        self.layers = []
        self.variables = (prefix, variables)
        self.origin = "the environment"
        self.state = Locked(State(dictionary: [:], signature: nil))
    }

    /// A layer of command-line arguments: `--server.port=8080` sets the key path `server.port` to
    /// the string `"8080"` (keys as the configuration file has them), a lone `--verbose` sets
    /// `verbose` to `"true"`; other arguments are ignored, and `--` ends the options. A later
    /// argument wins over an earlier one for the same key path.
    ///
    /// ```swift
    /// let overrides = AMCConfig(arguments: ["--server.port=8080", "--theme.tint=#336699"])
    /// try overrides.int(forKeyPath: "server.port")   // 8080
    /// ```
    public init(arguments: [String], archiver: AMCArchiver = AMCArchiver()) {
        var dictionary: [String: Any] = [:]
        for argument in arguments {
            if argument == "--" { break }
            guard argument.hasPrefix("--"), argument.count > 2 else { continue }
            let option = argument.dropFirst(2)
            let name = option.prefix { $0 != "=" }
            let value = name.count < option.count ? String(option.dropFirst(name.count + 1)) : "true"
            // At most 64 levels: the rest of an absurdly long key path stays one key.
            let keys = KeyPathWalker.components(String(name))
            ConfigValues.set(
                value, at: keys.count <= 64 ? keys : keys.prefix(63) + [keys.dropFirst(63).joined(separator: ".")],
                in: &dictionary)
        }
        self.url = nil
        self.archiver = archiver
        self.layers = []
        self.variables = nil
        self.origin = "the command line"
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
        self.variables = nil
        self.origin = nil
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
        let shape = ConfigValues.keyPaths(of: T.self, naming: archiver.keyNaming)
        guard let (raw, file) = find(KeyPathWalker.components(keyPath), shape: shape), !(raw is NSNull) else { return nil }
        do {
            var decoder = ArchiveDecoder(archiver: archiver, fillsExistingValues: true, forgiving: true)
            let value = try decoder.decodeValue(try ConfigValues.document(raw), as: T.self)
            guard let typed = value as? T else {
                throw AMCError(
                    .typeMismatch(
                        expected: AMC.withArticle(AMC.unqualifiedName(of: T.self)),
                        found: ArchiveValue.literal(raw)))
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
    ///
    /// A key in the part of the configuration the object reads (its dictionary and those nested
    /// in it) that no property reads is an error naming its file, key path and the nearest key,
    /// unless `ignoringUnknownKeys`; so is an environment variable with an environment layer's
    /// prefix that names no key the object has or another layer holds.
    public func object<T: AMCCodable>(_ type: T.Type, ignoringUnknownKeys: Bool = false) throws -> T {
        try filled(T.self, lenient: false, reportingUnknownKeys: !ignoringUnknownKeys).object
    }

    /// A new `T` filled as ``object(_:ignoringUnknownKeys:)`` does, leniently: every value that can be read is, the
    /// rest keep their initial values, and the report lists each problem with its key path and
    /// file. With `reportingUnknownKeys` (the default) keys that match no property are problems
    /// too, with the nearest key the type has: a typo in a hand-edited file is found; so are
    /// environment variables that name no key (see ``object(_:ignoringUnknownKeys:)``).
    ///
    /// ```swift
    /// let report = try config.lenientObject(Theme.self)
    /// for problem in report.problems { print(problem) }
    /// // In theme.plist, at "cornerRadus": no property of Theme reads the key "cornerRadus" — did you mean "cornerRadius"? (value: 4)
    /// ```
    public func lenientObject<T: AMCCodable>(_ type: T.Type, reportingUnknownKeys: Bool = true) throws -> AMCDecodingReport<T> {
        try filled(T.self, lenient: true, reportingUnknownKeys: reportingUnknownKeys)
    }

    private func filled<T: AMCCodable>(_: T.Type, lenient: Bool, reportingUnknownKeys: Bool) throws -> AMCDecodingReport<T> {
        var object = T()
        var decoder = ArchiveDecoder(
            archiver: archiver, fillsExistingValues: true, lenient: lenient,
            reportsUnknownKeys: reportingUnknownKeys, forgiving: true)
        let shape = ConfigValues.keyPaths(of: T.self, naming: archiver.keyNaming)
        let strayVariables = reportingUnknownKeys ? unknownVariables(typeName: AMC.unqualifiedName(of: T.self), shape: shape) : []
        if !lenient, let first = strayVariables.first { throw first }
        do {
            let values = find([], shape: shape)?.value ?? [String: Any]()
            if case let .dictionary(document) = try ConfigValues.document(values) {
                try decoder.fill(&object, from: document)
            }
        } catch let error as AMCError {
            throw located(error)
        }
        let problems = (decoder.problems ?? []).map { AMCProblem(error: located($0.error), value: $0.value) }
        return AMCDecodingReport(object: object, problems: problems + strayVariables.map { AMCProblem(error: $0, value: nil) })
    }

    /// The variables of this configuration's environment layers that name no key path `shape`
    /// has (the object being read) nor any other layer holds, each an error naming the variable
    /// and the nearest name that would be read.
    private func unknownVariables(typeName: String, shape: Set<[String]>) -> [AMCError] {
        var environments: [(prefix: String, values: [String: String])] = []
        var known = shape
        func collect(_ config: AMCConfig) {
            if let variables = config.variables { return environments.append(variables) }
            if config.layers.isEmpty { known.formUnion(ConfigValues.leafPaths(of: config.state.withLock { $0.dictionary })) }
            config.layers.forEach(collect)
        }
        collect(self)
        guard !environments.isEmpty else { return [] }
        // A variable may name a whole section too (`MYAPP_SERVER` for `server`).
        var names = Set<String>()
        for path in known { names.formUnion(ConfigValues.variableNames(ofPrefixesOf: path)) }
        var errors: [AMCError] = []
        for (prefix, values) in environments {
            for name in values.keys.sorted() where !names.contains(name) {
                let suggestion = TypePlan.nearest(to: name, among: names).map { prefix + $0 }
                errors.append(
                    AMCError(
                        .unusedKey(key: prefix + name, typeName: typeName, suggestion: suggestion),
                        file: "the environment variable \(prefix)\(name)"))
            }
        }
        return errors
    }

    /// `error` of the whole configuration's object, with the file its key path's value came from.
    private func located(_ error: AMCError) -> AMCError {
        let keys = KeyPathWalker.components(String(error.keyPath.prefix { $0 != "[" }))
        return error.inFile(find(keys)?.file ?? origin)
    }

    /// The raw value at `keys` and where it came from: the first layer's that has one, or,
    /// where the layers hold dictionaries there, those merged (the first layer with a value at a
    /// key path wins). `shape`: key paths below `keys` that the value asked for may have, which
    /// environment layers look up by name, with those the other layers hold.
    private func find(_ keys: [String], shape: Set<[String]> = []) -> (value: Any, file: String?)? {
        if let variables { return Self.variable(at: keys, shape: shape, in: variables) }
        guard layers.isEmpty else {
            var found: [Int: (value: Any, file: String?)] = [:]
            var shape = shape
            for (index, layer) in layers.enumerated() where layer.variables == nil {
                guard let value = layer.find(keys, shape: shape) else { continue }
                found[index] = value
                if let dictionary = value.value as? [String: Any] { shape.formUnion(ConfigValues.leafPaths(of: dictionary)) }
            }
            for (index, layer) in layers.enumerated() where layer.variables != nil {
                found[index] = layer.find(keys, shape: shape)
            }
            let values = layers.indices.compactMap { found[$0] }
            guard let first = values.first, first.value is [String: Any] else { return values.first }
            return (ConfigValues.merged(values.compactMap { $0.value as? [String: Any] }), first.file)
        }
        let dictionary = state.withLock { $0.dictionary }
        // A top-level key with dots in it ("dotted.key") is found whole too.
        let value = ConfigValues.lookup(keys, in: dictionary) ?? (keys.count > 1 ? dictionary[keys.joined(separator: ".")] : nil)
        return value.map { ($0, origin) }
    }

    /// An environment layer's value at `keys`: the variable named for it, or a dictionary of the
    /// variables named for the key paths of `shape` below it.
    private static func variable(
        at keys: [String], shape: Set<[String]>, in variables: (prefix: String, values: [String: String])
    ) -> (value: Any, file: String?)? {
        let name = ConfigValues.variableName(keys)
        if !keys.isEmpty, let value = variables.values[name] {
            return (value, "the environment variable \(variables.prefix)\(name)")
        }
        var dictionary: [String: Any] = [:]
        for path in shape.sorted(by: { $0.count < $1.count }) {
            if let value = variables.values[ConfigValues.variableName(keys + path)] {
                ConfigValues.set(value, at: path, in: &dictionary)
            }
        }
        return dictionary.isEmpty ? nil : (dictionary, "the environment")
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
        let signature = FileSignature(url)  // before reading: a change after it is seen next time
        return (try AMC.readDictionary(contentsOf: url), signature)
    }
}

/// A running ``AMCConfig/watch(every:onChange:)``: polling stops on ``cancel()`` or when the watch
/// is released.
public final class AMCConfigWatch: Sendable {
    /// Behind a lock: a timer source is not `Sendable` on every platform.
    private let timer: Locked<any DispatchSourceTimer>

    init(timer: any DispatchSourceTimer) {
        self.timer = Locked(timer)
    }

    deinit { cancel() }

    /// Stops polling: no check starts after this returns.
    ///
    /// ```swift
    /// watch.cancel()
    /// ```
    public func cancel() {
        timer.withLock { $0.cancel() }
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
