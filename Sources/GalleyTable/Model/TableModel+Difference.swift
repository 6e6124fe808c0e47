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
    /// keep their heights wherever they go, changed rows are measured again when shown. Returns
    /// what changed. To keep what is on screen in place, take an ``anchor(at:)`` before and ask
    /// ``contentOffset(keeping:)`` after.
    ///
    /// Each section's rows are lined up with its new items in one walk (Heckel's pairing by
    /// identity, with the rows that stay in place paired without hashing): the rows reported
    /// moved are those the walk found out of line, within or across sections, which for a
    /// row moved alone is that row.
    ///
    /// - Complexity: O(n) comparisons, most of them of whole runs of unchanged items at memory
    ///   speed, and work in proportion to the rows that changed; when many rows change, or the
    ///   sections themselves do, the table's rows are rebuilt in one pass instead.
    /// - Throws: ``TableError`` for repeated ids or bad fixed heights in `sections`; the table
    ///   is then unchanged.
    @discardableResult
    public mutating func update(to sections: [TableSection]) throws(TableError) -> TableChanges {
        try update(to: sections, inPlaceLimit: nil)
    }

    /// ``update(to:)``, changing rows in place when at most `inPlaceLimit` rows change (by
    /// default one in 256, where changing them one by one still costs less than rebuilding),
    /// else rebuilding them.
    mutating func update(to newSections: [TableSection], inPlaceLimit: Int?) throws(TableError) -> TableChanges {
        var sectionIDs: Set<String> = []
        for section in newSections {
            guard sectionIDs.insert(section.id).inserted else { throw .repeatedSectionID(section.id) }
            try Self.validateSupplements(of: section)
        }
        var oldPlaces: [String: Int] = [:]
        for (place, section) in sections.enumerated() { oldPlaces[section.id] = place }

        // Each section lined up with its new items; what is left unpaired, by id (and the rows
        // in a fixed order, as what the table lets go of is let go of in order).
        var alignments: [RowStore.Alignment] = []
        var unpairedOld: [(id: String, section: Int, row: Int)] = []
        var pendingOld: [String: (section: Int, row: Int)] = [:]
        var pendingNew: [String: (section: Int, row: Int)] = [:]
        for (place, section) in newSections.enumerated() {
            var alignment: RowStore.Alignment
            if let old = oldPlaces[section.id] {
                alignment = sections[old].rows.align(with: section.items)
                for row in alignment.unpairedOld { unpairedOld.append((sections[old].rows.id(at: row), old, row)) }
            } else {
                alignment = RowStore.Alignment()
                alignment.unpairedNew = Array(section.items.indices)
            }
            for row in alignment.unpairedNew where pendingNew.updateValue((place, row), forKey: section.items[row].id) != nil {
                throw .repeatedItemID(section.items[row].id)
            }
            alignments.append(alignment)
        }
        let leaving = sections.indices.filter { !sectionIDs.contains(sections[$0].id) }
        for place in leaving {
            for row in sections[place].rows.indices { unpairedOld.append((sections[place].rows.id(at: row), place, row)) }
        }
        pendingOld.reserveCapacity(unpairedOld.count)
        for row in unpairedOld { pendingOld[row.id] = (row.section, row.row) }
        // An unpaired item whose id a row paired elsewhere has is a repeat.
        for (place, section) in newSections.enumerated() {
            for row in alignments[place].unpairedNew {
                let id = section.items[row].id
                if pendingOld[id] == nil, holdsItemID(id) { throw .repeatedItemID(id) }
            }
        }

        // What changed: rows gone section by section (matched sections in their new order,
        // then those that leave), the rest in their new order.
        var changes = TableChanges()
        changes.deleted = unpairedOld.lazy.filter { pendingNew[$0.id] == nil }.map(\.id)
        changes.deletedSections = leaving.map { sections[$0].id }
        for (place, section) in newSections.enumerated() {
            if oldPlaces[section.id] == nil { changes.insertedSections.append(section.id) }
            for row in alignments[place].unpairedNew {
                let id = section.items[row].id
                if let old = pendingOld[id] {
                    changes.moved.append(id)
                    if sections[old.section].rows[old.row].item != section.items[row] { changes.updated.append(id) }
                } else {
                    changes.inserted.append(id)
                }
            }
            for pair in alignments[place].changed { changes.updated.append(section.items[pair.new].id) }
        }

        let changedRows = alignments.reduce(0) { $0 + $1.unpairedOld.count + $1.unpairedNew.count + $1.changed.count }
        let rowCount = sections.reduce(0) { $0 + $1.rows.count }
        if sections.map(\.id) == newSections.map(\.id), changedRows <= (inPlaceLimit ?? max(64, rowCount / 256)) {
            updateInPlace(to: newSections, alignments, oldPlaces: oldPlaces, unpairedOld: unpairedOld, pendingNew: pendingNew)
        } else {
            rebuild(as: newSections, alignments, oldPlaces: oldPlaces, leaving: leaving, unpairedOld: unpairedOld, pendingNew: pendingNew)
        }
        return changes
    }

    /// Applies the alignments row by row: the same sections in the same order, few rows changed.
    private mutating func updateInPlace(
        to newSections: [TableSection], _ alignments: [RowStore.Alignment], oldPlaces: [String: Int],
        unpairedOld: [(id: String, section: Int, row: Int)], pendingNew: [String: (section: Int, row: Int)]
    ) {
        var taken = release(unpairedOld, alignments, to: newSections, oldPlaces: oldPlaces, pendingNew: pendingNew)
        for (section, alignment) in alignments.enumerated() {
            for row in alignment.unpairedOld.reversed() { _ = remove(at: RowIndex(section: section, row: row)) }
        }
        for (section, alignment) in alignments.enumerated() {
            // New rows go in from the first, so that each lands at its new place; a changed row
            // is at its new place once the new rows before it are in.
            let items = newSections[section].items
            var changed = alignment.changed.makeIterator()
            var nextChanged = changed.next()
            for row in alignment.unpairedNew {
                while let pair = nextChanged, pair.new < row {
                    setRow(state(of: items[pair.new]), at: RowIndex(section: section, row: pair.new))
                    nextChanged = changed.next()
                }
                insert(makeRow(for: items[row], &taken), at: RowIndex(section: section, row: row))
            }
            while let pair = nextChanged {
                setRow(state(of: items[pair.new]), at: RowIndex(section: section, row: pair.new))
                nextChanged = changed.next()
            }
            updateSupplements(of: section, to: newSections[section])
        }
    }

    /// Lets go of the rows that leave, keeps those that move (by id), and takes every changed
    /// row's height out of its template's average, before any new row is made: both ways of
    /// updating do this in the same order, so that they give the same estimates.
    private mutating func release(
        _ unpairedOld: [(id: String, section: Int, row: Int)], _ alignments: [RowStore.Alignment], to newSections: [TableSection],
        oldPlaces: [String: Int], pendingNew: [String: (section: Int, row: Int)]
    ) -> [String: ElementState] {
        var taken: [String: ElementState] = [:]
        for row in unpairedOld {
            let state = sections[row.section].rows[row.row]
            if let place = pendingNew[row.id] {
                if state.item != newSections[place.section].items[place.row] { forgetMeasurement(state) }
                taken[row.id] = state
            } else {
                forget(state)
            }
        }
        for (place, alignment) in alignments.enumerated() {
            for pair in alignment.changed { forgetMeasurement(sections[oldPlaces[newSections[place].id]!].rows[pair.old]) }
        }
        return taken
    }

    /// The row of `item`: the one that moved here (with its height, if its content is the
    /// same), else a new one, its id noted.
    private mutating func makeRow(for item: ItemDescriptor, _ taken: inout [String: ElementState]) -> ElementState {
        if let kept = taken.removeValue(forKey: item.id) { return kept.item == item ? kept : state(of: item) }
        _ = itemIDs.insert(item.id) { false }
        return state(of: item)
    }

    /// A section's header and footer made `new`'s, where they differ, in the offsets too.
    private mutating func updateSupplements(of section: Int, to new: TableSection) {
        let start = start(ofSection: section)
        let header = sections[section].header
        sections[section].header = supplement(header, becoming: new.header)
        replaceOffset(at: start, had: header != nil, with: sections[section].header?.height)
        let footer = sections[section].footer
        sections[section].footer = supplement(footer, becoming: new.footer)
        let place = start + (sections[section].header == nil ? 0 : 1) + sections[section].rows.count
        replaceOffset(at: place, had: footer != nil, with: sections[section].footer?.height)
        sectionStarts.setHeight(Double(sections[section].elementCount), ofRow: section)
    }

    /// A header or footer showing `new` in place of `old`: `old` itself when it shows the same,
    /// else a new one (and `old`'s measurement let go).
    private mutating func supplement(_ old: ElementState?, becoming new: TableSupplement?) -> ElementState? {
        guard Self.supplement(of: old) != new else { return old }
        if let old { forgetMeasurement(old) }
        return new.map { state(of: $0) }
    }

    /// The offsets' element at `flat` (if there `had` been one) made one of `height` (none for nil).
    private mutating func replaceOffset(at flat: Int, had: Bool, with height: Double?) {
        switch (had, height) {
        case (true, let height?): offsets.setHeight(height, ofRow: flat)
        case (true, nil): _ = offsets.remove(at: flat)
        case (false, let height?): offsets.insert(height, at: flat)
        case (false, nil): break
        }
    }

    /// Builds every section's rows afresh from the alignments: for many changes, or changed sections.
    private mutating func rebuild(
        as newSections: [TableSection], _ alignments: [RowStore.Alignment], oldPlaces: [String: Int], leaving: [Int],
        unpairedOld: [(id: String, section: Int, row: Int)], pendingNew: [String: (section: Int, row: Int)]
    ) {
        var taken = release(unpairedOld, alignments, to: newSections, oldPlaces: oldPlaces, pendingNew: pendingNew)
        for place in leaving {
            for supplement in [sections[place].header, sections[place].footer].compactMap({ $0 }) { forgetMeasurement(supplement) }
        }
        let old = sections
        sections = []
        for (place, section) in newSections.enumerated() {
            let alignment = alignments[place]
            var rows = RowStore()
            if let oldPlace = oldPlaces[section.id] {
                let oldRows = old[oldPlace].rows
                var changed = alignment.changed.makeIterator()
                var nextChanged = changed.next()
                var unpaired = alignment.unpairedNew.makeIterator()
                var nextUnpaired = unpaired.next()
                for run in alignment.runs {
                    while let row = nextUnpaired, row < run.new {
                        rows.append(makeRow(for: section.items[row], &taken))
                        nextUnpaired = unpaired.next()
                    }
                    for step in 0..<run.count {
                        if let pair = nextChanged, pair.new == run.new + step {
                            rows.append(state(of: section.items[pair.new]))
                            nextChanged = changed.next()
                        } else {
                            rows.append(oldRows[run.old + step])
                        }
                    }
                }
                while let row = nextUnpaired {
                    rows.append(makeRow(for: section.items[row], &taken))
                    nextUnpaired = unpaired.next()
                }
                sections.append(SectionState(id: section.id, header: old[oldPlace].header, rows: rows, footer: old[oldPlace].footer))
            } else {
                for item in section.items { rows.append(makeRow(for: item, &taken)) }
                sections.append(SectionState(id: section.id, header: nil, rows: rows, footer: nil))
            }
            // Headers and footers after their rows, as an update in place makes them.
            sections[place].header = supplement(sections[place].header, becoming: section.header)
            sections[place].footer = supplement(sections[place].footer, becoming: section.footer)
        }
        rebuildOffsets()
    }
}
