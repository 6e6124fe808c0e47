// Applying updates: each touches the offset index only where it changes the table, and keeps
// every other row's height.

import GalleyLayout

extension TableModel {
    /// Applies `updates` in order, all or none: the table is unchanged when one is invalid.
    /// Returns the content offset that keeps `anchor` in place (nil without an anchor, or when
    /// its element is gone).
    ///
    /// - Throws: ``TableError`` for a position that is not in the table or an id it repeats.
    @discardableResult
    public mutating func apply(_ updates: [TableUpdate], keeping anchor: ScrollAnchor? = nil) throws(TableError) -> Double? {
        var table = self
        for update in updates { try table.apply(update) }
        self = table
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    private mutating func apply(_ update: TableUpdate) throws(TableError) {
        switch update {
        case .insertRow(let item, let index):
            guard sections.indices.contains(index.section), (0...sections[index.section].rows.count).contains(index.row) else {
                throw .noSuchPosition("row \(index) to insert at")
            }
            guard !itemIDs.contains(item.id) else { throw .repeatedItemID(item.id) }
            itemIDs.insert(item.id)
            insert(state(of: item), at: index)
        case .appendRows(let items, let section):
            guard sections.indices.contains(section) else { throw .noSuchPosition("section \(section) to append to") }
            var ids = Set<String>()
            for item in items where itemIDs.contains(item.id) || !ids.insert(item.id).inserted { throw .repeatedItemID(item.id) }
            itemIDs.formUnion(ids)
            for item in items { insert(state(of: item), at: RowIndex(section: section, row: sections[section].rows.count)) }
        case .deleteRow(let index):
            guard contains(index) else { throw .noSuchPosition("row \(index) to delete") }
            let removed = remove(at: index)
            forget(removed)
        case .moveRow(let source, let destination):
            guard contains(source) else { throw .noSuchPosition("row \(source) to move") }
            let moved = remove(at: source)
            guard sections.indices.contains(destination.section), (0...sections[destination.section].rows.count).contains(destination.row) else {
                throw .noSuchPosition("row \(destination) to move to")
            }
            insert(moved, at: destination)
        case .replaceRow(let index, let item):
            guard contains(index) else { throw .noSuchPosition("row \(index) to replace") }
            let old = sections[index.section].rows[index.row]
            if old.item?.id != item.id {
                guard !itemIDs.contains(item.id) else { throw .repeatedItemID(item.id) }
                itemIDs.insert(item.id)
            }
            if old.item?.id != item.id, let oldID = old.item?.id { itemIDs.remove(oldID) }
            replace(at: index, with: item)
        case .insertSection(let section, let position):
            guard (0...sections.count).contains(position) else { throw .noSuchPosition("section \(position) to insert at") }
            guard !sections.contains(where: { $0.id == section.id }) else { throw .repeatedSectionID(section.id) }
            try Self.checkIDs([section])
            var ids = Set<String>()
            for item in section.items where itemIDs.contains(item.id) || !ids.insert(item.id).inserted { throw .repeatedItemID(item.id) }
            itemIDs.formUnion(ids)
            insertSection(state(of: section), at: position)
        case .deleteSection(let position):
            guard sections.indices.contains(position) else { throw .noSuchPosition("section \(position) to delete") }
            let removed = removeSection(at: position)
            for row in removed.rows { forget(row) }
            for supplement in [removed.header, removed.footer].compactMap({ $0 }) { forgetMeasurement(supplement) }
        case .moveSection(let source, let destination):
            guard sections.indices.contains(source) else { throw .noSuchPosition("section \(source) to move") }
            let moved = removeSection(at: source)
            guard (0...sections.count).contains(destination) else { throw .noSuchPosition("section \(destination) to move to") }
            insertSection(moved, at: destination)
        }
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
        for state in [section.header].compactMap({ $0 }) + section.rows + [section.footer].compactMap({ $0 }) {
            offsets.insert(state.height, at: flat)
            flat += 1
        }
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
        sections[index.section].rows[index.row] = new
        if let flat = flatIndex(of: .row(index)) { offsets.setHeight(new.height, ofRow: flat) }
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
