// Moving a table to new contents: the rows that stay, move, change, come and go, found in one
// pass over the identities, and every unchanged row's height kept.

import GalleyLayout

/// What ``TableModel/update(to:)`` changed, by item id: what a renderer animates.
public struct TableChanges: Sendable, Hashable {
    /// Rows that came into the table.
    public var inserted: [String] = []
    /// Rows that left it.
    public var deleted: [String] = []
    /// Rows that moved (within or across sections), their heights kept when their content did not change.
    public var moved: [String] = []
    /// Rows whose content changed, measured again when shown.
    public var updated: [String] = []
    /// Sections that came and went, by section id.
    public var insertedSections: [String] = []
    /// Sections that left the table.
    public var deletedSections: [String] = []

    /// Whether nothing changed.
    public var isEmpty: Bool {
        inserted.isEmpty && deleted.isEmpty && moved.isEmpty && updated.isEmpty && insertedSections.isEmpty && deletedSections.isEmpty
    }
}

extension TableModel {
    /// Makes the table show `sections`, item by item as ids match: rows whose item is unchanged
    /// keep their heights wherever they go, changed rows are measured again when shown, and as
    /// few rows as can be are treated as moved (those off the longest run kept in order, as
    /// IGListKit's diff does). Returns what changed. To keep what is on screen in place, take an
    /// ``anchor(at:)`` before and ask ``contentOffset(keeping:)`` after.
    ///
    /// - Complexity: O(n log n) in the rows, plus O(log n) for each row that changes place and
    ///   for each row of a section that moves.
    /// - Throws: ``TableError`` for repeated ids in `sections`; the table is then unchanged.
    @discardableResult
    public mutating func update(to sections: [TableSection]) throws(TableError) -> TableChanges {
        try Self.checkIDs(sections)
        var changes = TableChanges()
        var target: [String: (section: String, row: Int)] = [:]
        target.reserveCapacity(itemIDs.count)
        for section in sections {
            for (row, item) in section.items.enumerated() { target[item.id] = (section.id, row) }
        }
        let targetSectionIDs = Set(sections.map(\.id))

        // Rows that stay in their section in the order they had: the longest run, in each
        // section, of rows whose places among the section's new rows increase.
        var stash: [String: ElementState] = [:]
        for section in self.sections.indices.reversed() {
            let sectionID = self.sections[section].id
            let places = self.sections[section].rows.map { row -> Int? in
                guard let id = row.item?.id, let place = target[id], place.section == sectionID else { return nil }
                return place.row
            }
            let staying = Self.longestIncreasingRun(places)
            for row in self.sections[section].rows.indices.reversed() where !staying.contains(row) {
                let state = remove(at: RowIndex(section: section, row: row))
                if let id = state.item?.id { stash[id] = state }
            }
        }

        // Sections: those gone removed (their rows are all out already), then the rest put in
        // the new order, new ones inserted empty, headers and footers brought up to date.
        for section in self.sections.indices.reversed() where !targetSectionIDs.contains(self.sections[section].id) {
            let removed = removeSection(at: section)
            changes.deletedSections.append(removed.id)
            for supplement in [removed.header, removed.footer].compactMap({ $0 }) { forgetSupplement(supplement) }
        }
        for (position, section) in sections.enumerated() {
            if position < self.sections.count, self.sections[position].id == section.id {
            } else if let current = self.sections.indices.dropFirst(position).first(where: { self.sections[$0].id == section.id }) {
                let moved = removeSection(at: current)
                insertSection(moved, at: position)
            } else {
                var empty = section
                empty.items = []
                insertSection(state(of: empty), at: position)
                changes.insertedSections.append(section.id)
            }
            updateSupplements(of: position, to: section)
        }

        // Rows into place, in order: each stays, comes back from the stash (moved), or is new.
        for (position, section) in sections.enumerated() {
            for (row, item) in section.items.enumerated() {
                let index = RowIndex(section: position, row: row)
                if row < self.sections[position].rows.count, let current = self.sections[position].rows[row].item, current.id == item.id {
                    if current != item {
                        replace(at: index, with: item)
                        changes.updated.append(item.id)
                    }
                } else if var state = stash.removeValue(forKey: item.id) {
                    let changed = state.item != item
                    if changed {
                        forgetSupplement(state)
                        state = self.state(of: item)
                        changes.updated.append(item.id)
                    }
                    insert(state, at: index)
                    changes.moved.append(item.id)
                } else {
                    insert(self.state(of: item), at: index)
                    itemIDs.insert(item.id)
                    changes.inserted.append(item.id)
                }
            }
        }
        for (id, state) in stash.sorted(by: { $0.key < $1.key }) {
            forget(state)
            changes.deleted.append(id)
        }
        return changes
    }

    /// The places in `values` of a longest strictly increasing run of its non-nil values
    /// (patience sorting, O(n log n)).
    static func longestIncreasingRun(_ values: [Int?]) -> Set<Int> {
        var tails: [Int] = []  // the place of the smallest last value of a run of each length
        var previous = Array(repeating: -1, count: values.count)
        for (place, value) in values.enumerated() {
            guard let value else { continue }
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]]! < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[place] = tails[low - 1] }
            if low == tails.count { tails.append(place) } else { tails[low] = place }
        }
        var run: Set<Int> = []
        var place = tails.last ?? -1
        while place >= 0 {
            run.insert(place)
            place = previous[place]
        }
        return run
    }
}
