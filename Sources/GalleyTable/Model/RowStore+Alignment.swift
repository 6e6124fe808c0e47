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
    /// either side, the whole rest is searched, or `budget` (ids compared) runs out.
    private func resynchronizeFar(
        _ row: inout Int, _ item: inout Int, _ newItems: UnsafeBufferPointer<ItemDescriptor>, _ alignment: inout Alignment, budget: inout Int
    ) {
        let oldID = id(at: row)
        let newID = newItems[item].id
        var searched = (old: row + 1, new: item + 1)
        var window = 4 * Self.lookahead
        while budget > 0 {
            let ends = (old: Swift.min(count, row + window), new: Swift.min(newItems.count, item + window))
            budget -= (ends.old - searched.old) + (ends.new - searched.new)
            let inOld = (searched.old..<ends.old).first { id(at: $0) == newID }
            let inNew = (searched.new..<ends.new).first { newItems[$0].id == oldID }
            // The nearer match wins: fewer rows or items left unpaired to reach it.
            if let inOld, inOld - row <= (inNew ?? .max) - item {
                alignment.unpairedOld.append(contentsOf: row..<inOld)
                row = inOld
                return
            }
            if let inNew {
                alignment.unpairedNew.append(contentsOf: item..<inNew)
                item = inNew
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
