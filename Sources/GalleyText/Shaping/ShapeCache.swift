// A bounded, thread-safe LRU cache of shaped segments (words and spaces), as minikin and Blink keep.

import Synchronization

/// Counters describing a ``ShapeCache``'s use since it was made.
public struct ShapeCacheStatistics: Sendable, Hashable {
    /// Lookups that found a shaped segment.
    public var hits: Int
    /// Lookups that had to shape.
    public var misses: Int
    /// Segments dropped to stay under the memory limit.
    public var evictions: Int
    /// Segments held now.
    public var entries: Int
    /// Approximate bytes held now.
    public var bytes: Int
}

/// Shaped segments keyed by ``ShapeKey``, bounded in memory, least recently used out first.
///
/// The cache is split into shards, each with its own lock, so that threads measuring at once
/// rarely wait for each other.
final class ShapeCache: Sendable {
    /// A shard behind its own lock (a class, because `Mutex` cannot be copied into an array).
    private final class LockedShard: Sendable {
        let mutex: Mutex<Shard>
        init(byteLimit: Int) { mutex = Mutex(Shard(byteLimit: byteLimit)) }
    }
    private let shards: [LockedShard]
    let byteLimit: Int

    /// A cache holding at most about `byteLimit` bytes of shaped segments.
    init(byteLimit: Int, shardCount: Int = 16) {
        self.byteLimit = byteLimit
        let perShard = max(byteLimit / shardCount, 1)
        shards = (0..<shardCount).map { _ in LockedShard(byteLimit: perShard) }
    }

    /// The cached segment for `key`, or the one `shape` makes (then cached).
    func segment(for key: ShapeKey, shape: () -> ShapedSegment) -> ShapedSegment {
        let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
        if let found = shard.mutex.withLock({ $0.lookUp(key) }) { return found }
        let made = shape()
        shard.mutex.withLock { $0.insert(made, for: key) }
        return made
    }

    var statistics: ShapeCacheStatistics {
        shards.reduce(into: ShapeCacheStatistics(hits: 0, misses: 0, evictions: 0, entries: 0, bytes: 0)) { total, shard in
            shard.mutex.withLock { shard in
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
        for shard in shards { shard.mutex.withLock { $0.removeAll() } }
    }
}

/// One lock's worth of the cache: a dictionary into a doubly linked list kept in arrays.
private struct Shard: ~Copyable {
    struct Node {
        var key: ShapeKey?
        var value: ShapedSegment?
        var previous: Int
        var next: Int
    }

    let byteLimit: Int
    var index: [ShapeKey: Int] = [:]
    var nodes: [Node] = []
    var free: [Int] = []
    /// Most recently used node, and least recently used; -1 when empty.
    var head = -1
    var tail = -1
    var bytes = 0
    var hits = 0
    var misses = 0
    var evictions = 0

    init(byteLimit: Int) { self.byteLimit = byteLimit }

    mutating func lookUp(_ key: ShapeKey) -> ShapedSegment? {
        guard let node = index[key] else {
            misses += 1
            return nil
        }
        hits += 1
        moveToFront(node)
        return nodes[node].value
    }

    mutating func insert(_ value: ShapedSegment, for key: ShapeKey) {
        if let existing = index[key] {
            moveToFront(existing)
            return
        }
        let node: Int
        if let reused = free.popLast() {
            node = reused
            nodes[node] = Node(key: key, value: value, previous: -1, next: head)
        } else {
            node = nodes.count
            nodes.append(Node(key: key, value: value, previous: -1, next: head))
        }
        if head >= 0 { nodes[head].previous = node }
        head = node
        if tail < 0 { tail = node }
        index[key] = node
        bytes += value.byteCount + key.text.count * 2 + 64
        while bytes > byteLimit, tail >= 0, tail != head { evictTail() }
    }

    mutating func removeAll() {
        index.removeAll()
        nodes.removeAll()
        free.removeAll()
        head = -1
        tail = -1
        bytes = 0
    }

    private mutating func evictTail() {
        let node = tail
        guard let key = nodes[node].key, let value = nodes[node].value else { return }
        unlink(node)
        index[key] = nil
        bytes -= value.byteCount + key.text.count * 2 + 64
        nodes[node] = Node(key: nil, value: nil, previous: -1, next: -1)
        free.append(node)
        evictions += 1
    }

    private mutating func moveToFront(_ node: Int) {
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
