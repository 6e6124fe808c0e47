// Where things are in a table: by position, and by identity across updates.

/// A row's position: its section and its place among the section's rows.
public struct RowIndex: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The section's position in the table.
    public var section: Int
    /// The row's position in its section.
    public var row: Int

    /// Row `row` of section `section`.
    public init(section: Int, row: Int) {
        self.section = section
        self.row = row
    }

    /// Whether `lhs` comes before `rhs` in the table.
    public static func < (lhs: RowIndex, rhs: RowIndex) -> Bool { (lhs.section, lhs.row) < (rhs.section, rhs.row) }

    /// `section.row`, as messages print it.
    public var description: String { "\(section).\(row)" }
}

/// One of the things a table stacks: a section's header, a row, or a section's footer.
public enum TableElement: Sendable, Hashable {
    /// Section `section`'s header.
    case header(section: Int)
    /// A row.
    case row(RowIndex)
    /// Section `section`'s footer.
    case footer(section: Int)
}

/// An element's identity across updates: a section's id for its header and footer, an item's
/// id for its row.
public enum TableElementID: Sendable, Hashable {
    /// The header of the section with this id.
    case header(sectionID: String)
    /// The row of the item with this id.
    case row(itemID: String)
    /// The footer of the section with this id.
    case footer(sectionID: String)
}

/// An element of a table and the rectangle it takes in the table's content.
public struct TableElementFrame: Sendable, Hashable {
    /// The element.
    public var element: TableElement
    /// Its top in the table's content, in points.
    public var offset: Double
    /// Its height, in points.
    public var height: Double
    /// Whether the height is measured (false: an estimate, until the element is measured).
    public var isMeasured: Bool
}
