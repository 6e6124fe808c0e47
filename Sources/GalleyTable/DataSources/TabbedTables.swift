// Several data sources behind one place on screen, switched like tabs.

import GalleyLayout

/// Several data sources shown one at a time in one place, as a tab bar switches them: each
/// tab's table is made the first time the tab is selected (so a tab never shown measures
/// nothing) and kept afterwards, so that switching back measures nothing either. Three20's tab
/// bar loaded and measured every tab's data source up front.
public struct TabbedTables: Sendable {
    /// The templates every tab's rows are laid out with.
    public let registry: TemplateRegistry
    /// The width tables are laid out at.
    public private(set) var width: Double
    /// The environment tables are laid out in.
    public let environment: LayoutEnvironment
    /// The tabs' ids, in order.
    public let tabs: [String]
    /// The tab shown, if one has been selected.
    public private(set) var selected: String?

    private var sources: [String: any TableDataSource]
    private var tables: [String: TableModel] = [:]

    /// Tabs of `sources`, in order, none selected yet.
    public init(
        tabs sources: [(id: String, source: any TableDataSource)], registry: TemplateRegistry, width: Double, environment: LayoutEnvironment
    ) {
        tabs = sources.map(\.id)
        self.sources = Dictionary(sources.map { ($0.id, $0.source) }, uniquingKeysWith: { _, last in last })
        self.registry = registry
        self.width = width
        self.environment = environment
    }

    /// Shows tab `tab`, making its table the first time.
    ///
    /// - Throws: ``TableError/noSuchPosition(_:)`` for an unknown tab, and what making its table throws.
    public mutating func select(_ tab: String) throws(TableError) {
        guard let source = sources[tab] else { throw .noSuchPosition("tab '\(tab)'") }
        if tables[tab] == nil {
            tables[tab] = try TableModel(sections: source.sections, registry: registry, width: width, environment: environment)
        }
        selected = tab
    }

    /// The table of tab `tab`, if it has been shown.
    public func table(_ tab: String) -> TableModel? { tables[tab] }

    /// The table of the tab shown.
    public var selectedTable: TableModel? {
        get { selected.flatMap { tables[$0] } }
        set {
            guard let selected, let newValue else { return }
            tables[selected] = newValue
        }
    }

    /// Gives tab `tab` new contents: its table, if it has one, follows them (see
    /// ``TableModel/update(to:)``); otherwise they wait for its first selection.
    @discardableResult
    public mutating func update(_ tab: String, to source: any TableDataSource) throws(TableError) -> TableChanges? {
        guard sources[tab] != nil else { throw .noSuchPosition("tab '\(tab)'") }
        let changes = try tables[tab]?.update(to: source.sections)
        sources[tab] = source
        return changes
    }

    /// Lays every tab out at `width` from now on: each made table keeps its heights of the old
    /// width (see ``TableModel/setWidth(_:keeping:)``).
    public mutating func setWidth(_ width: Double) throws(TableError) {
        try TableModel.validate(width: width)
        for tab in tables.keys { try tables[tab]?.setWidth(width) }
        self.width = width
    }
}
