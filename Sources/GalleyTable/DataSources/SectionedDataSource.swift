// Items grouped into titled sections, in a given order (Three20's sectioned data source).

import GalleyJSON
import GalleyLayout

/// Items in sections keyed by title, in the order given: each section headed by its title.
public struct SectionedDataSource: TableDataSource, Hashable {
    /// The sections' titles and items, in order.
    public var groups: [(title: String, items: [ItemDescriptor])] {
        get { zip(titles, itemsByTitle).map { ($0, $1) } }
        set {
            titles = newValue.map(\.title)
            itemsByTitle = newValue.map(\.items)
        }
    }
    /// The kind of the header items (`{"text": title}`), laid out by that kind's template; nil
    /// for sections without headers.
    public var headerKind: String?

    private var titles: [String]
    private var itemsByTitle: [[ItemDescriptor]]

    /// Sections of `groups`, in order, each headed by an item of `headerKind` holding its title.
    public init(groups: [(title: String, items: [ItemDescriptor])], headerKind: String? = nil) {
        titles = groups.map(\.title)
        itemsByTitle = groups.map(\.items)
        self.headerKind = headerKind
    }

    /// `items` grouped by `title(item)`: titles in `order` first, in that order, then any others
    /// in the order they first occur; within a section, items keep their order.
    public init(
        items: [ItemDescriptor], order: [String] = [], headerKind: String? = nil, title: (ItemDescriptor) -> String
    ) {
        var groups: [String: [ItemDescriptor]] = [:]
        var firstSeen: [String] = []
        for item in items {
            let key = title(item)
            if groups[key] == nil { firstSeen.append(key) }
            groups[key, default: []].append(item)
        }
        var listed: Set<String> = []
        let ordered = order.filter { groups[$0] != nil && listed.insert($0).inserted } + firstSeen.filter { !listed.contains($0) }
        self.init(groups: ordered.map { ($0, groups[$0]!) }, headerKind: headerKind)
    }

    /// A section per title, its id the title.
    public var sections: [TableSection] {
        zip(titles, itemsByTitle).map { title, items in
            let header = headerKind.map { TableSupplement.item(ItemDescriptor(id: "header:" + title, kind: $0, fields: ["text": .string(title)])) }
            return TableSection(id: title, header: header, items: items)
        }
    }

    /// Whether two sources have the same sections.
    public static func == (lhs: SectionedDataSource, rhs: SectionedDataSource) -> Bool {
        lhs.titles == rhs.titles && lhs.itemsByTitle == rhs.itemsByTitle && lhs.headerKind == rhs.headerKind
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(titles)
        hasher.combine(itemsByTitle)
        hasher.combine(headerKind)
    }
}
