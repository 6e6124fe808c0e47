// Which item ids a table holds, for refusing a repeated one: 64-bit hashes of the ids' bytes,
// which cost a fraction of a set of strings to check and keep for a million rows.

/// The item ids of a table's rows, as hashes.
///
/// A hash found again is only a candidate: the caller confirms a repeated id by comparing the
/// strings (`isPresent`), which runs only for a real repeat or a 64-bit collision. The hash is
/// seeded per process, so ids cannot be chosen to collide; it never decides any output.
///
/// The hashes are spread over many small tables by their top bits. Made from a table's rows,
/// each small table is first a run of one array sorted by table, checked for repeats in a
/// scratch table that stays in cache; the runs become hash tables when the index first changes,
/// so that a table that is only scrolled never pays for them, and a lookup before that reads
/// one run of a few thousand.
struct ItemIDIndex: Sendable {
    /// Once built, one table per top-bits value, open addressing with linear probing (0 marks
    /// an empty slot); empty before.
    private var tables: [[UInt64]] = []
    private var counts: [Int] = []
    /// Before the index is built, every hash, sorted by table (a counting sort), and where each
    /// table's run starts (one more than the tables, the last the end).
    private var runs: [UInt64]
    private var runStarts: [Int]
    private var isBuilt: Bool { !tables.isEmpty }
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
        // A counting sort by table into one array, each run checked in one scratch table.
        var starts = Array(repeating: 0, count: tableCount + 1)
        for hash in hashes { starts[Int(hash >> shift) + 1] += 1 }
        var largest = 0
        for table in 0..<tableCount {
            largest = Swift.max(largest, starts[table + 1])
            starts[table + 1] += starts[table]
        }
        var next = starts
        // Room for one at least: an array of none would be the storage every empty array shares,
        // whose count this initializer writes, from any thread.
        runs = [UInt64](unsafeUninitializedCapacity: max(1, hashes.count)) { runs, initialized in
            for hash in hashes {
                let table = Int(hash >> shift)
                runs.initializeElement(at: next[table], to: hash)
                next[table] += 1
            }
            initialized = hashes.count
        }
        var scratch = [UInt64](repeating: 0, count: Self.slots(for: largest))
        runs.withUnsafeBufferPointer { runs in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for table in 0..<tableCount {
                    let mask = Self.slots(for: starts[table + 1] - starts[table]) - 1
                    for hash in runs[starts[table]..<starts[table + 1]] {
                        var slot = Int(truncatingIfNeeded: hash) & mask
                        while scratch[slot] != 0 && scratch[slot] != hash { slot = (slot + 1) & mask }
                        if scratch[slot] == hash { repeated.append(hash) } else { scratch[slot] = hash }
                    }
                    UnsafeMutableBufferPointer(rebasing: scratch[...mask]).update(repeating: 0)
                }
            }
        }
        runStarts = starts
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
        let found: Bool
        if isBuilt {
            found = find(hash) != nil
        } else {
            let table = table(of: hash)
            found = runs[runStarts[table]..<runStarts[table + 1]].contains(hash)
        }
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

    /// Makes the runs hash tables, once.
    private mutating func build() {
        guard !isBuilt else { return }
        let tableCount = runStarts.count - 1
        tables = (0..<tableCount).map { Array(repeating: 0, count: Self.slots(for: runStarts[$0 + 1] - runStarts[$0])) }
        counts = Array(repeating: 0, count: tableCount)
        count = 0
        for table in 0..<tableCount {
            for hash in runs[runStarts[table]..<runStarts[table + 1]] { add(hash) }
        }
        runs = []
        runStarts = []
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
    static let seed = UInt64.random(in: 1...UInt64.max)

    /// A 64-bit hash of `id`'s UTF-8 bytes in Unicode's composed form (NFC), never 0: strings
    /// equal as Swift compares them (canonically) hash the same.
    /// `seed` is ``seed``, which a caller hashing many ids reads once.
    static func hash(_ id: String, seed: UInt64 = seed) -> UInt64 {
        var id = id
        // ASCII is its own composed form; other text is composed first ("é" typed as e and an
        // accent is the id "é").
        if let hash = id.withUTF8({ hash($0, seed: seed, onlyASCII: true) }) { return hash }
        // Composed by the standard library's own normalization, the one its `==` compares by,
        // so that ids equal to Swift hash the same whatever Unicode version it knows.
        var composed: [UInt8] = []
        composed.reserveCapacity(id.utf8.count)
        id._withNFCCodeUnits { composed.append($0) }
        return composed.withUnsafeBufferPointer { hash($0, seed: seed, onlyASCII: false)! }
    }

    /// The hash of `bytes`; nil when `onlyASCII` and they are not all ASCII.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>, seed: UInt64, onlyASCII: Bool) -> UInt64? {
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
            if bytes.count >= 8 {
                // The last eight bytes, overlapping the word before: one load, not a copy.
                tail = raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self)
            } else {
                for offset in 0..<bytes.count { tail |= UInt64(bytes[offset]) << (8 * offset) }
            }
            bits |= tail
            hash = mix(hash ^ tail)
        }
        if onlyASCII && bits & 0x8080_8080_8080_8080 != 0 { return nil }
        // Every word was mixed in by a full finalizer round: no last round is needed.
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
