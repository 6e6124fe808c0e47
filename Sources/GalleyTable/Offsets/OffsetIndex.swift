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
/// A counted B+ tree: leaves hold up to 64 row heights, branches up to 64 children with each
/// child's row count and total height, so a million rows are four levels deep and every
/// operation reads a few contiguous blocks. Totals along a changed path are recomputed from the
/// children, never adjusted by differences, so they do not drift. Leaves are not merged when
/// rows are removed: the tree keeps the depth it grew to, which stays logarithmic in the
/// largest size it reached.
public struct OffsetIndex: Sendable, Equatable {
    static let leafCapacity = 64
    static let branchCapacity = 64
    /// How full bulk-loaded nodes are, leaving room for inserts.
    static let bulkFill = 48

    // Leaves and branches in flat arrays, a fixed stride each (no per-node allocation).
    private var leafHeights: [Double] = []
    private var leafCounts: [Int32] = []
    private var branchChildren: [Int32] = []
    private var branchCounts: [Int32] = []
    private var branchSums: [Double] = []
    private var branchSizes: [Int32] = []
    private var freeLeaves: [Int32] = []
    private var freeBranches: [Int32] = []
    /// A leaf when `depth` is 0, else a branch; -1 when empty.
    private var root: Int32 = -1
    /// Branch levels above the leaves.
    private var depth = 0
    private var rowCount = 0
    private var total = 0.0

    /// An empty index.
    public init() {}

    /// An index of `heights`, in row order.
    ///
    /// - Complexity: O(n).
    public init(heights: [Double]) {
        append(contentsOf: heights)
    }

    /// Number of rows.
    public var count: Int { rowCount }

    /// Sum of every row's height: the table's content height.
    public var totalHeight: Double { total }

    // MARK: - Queries

    /// The height of row `row`.
    ///
    /// - Complexity: O(log n).
    public func height(ofRow row: Int) -> Double {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        var node = Int(root)
        var remaining = Int32(row)
        for _ in 0..<depth {
            let base = node * Self.branchCapacity
            var slot = 0
            while remaining >= branchCounts[base + slot] {
                remaining -= branchCounts[base + slot]
                slot += 1
            }
            node = Int(branchChildren[base + slot])
        }
        return leafHeights[node * Self.leafCapacity + Int(remaining)]
    }

    /// The offset of row `row`'s top: the sum of the heights before it. `count` gives the total.
    ///
    /// - Complexity: O(log n).
    public func offset(ofRow row: Int) -> Double {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        if row == count { return total }
        var node = Int(root)
        var remaining = Int32(row)
        var offset = 0.0
        for _ in 0..<depth {
            let base = node * Self.branchCapacity
            var slot = 0
            while remaining >= branchCounts[base + slot] {
                remaining -= branchCounts[base + slot]
                offset += branchSums[base + slot]
                slot += 1
            }
            node = Int(branchChildren[base + slot])
        }
        let base = node * Self.leafCapacity
        for index in 0..<Int(remaining) { offset += leafHeights[base + index] }
        return offset
    }

    /// The row covering `offset` (its top ≤ offset < its bottom); nil when the offset is negative
    /// or at or past the end. Zero-height rows are never returned.
    ///
    /// - Complexity: O(log n).
    public func row(atOffset offset: Double) -> Int? {
        guard offset >= 0, offset < total else { return nil }
        var node = Int(root)
        var remaining = offset
        var row = 0
        for _ in 0..<depth {
            let base = node * Self.branchCapacity
            let size = Int(branchSizes[node])
            var slot = 0
            while slot < size - 1 && remaining >= branchSums[base + slot] {
                remaining -= branchSums[base + slot]
                row += Int(branchCounts[base + slot])
                slot += 1
            }
            node = Int(branchChildren[base + slot])
        }
        let base = node * Self.leafCapacity
        let rows = Int(leafCounts[node])
        for index in 0..<rows {
            let height = leafHeights[base + index]
            if remaining < height { return row + index }
            remaining -= height
        }
        // Rounding put the offset past this leaf's last row: the last non-empty row before it.
        for index in stride(from: rows - 1, through: 0, by: -1) where leafHeights[base + index] > 0 { return row + index }
        return row > 0 ? row - 1 : nil
    }

    // MARK: - Changes

