// What a renderer asks of a table: its height, where an element is, what is at an offset, what
// a viewport shows.

import GalleyLayout

extension TableModel {
    /// The table's content height: every element's height, measured or estimated.
    public var contentHeight: Double { offsets.totalHeight }

    /// How many sections the table has.
    public var sectionCount: Int { sections.count }

    /// How many rows section `section` has.
    public func rowCount(inSection section: Int) -> Int { sections[section].rows.count }

    /// Every section's id, in order.
    public var sectionIDs: [String] { sections.map(\.id) }

    /// The item row `index` shows.
    public func item(at index: RowIndex) -> ItemDescriptor? {
        guard contains(index) else { return nil }
        return sections[index.section].rows[index.row].item
    }

    /// Whether `index` names a row of the table.
    public func contains(_ index: RowIndex) -> Bool {
        sections.indices.contains(index.section) && sections[index.section].rows.indices.contains(index.row)
    }

    /// Why row `index` could not be measured (no template for its kind, a field of the wrong
    /// type…), if it could not: such a row is 0 points tall.
    public func error(at index: RowIndex) -> LayoutError? {
        contains(index) ? sections[index.section].rows[index.row].failure?.error : nil
    }

    /// Where `element` is: its offset and height, and whether the height is measured.
    ///
    /// - Complexity: O(log n).
    public func frame(of element: TableElement) -> TableElementFrame? {
        guard let flat = flatIndex(of: element), let state = state(of: element) else { return nil }
        return TableElementFrame(element: element, offset: offsets.offset(ofRow: flat), height: state.height, isMeasured: state.isMeasured)
    }

    /// The element covering `offset` (its top ≤ offset < its bottom), if any.
    ///
    /// - Complexity: O(log n).
    public func element(atOffset offset: Double) -> TableElement? {
        offsets.row(atOffset: offset).map(element(atFlatIndex:))
    }

    /// The elements intersecting `viewport` (of height 0 or more), in order, with their frames.
    /// Elements are not measured: estimated heights stay estimates (see ``layOut(viewport:)``).
    ///
    /// - Complexity: O(log n + k) for k elements.
    public func elements(in viewport: Range<Double>) -> [TableElementFrame] {
        var walk = ViewportWalk(self, viewport)
        while let position = walk.next(self) {
            let element = element(at: position)
            walk.take(height(of: element), element, self)
        }
        return walk.frames
    }

    /// A walk down the elements a viewport shows, from the first, gathering their frames.
    struct ViewportWalk {
        let viewport: Range<Double>
        var flat: Int
        var top = 0.0
        var position = Position(section: 0, element: 0)
        var frames: [TableElementFrame] = []

        init(_ table: TableModel, _ viewport: Range<Double>) {
            self.viewport = viewport
            guard table.offsets.count > 0, viewport.upperBound > 0 else {
                flat = Int.max
                return
            }
            flat = viewport.lowerBound <= 0 ? 0 : table.offsets.row(atOffset: viewport.lowerBound) ?? Int.max
            guard flat < table.offsets.count else { return }
            top = table.offsets.offset(ofRow: flat)
            position = table.position(ofFlatIndex: flat)
        }

        /// The next element's position, while the viewport shows more.
        func next(_ table: TableModel) -> Position? {
            flat < table.offsets.count && top < viewport.upperBound ? position : nil
        }

        /// Takes the element at the walk's position (as `state` now is) and moves past it. A
        /// zero-height element above the viewport's top is not shown.
        mutating func take(_ state: (height: Double, isMeasured: Bool), _ element: TableElement, _ table: TableModel) {
            if state.height > 0 || top >= viewport.lowerBound {
                if frames.isEmpty { frames.reserveCapacity(16) }
                frames.append(TableElementFrame(element: element, offset: top, height: state.height, isMeasured: state.isMeasured))
            }
            top += state.height
            flat += 1
            table.advance(&position)
        }
    }

    // MARK: - Anchoring

    /// The first element showing at `contentOffset` and how far its top is below it (0 or less),
    /// to keep it in place through a change (see ``contentOffset(keeping:)``).
    public func anchor(at contentOffset: Double) -> ScrollAnchor? {
        guard offsets.count > 0, contentOffset.isFinite else { return nil }
        let flat = contentOffset <= 0 ? 0 : offsets.row(atOffset: contentOffset) ?? offsets.count - 1
        let element = element(atFlatIndex: flat)
        guard let id = id(of: element) else { return nil }
        return ScrollAnchor(element: id, distance: offsets.offset(ofRow: flat) - contentOffset)
    }

    /// The content offset that puts `anchor`'s element where it was on screen; nil when the
    /// element is no longer in the table.
    public func contentOffset(keeping anchor: ScrollAnchor) -> Double? {
        guard let element = element(withID: anchor.element), let frame = frame(of: element) else { return nil }
        return frame.offset - anchor.distance
    }

