// Changes to a table's sections and rows, applied in order.

import GalleyLayout

/// One change to a table. A batch applies its changes in order, each position meaning the
/// table as the changes before it left it.
public enum TableUpdate: Sendable, Hashable {
    /// A new row before the row at the position (or after a section's last, at its row count).
    case insertRow(ItemDescriptor, at: RowIndex)
    /// Rows appended to a section, as a page of results is.
    case appendRows([ItemDescriptor], toSection: Int)
    /// The row at the position removed.
    case deleteRow(RowIndex)
    /// The row moved (its height kept) so that it ends at the second position.
    case moveRow(from: RowIndex, to: RowIndex)
    /// The row's item replaced: measured again only when its content or kind changed.
    case replaceRow(RowIndex, with: ItemDescriptor)
    /// A new section before the section at the position (or last, at the section count).
    case insertSection(TableSection, at: Int)
    /// The section at the position removed, with its rows.
    case deleteSection(Int)
    /// The section moved (its rows' heights kept) so that it ends at the second position.
    case moveSection(from: Int, to: Int)
}
