// The table a renderer scrolls: sections of rows stacked in one offset index, each row's height
// estimated until it is measured, and measured heights kept through updates and layout changes.

import GalleyLayout

/// A table's model: sections of rows (with optional headers and footers), every element's
/// height and offset, measured on demand and kept through inserts, deletes, moves, width and
/// environment changes.
///
///     var table = try TableModel(
///         sections: [TableSection(id: "inbox", items: messages)],
///         registry: registry, width: 375, environment: LayoutEnvironment(textEngine: engine, scale: 2))
///     let visible = table.layOut(viewport: 0..<812)   // measures what shows, estimates the rest
///     table.contentHeight                               // for the scroll view
///
/// Rows not yet measured have estimated heights: the estimate given for their kind, else the
/// average of the rows of their template measured so far at this layout when the row came in. Measuring replaces an
/// estimate with the height; every mutation can report the content offset that keeps what is on
/// screen where it was (see ``anchor(at:)`` and ``contentOffset(keeping:)``).
///
/// Heights are kept per row, keyed by the item (its id and content) and the template, for the
/// current width and environment; heights of earlier layouts are kept within
/// ``heightCacheByteLimit``, so that rotating back measures nothing.
public struct TableModel: Sendable {
    /// Maps each item's kind to its template (compiled against a stylesheet: its text styles
    /// and content-size multiplier); see ``setRegistry(_:keeping:)``.
    public var registry: TemplateRegistry { templateTable.registry }
    /// The width every row is laid out at, in points.
    public internal(set) var width: Double
    /// The text engine, scale, direction and language rows are laid out in.
    public internal(set) var environment: LayoutEnvironment
    /// The height of a row before it is measured, by item kind; kinds not here take the average
    /// of their template's measured rows, else ``defaultEstimate``.
    public let estimatedHeights: [String: Double]
    /// The height of a row before it is measured when nothing better is known.
    public let defaultEstimate: Double

    /// The sections, in order.
    var sections: [SectionState] = []
    /// Every element's height, in table order (each section's header, rows, footer).
    var offsets = OffsetIndex()
    /// Each section's element count, so that a section's first element is found in O(log n).
    var sectionStarts = OffsetIndex()
    /// The templates rows use, each numbered once.
    var templateTable: TemplateTable
    var templates: [CompiledTemplate] { templateTable.templates }
    /// Per template, the average height of its rows measured at the current layout.
    var averages = TemplateAverages()
    /// Earlier layouts' heights.
    var cache: HeightCache
    /// Rows measured with their children kept, for arranging, by row key (at the current layout).
    var arranged: [RowKey: RowMeasurement] = [:]
    /// Every row's item id, so that an update cannot repeat one.
    var itemIDs = ItemIDIndex()
    /// What the model has done, for tests and statistics.
    public internal(set) var counters = TableCounters()

    /// The most rows kept measured for arranging; past it, all are let go and kept afresh.
    static let arrangedLimit = 512

