// The bounded cache's eviction: least recently used first, so entries looked up again outlive
// entries seen once.

import Testing

@testable import GalleyText

@Suite("Bounded cache")
struct BoundedCacheTests {
    struct Key: PrecomputedHashKey {
        var number: Int
        var precomputedHash: Int { number &* 0x9E37_79B9 }
    }

    final class Entry: Sendable {
        let number: Int
        init(_ number: Int) { self.number = number }
    }

    /// One shard with room for ten entries of 100 bytes.
    static func cache() -> BoundedCache<Key, Entry> { BoundedCache(byteLimit: 1_000, shardCount: 1) }

    @Test("When room is needed, an entry not looked up lately goes before one that was")
    func secondChance() {
        let cache = Self.cache()
        for number in 0..<11 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        // Full: the eleventh pushed one of the first ten out. Now use entry 1, then need room again.
        #expect(cache.statistics.evictions == 1 && cache.value(for: Key(number: 0)) == nil)
        #expect(cache.value(for: Key(number: 1))?.number == 1)
        cache.insert(Entry(11), for: Key(number: 11), bytes: 100)
        #expect(cache.value(for: Key(number: 1))?.number == 1)
        #expect(cache.value(for: Key(number: 2)) == nil)
        #expect(cache.value(for: Key(number: 11))?.number == 11)
        #expect(cache.statistics.evictions == 2 && cache.statistics.bytes <= 1_000)
    }

    @Test("A value read in place is the stored one, counted as a lookup is, and kept in use as one is")
    func readsInPlace() {
        let cache = Self.cache()
        for number in 0..<10 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        var read: [Int] = []
        #expect(cache.withValue(for: Key(number: 3)) { read.append($0.number) })
        #expect(!cache.withValue(for: Key(number: 42)) { read.append($0.number) })
        #expect(read == [3])
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 1)
        // Used, entry 0 (the oldest) is moved up as a lookup moves it: room made next goes elsewhere.
        #expect(cache.withValue(for: Key(number: 0)) { _ in })
        cache.insert(Entry(10), for: Key(number: 10), bytes: 100)
        #expect(cache.withValue(for: Key(number: 0)) { _ in })
        #expect(cache.value(for: Key(number: 1)) == nil)
    }

    @Test("An entry in steady use survives a stream of entries seen once, and the bound holds")
    func steadyUseSurvivesAStream() {
        let cache = Self.cache()
        cache.insert(Entry(-1), for: Key(number: -1), bytes: 100)
        var lost = 0
        var mostBytes = 0
        for number in 0..<1_000 {
            cache.insert(Entry(number), for: Key(number: number), bytes: 100)
            if cache.value(for: Key(number: -1))?.number != -1 { lost += 1 }
            mostBytes = max(mostBytes, cache.statistics.bytes)
        }
        #expect(lost == 0)
        #expect(mostBytes <= 1_000)
        // Only the last ones of the stream are left beside it.
        #expect(cache.value(for: Key(number: 0)) == nil)
        #expect(cache.value(for: Key(number: 999))?.number == 999)
        #expect(cache.statistics.entries == 10)
    }

    @Test("A cache admitting only recurring keys keeps a key offered again, and none of a stream seen once")
    func admitsOnlyRecurring() {
        // One shard of 100 KB remembers 16 keys offered once (the fewest it remembers).
        let cache = BoundedCache<Key, Entry>(byteLimit: 100_000, shardCount: 1, admitsOnlyRecurring: true)
        for number in 0..<5 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        #expect(cache.statistics.entries == 0)
        for number in 0..<5 { #expect(cache.value(for: Key(number: number)) == nil) }
        // Offered again while remembered: kept from then on.
        for number in 0..<5 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        for number in 0..<5 { #expect(cache.value(for: Key(number: number))?.number == number) }
        // A stream of keys seen once (far more than it remembers) leaves them where they were,
        // and itself nowhere.
        for number in 1_000..<21_000 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        #expect(cache.statistics.entries == 5 && cache.statistics.evictions == 0)
        for number in 0..<5 { #expect(cache.value(for: Key(number: number))?.number == number) }
        // A key offered again only after many others is not remembered: its second offer is a first.
        cache.insert(Entry(1_000), for: Key(number: 1_000), bytes: 100)
        #expect(cache.value(for: Key(number: 1_000)) == nil)
        // An admitting-every-key cache keeps the first offer.
        let every = BoundedCache<Key, Entry>(byteLimit: 100_000, shardCount: 1)
        every.insert(Entry(7), for: Key(number: 7), bytes: 100)
        #expect(every.value(for: Key(number: 7))?.number == 7)
    }

    @Test("An entry larger than the whole bound is kept alone rather than refused")
    func oversizedEntry() {
        let cache = Self.cache()
        for number in 0..<5 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        cache.insert(Entry(99), for: Key(number: 99), bytes: 5_000)
        #expect(cache.value(for: Key(number: 99))?.number == 99)
        #expect(cache.statistics.entries == 1)
    }

    @Test("Emptied, whether its index is small or has grown, a cache finds nothing old and everything new")
    func emptiedAndRefilled() {
        // 4 entries stay within the index's first table; 40 make it grow (it is at most half full).
        for count in [4, 40] {
            let cache = BoundedCache<Key, Entry>(byteLimit: 100_000, shardCount: 1)
            for number in 0..<count { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
            cache.removeAll()
            #expect(cache.statistics.entries == 0 && cache.statistics.bytes == 0)
            for number in 0..<count { #expect(cache.value(for: Key(number: number)) == nil) }
            for number in count..<(3 * count) { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
            for number in 0..<count { #expect(cache.value(for: Key(number: number)) == nil) }
            for number in count..<(3 * count) { #expect(cache.value(for: Key(number: number))?.number == number) }
            #expect(cache.statistics.entries == 2 * count)
        }
    }

    @Test("Any number of shards (rounded up to a power of two) finds every entry it holds", arguments: [1, 3, 16, 17])
    func shardCounts(_ shardCount: Int) {
        let cache = BoundedCache<Key, Entry>(byteLimit: 1_000_000, shardCount: shardCount)
        for number in 0..<500 { cache.insert(Entry(number), for: Key(number: number), bytes: 100) }
        for number in 0..<500 { #expect(cache.value(for: Key(number: number))?.number == number) }
        #expect(cache.value(for: Key(number: 500)) == nil)
        #expect(cache.statistics.entries == 500 && cache.statistics.evictions == 0)
    }
}
