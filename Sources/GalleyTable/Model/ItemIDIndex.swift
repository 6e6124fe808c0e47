// Which item ids a table holds, for refusing a repeated one: 64-bit hashes of the ids' bytes,
// which cost a fraction of a set of strings to check and keep for a million rows.

import Foundation

/// The item ids of a table's rows, as hashes.
///
/// A hash found again is only a candidate: the caller confirms a repeated id by comparing the
/// strings (`isPresent`), which runs only for a real repeat or a 64-bit collision. The hash is
/// seeded per process, so ids cannot be chosen to collide; it never decides any output.
///
/// The hashes are spread over many small tables by their top bits. Made from a table's rows,
/// each small table is first a plain list, checked for repeats in a scratch table that stays in
/// cache; the lists become hash tables when the index first changes, so that a table that is
/// only scrolled never pays for them, and a lookup before that reads one list of a few thousand.
struct ItemIDIndex: Sendable {
    /// Once built, open addressing with linear probing (0 marks an empty slot); before, lists.
    private var tables: [[UInt64]]
    private var counts: [Int]
    private var isBuilt: Bool
    /// The top bits of a hash that pick its table.
    private let shift: UInt64
    private(set) var count = 0

    /// An index of `hashes`; those found more than once are added to `repeated` as often as
    /// they repeat.
    init(hashes: [UInt64], repeated: inout [UInt64]) {
        var bits: UInt64 = 0
        while bits < 16, (1 << bits) * 2_048 < hashes.count { bits += 1 }
        let shift = 64 - bits  // a shift by 64 gives 0: one table
        self.shift = shift
        let tableCount = 1 << Int(bits)
        // A counting sort by table into lists, each checked in one scratch table.
        var sizes = Array(repeating: 0, count: tableCount)
        for hash in hashes { sizes[Int(hash >> shift)] += 1 }
        var lists = sizes.map { size in
            var list: [UInt64] = []
            list.reserveCapacity(size)
            return list
        }
        for hash in hashes { lists[Int(hash >> shift)].append(hash) }
        var scratch = [UInt64](repeating: 0, count: Self.slots(for: sizes.max() ?? 0))
        scratch.withUnsafeMutableBufferPointer { scratch in
            for list in lists {
                let mask = Self.slots(for: list.count) - 1
                for hash in list {
                    var slot = Int(truncatingIfNeeded: hash) & mask
                    while scratch[slot] != 0 && scratch[slot] != hash { slot = (slot + 1) & mask }
                    if scratch[slot] == hash { repeated.append(hash) } else { scratch[slot] = hash }
                }
                UnsafeMutableBufferPointer(rebasing: scratch[...mask]).update(repeating: 0)
            }
        }
        tables = lists
        counts = sizes
        isBuilt = false
        count = hashes.count
    }

    /// An empty index.
    init() {
        var repeated: [UInt64] = []
        self.init(hashes: [], repeated: &repeated)
    }

    /// The slots of a table for `count` hashes: a power of two at least twice the count.
    private static func slots(for count: Int) -> Int {
        var slots = 8
        while slots < count * 2 { slots *= 2 }
        return slots
    }

    /// Adds `id` unless the table holds it already (`isPresent` confirms a hash found again).
    /// Returns whether it was added.
    mutating func insert(_ id: String, isPresent: () -> Bool) -> Bool { insert(hash: Self.hash(id), isPresent: isPresent) }

    /// Whether the table holds `id` (`isPresent` confirms a hash found).
    func contains(_ id: String, isPresent: () -> Bool) -> Bool { contains(hash: Self.hash(id), isPresent: isPresent) }

    /// Takes out `id`, which the table held.
    mutating func remove(_ id: String) { remove(hash: Self.hash(id)) }

    mutating func insert(hash: UInt64, isPresent: () -> Bool) -> Bool {
        build()
        if find(hash) != nil, isPresent() { return false }
        add(hash)
        return true
    }

