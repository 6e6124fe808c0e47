// Measuring on demand: the elements a viewport shows, one row for arranging, or everything;
// width and environment changes; letting go under memory pressure.

import GalleyLayout

extension TableModel {
    /// Measures every element `viewport` shows that is still estimated, and returns the shown
    /// elements' frames. The first element showing stays where it was: measuring changes heights
    /// at and below it only.
    ///
    /// - Complexity: O(log n + k) for k elements shown.
    public mutating func layOut(viewport: Range<Double>) -> [TableElementFrame] {
        // One pass down: a height measured moves only what is below it, so each element's top is
        // known when it is reached, and nothing is measured that its neighbours push out.
        var walk = ViewportWalk(self, viewport)
        while let position = walk.next(self) {
            let element = element(at: position)
            if !height(of: element).isMeasured { measure(element) }
            walk.take(height(of: element), element, self)
        }
        return walk.frames
    }

    /// Measures `element` if it is still estimated.
    public mutating func measure(_ element: TableElement) {
        guard var state = state(of: element), !state.isMeasured, let item = state.item else { return }
        do {
            state.height = try templates[Int(state.template)].heights(item, widths: [width], environment: environment)[0]
        } catch {
            state.height = 0
            state.failure = Failure(error)
        }
        counters.rowsMeasured += 1
        record(state, of: element)
    }

    /// Puts a height just measured for `element` (in `state`) in its row and the offsets.
    private mutating func record(_ state: ElementState, of element: TableElement) {
        var state = state
        state.isMeasured = true
        state.key = key(of: state)
        if state.holdsMeasuredHeight { averages.add(state.height, template: state.template) }
        cache.misses += 1
        setState(state, of: element)
        if let flat = flatIndex(of: element) { offsets.setHeight(state.height, ofRow: flat) }
    }

