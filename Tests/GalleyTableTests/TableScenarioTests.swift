// The examples' scenarios as a list view would go through them: the RSS feed a page at a time,
// the drill-down property list down and back, book lists of none, one and many, two tables
// over one source, and tabs.

import Foundation
import GalleyCommands
import GalleyJSON
import GalleyLayout
import GalleyTable
import GalleyTestSupport
import GalleyText
import Testing

@Suite("Table scenarios over the example data")
struct TableScenarioTests {
    static let root = PackagePaths.root
    static let environment = TableModelTests.environment

    /// The built-in templates and the examples' (post, book, drilldown).
    static let registry: TemplateRegistry = {
        do {
            var registry = try BuiltInTemplates.registry()
            try registry.register(templatesJSON: try String(contentsOf: root.appendingPathComponent("Examples/templates.json"), encoding: .utf8))
            return registry
        } catch { fatalError("\(error)") }
    }()

    /// The RSS feed's posts, as Examples/items.jsonl has them.
    static func posts() throws -> [ItemDescriptor] {
        let lines = try String(contentsOf: root.appendingPathComponent("Examples/items.jsonl"), encoding: .utf8).split(separator: "\n")
        return try lines.map { try ItemDescriptor(json: String($0)) }.filter { $0.kind == "post" }
    }

    /// The books of one of the example book lists, read as `galley` reads them.
    static func books(_ file: String) throws -> [ItemDescriptor] {
        let path = root.appendingPathComponent("Examples/data/\(file)").path
        return try InputReading.records(ofFile: path, format: "xml", recordName: "book").enumerated().map { index, record in
            guard case .object(var object) = record else { throw TableError.noSuchPosition("book \(index) of \(file)") }
            object["id"] = .string("book\(index)")
            object["kind"] = "book"
            return try ItemDescriptor(object: object)
        }
    }

