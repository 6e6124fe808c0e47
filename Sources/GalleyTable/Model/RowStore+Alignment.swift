// Lining a section's rows up with its new items: walked side by side, whole chunks compared at
// memory speed, so that a long list with a few changes costs a pass over memory and work for
// the changes only.

import GalleyLayout

extension TableModel.RowStore {
    /// How a section's rows line up with its new items.
    struct Alignment {
        /// Runs of rows that stay in order: `count` rows from `old` pair with as many items
        /// from `new`, id for id.
        var runs: [(old: Int, new: Int, count: Int)] = []
        /// Paired rows whose item changed.
        var changed: [(old: Int, new: Int)] = []
        /// Rows no item pairs with here, in order: gone, or moved out of line.
        var unpairedOld: [Int] = []
        /// Items no row pairs with here, in order: new, or moved into this place.
        var unpairedNew: [Int] = []

        mutating func pair(_ old: Int, _ new: Int, count: Int) {
            if let last = runs.last, last.old + last.count == old, last.new + last.count == new {
                runs[runs.count - 1].count += count
            } else {
                runs.append((old, new, count))
            }
        }
    }

    /// How far past a row that does not match the walk looks for the row or item that does.
    static let lookahead = 8

    /// Pairs rows with `items` by id, walking both in order: an item pairs with the row in
    /// its place, or, when they differ, the walk looks a few places ahead on either side for
    /// a match (a row deleted, an item inserted) before leaving both unpaired; mismatches that
    /// go on (a longer run inserted or deleted) send it back to search further. Rows and items
    /// left unpaired are matched by id afterwards, by the caller, as moves.
    ///
    /// - Complexity: O(n) id comparisons at most (the further searches share a budget in
    ///   proportion to the lengths), and one memory comparison per chunk where the items are
    ///   the very values the rows hold.
    func align(with items: [ItemDescriptor]) -> Alignment {
        var alignment = Alignment()
        let rowCount = count
        var row = 0
        var item = 0
        // Mismatches in a row that the look-ahead did not explain: a run of rows inserted or
        // deleted longer than it reaches. After a few, the walk goes back to the first and
        // searches wider, within a budget that keeps the whole walk linear.
        var streak: (row: Int, item: Int, unpairedOld: Int, unpairedNew: Int, length: Int)?
        var budget = 4 * (rowCount + items.count) + 1_024
        items.withUnsafeBufferPointer { newItems in
            while row < rowCount && item < newItems.count {
                let (chunk, start) = locate(row)
                chunks[chunk].items.withUnsafeBufferPointer { oldItems in
                    // A whole chunk the same values, bit for bit: the same items, unchanged.
                    if start == 0, newItems.count - item >= oldItems.count,
                        Self.bitwiseEqual(oldItems.baseAddress!, newItems.baseAddress! + item, count: oldItems.count)
                    {
                        alignment.pair(row, item, count: oldItems.count)
                        row += oldItems.count
                        item += oldItems.count
                        streak = nil
                        return
                    }
                    for offset in start..<oldItems.count {
                        guard item < newItems.count else { return }
                        let old = oldItems.baseAddress! + offset
                        let new = newItems.baseAddress! + item
                        if Self.bitwiseEqual(old, new, count: 1) {
                            alignment.pair(row, item, count: 1)
                        } else if old.pointee.id == new.pointee.id {
                            alignment.pair(row, item, count: 1)
                            if old.pointee != new.pointee { alignment.changed.append((row, item)) }
                        } else {
                            let before = (row, item, alignment.unpairedOld.count, alignment.unpairedNew.count, 0)
                            if resynchronize(&row, &item, oldID: old.pointee.id, newItems, &alignment) {
                                streak = nil
                            } else {
                                streak = streak ?? before
                                streak!.length += 1
                                if streak!.length >= Self.lookahead / 2, budget > 0, let start = streak {
                                    (row, item) = (start.row, start.item)
                                    alignment.unpairedOld.removeSubrange(start.unpairedOld...)
                                    alignment.unpairedNew.removeSubrange(start.unpairedNew...)
                                    resynchronizeFar(&row, &item, newItems, &alignment, budget: &budget)
                                    streak = nil
                                }
                            }
                            return
                        }
                        streak = nil
                        row += 1
                        item += 1
                    }
                }
            }
        }
        alignment.unpairedOld.append(contentsOf: row..<rowCount)
        alignment.unpairedNew.append(contentsOf: item..<items.count)
        return alignment
    }

