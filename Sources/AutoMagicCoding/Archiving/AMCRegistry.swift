/// The types that data may name under `"class"`, by ``AMCCodable/amcClassName``. Decoding
/// instantiates a class named in data only when it is registered here, or is exactly the
/// statically expected type. ``AMC/register(_:)-(AMCCodable....)`` fills ``shared``;
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
    /// The process-wide registry that ``AMC/register(_:)-(AMCCodable....)`` fills and
    /// every archiver uses unless given another.
    ///
    /// ```swift
    /// AMCRegistry.shared.register(Note.self)   // the same as AMC.register(Note.self)
    /// ```
    public static let shared = AMCRegistry()

    private let types = Locked<[String: [any AMCCodable.Type]]>([:])
    /// Types by the names they had before (``register(_:formerNames:)``): asked only for a name
    /// no type has now.
    private let formerTypes = Locked<[String: [any AMCCodable.Type]]>([:])

    /// What a class name in data stands for.
    enum Lookup {
        case type(any AMCCodable.Type)
        case missing
        /// Several registered types share the name: data naming it is refused, never decoded as
        /// one of them.
        case ambiguous([any AMCCodable.Type])
    }

    /// An empty registry.
    ///
    /// ```swift
    /// let registry = AMCRegistry()
    /// ```
    public init() {}

    /// Registers types under their ``AMCCodable/amcClassName``. Safe to call at any time, from
    /// any thread. Two different types under one name (`Shop.Item` and `Quest.Item`, both
    /// `"Item"` by default) are reported to ``AMC/swallowedErrorHandler`` with the fix, and data
    /// naming that class is then refused with ``AMCError/Kind/ambiguousClassName(className:typeNames:)``
    /// rather than decoded as either.
    ///
    /// ```swift
    /// registry.register(Note.self, Folder.self)
    /// ```
    public func register(_ types: any AMCCodable.Type...) {
        register(types)
    }

    /// ``register(_:)-(AMCCodable....)`` for a list of types.
    ///
    /// ```swift
    /// registry.register([Note.self, Folder.self])
    /// ```
    public func register(_ newTypes: [any AMCCodable.Type]) {
        let named = newTypes.map { ($0.amcClassName, $0) }
        let collisions = types.withLock { types -> [(String, [any AMCCodable.Type])] in
            var collisions: [(String, [any AMCCodable.Type])] = []
            for (name, type) in named {
                var known = types[name] ?? []
                guard !known.contains(where: { $0 == type }) else { continue }
                known.append(type)
                types[name] = known
                if known.count > 1 { collisions.append((name, known)) }
            }
            return collisions
        }
        for (name, clashing) in collisions {
            AMC.reportSwallowed(AMCError(.ambiguousClassName(className: name, typeNames: clashing.map(Self.fullName))))
        }
    }

    /// Registers `type`, and reads data naming any of `formerNames` (the class names it was
    /// archived under before a rename) as `type` too: `NSKeyedUnarchiver`'s
    /// `setClass(_:forClassName:)`. A type registered under its current name wins over a former
    /// name; two types claiming one former name make it ambiguous.
    ///
    /// ```swift
    /// registry.register(Note.self, formerNames: ["OldNote", "Memo"])
    /// ```
    public func register(_ type: any AMCCodable.Type, formerNames: [String]) {
        register([type])
        formerTypes.withLock { formerTypes in
            for name in formerNames where !(formerTypes[name] ?? []).contains(where: { $0 == type }) {
                formerTypes[name, default: []].append(type)
            }
        }
    }

    /// What `name` stands for in data: the types registered under it, or else the types that had
    /// it as a former name.
    func lookup(_ name: String) -> Lookup {
        guard let known = types.withLock({ $0[name] }) ?? formerTypes.withLock({ $0[name] }) else { return .missing }
        return known.count == 1 ? .type(known[0]) : .ambiguous(known)
    }

    /// The former names `type` was registered with.
    /// Every name a type is registered under, former names too: what a misspelt name is
    /// compared with.
    func names() -> Set<String> {
        Set(types.withLock { Array($0.keys) } + formerTypes.withLock { Array($0.keys) })
    }

    func formerNames(of type: any AMCCodable.Type) -> [String] {
        formerTypes.withLock { formerTypes in
            formerTypes.filter { $0.value.contains { $0 == type } }.map(\.key).sorted()
        }
    }

    /// A type's name with its module and enclosing types: `Shop.Item`.
    static func fullName(_ type: Any.Type) -> String {
        let name = _typeName(type, qualified: true)  // `String(reflecting:)` without its conformance look-ups
        return name.split(separator: ".", maxSplits: 1).count == 2 ? String(name.split(separator: ".", maxSplits: 1)[1]) : name
    }

    /// The type registered under `name`, if exactly one is.
    ///
    /// ```swift
    /// registry.type(named: "Note")   // Note.self
    /// ```
    public func type(named name: String) -> (any AMCCodable.Type)? {
        guard case let .type(type) = lookup(name) else { return nil }
        return type
    }
}
