// What a table shows: sections of rows, each with an optional header and footer.

import GalleyLayout

/// A section of a table: an optional header, rows of items, an optional footer.
///
/// A section is known across updates by its ``id``, and a row by its item's id: ids are unique
/// within a table.
public struct TableSection: Sendable, Hashable {
    /// The section's identity across updates.
    public var id: String
    /// The view above the section's rows, if any.
    public var header: TableSupplement?
    /// The rows' items, in order.
    public var items: [ItemDescriptor]
    /// The view below the section's rows, if any.
    public var footer: TableSupplement?

    /// A section `id` of `items`, with an optional header and footer.
    public init(id: String, header: TableSupplement? = nil, items: [ItemDescriptor] = [], footer: TableSupplement? = nil) {
        self.id = id
        self.header = header
        self.items = items
        self.footer = footer
    }
}

/// A section's header or footer: a fixed height, or an item laid out by its kind's template
/// like a row.
public enum TableSupplement: Sendable, Hashable {
    /// Always this many points tall.
    case fixed(Double)
    /// Measured as a row showing this item is.
    case item(ItemDescriptor)
}