    /// Inserts a row of `height` before row `row` (`count` appends).
    ///
    /// - Complexity: O(log n).
    public mutating func insert(_ rowHeight: Double, at row: Int) {
        precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
        precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
        if root < 0 {
            root = makeLeaf()
            depth = 0
        }
        withPathBuffer { index, path in
            let (leaf, position) = index.descend(to: row, inserting: true, into: path)
            // Split a full leaf first, then insert into the half that holds the position.
            var target = leaf
            var local = position
            var sibling: Int32 = -1
            if Int(index.leafCounts[Int(leaf)]) == Self.leafCapacity {
                sibling = index.splitLeaf(leaf)
                if local > Int(index.leafCounts[Int(leaf)]) {
                    local -= Int(index.leafCounts[Int(leaf)])
                    target = sibling
                }
            }
            let base = Int(target) * Self.leafCapacity
            let rows = Int(index.leafCounts[Int(target)])
            index.leafHeights.withUnsafeMutableBufferPointer { heights in
                // The rows after the position move up one (overlapping: `update` copies back to front).
                let position = heights.baseAddress! + base + local
                (position + 1).update(from: position, count: rows - local)
                position.pointee = rowHeight
            }
            index.leafCounts[Int(target)] += 1
            index.propagate(path, childSplit: sibling, countDelta: 1)
        }
        rowCount += 1
    }

    /// Removes row `row` and returns its height.
    ///
    /// - Complexity: O(log n).
    @discardableResult
    public mutating func remove(at row: Int) -> Double {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        var removed = 0.0
        withPathBuffer { index, path in
            let (leaf, position) = index.descend(to: row, inserting: false, into: path)
            let base = Int(leaf) * Self.leafCapacity
            let rows = Int(index.leafCounts[Int(leaf)])
            removed = index.leafHeights[base + position]
            index.leafHeights.withUnsafeMutableBufferPointer { heights in
                let start = heights.baseAddress! + base + position
                start.update(from: start + 1, count: rows - 1 - position)
            }
            index.leafCounts[Int(leaf)] -= 1
            index.propagateRemoval(path, leaf: leaf)
        }
        rowCount -= 1
        if rowCount == 0 { removeAll() }
        return removed
    }

    /// Moves row `source` so that it becomes row `destination` (as `UITableView` moves rows).
    ///
    /// - Complexity: O(log n).
    public mutating func move(from source: Int, to destination: Int) {
        precondition(source >= 0 && source < count && destination >= 0 && destination < count, "rows out of range")
        insert(remove(at: source), at: destination)
    }

    /// Sets row `row`'s height (after a width change, or new content).
    ///
    /// - Complexity: O(log n).
    public mutating func setHeight(_ rowHeight: Double, ofRow row: Int) {
        precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
        precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
        withPathBuffer { index, path in
            let (leaf, position) = index.descend(to: row, inserting: false, into: path)
            index.leafHeights[Int(leaf) * Self.leafCapacity + position] = rowHeight
            index.propagate(path, childSplit: -1, countDelta: 0)
        }
    }

    /// Appends rows (a page of results).
    ///
    /// - Complexity: O(k) into an empty index, O(k log n) otherwise.
    public mutating func append(contentsOf heights: [Double]) {
        guard rowCount == 0 else {
            for rowHeight in heights { insert(rowHeight, at: count) }
            return
        }
        removeAll()
        guard !heights.isEmpty else { return }
        // Leaves filled to three quarters, made at once, then each level of branches over the one below.
        let leafTotal = (heights.count + Self.bulkFill - 1) / Self.bulkFill
        leafHeights = [Double](unsafeUninitializedCapacity: leafTotal * Self.leafCapacity) { leaves, initialized in
            heights.withUnsafeBufferPointer { heights in
                for leaf in 0..<leafTotal {
                    let start = leaf * Self.bulkFill
                    let end = min(start + Self.bulkFill, heights.count)
                    let base = leaf * Self.leafCapacity
                    for index in start..<end {
                        let rowHeight = heights[index]
                        precondition(rowHeight.isFinite && rowHeight >= 0, "height must be finite and ≥ 0")
                        leaves.initializeElement(at: base + index - start, to: rowHeight)
                    }
                    for slot in (base + end - start)..<(base + Self.leafCapacity) { leaves.initializeElement(at: slot, to: 0) }
                }
            }
            initialized = leafTotal * Self.leafCapacity
        }
        leafCounts = (0..<leafTotal).map { Int32(min(Self.bulkFill, heights.count - $0 * Self.bulkFill)) }
        var level = (0..<leafTotal).map { Int32($0) }
        var childrenAreLeaves = true
        depth = 0
        while level.count > 1 {
            var parents: [Int32] = []
            var index = 0
            while index < level.count {
                let branch = makeBranch()
                let end = min(index + Self.bulkFill, level.count)
                for child in index..<end { appendChild(level[child], to: branch, childIsLeaf: childrenAreLeaves) }
                parents.append(branch)
                index = end
            }
            level = parents
            childrenAreLeaves = false
            depth += 1
        }
        root = level[0]
        rowCount = heights.count
        total = nodeSum(root, isLeaf: depth == 0)
    }