    /// A table of `sections`, every row estimated.
    ///
    /// - Parameters:
    ///   - sections: The sections, each id unique, and each item id unique in the table.
    ///   - registry: The templates, by item kind.
    ///   - width: The width rows are laid out at.
    ///   - environment: The text engine, scale, direction and language.
    ///   - estimatedHeights: Heights of unmeasured rows, by item kind.
    ///   - defaultEstimate: The height of an unmeasured row when nothing better is known.
    ///   - heightCacheByteLimit: The most memory heights of earlier layouts may take.
    /// - Throws: ``TableError`` for repeated ids, a width that is not a finite number ≥ 0, or an
    ///   estimate or fixed height that is not a finite number (> 0 for estimates, ≥ 0 for fixed).
    public init(
        sections: [TableSection], registry: TemplateRegistry, width: Double, environment: LayoutEnvironment,
        estimatedHeights: [String: Double] = [:], defaultEstimate: Double = 44, heightCacheByteLimit: Int = 64 << 20
    ) throws(TableError) {
        try Self.validate(width: width)
        for (kind, height) in estimatedHeights { try Self.validate(estimate: height, of: "kind '\(kind)'") }
        try Self.validate(estimate: defaultEstimate, of: "the default estimate")
        templateTable = TemplateTable(registry: registry)
        self.width = width
        self.environment = environment
        self.estimatedHeights = estimatedHeights
        self.defaultEstimate = defaultEstimate
        cache = HeightCache(byteLimit: heightCacheByteLimit)
        try Self.validate(sections)
        self.sections.reserveCapacity(sections.count)
        // The ids are hashed as the rows are made: one pass over the items' memory, not two.
        // (Room for one at least: an array of none would be the storage every empty array
        // shares, whose count this initializer writes, from any thread.)
        let hashes = [UInt64](unsafeUninitializedCapacity: max(1, sections.reduce(0) { $0 + $1.items.count })) { hashes, count in
            for section in sections {
                self.sections.append(state(of: section, hashingIDsInto: UnsafeMutableBufferPointer(rebasing: hashes[count...])))
                count += section.items.count
            }
        }
        itemIDs = try Self.index(ofIDs: hashes, in: sections)
        rebuildOffsets()
    }

    /// The layout heights are measured at now.
    var configuration: LayoutConfiguration { LayoutConfiguration(width: width, environment: environment, registry: templateTable.identity) }

    // MARK: - State

    /// A section as the model keeps it.
    struct SectionState: Sendable {
        var id: String
        var header: ElementState?
        var rows: RowStore
        var footer: ElementState?

        var elementCount: Int { rows.count + (header == nil ? 0 : 1) + (footer == nil ? 0 : 1) }
    }

    /// A header, row or footer as the model keeps it.
    struct ElementState: Sendable {
        /// The item shown; nil for a fixed-height supplement.
        var item: ItemDescriptor?
        var key: RowKey
        /// The template's place in ``TableModel/templates``; -1 for none.
        var template: Int32
        var height: Double
        var isMeasured: Bool
        /// Why it could not be measured (it is then 0 tall), if it could not.
        var failure: Failure?

        /// Whether the row holds a height measured for its item: one its template's average
        /// counts and a cache may keep (not a fixed height, nor a failure's 0).
        var holdsMeasuredHeight: Bool { isMeasured && template >= 0 && failure == nil }
    }

    /// A row's measuring error, kept by reference so that a row without one costs a word.
    final class Failure: Sendable {
        let error: LayoutError
        init(_ error: LayoutError) { self.error = error }
    }

    /// `section` as the model keeps it, its rows estimated; with `hashes`, each row's
    /// ``ItemIDIndex/hash(_:seed:)`` written there in order.
    mutating func state(of section: TableSection, hashingIDsInto hashes: UnsafeMutableBufferPointer<UInt64>? = nil) -> SectionState {
        // The header first, the rows, then the footer: in table order, as heights come back
        // from the cache.
        let header = section.header.map { state(of: $0) }
        // Rows of the kind of the row before take its state, while no height can come from the
        // cache (which would change the template's average, and so the next estimate).
        var previousKind: String?
        var previousMeta = RowStore.Meta(height: 0, template: -1, isMeasured: false)
        var previousKey = RowKey.unset
        let seed = ItemIDIndex.seed
        var place = 0
        let rows = RowStore(section.items) { item in
            if let hashes {
                hashes.initializeElement(at: place, to: ItemIDIndex.hash(item.pointee.id, seed: seed))
                place += 1
            }
            if previousKind == item.pointee.kind { return (previousMeta, previousKey) }
            let repeats = cache.removed.isEmpty
            (previousMeta, previousKey) = rowState(kind: item.pointee.kind) { item.pointee }
            previousKind = repeats ? item.pointee.kind : nil
            return (previousMeta, previousKey)
        }
        return SectionState(id: section.id, header: header, rows: rows, footer: section.footer.map { state(of: $0) })
    }