    /// Measures every element still estimated, from the first; what it changes above the
    /// element `anchor` names moves the returned offset so that it stays in place.
    @discardableResult
    public mutating func measureAll(keeping anchor: ScrollAnchor? = nil) -> Double? {
        for (section, state) in sections.enumerated() {
            if state.header != nil { measure(.header(section: section)) }
            for row in state.rows.indices { measure(.row(RowIndex(section: section, row: row))) }
            if state.footer != nil { measure(.footer(section: section)) }
        }
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// Row `index` measured for arranging: every subview's frame. A row is measured once for
    /// this at a layout (its height too, if it was estimated) and arranged on demand after; nil
    /// for a row that cannot be measured (see ``error(at:)``).
    public mutating func arrangement(of index: RowIndex) -> RowArrangement? {
        guard contains(index) else { return nil }
        var state = sections[index.section].rows[index.row]
        guard let item = state.item, state.template >= 0, state.failure == nil else { return nil }
        state.key = key(of: state)
        if let kept = arranged[state.key] { return kept.arranged() }
        let measurement: RowMeasurement
        do {
            measurement = try templates[Int(state.template)].measure(item, width: width, environment: environment)
        } catch {
            // Its height fails too: the row is 0 tall, with the error.
            if !state.isMeasured { measure(.row(index)) }
            return nil
        }
        counters.rowsMeasured += 1
        if arranged.count >= Self.arrangedLimit { arranged.removeAll(keepingCapacity: true) }
        arranged[state.key] = measurement
        if !state.isMeasured {
            state.height = measurement.height
            record(state, of: .row(index))
        }
        return measurement.arranged()
    }

    /// Lays rows out at `width` from now on, keeping the heights measured at the old width for
    /// when the table comes back to it; heights kept from an earlier visit to `width` come back
    /// without measuring. Returns the offset that keeps `anchor` in place.
    @discardableResult
    public mutating func setWidth(_ width: Double, keeping anchor: ScrollAnchor? = nil) throws(TableError) -> Double? {
        try Self.validate(width: width)
        guard width != self.width else { return anchor.flatMap { contentOffset(keeping: $0) } }
        changeLayout { $0.width = width }
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// Lays rows out in `environment` from now on (another scale, direction, language or text
    /// engine), keeping the heights of the old one as ``setWidth(_:keeping:)`` does.
    @discardableResult
    public mutating func setEnvironment(_ environment: LayoutEnvironment, keeping anchor: ScrollAnchor? = nil) -> Double? {
        guard LayoutConfiguration(width: width, environment: environment, registry: templateTable.identity) != configuration else {
            // Heights stand; arrangements may keep text layouts or not.
            self.environment = environment
            arranged.removeAll()
            return anchor.flatMap { contentOffset(keeping: $0) }
        }
        changeLayout { $0.environment = environment }
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// Lays rows out with `registry`'s templates from now on: another stylesheet (its text
    /// styles, or a content-size multiplier as Dynamic Type changes), or templates changed. Rows
    /// whose kind keeps the very template it had keep their heights; the others are measured
    /// again when shown, unless heights kept from an earlier visit to `registry` (at this width
    /// and environment) have them. The old registry's heights are kept as
    /// ``setWidth(_:keeping:)`` keeps a width's. Returns the offset that keeps `anchor` in place.
    @discardableResult
    public mutating func setRegistry(_ registry: TemplateRegistry, keeping anchor: ScrollAnchor? = nil) -> Double? {
        let table = TemplateTable(registry: registry)
        guard table.identity != templateTable.identity else { return anchor.flatMap { contentOffset(keeping: $0) } }
        let oldTemplates = templates
        changeLayout(
            { $0.templateTable = table },
            retemplating: { model, withKeys in model.reassignTemplates(from: oldTemplates, withKeys: withKeys) })
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// After the registry changed: every row's template looked up again by its kind. A row whose
    /// template is another has its key worked out again (when `withKeys`; else when next needed);
    /// a row whose kind has no template now is 0 tall with the error.
    private mutating func reassignTemplates(from oldTemplates: [CompiledTemplate], withKeys: Bool) {
        var table = TemplateTable(registry: registry)
        mutateEachElement(readingItems: true) { _, address, key, meta in
            let item = address!.pointee
            let before = meta.template >= 0 ? oldTemplates[Int(meta.template)] : nil
            meta.template = table.number(forKind: item.kind)
            guard meta.template >= 0 else {
                meta = RowStore.Meta(height: 0, template: -1, isMeasured: true, failure: Failure(.noTemplate(kind: item.kind)))
                key = .fixed
                return
            }
            let after = table.templates[Int(meta.template)]
            guard before !== after else { return }
            meta.failure = nil
            meta.isMeasured = false
            key = withKeys ? RowKey(item, template: ObjectIdentifier(after)) : .unset
        }
        templateTable = table
    }

    /// Keeps the current layout's measured heights, makes the change, and takes up the new
    /// layout's kept heights where rows have them (estimates elsewhere). `retemplating`, for a
    /// change of registry, gives rows their new templates (and keys, when asked) before the
    /// kept heights are looked up; rows whose template did not change then find theirs in the
    /// layout just left too.
    private mutating func changeLayout(
        _ change: (inout TableModel) -> Void, retemplating: ((inout TableModel, _ withKeys: Bool) -> Void)? = nil
    ) {
        // Passes over the rows' states beside their items (keys and heights), never the items.
        var snapshot = HeightCache.Snapshot(keys: [], heights: [], places: nil)
        // Sized exactly, as the cache's memory bound counts what it holds.
        let count = measuredCount
        snapshot.keys.reserveCapacity(count)
        snapshot.heights.reserveCapacity(count)
        let templates = self.templates
        func keep(_ supplement: inout ElementState?) {
            guard var state = supplement, state.holdsMeasuredHeight else { return }
            state.key = Self.key(of: state, templates: templates)
            snapshot.keys.append(state.key)
            snapshot.heights.append(state.height)
            supplement = state
        }
        for section in sections.indices {
            keep(&sections[section].header)
            // A closure, not a local function, for rows: see the pass that restores heights below.
            sections[section].rows.forEachMeasured(templates: templates) { key, height in
                snapshot.keys.append(key)
                snapshot.heights.append(height)
            }
            keep(&sections[section].footer)
        }
        snapshot.removed = cache.takeAllRemoved()
        var left = retemplating == nil ? nil : snapshot
        cache.keep(snapshot, for: configuration)
        change(&self)
        arranged.removeAll()
        var kept = cache.take(configuration)
        cache.restoreRemoved(kept?.removed ?? [:])
        retemplating?(&self, kept != nil)
        var place = 0
        var leftPlace = 0
        var restored = TemplateAverages()
        var reused = 0
        // Written out in the closure, not a local function it calls: a local function's captured
        // variables are checked for exclusive access at run time, on every row.
        mutateEachElement(readingItems: false) { _, _, key, meta in
            guard meta.template >= 0 else { return }
            // A failure at the layout left does not stand here: a row is measured again, or its
            // height from this layout is taken up.
            meta.failure = nil
            meta.isMeasured = false
            // A row never measured has no key yet, and no layout kept a height for it.
            if key != .unset, let height = kept?.height(of: key, near: place) ?? left?.height(of: key, near: leftPlace) {
                meta.height = height
                meta.isMeasured = true
                restored.add(height, template: meta.template)
                reused += 1
                place += 1
                leftPlace += 1
            }
        }
        averages = restored
        // Estimates from the averages of the heights taken up, for the rows still without one
        // (their kinds read only when estimates are given by kind).
        let (estimatedHeights, averages, defaultEstimate) = (self.estimatedHeights, restored, self.defaultEstimate)
        mutateEachElement(readingItems: !estimatedHeights.isEmpty) { _, item, _, meta in
            guard !meta.isMeasured else { return }
            meta.height = Self.estimate(
                kind: item?.pointee.kind, template: meta.template, given: estimatedHeights, averages: averages, fallback: defaultEstimate)
        }
        counters.heightsReused += reused
        cache.hits += reused
        rebuildOffsets()
    }

    /// Lets go of what can be measured again, as after a memory warning: the rows kept for
    /// arranging and the heights of other layouts. Every query answers as before; rows are
    /// measured again for arranging when asked.
    public mutating func purge() {
        arranged = [:]
        cache.removeAll()
    }

    /// How the height cache is doing: the current layout's measured rows and the kept layouts.
    public var heightCacheStatistics: HeightCacheStatistics {
        let measured = measuredCount
        return HeightCacheStatistics(
            entries: measured + cache.entries, bytes: measured * HeightCache.bytesPerEntry + cache.bytes, hits: cache.hits,
            misses: cache.misses, layouts: cache.snapshots.count)
    }

    /// The most memory heights of earlier layouts may take, in bytes.
    public var heightCacheByteLimit: Int {
        get { cache.byteLimit }
        set {
            cache.byteLimit = newValue
            cache.trim()
        }
    }

    // MARK: - Helpers

    /// Calls `body` with every element showing an item (rows, and headers and footers laid out
    /// like rows), in table order: the element's place in ``offsets``, the item's address when
    /// `readingItems` (see ``RowStore/mutateEach(readingItems:firstPlace:_:)``), the key and the
    /// state but the item; keeps what it changes of the key and state.
    mutating func mutateEachElement(
        readingItems: Bool, _ body: (Int, UnsafePointer<ItemDescriptor>?, inout RowKey, inout RowStore.Meta) -> Void
    ) {
        var place = 0
        func supplement(_ supplement: inout ElementState?) {
            guard var state = supplement else { return }
            defer { place += 1 }
            guard let item = state.item else { return }
            var meta = RowStore.Meta(state)
            withUnsafePointer(to: item) { body(place, readingItems ? $0 : nil, &state.key, &meta) }
            state.take(meta)
            supplement = state
        }
        for section in sections.indices {
            supplement(&sections[section].header)
            sections[section].rows.mutateEach(readingItems: readingItems, firstPlace: place, body)
            place += sections[section].rows.count
            supplement(&sections[section].footer)
        }
    }

    /// How many elements hold a measured height.
    var measuredCount: Int {
        var count = 0
        for section in sections {
            for supplement in [section.header, section.footer] where supplement?.holdsMeasuredHeight == true { count += 1 }
            section.rows.forEachMeta { if $0.holdsMeasuredHeight { count += 1 } }
        }
        return count
    }

    mutating func setState(_ state: ElementState, of element: TableElement) {
        switch element {
        case .header(let section): sections[section].header = state
        case .footer(let section): sections[section].footer = state
        case .row(let index): sections[index.section].rows[index.row] = state
        }
    }
}
