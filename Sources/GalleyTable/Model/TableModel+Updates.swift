// Applying updates: each touches the offset index only where it changes the table, and keeps
// every other row's height.

import GalleyLayout

extension TableModel {
    /// Applies `updates` in order, all or none: the table is unchanged when one is invalid.
    /// Returns the content offset that keeps `anchor` in place (nil without an anchor, or when
    /// its element is gone).
    ///
    /// - Complexity: each update costs O(log n) plus a few rows' worth of copying, for
    ///   the rows it touches; the table is not copied.
    /// - Throws: ``TableError`` for a position that is not in the table or an id it repeats.
    @discardableResult
    public mutating func apply(_ updates: [TableUpdate], keeping anchor: ScrollAnchor? = nil) throws(TableError) -> Double? {
        // Undone step by step on a failure, so that a batch never copies the whole table; what
        // the steps change beside the rows and offsets is small and saved whole.
        let saved = (averages, cache, arranged, counters, templateTable)
        var undo: [UndoStep] = []
        do {
            for update in updates { try apply(update, undo: &undo) }
        } catch {
            for step in undo.reversed() { revert(step) }
            (averages, cache, arranged, counters, templateTable) = saved
            throw error
        }
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// What takes one step of a batch back.
    enum UndoStep {
        case removeRow(RowIndex)
        case insertRow(ElementState, RowIndex)
        case setRow(ElementState, RowIndex)
        case removeSection(Int)
        case insertSection(SectionState, Int)
        case addID(String)
        case removeID(String)
    }

    private mutating func revert(_ step: UndoStep) {
        switch step {
        case .removeRow(let index): _ = remove(at: index)
        case .insertRow(let state, let index): insert(state, at: index)
        case .setRow(let state, let index): setRow(state, at: index)
        case .removeSection(let position): _ = removeSection(at: position)
        case .insertSection(let section, let position): insertSection(section, at: position)
        case .addID(let id): _ = itemIDs.insert(id) { false }
        case .removeID(let id): itemIDs.remove(id)
        }
    }

    private mutating func apply(_ update: TableUpdate, undo: inout [UndoStep]) throws(TableError) {
        switch update {
        case .insertRow(let item, let index):
            guard sections.indices.contains(index.section), (0...sections[index.section].rows.count).contains(index.row) else {
                throw .noSuchPosition("row \(index) to insert at")
            }
            try addID(item.id, undo: &undo)
            insert(state(of: item), at: index)
            undo.append(.removeRow(index))
        case .appendRows(let items, let section):
            guard sections.indices.contains(section) else { throw .noSuchPosition("section \(section) to append to") }
            for item in items {
                try addID(item.id, undo: &undo)
                let index = RowIndex(section: section, row: sections[section].rows.count)
                insert(state(of: item), at: index)
                undo.append(.removeRow(index))
            }
        case .deleteRow(let index):
            guard contains(index) else { throw .noSuchPosition("row \(index) to delete") }
            let removed = remove(at: index)
            undo.append(.insertRow(removed, index))
            forget(removed)
            undo.append(.addID(removed.item!.id))
        case .moveRow(let source, let destination):
            guard contains(source) else { throw .noSuchPosition("row \(source) to move") }
            let moved = remove(at: source)
            undo.append(.insertRow(moved, source))
            guard sections.indices.contains(destination.section), (0...sections[destination.section].rows.count).contains(destination.row) else {
                throw .noSuchPosition("row \(destination) to move to")
            }
            insert(moved, at: destination)
            undo.append(.removeRow(destination))
        case .replaceRow(let index, let item):
            guard contains(index) else { throw .noSuchPosition("row \(index) to replace") }
            let oldID = sections[index.section].rows.id(at: index.row)
            if oldID != item.id {
                try addID(item.id, undo: &undo)
                itemIDs.remove(oldID)
                undo.append(.addID(oldID))
            }
            undo.append(.setRow(sections[index.section].rows[index.row], index))
            replace(at: index, with: item)
        case .insertSection(let section, let position):
            guard (0...sections.count).contains(position) else { throw .noSuchPosition("section \(position) to insert at") }
            guard !sections.contains(where: { $0.id == section.id }) else { throw .repeatedSectionID(section.id) }
            try Self.checkIDs([section])  // its ids among themselves; against the table's below
            for item in section.items { try addID(item.id, undo: &undo) }
            insertSection(state(of: section), at: position)
            undo.append(.removeSection(position))
        case .deleteSection(let position):
            guard sections.indices.contains(position) else { throw .noSuchPosition("section \(position) to delete") }
            let removed = removeSection(at: position)
            undo.append(.insertSection(removed, position))
            for row in removed.rows {
                forget(row)
                undo.append(.addID(row.item!.id))
            }
            for supplement in [removed.header, removed.footer].compactMap({ $0 }) { forgetMeasurement(supplement) }
        case .moveSection(let source, let destination):
            guard sections.indices.contains(source) else { throw .noSuchPosition("section \(source) to move") }
            let moved = removeSection(at: source)
            undo.append(.insertSection(moved, source))
            guard (0...sections.count).contains(destination) else { throw .noSuchPosition("section \(destination) to move to") }
            insertSection(moved, at: destination)
            undo.append(.removeSection(destination))
        }
    }

    /// Notes `id` as a row's, throwing when a row has it already.
    private mutating func addID(_ id: String, undo: inout [UndoStep]) throws(TableError) {
        let sections = self.sections  // read while the ids change
        guard itemIDs.insert(id, isPresent: { Self.rows(of: sections, showID: id) }) else { throw .repeatedItemID(id) }
        undo.append(.removeID(id))
    }

    /// Whether a row of the table shows an item with the id `id`.
    func holdsItemID(_ id: String) -> Bool {
        itemIDs.contains(id) { Self.rows(of: sections, showID: id) }
    }

    /// Whether a row of `sections` shows an item with the id `id` (a search of every row, to
    /// confirm a hash the id index found).
    private static func rows(of sections: [SectionState], showID id: String) -> Bool {
        sections.contains { $0.rows.containsID(id) }
    }

    /// Puts `state` at `index` (a valid insertion point), in the rows and the offsets.
    mutating func insert(_ state: ElementState, at index: RowIndex) {
        let flat = start(ofSection: index.section) + (sections[index.section].header == nil ? 0 : 1) + index.row
        sections[index.section].rows.insert(state, at: index.row)
        offsets.insert(state.height, at: flat)
        sectionStarts.setHeight(Double(sections[index.section].elementCount), ofRow: index.section)
    }

    /// Takes the row at `index` (a row of the table) out of the rows and the offsets.
    mutating func remove(at index: RowIndex) -> ElementState {
        let flat = flatIndex(of: .row(index))!
        let state = sections[index.section].rows.remove(at: index.row)
        _ = offsets.remove(at: flat)
        sectionStarts.setHeight(Double(sections[index.section].elementCount), ofRow: index.section)
        return state
    }

    mutating func insertSection(_ section: SectionState, at position: Int) {
        var flat = position < sections.count ? start(ofSection: position) : offsets.count
        sections.insert(section, at: position)
        sectionStarts.insert(Double(section.elementCount), at: position)
        func insert(_ height: Double) {
            offsets.insert(height, at: flat)
            flat += 1
        }
        if let header = section.header { insert(header.height) }
        section.rows.forEachMeta { insert($0.height) }
        if let footer = section.footer { insert(footer.height) }
    }

    mutating func removeSection(at position: Int) -> SectionState {
        let flat = start(ofSection: position)
        for _ in 0..<sections[position].elementCount { _ = offsets.remove(at: flat) }
        _ = sectionStarts.remove(at: position)
        return sections.remove(at: position)
    }

    /// Puts `item` in row `index` (a row of the table) in place of the item there, which leaves
    /// its height when its content and template are the same.
    mutating func replace(at index: RowIndex, with item: ItemDescriptor) {
        let old = sections[index.section].rows[index.row]
        forgetMeasurement(old)
        var new = state(of: item)
        if old.isMeasured && old.key != .fixed && key(of: new) == old.key {
            new = old
            new.item = item
            // Back in its template's average, which forgetting it took it out of.
            if new.holdsMeasuredHeight { averages.add(new.height, template: new.template) }
        }
        setRow(new, at: index)
    }

    /// Puts `state` in row `index` and its height in the offsets.
    mutating func setRow(_ state: ElementState, at index: RowIndex) {
        sections[index.section].rows[index.row] = state
        if let flat = flatIndex(of: .row(index)) { offsets.setHeight(state.height, ofRow: flat) }
    }

    /// What a header or footer was made from.
    static func supplement(of state: ElementState?) -> TableSupplement? {
        state.map { state in state.item.map { .item($0) } ?? .fixed(state.height) }
    }

    /// Drops what the model keeps about a row that leaves the table, keeping its height for
    /// when a row of the same content comes back.
    mutating func forget(_ state: ElementState) {
        guard let item = state.item else { return }
        itemIDs.remove(item.id)
        if state.holdsMeasuredHeight { cache.keepRemoved(key(of: state), height: state.height) }
        forgetMeasurement(state)
    }

    /// Takes an element's measurement out of its template's average and the rows kept for
    /// arranging (it left, or its item changed).
    mutating func forgetMeasurement(_ state: ElementState) {
        guard state.item != nil else { return }
        if state.holdsMeasuredHeight { averages.remove(state.height, template: state.template) }
        arranged[state.key] = nil
    }
}
