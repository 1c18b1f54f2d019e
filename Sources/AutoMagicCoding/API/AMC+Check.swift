import Foundation

extension AMC {
    /// Checks, from the types alone, that every stored property of `type` — and of every
    /// ``AMCCodable`` type its properties hold, however deep — can be archived, and throws one
    /// ``AMCError`` (``AMCError/Kind/unarchivable(errors:)``) listing every one that cannot. An
    /// optional property that is nil in your tests is checked too; so are keys ``AMCCodable/amcKeys``
    /// names that are no stored property, field types that do not match, a property written
    /// under a key the archiver writes (`class`, `$ref`, …), a class name two registered types
    /// share, arrays and dictionaries of optionals (nil elements cannot be written), optionals of
    /// optionals, and structs no conformance or struct hook handles (the hook is asked with an empty
    /// string: a hook that says nothing about a name is ``AMCError/Kind/unsupportedStruct(typeName:operation:)``).
    /// It makes one instance of each type with `init()`. `Any` and protocol-typed properties are
    /// decided by their values, so they are not checked; nor are subclasses: check each type you
    /// archive.
    ///
    /// ```swift
    /// @Test func notesCanBeArchived() throws { try AMC.check(Note.self) }
    /// ```
    public static func check(_ type: any AMCCodable.Type) throws {
        var checker = TypeChecker()
        checker.check(type, at: "")
        guard checker.problems.isEmpty else { throw AMCError(.unarchivable(errors: checker.problems)) }
    }
}

extension AMC {
    /// Checks that the Swift runtime reports stored properties as the archiver reads them, and
    /// throws ``AMCError/Kind/runtimeUnsupported(reason:)`` naming what disagreed when it does
    /// not. The check runs once, before the first type is planned, on types compiled into the
    /// library (field names against their declarations, offsets against `MemoryLayout`, values set and read
    /// through the language); after a failure every call that would read or write properties
    /// throws the same error, and no property is read or written. Cheap after the first call: call it at
    /// launch, or in a test, to learn of a toolchain the library does not support before users do.
    ///
    /// ```swift
    /// @Test func archivingWorksOnThisToolchain() throws { try AMC.checkRuntime() }
    /// ```
    public static func checkRuntime() throws {
        if let failure = RuntimeSelfTest.currentFailure { throw AMCError(.runtimeUnsupported(reason: failure)) }
    }
}

/// Walks the plans of a type and of the types it holds, collecting what cannot be archived.
private struct TypeChecker {
    var problems: [AMCError] = []
    private var visited: Set<ObjectIdentifier> = []

    mutating func check(_ type: any AMCCodable.Type, at path: String) {
        guard visited.insert(ObjectIdentifier(type)).inserted else { return }
        // Data naming a class that several registered types share is never decoded.
        if case let .ambiguous(types) = AMCRegistry.shared.lookup(type.amcClassName) {
            problems.append(
                AMCError(
                    .ambiguousClassName(className: type.amcClassName, typeNames: types.map(AMCRegistry.fullName)),
                    keyPath: path))
        }
        checkFields(of: type.init(), at: path)
    }

    private mutating func checkFields<T: AMCCodable>(of instance: T, at path: String) {
        let plan = TypePlan.of(T.self)
        let typeName = AMC.unqualifiedName(of: T.self)
        if let error = plan.keyError(keys: instance.amcKeys) {
            switch error {
            case let .sharedKey(shared, _, _): problems.append(AMCError(error, keyPath: joined(path, shared)))
            case .reservedKey: break  // each one below
            default: problems.append(AMCError(error, keyPath: path))
            }
        }
        for key in instance.amcKeys {
            guard let field = plan.fieldsByName[key] else {
                problems.append(AMCError(.unknownKey(key: key, typeName: typeName), keyPath: joined(path, key)))
                continue
            }
            let here = joined(path, field.key)
            guard !plan.reservedKeyFields.contains(where: { $0 === field }) else {
                problems.append(AMCError(.reservedKey(key: field.key, typeName: typeName), keyPath: here))
                continue
            }
            let inferred = field.kind.fieldType
            let declared = Swift.type(of: instance).amcFieldType(forKey: field.name)
            if declared == .structure, inferred != .structure {
                probeStruct(unwrappedType(field.type), owner: instance, at: here)
            } else if declared != inferred {
                problems.append(
                    AMCError(.fieldTypeMismatch(key: field.name, declared: declared, inferred: inferred), keyPath: here))
            } else if field.isStrong {
                check(field.kind, owner: instance, at: here)
            }
        }
    }

    private mutating func check(_ kind: ValueKind, owner: any AMCCodable, at path: String) {
        switch kind {
        case .scalar, .dynamic, .codable:
            return
        case let .optional(_, wrapped):
            check(wrapped, owner: owner, at: path)
        case let .object(type):
            check(type, at: path)
        case let .sequence(_, element), let .orderedCollection(_, element), let .dictionary(_, _, element),
            let .keyedCollection(_, element):
            if case let .optional(type, _) = element {
                problems.append(
                    AMCError(
                        .unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: ValueKind.nilElementReason),
                        keyPath: path + "[]"))
            }
            check(element, owner: owner, at: path + "[]")
        case let .opaqueStruct(type, _):
            probeStruct(type, owner: owner, at: path)
        case let .unsupported(type, reason):
            problems.append(AMCError(.unsupportedType(typeName: AMC.unqualifiedName(of: type), reason: reason), keyPath: path))
        }
    }

    /// A struct without a conformance: fine when the owner's struct hook knows its name.
    private mutating func probeStruct(_ type: Any.Type, owner: any AMCCodable, at path: String) {
        do {
            _ = try owner.amcDecodeStruct("", named: AMC.unqualifiedName(of: type))
        } catch let error as AMCError {
            if error.isUnhandledStruct(named: AMC.unqualifiedName(of: type)) {
                problems.append(AMCError(ValueKind.unhandledStruct(type, operation: .encode), keyPath: path))
            }
        } catch {
            // The hook knows the name: it only refused the empty string.
        }
    }

    private func joined(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
