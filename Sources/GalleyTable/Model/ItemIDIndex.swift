// Which item ids a table holds, for refusing a repeated one: a flat table of 64-bit hashes of
// the ids' bytes, which costs a fraction of a set of strings to build for a million rows.

/// The item ids of a table's rows, as hashes.
///
/// A hash found again is only a candidate: the caller confirms a repeated id by comparing the
/// strings (`isPresent`), which runs only for a real repeat or a 64-bit collision. The hash is
/// seeded per process, so ids cannot be chosen to collide; it never decides any output.
///
/// The hashes are spread over many small tables by their top bits, so that the index of a
/// large table is built a small table at a time, in cache, rather than by a million probes at
/// random into one large one.
struct ItemIDIndex: Sendable {
    /// Open addressing with linear probing; 0 marks an empty slot.
    private var tables: [[UInt64]]
    private var counts: [Int]
    /// The top bits of a hash that pick its table.
    private let shift: UInt64
    private(set) var count = 0

    /// An index of `hashes`; those found more than once are added to `repeated` as often as
    /// they repeat.
    init(hashes: [UInt64], repeated: inout [UInt64]) {
        var bits: UInt64 = 0
        while bits < 16, (1 << bits) * 256 < hashes.count { bits += 1 }
        let shift = 64 - bits  // a shift by 64 gives 0: one table
        self.shift = shift
        let tableCount = 1 << Int(bits)
        // A counting sort by table, then each table filled on its own.
        var starts = Array(repeating: 0, count: tableCount + 1)
        for hash in hashes { starts[Int(hash >> shift) + 1] += 1 }
        for table in 0..<tableCount { starts[table + 1] += starts[table] }
        var sorted = [UInt64](repeating: 0, count: hashes.count)
        var next = starts
        for hash in hashes {
            sorted[next[Int(hash >> shift)]] = hash
            next[Int(hash >> shift)] += 1
        }
        tables = []
        tables.reserveCapacity(tableCount)
        counts = []
        counts.reserveCapacity(tableCount)
        for table in 0..<tableCount {
            let size = starts[table + 1] - starts[table]
            var slots = 8
            while slots < size * 2 { slots *= 2 }
            tables.append(Array(repeating: 0, count: slots))
            counts.append(0)
            for hash in sorted[starts[table]..<starts[table + 1]] {
                if find(hash) != nil { repeated.append(hash) }
                add(hash)
            }
        }
    }

    /// An empty index.
    init() {
        var repeated: [UInt64] = []
        self.init(hashes: [], repeated: &repeated)
    }

    /// Adds `id` unless the table holds it already (`isPresent` confirms a hash found again).
    /// Returns whether it was added.
    mutating func insert(_ id: String, isPresent: () -> Bool) -> Bool { insert(hash: Self.hash(id), isPresent: isPresent) }

    /// Whether the table holds `id` (`isPresent` confirms a hash found).
    func contains(_ id: String, isPresent: () -> Bool) -> Bool { contains(hash: Self.hash(id), isPresent: isPresent) }

    /// Takes out `id`, which the table held.
    mutating func remove(_ id: String) { remove(hash: Self.hash(id)) }

    mutating func insert(hash: UInt64, isPresent: () -> Bool) -> Bool {
        if find(hash) != nil, isPresent() { return false }
        add(hash)
        return true
    }

    func contains(hash: UInt64, isPresent: () -> Bool) -> Bool { find(hash) != nil && isPresent() }

    /// Takes out one entry of `hash`.
    mutating func remove(hash: UInt64) {
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

    /// A 64-bit hash of `id`'s UTF-8 bytes, never 0.
    static func hash(_ id: String) -> UInt64 {
        var id = id
        let hash = id.withUTF8 { bytes -> UInt64 in
            var hash = seed ^ (UInt64(bytes.count) &* 0x9E37_79B9_7F4A_7C15)
            var place = 0
            let raw = UnsafeRawBufferPointer(bytes)
            while place + 8 <= bytes.count {
                hash = mix(hash ^ raw.loadUnaligned(fromByteOffset: place, as: UInt64.self))
                place += 8
            }
            if place < bytes.count {
                var tail: UInt64 = 0
                for byte in bytes[place...].reversed() { tail = tail << 8 | UInt64(byte) }
                hash = mix(hash ^ tail)
            }
            return mix(hash)
        }
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
