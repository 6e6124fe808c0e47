// Where a table's contents come from: anything that gives sections of items.

import GalleyLayout

/// Gives a table its sections. A table follows a source with ``TableModel/update(to:)``, which
/// keeps the heights of every row whose item did not change; one source can feed several
/// tables (a list and a full-screen pager), each with its own templates, width and heights.
public protocol TableDataSource: Sendable {
    /// The sections to show now.
    var sections: [TableSection] { get }
}

/// Items in one section: the simplest source.
public struct ArrayDataSource: TableDataSource, Hashable {
    /// The rows' items, in order.
    public var items: [ItemDescriptor]
    /// The one section's id.
    public var sectionID: String

    /// A source of `items` in one section `sectionID`.
    public init(items: [ItemDescriptor], sectionID: String = "items") {
        self.items = items
        self.sectionID = sectionID
    }

    /// One section of the items.
    public var sections: [TableSection] { [TableSection(id: sectionID, items: items)] }
}