    mutating func state(of supplement: TableSupplement) -> ElementState {
        switch supplement {
        case .fixed(let height): ElementState(item: nil, key: .fixed, template: -1, height: height, isMeasured: true)
        case .item(let item): state(of: item)
        }
    }

    /// `item`'s row, estimated (or without a template, when its kind has none: it stays 0 tall).
    /// Its key is worked out when it is needed: a row that has never been measured is in no
    /// cache, unless a row with its content left the table before.
    mutating func state(of item: ItemDescriptor) -> ElementState {
        let (meta, key) = rowState(kind: item.kind) { item }
        return ElementState(item: item, key: key, meta: meta)
    }

    /// ``state(of:)`` but the item, which a row store keeps apart: from the item's kind alone,
    /// unless a row of its content left the table (then `item` gives the rest, to find it).
    mutating func rowState(kind: String, item: () -> ItemDescriptor) -> (RowStore.Meta, RowKey) {
        let number = templateNumber(forKind: kind)
        guard number >= 0 else {
            return (RowStore.Meta(height: 0, template: -1, isMeasured: true, failure: Failure(.noTemplate(kind: kind))), .fixed)
        }
        guard !cache.removed.isEmpty else {
            return (RowStore.Meta(height: estimate(forKind: kind, template: number), template: number, isMeasured: false), .unset)
        }
        let key = RowKey(item(), template: ObjectIdentifier(templates[Int(number)]))
        if let height = cache.takeRemoved(key) {
            counters.heightsReused += 1
            cache.hits += 1
            averages.add(height, template: number)
            return (RowStore.Meta(height: height, template: number, isMeasured: true), key)
        }
        return (RowStore.Meta(height: estimate(forKind: kind, template: number), template: number, isMeasured: false), key)
    }

    /// The place in ``templates`` of the template for items of `kind` (-1 when none).
    mutating func templateNumber(forKind kind: String) -> Int32 { templateTable.number(forKind: kind) }

    /// The key of `state`'s row (a row of an item with a template), worked out if it was not yet.
    func key(of state: ElementState) -> RowKey { Self.key(of: state, templates: templates) }

    static func key(of state: ElementState, templates: [CompiledTemplate]) -> RowKey {
        guard state.key == .unset, let item = state.item, state.template >= 0 else { return state.key }
        return RowKey(item, template: ObjectIdentifier(templates[Int(state.template)]))
    }

    /// An unmeasured row's height: its kind's given estimate, its template's measured average, or the default.
    func estimate(forKind kind: String, template: Int32) -> Double {
        Self.estimate(kind: kind, template: template, given: estimatedHeights, averages: averages, fallback: defaultEstimate)
    }

    /// ``estimate(forKind:template:)`` from its parts (for passes that change the rows while
    /// they estimate); a nil `kind` has no estimate given.
    static func estimate(kind: String?, template: Int32, given: [String: Double], averages: TemplateAverages, fallback: Double) -> Double {
        if !given.isEmpty, let kind, let height = given[kind] { return height }
        return averages.average(of: template) ?? fallback
    }

    /// Every element's offset and every section's start, from the sections.
    mutating func rebuildOffsets() {
        // Room for one at least (see `init`).
        let heights = [Double](unsafeUninitializedCapacity: max(1, sections.reduce(0) { $0 + $1.elementCount })) { heights, count in
            for section in sections {
                if let header = section.header { heights.initializeElement(at: count, to: header.height) }
                count += section.header == nil ? 0 : 1
                section.rows.forEachMeta { meta in
                    heights.initializeElement(at: count, to: meta.height)
                    count += 1
                }
                if let footer = section.footer { heights.initializeElement(at: count, to: footer.height) }
                count += section.footer == nil ? 0 : 1
            }
        }
        offsets = OffsetIndex(heights: heights)
        sectionStarts = OffsetIndex(heights: sections.map { Double($0.elementCount) })
    }

