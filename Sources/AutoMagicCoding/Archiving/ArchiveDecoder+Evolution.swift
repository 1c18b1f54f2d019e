import Foundation

// Old and imperfect data: nil lists, version migrations, unknown keys, and what lenient and
// no-throw decoding do with an error.

extension ArchiveDecoder {
    /// `dictionary` with a null under each key that its ``TypePlan/nilKey`` list names (how a
    /// property list holds a nil where a new instance has a value) and that has no value.
    mutating func withNils(_ listed: ArchiveValue, in dictionary: ArchiveDictionary) throws -> ArchiveDictionary {
        path.push(key: TypePlan.nilKey)
        defer { path.pop() }
        guard case let .array(keys) = listed else { throw mismatch("an array of the keys of nil properties", listed) }
        var dictionary = dictionary
        for (index, key) in keys.enumerated() {
            guard let key = key.string else {
                path.push(index: index)
                defer { path.pop() }
                throw mismatch("the key of a nil property", key)
            }
            dictionary.append(key, .null)
        }
        return dictionary
    }

    /// `dictionary`, an object of `type` as the document's version of it wrote it, brought up to
    /// the type's ``AMCCodable/amcVersion`` by its ``AMCCodable/amcMigrate(_:from:)``. A newer
    /// version than the type's is an error (lenient decoding reports it once per class and reads
    /// the object as it is).
    ///
    /// `movedFrom`: each new key whose value (a dictionary or an array) the migration moved there
    /// unchanged from a key it removed, by that key. The value is decoded at its place in the
    /// document, so that references to it (or into it) find the same objects.
    mutating func migrated<T: AMCCodable>(
        _ dictionary: ArchiveDictionary, plan: TypePlan, type: T.Type
    ) throws -> (dictionary: ArchiveDictionary, movedFrom: [String: String]) {
        let written = dictionary["class"]?.string
        var found = versions?.version(forAnyOf: [written ?? plan.className, plan.className]) ?? 0
        if found == 0, written == nil, let versions {
            found = versions.version(forAnyOf: archiver.registry.formerNames(of: type))
        }
        guard found != plan.version else { return (dictionary, [:]) }
        guard found < plan.version else {
            let error = path.error(.newerVersion(className: written ?? plan.className, found: found, known: plan.version))
            guard problems != nil else { throw error }
            if newerVersionsReported.insert(written ?? plan.className).inserted {
                problems?.append(AMCProblem(error: error, value: found))
            }
            return (dictionary, [:])
        }
        guard var fields = ArchiveValue.dictionary(dictionary).swiftValue as? [String: Any] else { return (dictionary, [:]) }
        do {
            try type.amcMigrate(&fields, from: found)
        } catch {
            throw path.located(error, hook: "amcMigrate", typeName: plan.className)
        }
        guard case let .dictionary(migrated) = try ArchiveValue.converting(fields, path: &path, depth: depth) else {
            return (dictionary, [:])
        }
        var movedFrom: [String: String] = [:]
        let removed = dictionary.entries.filter { migrated[$0.key] == nil && $0.value.isContainer }
        for entry in migrated.entries where entry.value.isContainer && dictionary[entry.key] == nil {
            if let origin = removed.first(where: { $0.value.isSame(as: entry.value) }) { movedFrom[entry.key] = origin.key }
        }
        return (migrated, movedFrom)
    }

    /// Lenient decoding: a problem for each key of `dictionary` that no field of `plan` reads
    /// (`"class"` and the reserved `$` keys aside), with the nearest key the type has.
    mutating func reportUnknownKeys(in dictionary: ArchiveDictionary, plan: TypePlan) throws {
        for entry in dictionary.entries where !plan.knownKeys.contains(entry.key) && !entry.key.hasPrefix("$") {
            path.push(key: entry.key)
            defer { path.pop() }
            let error = path.error(
                .unusedKey(
                    key: entry.key, typeName: plan.typeName,
                    suggestion: TypePlan.nearest(to: entry.key, among: plan.knownKeys.subtracting(["class"]))))
            guard problems != nil else { throw error }  // strict: the first is the error
            problems?.append(AMCProblem(error: error, value: entry.value.swiftValue))
        }
    }

    /// Puts the problems from `start` on (of the fields of the object being decoded, whose plan
    /// is `plan`) in the order of the fields they are about.
    mutating func orderProblems(from start: Int, by plan: TypePlan) {
        guard let count = problems?.count, count - start > 1 else { return }
        let here = path.rendered
        func position(_ problem: AMCProblem) -> Int {
            var rest = Substring(problem.keyPath)
            if !here.isEmpty {
                guard rest.hasPrefix(here) else { return Int.max }
                rest = rest.dropFirst(here.count).drop { $0 == "." }
            }
            let key = String(rest.prefix { $0 != "." && $0 != "[" })
            return plan.fieldsByKey[key].flatMap { plan.indexByName[$0.name] } ?? Int.max
        }
        let ordered = problems![start...].enumerated().sorted { one, two in
            (position(one.element), one.offset) < (position(two.element), two.offset)
        }
        problems!.replaceSubrange(start..., with: ordered.map(\.element))
    }

    /// Lenient decoding records `error` (with the value it is about) and returns, for the caller
    /// to leave that value out and go on; strict decoding, and errors no decoding can go on
    /// from (nesting, the stack, malformed bytes), rethrow it.
    mutating func stepOver(_ error: any Error, raw: ArchiveValue?) throws {
        guard problems != nil, let amcError = error as? AMCError, amcError.isRecoverable else { throw error }
        problems?.append(AMCProblem(error: amcError, value: raw?.swiftValue))
    }

    /// An error AMC leaves a single property unset for: reported to ``AMC/swallowedErrorHandler``,
    /// or a problem of lenient decoding. Filling a configuration, it is an error: a value there
    /// is meant for the property, and dropping it would lose what a layer below holds.
    mutating func swallow(_ error: AMCError, raw: ArchiveValue?) throws {
        if problems != nil { return problems!.append(AMCProblem(error: error, value: raw?.swiftValue)) }
        if fillsExistingValues { throw error }
        AMC.reportSwallowed(error)
    }
}
