// A bounded, thread-safe, sharded LRU cache: the engine's shape and paragraph caches.

import GalleyLocks

/// Counters describing a cache's use since it was made.
public struct CacheStatistics: Sendable, Hashable {
    /// Lookups that found an entry.
    public var hits: Int
    /// Lookups that did not.
    public var misses: Int
    /// Entries dropped to stay under the memory limit.
    public var evictions: Int
    /// Entries held now.
    public var entries: Int
    /// Approximate bytes held now.
    public var bytes: Int

    static let zero = CacheStatistics(hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0)
}

/// Values keyed by `Key`, bounded in memory, least recently used out first.
///
/// Split into shards, each with its own lock, so that threads measuring at once rarely wait for
/// each other.
///
/// `@unchecked Sendable`: the shards live in one allocation made in `init` and freed in
/// `deinit`, and every access to one goes through its mutex. (In an array of classes, reading a
/// shard would retain and release it: two atomic operations on every lookup of every word.)
final class BoundedCache<Key: PrecomputedHashKey, Value: Sendable>: @unchecked Sendable {
    private let shards: UnsafeMutablePointer<Locked<Shard<Key, Value>>>
    private let shardCount: Int
    /// `shardCount - 1`: the count is a power of two, so a hash picks its shard by a mask
    /// (a division would be far slower, on every lookup).
    private let shardMask: UInt
    let byteLimit: Int

    /// A cache holding at most about `byteLimit` bytes, in `shardCount` shards (rounded up to
    /// a power of two). With `admitsOnlyRecurring`, a value is kept only when its key comes
    /// back (see ``Shard/sightings``).
    init(byteLimit: Int, shardCount: Int = 16, admitsOnlyRecurring: Bool = false) {
        self.byteLimit = byteLimit
        let count = shardCount <= 1 ? 1 : 1 << (Int.bitWidth - (shardCount - 1).leadingZeroBitCount)
        let perShard = max(byteLimit / count, 1)
        shards = .allocate(capacity: count)
        for index in 0..<count {
            (shards + index).initialize(to: Locked(Shard(byteLimit: perShard, admitsOnlyRecurring: admitsOnlyRecurring)))
        }
        self.shardCount = count
        shardMask = UInt(count - 1)
    }

    deinit {
        shards.deinitialize(count: shardCount)
        shards.deallocate()
    }

    private func shard(forHash hash: Int) -> UnsafeMutablePointer<Locked<Shard<Key, Value>>> {
        shards + Int(UInt(bitPattern: hash) & shardMask)
    }

    /// The cached value for `key`, or nil (counted as a miss).
    func value(for key: Key) -> Value? {
        shard(forHash: key.precomputedHash).pointee.withLock { $0.lookUp(key) }
    }

    /// Calls `body` with the cached value for `key` under the shard's lock, for a caller that
    /// keeps no reference to it (which ``value(for:)`` takes: two atomic operations), and
    /// returns true; false when there is none (counted as a miss).
    @inline(__always)
    func withValue(for key: Key, _ body: (Value) -> Void) -> Bool {
        shard(forHash: key.precomputedHash).pointee.withLock { shard in
            guard let node = shard.hitNode(hash: key.precomputedHash, where: { $0 == key }) else { return false }
            body(shard.nodes[node].value.unsafelyUnwrapped)
            return true
        }
    }

    /// The value whose key has `hash` and satisfies `matches`: a lookup that needs no key built.
    func value(hash: Int, where matches: @Sendable (Key) -> Bool) -> Value? {
        shard(forHash: hash).pointee.withLock { $0.lookUp(hash: hash, where: matches) }
    }

    /// Stores `value`, which holds about `bytes` bytes, under `key`.
    func insert(_ value: Value, for key: Key, bytes: Int) {
        // What the insertion evicts is released here, after the lock: freeing a shaped paragraph
        // (dozens of arrays) inside it would keep other threads waiting on the shard.
        let evicted = shard(forHash: key.precomputedHash).pointee.withLock { $0.insert(value, for: key, bytes: bytes) }
        withExtendedLifetime(evicted) {}
    }

    var statistics: CacheStatistics {
        (0..<shardCount).reduce(into: CacheStatistics.zero) { total, index in
            shards[index].withLock { shard in
                total.hits += shard.hits
                total.misses += shard.misses
                total.evictions += shard.evictions
                total.entries += shard.index.count
                total.bytes += shard.bytes
            }
        }
    }

    /// Drops every entry (counters are kept).
    func removeAll() {
        for index in 0..<shardCount { shards[index].withLock { $0.removeAll() } }
    }
}

/// One lock's worth of a cache: a hash index into a doubly linked list kept in arrays.
///
/// A hit moves its node to the front only when the node may have fallen out of the front half
/// of the list: moving it writes its neighbours' links and the old head's (up to three more
/// cache lines, in other nodes), and the words a text uses most are looked up again long
/// before they get that far back. Within the front half, order is by insertion or last move;
/// what is evicted from the back is still the least recently used.
private struct Shard<Key: PrecomputedHashKey, Value>: ~Copyable {
    struct Node {
        /// Left in place when the node is freed (its value is nil then), so that comparing
        /// keys never unwraps an optional copy of one.
        var key: Key
        var value: Value?
        /// The key's precomputed hash, kept beside it so that probes compare hashes without
        /// reaching into keys.
        var hash: Int
        var bytes: Int
        var previous: Int
        var next: Int
        /// The shard's clock when the node last went to the front.
        var movedAt: Int
    }

