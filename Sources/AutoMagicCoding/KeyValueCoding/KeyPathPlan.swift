import Foundation

/// Where a key path leads from a type, worked out once per (type, key path): the objects and
/// structs on the way, by field offset, and the field its last key names. Setting a value by
/// key path (Key-Value Coding, styles, configurations, markup) follows it with no key look-ups,
/// no copies of the structs on the way and, for a string of a scalar field, no boxing.
///
/// A plan covers the common way: strong fields of Swift classes and of structs stored in place,
/// ending at a `var`. Anything else (an array index, a `weak` field, a key that is not a stored
/// property, a runtime that failed the self-test) has no plan, and ``KeyPathWalker`` walks it,
/// as it does when an object on the way is not exactly of the class the plan was made for (a
/// subclass, nil): the walker gives the same results and reports every error.
final class KeyPathPlan: @unchecked Sendable {
    /// One step from an owner's fields to the next owner's.
    private enum Hop {
        /// The object the strong field at `offset` holds, when it is exactly of class `type`.
        case object(offset: Int, type: ObjectIdentifier)
        /// The struct stored in place at `offset`.
        case inline(offset: Int)
    }

    private let hops: [Hop]
    /// The field the last key names: a `var`.
    let field: FieldPlan
    /// The last key.
    let key: String
    /// The keys joined by dots, as errors name the path.
    let keyPath: String
    /// The keys, for the walker when the plan cannot go.
    let keys: [String]
    /// Whether the field holds one of the package's struct strings (a font, a colour, a size):
    /// a value that takes some work to convert from a string and shares nothing between its
    /// copies, so one conversion may be stored in many places.
    let holdsOwnStructString: Bool
    /// The owner of the last key as its hooks see it (a copy of a struct), when it is an
    /// ``AMCCodable`` other than the root; nil when the root owns the last key or the owner is
    /// not ``AMCCodable``.
    private let owner: ((UnsafeMutableFieldBase) -> any AMCCodable)?

    private init(
        hops: [Hop], field: FieldPlan, keys: [String], owner: ((UnsafeMutableFieldBase) -> any AMCCodable)?
    ) {
        self.hops = hops
        self.field = field
        self.key = keys[keys.count - 1]
        self.keyPath = keys.joined(separator: ".")
        self.keys = keys
        self.owner = owner
        switch field.kind {
        case let .scalar(codec), let .optional(_, .scalar(codec)):
            let held = (field.type as? any OptionalContainer.Type)?.wrappedType ?? field.type
            holdsOwnStructString = codec.isStructString && held is any OwnStructString.Type
        default:
            holdsOwnStructString = false
        }
    }

    /// Whether the root itself owns the last key.
    var endsAtRoot: Bool { hops.isEmpty }

    /// The plans made so far, by root type and key path; nil for a path that has none.
    private static let plans = Locked(Plans())
    /// Key paths are data (a stylesheet's, a markup file's): how many plans are kept is bounded.
    private static let maximumPlans = 4096

    private struct PlanKey: Hashable {
        let rootType: ObjectIdentifier
        let keyPath: String
        /// `keyPath` is one key: a dot in it is part of the key.
        let isKey: Bool
    }

    private struct Plans {
        var all: [PlanKey: KeyPathPlan?] = [:]
        /// The plans asked for last, compared before any key is hashed: styles and markup ask
        /// for the same few key paths of the same few types over and over.
        var recent: [(key: PlanKey, plan: KeyPathPlan?)] = []
        var nextRecent = 0
        static let recentCount = 16

        mutating func plan(for key: PlanKey) -> KeyPathPlan?? {
            for index in recent.indices where recent[index].key == key { return recent[index].plan }
            guard let found = all[key] else { return nil }
            remember(found, for: key)
            return found
        }

        mutating func remember(_ plan: KeyPathPlan?, for key: PlanKey) {
            if recent.count < Self.recentCount {
                recent.append((key, plan))
            } else {
                recent[nextRecent] = (key, plan)
                nextRecent = (nextRecent + 1) % Self.recentCount
            }
        }
    }