    /// Removes every row, keeping the storage for reuse.
    public mutating func removeAll() {
        leafHeights.removeAll(keepingCapacity: true)
        leafCounts.removeAll(keepingCapacity: true)
        branchChildren.removeAll(keepingCapacity: true)
        branchCounts.removeAll(keepingCapacity: true)
        branchSums.removeAll(keepingCapacity: true)
        branchSizes.removeAll(keepingCapacity: true)
        freeLeaves.removeAll(keepingCapacity: true)
        freeBranches.removeAll(keepingCapacity: true)
        root = -1
        depth = 0
        rowCount = 0
        total = 0
    }

    /// Every row's height, in order.
    public var heights: [Double] {
        var result: [Double] = []
        result.reserveCapacity(count)
        func visit(_ node: Int32, level: Int) {
            if level == 0 {
                let base = Int(node) * Self.leafCapacity
                for index in 0..<Int(leafCounts[Int(node)]) { result.append(leafHeights[base + index]) }
                return
            }
            let base = Int(node) * Self.branchCapacity
            for slot in 0..<Int(branchSizes[Int(node)]) { visit(branchChildren[base + slot], level: level - 1) }
        }
        if root >= 0 { visit(root, level: depth) }
        return result
    }

    /// Whether the two are equal.
    public static func == (lhs: OffsetIndex, rhs: OffsetIndex) -> Bool { lhs.heights == rhs.heights }

    // MARK: - Paths

    /// One step down: the branch and the child slot taken.
    private struct Step {
        var branch: Int32
        var slot: Int
    }

    /// Runs `body` with a path buffer for the current depth, on the stack: no allocation.
    private mutating func withPathBuffer(_ body: (inout OffsetIndex, UnsafeMutableBufferPointer<Step>) -> Void) {
        withUnsafeTemporaryAllocation(of: Step.self, capacity: max(depth, 1)) { buffer in
            body(&self, UnsafeMutableBufferPointer(rebasing: buffer[0..<depth]))
        }
    }

    /// Walks from the root to the leaf holding `row` (or, when inserting, where it goes),
    /// writing the path (root first) into `path`; returns the leaf and the position in it.
    private func descend(to row: Int, inserting: Bool, into path: UnsafeMutableBufferPointer<Step>) -> (leaf: Int32, position: Int) {
        var node = root
        var remaining = Int32(row)
        // Through a raw buffer: the scan visits half a branch's entries a level on average.
        branchCounts.withUnsafeBufferPointer { counts in
            for level in 0..<depth {
                let base = Int(node) * Self.branchCapacity
                let size = Int(branchSizes[Int(node)])
                var slot = 0
                while slot < size - 1 && (inserting ? remaining > counts[base + slot] : remaining >= counts[base + slot]) {
                    remaining -= counts[base + slot]
                    slot += 1
                }
                path[level] = Step(branch: node, slot: slot)
                node = branchChildren[base + slot]
            }
        }
        return (node, Int(remaining))
    }

    /// Recomputes the totals on `path` after its leaf changed by `countDelta` rows; `childSplit`
    /// is the new sibling of the path's lowest node when it split, to be placed after it
    /// (splitting upward).
    private mutating func propagate(_ path: UnsafeMutableBufferPointer<Step>, childSplit: Int32, countDelta: Int32) {
        var sibling = childSplit
        var level = path.count - 1
        while level >= 0 {
            let step = path[level]
            let childIsLeaf = level == path.count - 1
            if sibling >= 0 {
                // The child split: its count is its own again.
                refreshSlot(step.slot, of: step.branch, childIsLeaf: childIsLeaf)
            } else {
                refreshSlot(step.slot, of: step.branch, childIsLeaf: childIsLeaf, countDelta: countDelta)
            }
            var upperSibling: Int32 = -1
            if sibling >= 0 {
                if Int(branchSizes[Int(step.branch)]) == Self.branchCapacity {
                    upperSibling = splitBranch(step.branch, insertingAfter: step.slot, child: sibling, childIsLeaf: childIsLeaf)
                } else {
                    insertChild(sibling, at: step.slot + 1, in: step.branch, childIsLeaf: childIsLeaf)
                }
            }
            sibling = upperSibling
            level -= 1
        }
        if sibling >= 0 {
            // The root split: a new root above both halves.
            let newRoot = makeBranch()
            appendChild(root, to: newRoot, childIsLeaf: depth == 0)
            appendChild(sibling, to: newRoot, childIsLeaf: depth == 0)
            root = newRoot
            depth += 1
        }
        total = nodeSum(root, isLeaf: depth == 0)
    }