    /// `element`'s identity across updates.
    public func id(of element: TableElement) -> TableElementID? {
        switch element {
        case .header(let section): sections.indices.contains(section) ? .header(sectionID: sections[section].id) : nil
        case .footer(let section): sections.indices.contains(section) ? .footer(sectionID: sections[section].id) : nil
        case .row(let index): item(at: index).map { .row(itemID: $0.id) }
        }
    }

    /// The element `id` names, where it is now.
    ///
    /// - Complexity: O(n) for a row, O(sections) for a header or footer.
    public func element(withID id: TableElementID) -> TableElement? {
        switch id {
        case .header(let sectionID):
            guard let section = sections.firstIndex(where: { $0.id == sectionID }), sections[section].header != nil else { return nil }
            return .header(section: section)
        case .footer(let sectionID):
            guard let section = sections.firstIndex(where: { $0.id == sectionID }), sections[section].footer != nil else { return nil }
            return .footer(section: section)
        case .row(let itemID):
            guard holdsItemID(itemID) else { return nil }
            for (sectionIndex, section) in sections.enumerated() {
                if let row = section.rows.firstIndex(ofID: itemID) { return .row(RowIndex(section: sectionIndex, row: row)) }
            }
            return nil
        }
    }

    // MARK: - Positions

    /// An element's place: its section, and its place among the section's elements (the
    /// header first).
    struct Position {
        var section: Int
        var element: Int
    }

    func flatIndex(of element: TableElement) -> Int? {
        switch element {
        case .header(let section):
            guard sections.indices.contains(section), sections[section].header != nil else { return nil }
            return start(ofSection: section)
        case .row(let index):
            guard contains(index) else { return nil }
            return start(ofSection: index.section) + (sections[index.section].header == nil ? 0 : 1) + index.row
        case .footer(let section):
            guard sections.indices.contains(section), sections[section].footer != nil else { return nil }
            return start(ofSection: section) + sections[section].elementCount - 1
        }
    }

    func start(ofSection section: Int) -> Int { Int(sectionStarts.offset(ofRow: section)) }

    func position(ofFlatIndex flat: Int) -> Position {
        let section = sectionStarts.row(atOffset: Double(flat)) ?? sections.count - 1
        return Position(section: section, element: flat - start(ofSection: section))
    }

    func element(atFlatIndex flat: Int) -> TableElement { element(at: position(ofFlatIndex: flat)) }

    func element(at position: Position) -> TableElement {
        // Read in place: a copy of the section or its row would retain what they hold.
        let hasHeader = sections[position.section].header != nil
        if hasHeader && position.element == 0 { return .header(section: position.section) }
        let row = position.element - (hasHeader ? 1 : 0)
        if row < sections[position.section].rows.count { return .row(RowIndex(section: position.section, row: row)) }
        return .footer(section: position.section)
    }

    /// The height of `element` (one of the table's), and whether it is measured, read in place.
    func height(of element: TableElement) -> (height: Double, isMeasured: Bool) {
        switch element {
        case .header(let section): (sections[section].header!.height, sections[section].header!.isMeasured)
        case .row(let index): sections[index.section].rows.height(at: index.row)
        case .footer(let section): (sections[section].footer!.height, sections[section].footer!.isMeasured)
        }
    }

    func state(at position: Position) -> ElementState { state(of: element(at: position))! }

    /// Notes the cache key of `element`.
    mutating func setKey(_ key: RowKey, of element: TableElement) {
        switch element {
        case .header(let section): sections[section].header!.key = key
        case .row(let index): sections[index.section].rows.setKey(key, at: index.row)
        case .footer(let section): sections[section].footer!.key = key
        }
    }

    func state(of element: TableElement) -> ElementState? {
        switch element {
        case .header(let section): sections.indices.contains(section) ? sections[section].header : nil
        case .footer(let section): sections.indices.contains(section) ? sections[section].footer : nil
        case .row(let index): contains(index) ? sections[index.section].rows[index.row] : nil
        }
    }

    /// The next element's position (past a section's last, the next non-empty section's first).
    func advance(_ position: inout Position) {
        position.element += 1
        while position.section < sections.count, position.element >= sections[position.section].elementCount {
            position.section += 1
            position.element = 0
        }
    }
}

/// An element and where its top is on screen, to keep it there through a change: take one with
/// ``TableModel/anchor(at:)`` before, and ask ``TableModel/contentOffset(keeping:)`` after.
public struct ScrollAnchor: Sendable, Hashable {
    /// The element kept in place.
    public var element: TableElementID
    /// Its top's distance below the viewport's top (0 or less: it may start above it).
    public var distance: Double
}
