// How many rows each chunk of a section holds, kept so that finding a row's chunk and changing
// one chunk's count both cost O(log n): a Fenwick tree of the counts.

/// The row counts of a row store's chunks, in order, with their running totals.
struct ChunkCounts: Sendable {
    /// Fenwick's implicit tree: entry i (from 1) sums the counts of the chunks (i − lowbit(i), i].
    private var tree: [Int32] = [0]
    private var counts: [Int32] = []
    private(set) var total = 0

    init() {}

    /// The counts `counts`, in order.
    init(_ counts: [Int32]) {
        self.counts = counts
        rebuild()
    }

    var chunkCount: Int { counts.count }

    subscript(chunk: Int) -> Int { Int(counts[chunk]) }

    /// Adds `delta` to chunk `chunk`'s count.
    mutating func add(_ delta: Int32, toChunk chunk: Int) {
        counts[chunk] += delta
        total += Int(delta)
        var node = chunk + 1
        while node < tree.count {
            tree[node] += delta
            node += node & -node
        }
    }

    /// The first row of chunk `chunk` (the total for `chunkCount`).
    func start(ofChunk chunk: Int) -> Int {
        var sum = 0
        var node = chunk
        while node > 0 {
            sum += Int(tree[node])
            node -= node & -node
        }
        return sum
    }

    /// The chunk holding row `row` (0 ≤ row < total) and the row's place in it.
    func locate(_ row: Int) -> (chunk: Int, offset: Int) {
        var node = 0
        var remaining = Int32(row)
        var step = 1
        while step * 2 < tree.count { step *= 2 }
        while step > 0 {
            if node + step < tree.count, tree[node + step] <= remaining {
                node += step
                remaining -= tree[node]
            }
            step /= 2
        }
        return (node, Int(remaining))
    }

    /// Puts a chunk of `count` rows at `chunk` (rarely: the tree is built again).
    mutating func insert(_ count: Int32, at chunk: Int) {
        counts.insert(count, at: chunk)
        rebuild()
    }

    /// Takes chunk `chunk` out (rarely: the tree is built again).
    mutating func remove(at chunk: Int) {
        counts.remove(at: chunk)
        rebuild()
    }

    mutating func append(_ count: Int32) {
        counts.append(count)
        total += Int(count)
        // The new node sums the chunks below it that its range covers.
        let node = counts.count
        var sum = count
        var child = node - 1
        let low = node - (node & -node)
        while child > low {
            sum += tree[child]
            child -= child & -child
        }
        tree.append(sum)
    }

    private mutating func rebuild() {
        tree = [0] + counts
        total = counts.reduce(0) { $0 + Int($1) }
        for node in 1..<max(1, tree.count) {
            let parent = node + (node & -node)
            if parent < tree.count { tree[parent] += tree[node] }
        }
    }
}