    let byteLimit: Int
    /// Node index by key hash.
    var index = HashSlots()
    var nodes: [Node] = []
    var free: [Int] = []
    /// Most recently used node, and least recently used; -1 when empty.
    var head = -1
    var tail = -1
    /// Nodes gone to the front so far (inserted or moved). A node moved there at `movedAt` is
    /// at most `clock - movedAt` places back, since each move puts one node ahead of it.
    var clock = 0
    var bytes = 0
    var hits = 0
    var misses = 0
    var evictions = 0
    /// For a cache that admits only recurring keys: the hashes of keys offered once and not
    /// kept, one per slot (a newer one takes the slot). A key is kept when it is offered again
    /// while its hash is still here: a stream of keys that never come back (each row's own text,
    /// in a batch) then never enters the cache, where each would push out what does recur and
    /// hold memory for nothing. About as many slots as the shard holds values of a few KB: a
    /// key that comes back after more others than that would have been pushed out before it
    /// came back. Empty for a cache that admits every key.
    private var sightings: [Int]

    init(byteLimit: Int, admitsOnlyRecurring: Bool) {
        self.byteLimit = byteLimit
        // A power of two from 16 to 1,024: a shaped paragraph of a sentence or two holds about 4 KB.
        let slots = min(max(byteLimit / 4096, 16), 1024)
        let count = admitsOnlyRecurring ? 1 << (Int.bitWidth - 1 - slots.leadingZeroBitCount) : 0
        // Each slot starts with a value no hash that picks it can have (it would pick the next).
        sightings = (0..<count).map { Self.hash(pickingSlot: ($0 + 1) & (count - 1)) }
    }

    /// The sightings slot of `hash`: bits above those that picked the shard.
    private static func slot(of hash: Int, count: Int) -> Int {
        Int(truncatingIfNeeded: UInt(bitPattern: hash) >> 16) & (count - 1)
    }

    /// A value whose slot is `slot`.
    private static func hash(pickingSlot slot: Int) -> Int { slot << 16 }

    /// Whether a value under a key with `hash` is to be kept: always, or (see ``sightings``)
    /// when the key was offered before and the offer is remembered; a first offer is remembered.
    private mutating func admits(hash: Int) -> Bool {
        guard !sightings.isEmpty else { return true }
        let slot = Self.slot(of: hash, count: sightings.count)
        if sightings[slot] == hash { return true }
        sightings[slot] = hash
        return false
    }

    private func node(for key: Key) -> Int? {
        node(hash: key.precomputedHash) { $0 == key }
    }

    @inline(__always)
    private func node(hash: Int, where matches: (Key) -> Bool) -> Int? {
        var slot = index.firstSlot(for: hash)
        while let candidate = index.value(at: slot) {
            if nodes[candidate].hash == hash && matches(nodes[candidate].key) { return candidate }
            slot = index.nextSlot(after: slot)
        }
        return nil
    }

    mutating func lookUp(_ key: Key) -> Value? {
        lookUp(hash: key.precomputedHash) { $0 == key }
    }

    @inline(__always)
    mutating func lookUp(hash: Int, where matches: (Key) -> Bool) -> Value? {
        guard let node = hitNode(hash: hash, where: matches) else { return nil }
        return nodes[node].value
    }

    /// The node whose key has `hash` and is `matching`, counted as a hit and moved up as one
    /// is, or nil (counted as a miss): what every lookup starts with.
    @inline(__always)
    mutating func hitNode(hash: Int, where matches: (Key) -> Bool) -> Int? {
        guard let node = node(hash: hash, where: matches) else {
            misses += 1
            return nil
        }
        hits += 1
        if clock &- nodes[node].movedAt > index.count / 2 { moveToFront(node) }
        return node
    }

    /// Inserts `value` and returns the values it evicted, for the caller to release.
    mutating func insert(_ value: Value, for key: Key, bytes size: Int) -> [Value] {
        if let existing = node(for: key) {
            moveToFront(existing)
            return []
        }
        guard admits(hash: key.precomputedHash) else { return [] }
        let node: Int
        let entry = Node(key: key, value: value, hash: key.precomputedHash, bytes: size, previous: -1, next: head, movedAt: clock)
        clock &+= 1
        if let reused = free.popLast() {
            node = reused
            nodes[node] = entry
        } else {
            node = nodes.count
            nodes.append(entry)
        }
        if head >= 0 { nodes[head].previous = node }
        head = node
        if tail < 0 { tail = node }
        index.insert(node, hash: entry.hash) { nodes[$0].hash }
        bytes += size
        var evicted: [Value] = []
        while bytes > byteLimit, tail >= 0, tail != head, let value = evictTail() { evicted.append(value) }
        return evicted
    }

    mutating func removeAll() {
        index.removeAll()
        nodes.removeAll()
        free.removeAll()
        head = -1
        tail = -1
        bytes = 0
    }

    private mutating func evictTail() -> Value? {
        let node = tail
        guard let value = nodes[node].value.take() else { return nil }
        unlink(node)
        index.remove(node, hash: nodes[node].hash) { nodes[$0].hash }
        bytes -= nodes[node].bytes
        nodes[node].bytes = 0
        free.append(node)
        evictions += 1
        return value
    }

    private mutating func moveToFront(_ node: Int) {
        nodes[node].movedAt = clock
        clock &+= 1
        guard node != head else { return }
        unlink(node)
        nodes[node].previous = -1
        nodes[node].next = head
        if head >= 0 { nodes[head].previous = node }
        head = node
        if tail < 0 { tail = node }
    }

    private mutating func unlink(_ node: Int) {
        let previous = nodes[node].previous
        let next = nodes[node].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }
}
