/// The types that data may name under `"class"`, by ``AMCCodable/amcClassName``. Decoding
/// instantiates a class named in data only when it is registered here, or is exactly the
/// statically expected type. ``AMC/register(_:)-(any AMCCodable.Type...)`` fills ``shared``;
/// an ``AMCArchiver`` may use a registry of its own, so that two libraries in one app accept
/// different types.
///
/// ```swift
/// let registry = AMCRegistry()
/// registry.register(Note.self, Folder.self)
/// var archiver = AMCArchiver()
/// archiver.registry = registry
/// let note = try archiver.object(from: ["class": "Note", "title": "Hi"])
/// ```
public final class AMCRegistry: Sendable {
    /// The process-wide registry that ``AMC/register(_:)-(any AMCCodable.Type...)`` fills and
    /// every archiver uses unless given another.
    ///
    /// ```swift
    /// AMCRegistry.shared.register(Note.self)   // the same as AMC.register(Note.self)
    /// ```
    public static let shared = AMCRegistry()

    private let types = Locked<[String: any AMCCodable.Type]>([:])

    /// An empty registry.
    ///
    /// ```swift
    /// let registry = AMCRegistry()
    /// ```
    public init() {}

    /// Registers types under their ``AMCCodable/amcClassName``; registering another type under
    /// the same name replaces it. Safe to call at any time, from any thread.
    ///
    /// ```swift
    /// registry.register(Note.self, Folder.self)
    /// ```
    public func register(_ types: any AMCCodable.Type...) {
        register(types)
    }

    /// ``register(_:)-(any AMCCodable.Type...)`` for a list of types.
    ///
    /// ```swift
    /// registry.register([Note.self, Folder.self])
    /// ```
    public func register(_ newTypes: [any AMCCodable.Type]) {
        let named = newTypes.map { ($0.amcClassName, $0) }
        types.withLock { types in
            for (name, type) in named { types[name] = type }
        }
    }

    /// The type registered under `name`, if any.
    ///
    /// ```swift
    /// registry.type(named: "Note")   // Note.self
    /// ```
    public func type(named name: String) -> (any AMCCodable.Type)? {
        types.withLock { $0[name] }
    }
}
