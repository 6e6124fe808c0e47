// A table that keeps what was used lately and forgets the rest: the bound on every table that
// requests add to (languages, fallback chains, fonts loaded by path, shape plans).

/// Values by key, at most `2 × capacity` of them, the least lately used forgotten first.
///
/// Kept in two generations: entries go into the current one; once it holds `capacity`, it
/// becomes the previous one and the one before is dropped whole. A lookup that finds an entry
/// in the previous generation moves it to the current one, so whatever is used at least once a
/// generation stays. Every operation is O(1) (amortized), and no input, however many distinct
/// keys it brings, grows the table past its bound. Not thread-safe: keep it behind a lock.
struct RecentlyUsed<Key: Hashable, Value> {
    private var current: [Key: Value] = [:]
    private var previous: [Key: Value] = [:]
    /// How many entries a generation holds.
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity > 0, "a table of no entries")
        self.capacity = capacity
    }

    /// How many entries are held, in both generations.
    var count: Int { current.count + previous.count }

    /// The value for `key`, kept for another generation; nil when it was forgotten or never held.
    mutating func value(for key: Key) -> Value? {
        if let value = current[key] { return value }
        guard let value = previous.removeValue(forKey: key) else { return nil }
        insert(value, for: key)
        return value
    }

    /// Stores `value` for `key` in the current generation.
    mutating func insert(_ value: Value, for key: Key) {
        if current.count >= capacity && current[key] == nil {
            previous = current
            current = [:]
            current.reserveCapacity(capacity)
        }
        current[key] = value
    }

    /// The value for `key`, or the one `make` gives, stored.
    mutating func value<Failure: Error>(for key: Key, orMake make: () throws(Failure) -> Value) throws(Failure) -> Value {
        if let value = value(for: key) { return value }
        let value = try make()
        insert(value, for: key)
        return value
    }

    /// Forgets everything.
    mutating func removeAll() {
        current = [:]
        previous = [:]
    }
}