    /// The plan for `keyPath` (the keys `KeyPathWalker.components` gives; one key when `isKey`)
    /// from an instance of `rootType`; nil when it has none.
    static func plan(for rootType: Any.Type, keyPath: String, isKey: Bool) -> KeyPathPlan? {
        let planKey = PlanKey(rootType: ObjectIdentifier(rootType), keyPath: keyPath, isKey: isKey)
        if let known = plans.withLock({ $0.plan(for: planKey) }) { return known }
        let made = make(for: rootType, keys: isKey ? [keyPath] : KeyPathWalker.components(keyPath))
        plans.withLock { plans in
            if plans.all.count < maximumPlans { plans.all[planKey] = .some(made) }
        }
        return made
    }

    private static func make(for rootType: Any.Type, keys: [String]) -> KeyPathPlan? {
        var hops: [Hop] = []
        var type = rootType
        for key in keys.dropLast() {
            let plan = TypePlan.of(type)
            guard plan.runtimeRefusal == nil, let field = plan.field(named: key), field.isStrong else { return nil }
            // One level of optional at most: a nil of `T??` is no null pointer.
            let held = (field.type as? any OptionalContainer.Type)?.wrappedType ?? field.type
            switch (RuntimeAccess.shape(of: field.type), RuntimeAccess.shape(of: held)) {
            case (.class, _), (.optional, .class):
                hops.append(.object(offset: field.offset, type: ObjectIdentifier(held)))
            case (.struct, _) where field.isWritable && field.kind.opensInPlace:
                hops.append(.inline(offset: field.offset))
            default:
                return nil
            }
            type = held
        }
        let plan = TypePlan.of(type)
        guard let key = keys.last, plan.runtimeRefusal == nil, let field = plan.field(named: key), field.isWritable else {
            return nil
        }
        return KeyPathPlan(hops: hops, field: field, keys: keys, owner: hops.isEmpty ? nil : ownerAccess(type))
    }

    /// How a hook sees an owner of `type` from its fields; nil when `type` is not ``AMCCodable``.
    private static func ownerAccess(_ type: Any.Type) -> ((UnsafeMutableFieldBase) -> any AMCCodable)? {
        func access<Owner: AMCCodable>(_: Owner.Type) -> (UnsafeMutableFieldBase) -> any AMCCodable {
            { RuntimeAccess.instance(Owner.self, at: $0) }
        }
        return (type as? any AMCCodable.Type).map { access($0) }
    }

    /// Runs `body` with the fields of the last key's owner below `root` (the root's own when the
    /// plan has no hops); false, without calling `body`, when an object on the way is nil or not
    /// exactly of the planned class.
    func withOwnerBase<Root>(
        in root: inout Root, _ body: (UnsafeMutableFieldBase, (any AMCCodable)?) throws -> Void
    ) rethrows -> Bool {
        try RuntimeAccess.withMutableFieldBase(of: &root) { rootBase in
            var base = rootBase
            var holder: AnyObject?
            for hop in hops {
                switch hop {
                case let .inline(offset):
                    base = RuntimeAccess.inlineBase(at: offset, of: base)
                case let .object(offset, type):
                    guard let object = RuntimeAccess.object(at: offset, from: base),
                        ObjectIdentifier(Swift.type(of: object)) == type
                    else { return false }
                    holder = object
                    base = RuntimeAccess.fieldBase(of: object)
                }
            }
            // The last object on the way stays alive while its fields are written, whatever a
            // hook does to the graph.
            try withExtendedLifetime(holder) { try body(base, owner?(base)) }
            return true
        }
    }
}

extension ValueKind {
    /// Whether a key path may step into a struct of this kind in place: its stored fields are
    /// the model's (a geometry struct, an ``AMCCodable`` struct), not a container's workings.
    var opensInPlace: Bool {
        switch self {
        case .scalar, .object, .opaqueStruct, .codable: true
        default: false
        }
    }
}

/// The package's own struct strings: values that share nothing between copies. An app's
/// ``AMCStructCodable`` type may hold a class, so its values are never shared.
protocol OwnStructString {}

extension AMCFont: OwnStructString {}
extension AMCColor: OwnStructString {}
extension AMCImage: OwnStructString {}
extension AMCOffset: OwnStructString {}
extension AMCEdgeInsets: OwnStructString {}
extension AMCLineBreakMode: OwnStructString {}
extension AMCTextAlignment: OwnStructString {}
extension AMCURLRequest: OwnStructString {}
extension CGPoint: OwnStructString {}
extension CGSize: OwnStructString {}
extension CGRect: OwnStructString {}
