/// The types that data may name under `"class"`, by ``AMCCodable/amcClassName``.
final class ClassRegistry: Sendable {
    static let shared = ClassRegistry()

    private let types = Locked<[String: any AMCCodable.Type]>([:])

    func register(_ newTypes: [any AMCCodable.Type]) {
        let named = newTypes.map { ($0.amcClassName, $0) }
        types.withLock { types in
            for (name, type) in named { types[name] = type }
        }
    }

    func type(named name: String) -> (any AMCCodable.Type)? {
        types.withLock { $0[name] }
    }
}
