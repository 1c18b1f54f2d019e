/// Values worked out once per type and shared between threads: field plans, type names, string
/// parsers, enum name tables. Two threads meeting a type at once may both make its value; one of
/// them is kept.
final class TypeCache<Value>: @unchecked Sendable {
    /// The values by type, and the one looked up last: callers ask for the same type many times
    /// in a row (once per object of a graph), and that look needs no hashing.
    private let values = Locked<(all: [ObjectIdentifier: Value], last: (key: ObjectIdentifier, value: Value)?)>(([:], nil))

    /// The value for `type`, when one has been made.
    func known(for type: Any.Type) -> Value? {
        let key = ObjectIdentifier(type)
        return values.withLock { values in
            if let last = values.last, last.key == key { return last.value }
            return values.all[key]
        }
    }

    /// The value for `type`, from `make` the first time.
    func value(for type: Any.Type, make: () -> Value) -> Value {
        let key = ObjectIdentifier(type)
        let known = values.withLock { values -> Value? in
            if let last = values.last, last.key == key { return last.value }
            guard let found = values.all[key] else { return nil }
            values.last = (key, found)
            return found
        }
        if let known { return known }
        let made = make()
        return values.withLock { values in
            if let first = values.all[key] { return first }
            values.all[key] = made
            return made
        }
    }
}
