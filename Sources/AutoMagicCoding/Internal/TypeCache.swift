/// Values worked out once per type and shared between threads: field plans, type names, string
/// parsers, enum name tables. Two threads meeting a type at once may both make its value; one of
/// them is kept.
final class TypeCache<Value>: @unchecked Sendable {
    private let values = Locked<[ObjectIdentifier: Value]>([:])

    /// The value for `type`, from `make` the first time.
    func value(for type: Any.Type, make: () -> Value) -> Value {
        let key = ObjectIdentifier(type)
        if let known = values.withLock({ $0[key] }) { return known }
        let made = make()
        return values.withLock { values in
            if let first = values[key] { return first }
            values[key] = made
            return made
        }
    }
}