    /// Past a row and an item that differ: the nearest match a few places ahead on either
    /// side, the rows or items skipped to reach it left unpaired (returns true); else both
    /// unpaired (returns false).
    private func resynchronize(
        _ row: inout Int, _ item: inout Int, oldID: String, _ newItems: UnsafeBufferPointer<ItemDescriptor>, _ alignment: inout Alignment
    ) -> Bool {
        let newID = newItems[item].id
        for distance in 1...Self.lookahead {
            if row + distance < count, id(at: row + distance) == newID {
                alignment.unpairedOld.append(contentsOf: row..<row + distance)
                row += distance
                return true
            }
            if item + distance < newItems.count, newItems[item + distance].id == oldID {
                alignment.unpairedNew.append(contentsOf: item..<item + distance)
                item += distance
                return true
            }
        }
        alignment.unpairedOld.append(row)
        alignment.unpairedNew.append(item)
        row += 1
        item += 1
        return false
    }

    /// ``resynchronize(_:_:oldID:_:_:)`` over windows that double until a match is found on
    /// either side, the whole rest is searched, or `budget` (ids compared) runs out. A match
    /// counts only when the rows after it match the items after the mismatch too: a row moved
    /// far away is a move, not the end of a run of inserts or deletes.
    private func resynchronizeFar(
        _ row: inout Int, _ item: inout Int, _ newItems: UnsafeBufferPointer<ItemDescriptor>, _ alignment: inout Alignment, budget: inout Int
    ) {
        let oldID = id(at: row)
        let newID = newItems[item].id
        // Where each side's id was found further on (nil: not yet; -1: found, but not a run).
        var inOld: Int?
        var inNew: Int?
        var searched = (old: row + 1, new: item + 1)
        var window = 4 * Self.lookahead
        while budget > 0, inOld == nil || inNew == nil {
            let ends = (old: Swift.min(count, row + window), new: Swift.min(newItems.count, item + window))
            budget -= (ends.old - searched.old) + (ends.new - searched.new)
            if inOld == nil, let found = (searched.old..<ends.old).first(where: { id(at: $0) == newID }) {
                inOld = runFollows(old: found, new: item, newItems) ? found : -1
            }
            if inNew == nil, let found = (searched.new..<ends.new).first(where: { newItems[$0].id == oldID }) {
                inNew = runFollows(old: row, new: found, newItems) ? found : -1
            }
            // The nearer run wins: fewer rows or items left unpaired to reach it.
            let old = inOld.flatMap { $0 >= 0 ? $0 - row : nil }
            let new = inNew.flatMap { $0 >= 0 ? $0 - item : nil }
            if let old, old <= (new ?? .max) {
                alignment.unpairedOld.append(contentsOf: row..<row + old)
                row += old
                return
            }
            if let new {
                alignment.unpairedNew.append(contentsOf: item..<item + new)
                item += new
                return
            }
            if ends.old == count && ends.new == newItems.count { break }
            searched = ends
            window *= 2
        }
        alignment.unpairedOld.append(row)
        alignment.unpairedNew.append(item)
        row += 1
        item += 1
    }

    /// Whether the few rows after `old` have the ids of the items after `new` (as many as both have).
    private func runFollows(old: Int, new: Int, _ newItems: UnsafeBufferPointer<ItemDescriptor>) -> Bool {
        let length = Swift.min(Self.lookahead / 2, count - old - 1, newItems.count - new - 1)
        return length <= 0 || (1...length).allSatisfy { id(at: old + $0) == newItems[new + $0].id }
    }

    /// Whether `count` items at `left` and `right` have the same bits: then they are the same
    /// values (the converse need not hold: equal strings may be stored apart).
    @inline(__always)
    private static func bitwiseEqual(_ left: UnsafePointer<ItemDescriptor>, _ right: UnsafePointer<ItemDescriptor>, count: Int) -> Bool {
        let bytes = count * MemoryLayout<ItemDescriptor>.stride
        let words = bytes / 8
        let left = UnsafeRawPointer(left)
        let right = UnsafeRawPointer(right)
        var difference: UInt64 = 0
        var word = 0
        // Eight words at a time with no early exit, which the compiler vectorizes.
        while word + 8 <= words {
            for lane in 0..<8 {
                difference |= left.load(fromByteOffset: (word + lane) * 8, as: UInt64.self) ^ right.load(fromByteOffset: (word + lane) * 8, as: UInt64.self)
            }
            if difference != 0 { return false }
            word += 8
        }
        while word < words {
            difference |= left.load(fromByteOffset: word * 8, as: UInt64.self) ^ right.load(fromByteOffset: word * 8, as: UInt64.self)
            word += 1
        }
        for byte in (words * 8)..<bytes where left.load(fromByteOffset: byte, as: UInt8.self) != right.load(fromByteOffset: byte, as: UInt8.self) {
            return false
        }
        return difference == 0
    }
}