    /// Recomputes totals after a removal, unlinking nodes left empty.
    private mutating func propagateRemoval(_ path: UnsafeMutableBufferPointer<Step>, leaf: Int32) {
        var emptyChild = leafCounts[Int(leaf)] == 0 && depth > 0
        if emptyChild { freeLeaves.append(leaf) }
        var level = path.count - 1
        while level >= 0 {
            let step = path[level]
            let childIsLeaf = level == path.count - 1
            if emptyChild {
                removeChild(at: step.slot, from: step.branch)
                emptyChild = branchSizes[Int(step.branch)] == 0 && level > 0
                if emptyChild { freeBranches.append(step.branch) }
            } else {
                refreshSlot(step.slot, of: step.branch, childIsLeaf: childIsLeaf, countDelta: -1)
            }
            level -= 1
        }
        // A root branch with one child hands the root down.
        while depth > 0 && branchSizes[Int(root)] == 1 {
            freeBranches.append(root)
            root = branchChildren[Int(root) * Self.branchCapacity]
            depth -= 1
        }
        total = root >= 0 ? nodeSum(root, isLeaf: depth == 0) : 0
    }

    // MARK: - Nodes

    private mutating func makeLeaf() -> Int32 {
        if let reused = freeLeaves.popLast() {
            leafCounts[Int(reused)] = 0
            return reused
        }
        leafHeights.append(contentsOf: repeatElement(0, count: Self.leafCapacity))
        leafCounts.append(0)
        return Int32(leafCounts.count - 1)
    }

    private mutating func makeBranch() -> Int32 {
        if let reused = freeBranches.popLast() {
            branchSizes[Int(reused)] = 0
            return reused
        }
        branchChildren.append(contentsOf: repeatElement(-1, count: Self.branchCapacity))
        branchCounts.append(contentsOf: repeatElement(0, count: Self.branchCapacity))
        branchSums.append(contentsOf: repeatElement(0, count: Self.branchCapacity))
        branchSizes.append(0)
        return Int32(branchSizes.count - 1)
    }

    /// The row count and height under `node`, summed from its own entries.
    private func nodeTotals(_ node: Int32, isLeaf: Bool) -> (count: Int32, sum: Double) {
        if isLeaf {
            let base = Int(node) * Self.leafCapacity
            let rows = Int(leafCounts[Int(node)])
            var sum = 0.0
            for index in 0..<rows { sum += leafHeights[base + index] }
            return (Int32(rows), sum)
        }
        let base = Int(node) * Self.branchCapacity
        var count: Int32 = 0
        var sum = 0.0
        for slot in 0..<Int(branchSizes[Int(node)]) {
            count += branchCounts[base + slot]
            sum += branchSums[base + slot]
        }
        return (count, sum)
    }

    /// The height under `node`, summed from its own entries in order (as ``nodeTotals(_:isLeaf:)``
    /// sums it), through raw buffers: every change sums one node per level.
    private func nodeSum(_ node: Int32, isLeaf: Bool) -> Double {
        if isLeaf {
            return Self.sum(leafHeights, from: Int(node) * Self.leafCapacity, count: Int(leafCounts[Int(node)]))
        }
        return Self.sum(branchSums, from: Int(node) * Self.branchCapacity, count: Int(branchSizes[Int(node)]))
    }

    private static func sum(_ values: borrowing [Double], from base: Int, count: Int) -> Double {
        values.withUnsafeBufferPointer { values in
            var sum = 0.0
            for index in base..<(base + count) { sum += values[index] }
            return sum
        }
    }

    /// Refreshes a branch entry after its child gained or lost `countDelta` rows: the row count
    /// adjusted (an integer, exact), the height summed again from the child (adjusting it by
    /// differences would let rounding drift).
    private mutating func refreshSlot(_ slot: Int, of branch: Int32, childIsLeaf: Bool, countDelta: Int32) {
        let index = Int(branch) * Self.branchCapacity + slot
        branchCounts[index] += countDelta
        branchSums[index] = nodeSum(branchChildren[index], isLeaf: childIsLeaf)
    }

