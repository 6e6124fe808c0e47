// Row heights and their running offsets, kept exact under inserts, deletes, moves and edits.

/// The heights of a table's rows, answering "where does row i start?" and "which row is at
/// offset y?" in O(log n), and staying exact while rows are inserted, deleted, moved, resized
/// or appended a page at a time.
///
///     var index = OffsetIndex(heights: [44, 90, 44])
///     index.offset(ofRow: 2)       // 134
///     index.insert(60, at: 1)
///     index.row(atOffset: 100)     // 1 (rows 0 and 1 cover 0..<104)
///
/// An implicit treap: rows are nodes ordered by position, each node keeping its subtree's row
/// count and total height, so every operation walks one root-to-leaf path. Node priorities come
/// from a fixed-seed generator, so the same operations always build the same tree.
public struct OffsetIndex: Sendable, Equatable {
    /// A row: its children in the tree, its priority, and its subtree's row count and height.
    /// 32 bytes, so a walk down the tree touches one cache line per level.
    struct Node: Sendable {
        var left: Int32
        var right: Int32
        var priority: UInt32
        var size: Int32
        var height: Double
        var sum: Double
    }

    /// Every node ever made; -1 means no node.
    private var nodes: [Node] = []
    private var freeNodes: [Int32] = []
    private var root: Int32 = -1
    private var random = SplitMix64(seed: 0x6761_6C6C_6579)

    /// An empty index.
    public init() {}

    /// An index of `heights`, in row order.
    ///
    /// - Complexity: O(n).
    public init(heights: [Double]) {
        append(contentsOf: heights)
    }

    /// Number of rows.
    public var count: Int { root < 0 ? 0 : Int(nodes[Int(root)].size) }

    /// Sum of every row's height: the table's content height.
    public var totalHeight: Double { root < 0 ? 0 : nodes[Int(root)].sum }

    // MARK: - Queries

    /// The height of row `row`.
    ///
    /// - Complexity: O(log n).
    public func height(ofRow row: Int) -> Double {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        return nodes.withUnsafeBufferPointer { nodes in
            var remaining = Int32(row)
            var current = root
            while true {
                let node = nodes[Int(current)]
                let leftSize = node.left >= 0 ? nodes[Int(node.left)].size : 0
                if remaining < leftSize { current = node.left }
                else if remaining == leftSize { return node.height }
                else {
                    remaining -= leftSize + 1
                    current = node.right
                }
            }
        }
    }

    /// The offset of row `row`'s top: the sum of the heights before it. `count` gives the total.
    ///
    /// - Complexity: O(log n).
    public func offset(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        return nodes.withUnsafeBufferPointer { nodes in
            var offset = 0.0
            var remaining = Int32(row)
            var current = root
            while current >= 0 {
                let node = nodes[Int(current)]
                let leftSize = node.left >= 0 ? nodes[Int(node.left)].size : 0
                if remaining <= leftSize {
                    current = node.left
                } else {
                    offset += (node.left >= 0 ? nodes[Int(node.left)].sum : 0) + node.height
                    remaining -= leftSize + 1
                    current = node.right
                }
            }
            return offset
        }
    }

    /// The row covering `offset` (its top ≤ offset < its bottom); nil when the offset is negative
    /// or at or past the end. Zero-height rows are never returned.
    ///
    /// - Complexity: O(log n).
    public func row(atOffset offset: Double) -> Int? {
        guard offset >= 0, offset < totalHeight else { return nil }
        return nodes.withUnsafeBufferPointer { nodes in
            var remaining = offset
            var row = 0
            var current = root
            while current >= 0 {
                let node = nodes[Int(current)]
                let leftSum = node.left >= 0 ? nodes[Int(node.left)].sum : 0
                let leftSize = node.left >= 0 ? Int(nodes[Int(node.left)].size) : 0
                if remaining < leftSum {
                    current = node.left
                } else if remaining < leftSum + node.height {
                    return row + leftSize
                } else {
                    remaining -= leftSum + node.height
                    row += leftSize + 1
                    current = node.right
                }
            }
            return count - 1  // rounding at the very end: the last row
        }
    }

    // MARK: - Changes