    /// The drill-down property list's rows as a tree, each row's id its path.
    static func drilldown() throws -> [TreeNode] {
        let data = try Data(contentsOf: root.appendingPathComponent("Examples/data/drilldown-Data.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        func nodes(_ rows: [[String: Any]], path: String) -> [TreeNode] {
            rows.enumerated().map { index, row in
                let children = row["Children"] as? [[String: Any]] ?? []
                let id = path + "/\(index)"
                let item = ItemDescriptor(
                    id: id, kind: "drilldown", fields: ["title": .string(row["Title"] as? String ?? ""), "hasChildren": .bool(!children.isEmpty)])
                return TreeNode(item: item, children: nodes(children, path: id))
            }
        }
        return nodes(try #require(plist["Rows"] as? [[String: Any]]), path: "")
    }

    /// Every row's height, measured afresh with the row's template.
    static func freshHeights(_ items: [ItemDescriptor], width: Double, registry: TemplateRegistry = registry) throws -> [Double] {
        try items.map { try registry.template(for: $0).heights($0, widths: [width], environment: environment)[0] }
    }

    static func rowHeights(_ table: TableModel) -> [Double] {
        (0..<table.sectionCount).flatMap { section in
            (0..<table.rowCount(inSection: section)).map { table.frame(of: .row(RowIndex(section: section, row: $0)))!.height }
        }
    }

    static func rowIDs(_ table: TableModel) -> [String] {
        (0..<table.sectionCount).flatMap { section in (0..<table.rowCount(inSection: section)).map { table.item(at: RowIndex(section: section, row: $0))!.id } }
    }

    @Test("The RSS feed a page at a time: each page measures its rows and the load-more row, nothing else")
    func pagedFeed() throws {
        let posts = try Self.posts()
        #expect(posts.count == 6)
        var source = PagedDataSource(loadMoreItem: ItemDescriptor(id: "more", kind: "moreButton", fields: ["text": "Load more posts"]))
        source.append(page: Array(posts[0..<2]), hasMore: true)
        var table = try TableModel(sections: source.sections, registry: Self.registry, width: 375, environment: Self.environment)
        table.measureAll()
        #expect(table.counters.rowsMeasured == 3)
        for (page, hasMore) in [(Array(posts[2..<4]), true), (Array(posts[4...]), false)] {
            source.isLoading = true
            let loading = try table.update(to: source.sections)
            #expect(loading.updated == ["more"] && loading.inserted.isEmpty)
            let before = table.counters.rowsMeasured
            table.measureAll()
            #expect(table.counters.rowsMeasured == before + 1)
            source.append(page: page, hasMore: hasMore)
            let arrived = try table.update(to: source.sections)
            #expect(arrived.inserted == page.map(\.id))
            #expect(hasMore ? arrived.updated == ["more"] : arrived.deleted == ["more"])
            table.measureAll()
            #expect(table.counters.rowsMeasured == before + 1 + page.count + (hasMore ? 1 : 0))
        }
        #expect(Self.rowIDs(table) == posts.map(\.id))
        #expect(Self.rowHeights(table) == (try Self.freshHeights(posts, width: 375)))
    }

    @Test("The drill-down property list, down to a leaf and back: going back measures nothing")
    func drillDown() throws {
        var source = TreeDataSource(roots: try Self.drilldown())
        var table = try TableModel(sections: source.sections, registry: Self.registry, width: 320, environment: Self.environment)
        table.measureAll()
        let top = table.counters.rowsMeasured
        #expect(top == source.roots.count && top > 3)
        #expect(table.item(at: RowIndex(section: 0, row: 1))?.fields["title"] == "Item 2")

        var depth = 0
        var row = 3  // "Item 4", the deepest branch
        while true {
            let opening = source.open(row)
            guard case .level = try #require(opening) else { break }
            depth += 1
            try table.update(to: source.sections)
            let before = table.counters.rowsMeasured
            table.measureAll()
            #expect(table.counters.rowsMeasured == before + source.level.count)
            #expect(Self.rowIDs(table) == source.level.map(\.item.id) && table.sectionIDs == [source.sections[0].id])
            row = 0
        }
        #expect(depth >= 3 && source.trail.count == depth)
        let measured = table.counters.rowsMeasured
        while source.back() {
            try table.update(to: source.sections)
            table.measureAll()
        }
        #expect(table.counters.rowsMeasured == measured)
        #expect(Self.rowIDs(table) == source.roots.map(\.item.id))
        #expect(Self.rowHeights(table) == (try Self.freshHeights(source.roots.map(\.item), width: 320)))
    }

    @Test("Book lists of none, one and many books", arguments: [("books-none.xml", 0), ("books-one.xml", 1), ("books-many.xml", 2)])
    func bookLists(_ file: String, count: Int) throws {
        let books = try Self.books(file)
        #expect(books.count == count)
        var table = try TableModel(sections: [TableSection(id: "books", items: books)], registry: Self.registry, width: 375, environment: Self.environment)
        let shown = table.layOut(viewport: 0..<10_000)
        #expect(shown.count == books.count && table.counters.rowsMeasured == books.count)
        #expect(Self.rowHeights(table) == (try Self.freshHeights(books, width: 375)))
        #expect(table.contentHeight == Self.rowHeights(table).reduce(0, +))
        #expect((table.anchor(at: 0) == nil) == books.isEmpty)
    }

    @Test("Two tables over one source, with other templates and widths: each keeps its own heights and both follow every change")
    func twoTablesOneSource() throws {
        var pager = try BuiltInTemplates.registry()
        pager.register(try CompiledTemplate(BuiltInTemplates.subtitle), for: "post")
        let posts = try Self.posts().map { post in
            var post = post
            post.fields["text"] = post.fields["title"]
            post.fields["subtitle"] = post.fields["summary"]
            return post
        }
        var source = ArrayDataSource(items: posts)
        var list = try TableModel(sections: source.sections, registry: Self.registry, width: 375, environment: Self.environment)
        var full = try TableModel(sections: source.sections, registry: pager, width: 768, environment: Self.environment)
        list.measureAll()
        full.measureAll()
        source.items.remove(at: 1)
        source.items[0].fields["title"] = "A new title"
        source.items.insert(ItemDescriptor(id: "new", kind: "post", fields: ["title": "Just in", "summary": "Fresh"]), at: 2)
        let listChanges = try list.update(to: source.sections)
        let fullChanges = try full.update(to: source.sections)
        #expect(listChanges == fullChanges && listChanges.inserted == ["new"] && listChanges.updated == [posts[0].id])
        let before = (list.counters.rowsMeasured, full.counters.rowsMeasured)
        list.measureAll()
        full.measureAll()
        #expect(list.counters.rowsMeasured == before.0 + 2 && full.counters.rowsMeasured == before.1 + 2)
        #expect(Self.rowIDs(list) == source.items.map(\.id) && Self.rowIDs(full) == source.items.map(\.id))
        #expect(Self.rowHeights(list) == (try Self.freshHeights(source.items, width: 375)))
        #expect(Self.rowHeights(full) == (try Self.freshHeights(source.items, width: 768, registry: pager)))
        #expect(Self.rowHeights(list) != Self.rowHeights(full))
    }

    @Test("Tabs: a tab never shown measures nothing, and switching back measures nothing")
    func tabs() throws {
        let books = try Self.books("books-many.xml")
        var tabs = TabbedTables(
            tabs: [
                ("posts", ArrayDataSource(items: try Self.posts())),
                ("books", SectionedDataSource(items: books, headerKind: "text") { $0.fields["author"].map { "\($0)" } ?? "" }),
                ("browse", TreeDataSource(roots: try Self.drilldown())),
            ], registry: Self.registry, width: 375, environment: Self.environment)
        try tabs.select("posts")
        _ = tabs.selectedTable?.layOut(viewport: 0..<800)
        let posts = try #require(tabs.table("posts")).counters.rowsMeasured
        #expect(posts > 0 && tabs.table("books") == nil && tabs.table("browse") == nil)
        try tabs.select("books")
        _ = tabs.selectedTable?.layOut(viewport: 0..<800)
        #expect(try #require(tabs.table("books")).sectionCount == Set(books.map { $0.fields["author"] }).count)
        try tabs.select("posts")
        _ = tabs.selectedTable?.layOut(viewport: 0..<800)
        #expect(tabs.table("posts")?.counters.rowsMeasured == posts && tabs.table("browse") == nil)
        #expect(throws: TableError.noSuchPosition("tab 'nope'")) { try tabs.select("nope") }
    }

    @Test("Data sources: sections in the order asked (a title listed twice shows once), new roots show from the top")
    func dataSourceEdges() throws {
        let books = try Self.books("books-many.xml")
        let sectioned = SectionedDataSource(items: books, order: ["Haruki Murakami", "Haruki Murakami", "Nobody"]) { book in
            guard case .string(let author)? = book.fields["author"] else { return "" }
            return author
        }
        #expect(sectioned.sections.map(\.id) == ["Haruki Murakami", "Albert Camus"])
        #expect(try TableModel(sections: sectioned.sections, registry: Self.registry, width: 320, environment: Self.environment).sectionCount == 2)
        var tree = TreeDataSource(roots: try Self.drilldown())
        #expect(tree.open(1) == .level && tree.path == [1])
        tree.roots = Array(tree.roots.prefix(1))
        #expect(tree.path.isEmpty && tree.sections[0].items.map(\.id) == ["/0"])
        #expect(tree.open(5) == nil && !tree.back())
    }
}
