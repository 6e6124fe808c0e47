// A bounded, thread-safe, sharded LRU cache: the engine's shape and paragraph caches.

import Synchronization

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
/// shard retained and released it: two atomic operations on every lookup of every word.)
final class BoundedCache<Key: PrecomputedHashKey, Value: Sendable>: @unchecked Sendable {
    private let shards: UnsafeMutablePointer<Mutex<Shard<Key, Value>>>
    private let shardCount: Int
    /// `shardCount - 1`: the count is a power of two, so a hash picks its shard by a mask
    /// (a division took tens of cycles on every lookup).
    private let shardMask: UInt
    let byteLimit: Int

    /// A cache holding at most about `byteLimit` bytes, in `shardCount` shards (rounded up to
    /// a power of two).
    init(byteLimit: Int, shardCount: Int = 16) {
        self.byteLimit = byteLimit
        let count = shardCount <= 1 ? 1 : 1 << (Int.bitWidth - (shardCount - 1).leadingZeroBitCount)
        let perShard = max(byteLimit / count, 1)
        shards = .allocate(capacity: count)
        for index in 0..<count { (shards + index).initialize(to: Mutex(Shard(byteLimit: perShard))) }
        self.shardCount = count
        shardMask = UInt(count - 1)
    }

    deinit {
        shards.deinitialize(count: shardCount)
        shards.deallocate()
    }

    private func shard(forHash hash: Int) -> UnsafeMutablePointer<Mutex<Shard<Key, Value>>> {
        shards + Int(UInt(bitPattern: hash) & shardMask)
    }

    /// The cached value for `key`, or nil (counted as a miss).
    func value(for key: Key) -> Value? {
        shard(forHash: key.precomputedHash).pointee.withLock { $0.lookUp(key) }
    }

    /// The value whose key has `hash` and satisfies `matches`: a lookup that needs no key built.
    func value(hash: Int, where matches: @Sendable (Key) -> Bool) -> Value? {
        shard(forHash: hash).pointee.withLock { $0.lookUp(hash: hash, where: matches) }
    }

    /// Stores `value`, which holds about `bytes` bytes, under `key`.
    func insert(_ value: Value, for key: Key, bytes: Int) {
        // What the insertion evicts is released here, after the lock: freeing a shaped paragraph
        // (dozens of arrays) inside it kept other threads waiting on the shard.
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
/// what is evicted from the back is least recently used, as before.
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

    init(byteLimit: Int) { self.byteLimit = byteLimit }

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
        guard let node = node(hash: hash, where: matches) else {
            misses += 1
            return nil
        }
        hits += 1
        if clock &- nodes[node].movedAt > index.count / 2 { moveToFront(node) }
        return nodes[node].value
    }

    /// Inserts `value` and returns the values it evicted, for the caller to release.
    mutating func insert(_ value: Value, for key: Key, bytes size: Int) -> [Value] {
        if let existing = node(for: key) {
            moveToFront(existing)
            return []
        }
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