    static func validate(width: Double) throws(TableError) {
        guard width.isFinite, width >= 0 else { throw .invalidWidth(width) }
    }

    static func validate(estimate: Double, of what: String) throws(TableError) {
        guard estimate.isFinite, estimate > 0 else { throw .invalidHeight("\(what): \(estimate) is not a finite number > 0") }
    }

    /// Throws for a section id or an item id that `sections` repeat, or a fixed header or footer
    /// height that is not a finite number ≥ 0; returns the rows' item ids.
    @discardableResult
    static func checkIDs(_ sections: [TableSection]) throws(TableError) -> ItemIDIndex {
        try validate(sections)
        let seed = ItemIDIndex.seed
        let hashes = [UInt64](unsafeUninitializedCapacity: max(1, sections.reduce(0) { $0 + $1.items.count })) { hashes, count in
            for section in sections {
                // Read in place: a copy of each item would retain its fields.
                section.items.withUnsafeBufferPointer { items in
                    for place in items.indices { hashes.initializeElement(at: count + place, to: ItemIDIndex.hash(items[place].id, seed: seed)) }
                }
                count += section.items.count
            }
        }
        return try index(ofIDs: hashes, in: sections)
    }

    /// Throws for a section id that `sections` repeat, or a fixed header or footer height that
    /// is not a finite number ≥ 0.
    static func validate(_ sections: [TableSection]) throws(TableError) {
        var sectionIDs: Set<String> = []
        for section in sections {
            guard sectionIDs.insert(section.id).inserted else { throw .repeatedSectionID(section.id) }
            try validateSupplements(of: section)
        }
    }

    /// The index of `hashes`, the hashes of `sections`' item ids in order; throws for an id
    /// repeated.
    static func index(ofIDs hashes: [UInt64], in sections: [TableSection]) throws(TableError) -> ItemIDIndex {
        var repeated: [UInt64] = []
        let index = ItemIDIndex(hashes: hashes, repeated: &repeated)
        guard !repeated.isEmpty else { return index }
        // A hash seen twice: a repeat only if the ids are the same too (the first such row, in order).
        let candidates = Set(repeated)
        var seen: Set<String> = []
        for item in sections.lazy.flatMap(\.items) where candidates.contains(ItemIDIndex.hash(item.id)) {
            guard seen.insert(item.id).inserted else { throw .repeatedItemID(item.id) }
        }
        return index
    }

    /// Throws for a fixed header or footer height that is not a finite number ≥ 0.
    static func validateSupplements(of section: TableSection) throws(TableError) {
        for case .fixed(let height) in [section.header, section.footer] where !(height.isFinite && height >= 0) {
            throw .invalidHeight("section '\(section.id)': a fixed height of \(height) is not a finite number ≥ 0")
        }
    }
}

/// What a table model has done since it was made.
public struct TableCounters: Sendable, Hashable {
    /// Rows (and item headers and footers) measured.
    public var rowsMeasured = 0
    /// Rows whose height came from an earlier layout's kept heights.
    public var heightsReused = 0
}

/// Why a table could not do what it was asked.
public enum TableError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A width that is not a finite number ≥ 0.
    case invalidWidth(Double)
    /// Two sections with this id.
    case repeatedSectionID(String)
    /// Two rows with this item id.
    case repeatedItemID(String)
    /// A position past the table's sections or a section's rows.
    case noSuchPosition(String)
    /// An estimate or a fixed height that is not a finite number in range.
    case invalidHeight(String)

    /// What went wrong, for messages.
    public var description: String {
        switch self {
        case .invalidWidth(let width): "width \(width) is not a finite number ≥ 0"
        case .repeatedSectionID(let id): "two sections have the id '\(id)'"
        case .repeatedItemID(let id): "two rows have the item id '\(id)'"
        case .noSuchPosition(let position): "no \(position) in the table"
        case .invalidHeight(let reason): "invalid height: \(reason)"
        }
    }
}
