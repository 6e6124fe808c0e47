// The measure pass's memo: every node's measurements for the offers it was given.

/// The space a node was offered, compared bit for bit (an offer may be infinite).
struct Offer {
    var width: UInt64
    var height: UInt64?
    /// Index in the memo of the same node's previous measurement; -1 for its first.
    var previous: Int

    init(width: Double, height: Double?, previous: Int) {
        self.width = width.bitPattern
        self.height = height?.bitPattern
        self.previous = previous
    }

    func answers(width: Double, height: Double?) -> Bool {
        self.width == width.bitPattern && self.height == height?.bitPattern
    }
}

/// A measurement, the offer it answers, and the others it answers too.
struct Memo {
    var offer: Offer
    var measured: MeasuredNode
    var span: WidthSpan
}

/// The memo's memory, kept from row to row: per node, the index of its latest measurement, and
/// the measurements in the order made, a node's chained from its latest one.
///
/// Plain data in memory of its own rather than arrays: a row measures a node many times, and
/// appending to an array would check its uniqueness and room, and copy the measurement twice
/// over, every time. One block holds both parts (the entries, then the per-node indices), so a
/// measurer without working memory of its own allocates no more than with arrays. The measurer
/// reads and writes it through ``MemoTable``; the storage only owns it.
final class MemoStorage {
    private var block: UnsafeMutableRawPointer
    private var nodeCapacity: Int
    fileprivate private(set) var entryCapacity: Int

    /// Room for a template of `nodeCount` nodes (see ``table(nodeCount:)``).
    init(nodeCount: Int = 16) {
        (nodeCapacity, entryCapacity) = (max(nodeCount, 1), 2 * max(nodeCount, 1))
        block = Self.allocate(entries: entryCapacity, nodes: nodeCapacity)
    }

    deinit { block.deallocate() }

    fileprivate var entries: UnsafeMutablePointer<Memo> { block.assumingMemoryBound(to: Memo.self) }
    fileprivate var latest: UnsafeMutablePointer<Int> {
        (block + entryCapacity * MemoryLayout<Memo>.stride).assumingMemoryBound(to: Int.self)
    }

    private static func allocate(entries: Int, nodes: Int) -> UnsafeMutableRawPointer {
        let block = UnsafeMutableRawPointer.allocate(
            byteCount: entries * MemoryLayout<Memo>.stride + nodes * MemoryLayout<Int>.stride, alignment: MemoryLayout<Memo>.alignment)
        block.bindMemory(to: Memo.self, capacity: entries)
        (block + entries * MemoryLayout<Memo>.stride).bindMemory(to: Int.self, capacity: nodes)
        return block
    }

    /// An empty memo for a template of `nodeCount` nodes, with room for each offered two sizes.
    func table(nodeCount: Int) -> MemoTable {
        if nodeCount > nodeCapacity || 2 * nodeCount > entryCapacity {
            block.deallocate()
            (nodeCapacity, entryCapacity) = (max(nodeCount, nodeCapacity), max(2 * nodeCount, entryCapacity))
            block = Self.allocate(entries: entryCapacity, nodes: nodeCapacity)
        }
        latest.update(repeating: -1, count: nodeCount)
        return MemoTable(storage: self)
    }

    /// Twice the room for entries, the first `count` and every node's index kept.
    fileprivate func grow(keeping count: Int) {
        let larger = Self.allocate(entries: 2 * entryCapacity, nodes: nodeCapacity)
        larger.assumingMemoryBound(to: Memo.self).moveInitialize(from: entries, count: count)
        (larger + 2 * entryCapacity * MemoryLayout<Memo>.stride).assumingMemoryBound(to: Int.self)
            .update(from: latest, count: nodeCapacity)
        block.deallocate()
        block = larger
        entryCapacity *= 2
    }
}

/// A row's memo, read and written through its ``MemoStorage``'s memory, which it keeps alive.
/// (Entries are plain data: nothing to deinitialize.)
struct MemoTable {
    private let storage: MemoStorage
    private var latest: UnsafeMutablePointer<Int>
    private var entries: UnsafeMutablePointer<Memo>
    private var capacity: Int
    private(set) var count = 0

    fileprivate init(storage: MemoStorage) {
        self.storage = storage
        (latest, entries, capacity) = (storage.latest, storage.entries, storage.entryCapacity)
    }

    /// The index of node `id`'s latest measurement; -1 when it has none.
    func latestEntry(of id: Int) -> Int { latest[id] }

    subscript(entry: Int) -> Memo {
        unsafeAddress { UnsafePointer(entries + entry) }
    }

    /// Adds node `id`'s measurement `measured` at an offer of `width` and `height` (chained
    /// after its latest).
    mutating func append(_ id: Int, width: Double, height: Double?, measured: MeasuredNode, span: WidthSpan) {
        if count == capacity {
            storage.grow(keeping: count)
            (latest, entries, capacity) = (storage.latest, storage.entries, storage.entryCapacity)
        }
        (entries + count).initialize(to: Memo(offer: Offer(width: width, height: height, previous: latest[id]), measured: measured, span: span))
        latest[id] = count
        count += 1
    }
}
