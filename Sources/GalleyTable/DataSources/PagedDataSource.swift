// Results that arrive a page at a time, ended by a "load more" row until the last page.

import GalleyJSON
import GalleyLayout

/// Items that arrive in pages, as a feed's do: the rows so far, then, while more can come, a
/// "load more" row (Three20's more button) that shows a spinner while a page loads and turns
/// into the page's rows when it arrives. A table following it measures only the new rows.
public struct PagedDataSource: TableDataSource, Hashable {
    /// Every row received, in order.
    public private(set) var items: [ItemDescriptor] = []
    /// Whether more pages can come: the "load more" row shows while they can.
    public private(set) var hasMore: Bool
    /// Whether a page is being loaded: the "load more" row's `isLoading` field.
    public var isLoading = false
    /// The "load more" row's item; its `isLoading` field follows ``isLoading``.
    public var loadMoreItem: ItemDescriptor
    /// The one section's id.
    public var sectionID: String

    /// A source with no rows yet, ended by `loadMoreItem` while `hasMore`.
    public init(
        loadMoreItem: ItemDescriptor = ItemDescriptor(id: "load-more", kind: "moreButton", fields: ["text": "Load more"]),
        hasMore: Bool = true, sectionID: String = "pages"
    ) {
        self.loadMoreItem = loadMoreItem
        self.hasMore = hasMore
        self.sectionID = sectionID
    }

    /// Adds a page's rows after the others; `hasMore` says whether another can follow. Ends the loading.
    public mutating func append(page: [ItemDescriptor], hasMore: Bool) {
        items += page
        self.hasMore = hasMore
        isLoading = false
    }

    /// The rows, then the "load more" row while more can come.
    public var sections: [TableSection] {
        guard hasMore else { return [TableSection(id: sectionID, items: items)] }
        var loadMore = loadMoreItem
        loadMore.fields["isLoading"] = .bool(isLoading)
        return [TableSection(id: sectionID, items: items + [loadMore])]
    }
}
