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
    /// keep their heights wherever they go, changed rows are measured again when shown, and the
    /// rows reported moved are as few as can be: those off the longest run kept in order in
    /// their section (as IGListKit's diff reports). Returns what changed. To keep what is on
    /// screen in place, take an ``anchor(at:)`` before and ask ``contentOffset(keeping:)`` after.
    ///
    /// - Complexity: O(n log n) in the rows: the table's rows are rebuilt in one pass, not moved
    ///   one at a time.
    /// - Throws: ``TableError`` for repeated ids or bad fixed heights in `sections`; the table
    ///   is then unchanged.
    @discardableResult
    public mutating func update(to sections: [TableSection]) throws(TableError) -> TableChanges {
        // Where each item goes, built as the ids are checked: one hash of each id.
        var target: [String: (section: String, row: Int)] = [:]
        target.reserveCapacity(sections.reduce(0) { $0 + $1.items.count })
        var sectionIDs: Set<String> = []
        for section in sections {
            guard sectionIDs.insert(section.id).inserted else { throw .repeatedSectionID(section.id) }
            for (row, item) in section.items.enumerated() where target.updateValue((section.id, row), forKey: item.id) != nil {
                throw .repeatedItemID(item.id)
            }
            try Self.validateSupplements(of: section)
        }
        var changes = TableChanges()

        // Every current row by id; those the new contents lack leave. Rows reported moved: in
        // each section, those off the longest run whose new places increase, and those that
        // change section.
        var current: [String: (state: ElementState, moved: Bool)] = [:]
        current.reserveCapacity(itemIDs.count)
        for section in self.sections {
            // -1: the row leaves; -2: it goes to another section.
            let places = section.rows.map { row -> Int in
                guard let id = row.item?.id, let place = target[id] else { return -1 }
                return place.section == section.id ? place.row : -2
            }
            let staying = Self.longestIncreasingRun(places.map { $0 >= 0 ? $0 : nil })
            for (row, state) in section.rows.enumerated() {
                guard let id = state.item?.id else { continue }
                if places[row] == -1 {
                    forget(state)
                    changes.deleted.append(id)
                } else {
                    current[id] = (state, !staying.contains(row))
                }
            }
        }

        // The new sections, rows taken from the current ones where ids match.
        var oldSections: [String: SectionState] = [:]
        for section in self.sections { oldSections[section.id] = section }
        var rebuilt: [SectionState] = []
        rebuilt.reserveCapacity(sections.count)
        for section in sections {
            var state: SectionState
            if let old = oldSections.removeValue(forKey: section.id) {
                state = SectionState(id: section.id, header: old.header, rows: [], footer: old.footer)
                if Self.supplement(of: old.header) != section.header {
                    if let header = old.header { forgetMeasurement(header) }
                    state.header = section.header.map { self.state(of: $0) }
                }
                if Self.supplement(of: old.footer) != section.footer {
                    if let footer = old.footer { forgetMeasurement(footer) }
                    state.footer = section.footer.map { self.state(of: $0) }
                }
            } else {
                state = SectionState(
                    id: section.id, header: section.header.map { self.state(of: $0) }, rows: [],
                    footer: section.footer.map { self.state(of: $0) })
                changes.insertedSections.append(section.id)
            }
            state.rows.reserveCapacity(section.items.count)
            for item in section.items {
                if let (kept, moved) = current.removeValue(forKey: item.id) {
                    var row = kept
                    if row.item != item {
                        let old = row
                        forgetMeasurement(old)
                        row = self.state(of: item)
                        changes.updated.append(item.id)
                    }
                    if moved { changes.moved.append(item.id) }
                    state.rows.append(row)
                } else {
                    state.rows.append(self.state(of: item))
                    changes.inserted.append(item.id)
                }
            }
            rebuilt.append(state)
        }
        for old in self.sections where oldSections[old.id] != nil {
            changes.deletedSections.append(old.id)
            for supplement in [old.header, old.footer].compactMap({ $0 }) { forgetMeasurement(supplement) }
        }
        self.sections = rebuilt
        itemIDs = Set(target.keys)
        rebuildOffsets()
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