    /// Inserts a row of `height` before row `row` (`count` appends).
    ///
    /// - Complexity: O(log n).
    public mutating func insert(_ rowHeight: Double, at row: Int) {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
        let node = makeNode(rowHeight)
        let root = self.root
        self.root = nodes.withUnsafeMutableBufferPointer { nodes in
            let (before, after) = Self.split(nodes, root, Int32(row))
            return Self.merge(nodes, Self.merge(nodes, before, node), after)
        }
    }

    /// Removes row `row` and returns its height.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func remove(at row: Int) -> Double {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        let root = self.root
        let (newRoot, removed) = nodes.withUnsafeMutableBufferPointer { nodes in
            let (before, rest) = Self.split(nodes, root, Int32(row))
            let (removed, after) = Self.split(nodes, rest, 1)
            return (Self.merge(nodes, before, after), removed)
        }
        self.root = newRoot
        freeNodes.append(removed)
        return nodes[Int(removed)].height
    }

    /// Moves row `source` so that it becomes row `destination` (as `UITableView` moves rows).
    ///
    /// - Complexity: O(log n).
    public mutating func move(from source: Int, to destination: Int) {
        precondition(source >= 0 && source < count && destination >= 0 && destination < count, "rows out of range")
        let root = self.root
        self.root = nodes.withUnsafeMutableBufferPointer { nodes in
            let (before, rest) = Self.split(nodes, root, Int32(source))
            let (moved, after) = Self.split(nodes, rest, 1)
            let (first, second) = Self.split(nodes, Self.merge(nodes, before, after), Int32(destination))
            return Self.merge(nodes, Self.merge(nodes, first, moved), second)
        }
    }

    /// Sets row `row`'s height (after a width change, or new content).
    ///
    /// - Complexity: O(log n).
    public mutating func setHeight(_ rowHeight: Double, ofRow row: Int) {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
        let root = self.root
        nodes.withUnsafeMutableBufferPointer { nodes in
            // Find the row, then walk the same path again correcting every sum on it.
            func walk(_ visit: (Int) -> Void) -> Int {
                var remaining = Int32(row)
                var current = root
                while true {
                    visit(Int(current))
                    let node = nodes[Int(current)]
                    let leftSize = node.left >= 0 ? nodes[Int(node.left)].size : 0
                    if remaining < leftSize { current = node.left }
                    else if remaining == leftSize { return Int(current) }
                    else {
                        remaining -= leftSize + 1
                        current = node.right
                    }
                }
            }
            let target = walk { _ in }
            let difference = rowHeight - nodes[target].height
            nodes[target].height = rowHeight
            _ = walk { nodes[$0].sum += difference }
        }
    }

    /// Appends rows (a page of results).
    ///
    /// - Complexity: O(k + log n) for k rows.
    public mutating func append(contentsOf heights: [Double]) {
        let built = build(heights)
        let root = self.root
        self.root = nodes.withUnsafeMutableBufferPointer { Self.merge($0, root, built) }
    }

    /// Removes every row, keeping the storage for reuse.
    public mutating func removeAll() {
        nodes.removeAll(keepingCapacity: true)
        freeNodes.removeAll(keepingCapacity: true)
        root = -1
    }

    /// Every row's height, in order.
    public var heights: [Double] {
        var result: [Double] = []
        result.reserveCapacity(count)
        var stack: [Int32] = []
        var current = root
        while current >= 0 || !stack.isEmpty {
            while current >= 0 {
                stack.append(current)
                current = nodes[Int(current)].left
            }
            let node = stack.removeLast()
            result.append(nodes[Int(node)].height)
            current = nodes[Int(node)].right
        }
        return result
    }

    public static func == (lhs: OffsetIndex, rhs: OffsetIndex) -> Bool { lhs.heights == rhs.heights }

    // MARK: - Treap

    private mutating func makeNode(_ rowHeight: Double) -> Int32 {
        let node = Node(left: -1, right: -1, priority: UInt32(truncatingIfNeeded: random.next()), size: 1, height: rowHeight, sum: rowHeight)
        if let reused = freeNodes.popLast() {
            nodes[Int(reused)] = node
            return reused
        }
        nodes.append(node)
        return Int32(nodes.count - 1)
    }

    /// A treap of `heights` in order, built in linear time: each node joins the right spine,
    /// adopting as its left child the spine it outranks (a Cartesian tree's stack build).
    private mutating func build(_ heights: [Double]) -> Int32 {
        guard !heights.isEmpty else { return -1 }
        // An eighth spare, so that the first inserts after a page load do not copy every node.
        let needed = nodes.count + heights.count
        if nodes.capacity < needed { nodes.reserveCapacity(needed + needed / 8) }
        let first = Int32(nodes.count)
        for rowHeight in heights {
            precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
            nodes.append(Node(left: -1, right: -1, priority: UInt32(truncatingIfNeeded: random.next()), size: 1, height: rowHeight, sum: rowHeight))
        }
        return nodes.withUnsafeMutableBufferPointer { nodes in
            var spine: [Int32] = []
            for node in first..<Int32(nodes.count) {
                var adopted: Int32 = -1
                while let top = spine.last, nodes[Int(top)].priority < nodes[Int(node)].priority {
                    adopted = spine.removeLast()
                }
                nodes[Int(node)].left = adopted
                if let top = spine.last { nodes[Int(top)].right = node }
                spine.append(node)
            }
            // Sizes and sums, children before parents: a post-order walk.
            var stack: [(Int32, Bool)] = [(spine[0], false)]
            while let (node, childrenDone) = stack.popLast() {
                if childrenDone {
                    Self.update(nodes, node)
                    continue
                }
                stack.append((node, true))
                if nodes[Int(node)].right >= 0 { stack.append((nodes[Int(node)].right, false)) }
                if nodes[Int(node)].left >= 0 { stack.append((nodes[Int(node)].left, false)) }
            }
            return spine[0]
        }
    }

    @inline(__always)
    private static func update(_ nodes: UnsafeMutableBufferPointer<Node>, _ node: Int32) {
        let index = Int(node)
        var size: Int32 = 1
        var sum = nodes[index].height
        let left = nodes[index].left
        let right = nodes[index].right
        if left >= 0 {
            size += nodes[Int(left)].size
            sum += nodes[Int(left)].sum
        }
        if right >= 0 {
            size += nodes[Int(right)].size
            sum += nodes[Int(right)].sum
        }
        nodes[index].size = size
        nodes[index].sum = sum
    }

    /// Splits `node`'s subtree into its first `count` rows and the rest.
    private static func split(_ nodes: UnsafeMutableBufferPointer<Node>, _ node: Int32, _ count: Int32) -> (Int32, Int32) {
        guard node >= 0 else { return (-1, -1) }
        let index = Int(node)
        let left = nodes[index].left
        let leftSize = left >= 0 ? nodes[Int(left)].size : 0
        if count <= leftSize {
            let (first, rest) = split(nodes, left, count)
            nodes[index].left = rest
            update(nodes, node)
            return (first, node)
        } else {
            let (first, rest) = split(nodes, nodes[index].right, count - leftSize - 1)
            nodes[index].right = first
            update(nodes, node)
            return (node, rest)
        }
    }

    /// Joins two subtrees, every row of `first` before every row of `second`.
    private static func merge(_ nodes: UnsafeMutableBufferPointer<Node>, _ first: Int32, _ second: Int32) -> Int32 {
        if first < 0 { return second }
        if second < 0 { return first }
        if nodes[Int(first)].priority > nodes[Int(second)].priority {
            nodes[Int(first)].right = merge(nodes, nodes[Int(first)].right, second)
            update(nodes, first)
            return first
        } else {
            nodes[Int(second)].left = merge(nodes, first, nodes[Int(second)].left)
            update(nodes, second)
            return second
        }
    }

    // MARK: - Invariants

    /// Checks every node's size and sum against its children, and the heap order of
    /// priorities. For tests, after every change.
    public func checkInvariants() -> Bool {
        func check(_ node: Int32) -> (size: Int32, sum: Double, ok: Bool) {
            guard node >= 0 else { return (0, 0, true) }
            let current = nodes[Int(node)]
            let l = check(current.left)
            let r = check(current.right)
            let expectedSum = l.sum + current.height + r.sum
            let heapOK = (current.left < 0 || nodes[Int(current.left)].priority <= current.priority)
                && (current.right < 0 || nodes[Int(current.right)].priority <= current.priority)
            let ok = l.ok && r.ok && heapOK && current.size == l.size + r.size + 1
                && abs(current.sum - expectedSum) <= 1e-6 * max(1, abs(expectedSum))
            return (l.size + r.size + 1, expectedSum, ok)
        }
        return check(root).ok
    }
}

/// A small deterministic generator (SplitMix64) for treap priorities.
struct SplitMix64: Sendable, Equatable {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