    private mutating func refreshSlot(_ slot: Int, of branch: Int32, childIsLeaf: Bool) {
        let index = Int(branch) * Self.branchCapacity + slot
        let totals = nodeTotals(branchChildren[index], isLeaf: childIsLeaf)
        branchCounts[index] = totals.count
        branchSums[index] = totals.sum
    }

    private mutating func appendChild(_ child: Int32, to branch: Int32, childIsLeaf: Bool) {
        insertChild(child, at: Int(branchSizes[Int(branch)]), in: branch, childIsLeaf: childIsLeaf)
    }

    private mutating func insertChild(_ child: Int32, at slot: Int, in branch: Int32, childIsLeaf: Bool) {
        let base = Int(branch) * Self.branchCapacity
        var index = Int(branchSizes[Int(branch)])
        while index > slot {
            branchChildren[base + index] = branchChildren[base + index - 1]
            branchCounts[base + index] = branchCounts[base + index - 1]
            branchSums[base + index] = branchSums[base + index - 1]
            index -= 1
        }
        branchChildren[base + slot] = child
        branchSizes[Int(branch)] += 1
        refreshSlot(slot, of: branch, childIsLeaf: childIsLeaf)
    }

    private mutating func removeChild(at slot: Int, from branch: Int32) {
        let base = Int(branch) * Self.branchCapacity
        let size = Int(branchSizes[Int(branch)])
        for index in slot..<(size - 1) {
            branchChildren[base + index] = branchChildren[base + index + 1]
            branchCounts[base + index] = branchCounts[base + index + 1]
            branchSums[base + index] = branchSums[base + index + 1]
        }
        branchSizes[Int(branch)] -= 1
    }

    /// Moves the upper half of a full leaf into a new leaf, returned.
    private mutating func splitLeaf(_ leaf: Int32) -> Int32 {
        let sibling = makeLeaf()
        let half = Self.leafCapacity / 2
        let from = Int(leaf) * Self.leafCapacity
        let to = Int(sibling) * Self.leafCapacity
        for index in half..<Self.leafCapacity { leafHeights[to + index - half] = leafHeights[from + index] }
        leafCounts[Int(leaf)] = Int32(half)
        leafCounts[Int(sibling)] = Int32(Self.leafCapacity - half)
        return sibling
    }

    /// Splits a full branch in two while adding `child` after `slot`; returns the new upper half.
    private mutating func splitBranch(_ branch: Int32, insertingAfter slot: Int, child: Int32, childIsLeaf: Bool) -> Int32 {
        let sibling = makeBranch()
        let half = Self.branchCapacity / 2
        let base = Int(branch) * Self.branchCapacity
        for index in half..<Self.branchCapacity {
            appendChild(branchChildren[base + index], to: sibling, childIsLeaf: childIsLeaf)
        }
        branchSizes[Int(branch)] = Int32(half)
        if slot + 1 <= half {
            insertChild(child, at: slot + 1, in: branch, childIsLeaf: childIsLeaf)
        } else {
            insertChild(child, at: slot + 1 - half, in: sibling, childIsLeaf: childIsLeaf)
        }
        return sibling
    }

    // MARK: - Invariants

    /// Checks every branch entry's row count and height against its child, that no node below
    /// the root is empty, and the cached totals. For tests, after every change.
    public func checkInvariants() -> Bool {
        func check(_ node: Int32, level: Int) -> (count: Int32, sum: Double, ok: Bool) {
            if level == 0 {
                let totals = nodeTotals(node, isLeaf: true)
                return (totals.count, totals.sum, totals.count > 0 || node == root)
            }
            let base = Int(node) * Self.branchCapacity
            let size = Int(branchSizes[Int(node)])
            var count: Int32 = 0
            var sum = 0.0
            var ok = size > 0 && size <= Self.branchCapacity
            for slot in 0..<size {
                let child = check(branchChildren[base + slot], level: level - 1)
                ok = ok && child.ok && child.count == branchCounts[base + slot] && child.sum == branchSums[base + slot]
                count += child.count
                sum += child.sum
            }
            return (count, sum, ok)
        }
        guard root >= 0 else { return rowCount == 0 && total == 0 }
        let result = check(root, level: depth)
        return result.ok && Int(result.count) == rowCount && result.sum == total
    }
}