    func contains(hash: UInt64, isPresent: () -> Bool) -> Bool {
        let found = isBuilt ? find(hash) != nil : tables[table(of: hash)].contains(hash)
        return found && isPresent()
    }

    /// Takes out one entry of `hash`.
    mutating func remove(hash: UInt64) {
        build()
        guard let (table, found) = find(hash) else { return }
        var hole = found
        // Backward-shift deletion: later entries of the probe run move up over the hole.
        let mask = tables[table].count - 1
        var next = (hole + 1) & mask
        while tables[table][next] != 0 {
            let home = Int(truncatingIfNeeded: tables[table][next]) & mask
            // The entry may fill the hole when its home is not between the hole and it.
            if (next - home) & mask >= (next - hole) & mask {
                tables[table][hole] = tables[table][next]
                hole = next
            }
            next = (next + 1) & mask
        }
        tables[table][hole] = 0
        counts[table] -= 1
        count -= 1
    }

    /// Makes the lists hash tables, once.
    private mutating func build() {
        guard !isBuilt else { return }
        isBuilt = true
        let lists = tables
        count = 0
        for table in lists.indices {
            tables[table] = Array(repeating: 0, count: Self.slots(for: lists[table].count))
            counts[table] = 0
            for hash in lists[table] { add(hash) }
        }
    }

    private func table(of hash: UInt64) -> Int { Int(hash >> shift) }

    private mutating func add(_ hash: UInt64) {
        let table = table(of: hash)
        if (counts[table] + 1) * 2 > tables[table].count { grow(table) }
        let mask = tables[table].count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while tables[table][slot] != 0 { slot = (slot + 1) & mask }
        tables[table][slot] = hash
        counts[table] += 1
        count += 1
    }

    private func find(_ hash: UInt64) -> (table: Int, slot: Int)? {
        let table = table(of: hash)
        let mask = tables[table].count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while tables[table][slot] != 0 {
            if tables[table][slot] == hash { return (table, slot) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private mutating func grow(_ table: Int) {
        let old = tables[table]
        tables[table] = Array(repeating: 0, count: old.count * 2)
        count -= counts[table]
        counts[table] = 0
        for hash in old where hash != 0 { add(hash) }
    }

    /// Drawn once per process: hashes differ between runs, so no input can be made to collide.
    private static let seed = UInt64.random(in: 1...UInt64.max)

    /// A 64-bit hash of `id`'s UTF-8 bytes in Unicode's composed form (NFC), never 0: strings
    /// equal as Swift compares them (canonically) hash the same.
    static func hash(_ id: String) -> UInt64 {
        var id = id
        // ASCII is its own composed form; other text is composed first ("é" typed as e and an
        // accent is the id "é").
        if let hash = id.withUTF8({ hash($0, onlyASCII: true) }) { return hash }
        var composed = id.precomposedStringWithCanonicalMapping
        return composed.withUTF8 { hash($0, onlyASCII: false)! }
    }

    /// The hash of `bytes`; nil when `onlyASCII` and they are not all ASCII.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, onlyASCII: Bool) -> UInt64? {
        var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
        var bits: UInt64 = 0  // every byte's bits, or-ed: a high bit set is a byte past ASCII
        var place = 0
        let raw = UnsafeRawBufferPointer(bytes)
        while place + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: place, as: UInt64.self)
            bits |= word
            hash = mix(hash ^ word)
            place += 8
        }
        if place < bytes.count {
            var tail: UInt64 = 0
            withUnsafeMutableBytes(of: &tail) { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[place...])) }
            bits |= tail
            hash = mix(hash ^ tail)
        }
        if onlyASCII && bits & 0x8080_8080_8080_8080 != 0 { return nil }
        hash = mix(hash)
        return hash == 0 ? 1 : hash
    }

    /// A multiply and xor-shift round (a 64-bit finalizer's), which spreads every input bit.
    @inline(__always)
    private static func mix(_ value: UInt64) -> UInt64 {
        var value = value &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value = value &* 0xC4CE_B9FE_1A85_EC53
        return value ^ (value >> 33)
    }
}
