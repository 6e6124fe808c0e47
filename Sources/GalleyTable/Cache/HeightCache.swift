// Heights measured at other widths and environments, kept for when the table comes back to them.

/// How a table's height cache is doing.
public struct HeightCacheStatistics: Sendable, Hashable {
    /// Heights held: the current layout's measured rows, and those of earlier layouts kept.
    public var entries: Int
    /// Memory the kept heights take, in bytes (the current layout's included).
    public var bytes: Int
    /// Rows whose height came from the cache instead of being measured.
    public var hits: Int
    /// Rows measured because no height was cached for them.
    public var misses: Int
    /// Earlier layouts (width and environment) whose heights are kept.
    public var layouts: Int
}

/// The measured heights of earlier layouts, each as its rows stood when the table left it.
///
/// The current layout's heights live in the table's rows; leaving a layout (a width or an
/// environment change) hands its measured rows here, and coming back takes them out again.
/// A row's height is found at the place it held, or, when rows moved meanwhile, by its key.
struct HeightCache: Sendable {
    /// One layout's heights, in the table's row order when it was left.
    struct Snapshot: Sendable {
        var keys: [RowKey]
        var heights: [Double]
        /// Built the first time a row is not at its place.
        var places: [RowKey: Int]?
        /// The heights of rows that had left the table at that layout (see ``HeightCache/removed``).
        var removed: [RowKey: Double] = [:]

        var bytes: Int {
            keys.capacity * MemoryLayout<RowKey>.stride + heights.capacity * MemoryLayout<Double>.stride
                + ((places?.count ?? 0) + removed.count) * HeightCache.bytesPerLookup
        }

        /// The height of the row with `key`, which was at `place` when the layout was left if no
        /// row moved since.
        mutating func height(of key: RowKey, near place: Int) -> Double? {
            if place < keys.count, keys[place] == key { return heights[place] }
            if places == nil {
                var built: [RowKey: Int] = [:]
                built.reserveCapacity(keys.count)
                for (index, key) in keys.enumerated() { built[key] = index }
                places = built
            }
            return places?[key].map { heights[$0] }
        }
    }

    /// A kept height's cost: its row's key and the height.
    static let bytesPerEntry = MemoryLayout<RowKey>.stride + MemoryLayout<Double>.stride
    /// A lookup entry's cost in a snapshot whose rows moved (a dictionary at most three quarters
    /// full: key, place and room).
    static let bytesPerLookup = (MemoryLayout<RowKey>.stride + MemoryLayout<Int>.stride) * 2

    /// Heights of measured rows that left the table at the current layout, by key, for when
    /// they come back (a drill-down level shown again, a row deleted and inserted again).
    private(set) var removed: [RowKey: Double] = [:]

    /// Keeps the height of a measured row that left the table, within the limit.
    mutating func keepRemoved(_ key: RowKey, height: Double) {
        guard (removed.count + 1) * Self.bytesPerLookup + bytes <= byteLimit else { return }
        removed[key] = height
    }

    /// Takes out the kept height of a row that left the table, if any.
    mutating func takeRemoved(_ key: RowKey) -> Double? {
        removed.removeValue(forKey: key)
    }

    /// Takes out the heights of rows that left the table (their layout is being left, and
    /// keeps them).
    mutating func takeAllRemoved() -> [RowKey: Double] {
        defer { removed = [:] }
        return removed
    }

    /// Puts back the heights of rows that had left the table at the layout come back to.
    mutating func restoreRemoved(_ heights: [RowKey: Double]) {
        removed = heights
        trim()
    }

    /// Kept layouts, the most recently left last.
    private(set) var snapshots: [(configuration: LayoutConfiguration, snapshot: Snapshot)] = []
    /// The most memory kept layouts may take; the oldest go first.
    var byteLimit: Int
    var hits = 0
    var misses = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    var bytes: Int { snapshots.reduce(removed.count * Self.bytesPerLookup) { $0 + $1.snapshot.bytes } }
    var entries: Int { snapshots.reduce(removed.count) { $0 + $1.snapshot.keys.count + $1.snapshot.removed.count } }

    /// Keeps `snapshot` as `configuration`'s heights, in place of any kept before, then lets the
    /// oldest layouts go until the rest fit the limit (this one too, when it alone does not).
    mutating func keep(_ snapshot: Snapshot, for configuration: LayoutConfiguration) {
        snapshots.removeAll { $0.configuration == configuration }
        snapshots.append((configuration, snapshot))
        trim()
    }

    /// Lets the oldest layouts go until the rest fit the limit.
    mutating func trim() {
        while bytes > byteLimit, !snapshots.isEmpty { snapshots.removeFirst() }
        if bytes > byteLimit { removed = [:] }
    }

    /// Takes out the heights kept for `configuration`, if any.
    mutating func take(_ configuration: LayoutConfiguration) -> Snapshot? {
        guard let index = snapshots.firstIndex(where: { $0.configuration == configuration }) else { return nil }
        return snapshots.remove(at: index).snapshot
    }

    /// Lets every kept layout go, and the heights of rows that left the table.
    mutating func removeAll() {
        snapshots.removeAll()
        removed = [:]
    }
}
