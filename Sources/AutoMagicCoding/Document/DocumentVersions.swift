/// The versions of the types a document holds (``AMCCodable/amcVersion``): recorded once per
/// document, as the root object's `"$versions"` entry, `{"Person": 2, "Note": 3}`, in the `$` key
/// space that references (`"$ref"`) use too. Types at version 0 are not recorded; a type the
/// entry does not name is at version 0.
struct DocumentVersions {
    static let key = "$versions"

    private let versions: [String: Int]

    /// The versions a document's root dictionary records; nil when it records none.
    init?(root: ArchiveDictionary, path: KeyPathTracker) throws {
        guard let entry = root[reserved: .versions] else { return nil }
        var path = path
        path.push(key: Self.key)
        guard case let .dictionary(entries) = entry else {
            throw path.error(.typeMismatch(expected: "a dictionary of versions by class name", found: entry.summary))
        }
        var versions: [String: Int] = [:]
        for entry in entries.entries {
            path.push(key: entry.key)
            defer { path.pop() }
            guard case let .int(version) = entry.value, version >= 0, let exact = Int(exactly: version) else {
                throw path.error(.typeMismatch(expected: "a version number (an integer from 0)", found: entry.value.summary))
            }
            versions[entry.key] = exact
        }
        self.versions = versions
    }

    /// The version the document records for objects of a class written under one of `names`
    /// (the name in the object's `"class"`, its current name, its former names); 0 when none.
    func version(forAnyOf names: [String]) -> Int {
        for name in names {
            if let version = versions[name] { return version }
        }
        return 0
    }
}
