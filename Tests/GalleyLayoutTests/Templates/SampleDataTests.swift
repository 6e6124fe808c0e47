// The sample data in Examples/data (an RSS feed, a drill-down property list, book lists) turned into
// items here and laid out through the JSON templates in Examples/templates.json.

import Foundation
import GalleyJSON
import GalleyLayout
import GalleyTestSupport
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Sample data through JSON templates")
struct SampleDataTests {
    static let root = PackagePaths.root
    static let examples = PackagePaths.examples

    static let registry: TemplateRegistry = {
        let text = try! String(contentsOf: root.appendingPathComponent("Examples/templates.json"), encoding: .utf8)
        var registry = TemplateRegistry()
        for (kind, template) in try! Template.templatesByKind(json: text) {
            registry.register(try! CompiledTemplate(template), for: kind)
        }
        return registry
    }()

    /// Every element named `name` in an XML file, as a dictionary of its child elements' text
    /// (repeated children, like RSS categories, collected under `name[]`).
    static func elements(_ name: String, in file: String) throws -> [[String: [String]]] {
        final class Collector: NSObject, XMLParserDelegate {
            let name: String
            var results: [[String: [String]]] = []
            var current: [String: [String]]?
            var text = ""
            init(name: String) { self.name = name }
            func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:])
            {
                if element == name { current = [:] }
                text = ""
            }
            func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
            func parser(_ parser: XMLParser, foundCDATA data: Data) { text += String(decoding: data, as: UTF8.self) }
            func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
                if element == name, let current {
                    results.append(current)
                    self.current = nil
                } else if current != nil {
                    current?[element, default: []].append(text.trimmingCharacters(in: .whitespacesAndNewlines))
                }
            }
        }
        let parser = try #require(XMLParser(contentsOf: examples.appendingPathComponent(file)))
        let collector = Collector(name: name)
        parser.delegate = collector
        #expect(parser.parse(), "\(file) did not parse")
        return collector.results
    }

    static func layout(_ item: ItemDescriptor, width: Double) throws -> (RowMeasurement, RowArrangement) {
        let measurement = try registry.template(for: item).measure(item, width: width, environment: Fixture.environment(scale: 2))
        return (measurement, measurement.arranged())
    }

    @Test("The RSS feed's posts: title, date, summary and categories, taller when narrower")
    func posts() throws {
        let posts = try Self.elements("item", in: "three20-blog-feed.rss")
        #expect(posts.count == 6)
        for (index, post) in posts.enumerated() {
            let summary =
                post["description"]?.first?
                .replacingOccurrences(of: "<[^>]+>", with: " ", options: .regularExpression)
                .split(separator: ".").first.map(String.init) ?? ""
            let item = ItemDescriptor(
                id: "post-\(index)", kind: "post",
                fields: [
                    "title": .string(post["title"]?.first ?? ""), "date": .string(post["pubDate"]?.first ?? ""),
                    "summary": .string(summary), "categories": .array((post["category"] ?? []).map { .string($0) }),
                ])
            let (narrow, narrowArrangement) = try Self.layout(item, width: 320)
            let narrowFrames = narrowArrangement.frames
            let (wide, _) = try Self.layout(item, width: 768)
            #expect(narrow.height >= wide.height)
            #expect((narrow.lineCounts["title"] ?? 0) <= 2 && (narrow.lineCounts["summary"] ?? 0) <= 3)
            // The row ends 10 points below its lowest label.
            #expect(narrow.height == narrowFrames.values.map(\.maxY).max()! + 10)
            #expect(narrowFrames["categories"] != .zero, "post \(index) has categories")
        }
    }

    @Test("The drill-down property list: a row per node, a disclosure indicator where there are children")
    func drilldown() throws {
        let data = try Data(contentsOf: Self.examples.appendingPathComponent("drilldown-Data.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
        var rows: [(title: String, hasChildren: Bool)] = []
        func flatten(_ nodes: [[String: Any]]) {
            for node in nodes {
                let children = node["Children"] as? [[String: Any]] ?? []
                rows.append((node["Title"] as? String ?? "", !children.isEmpty))
                flatten(children)
            }
        }
        flatten(plist["Rows"] as? [[String: Any]] ?? [])
        #expect(rows.count > 5)
        for (index, row) in rows.enumerated() {
            let item = ItemDescriptor(id: "row-\(index)", kind: "drilldown", fields: ["title": .string(row.title), "hasChildren": .bool(row.hasChildren)])
            let (measurement, arrangement) = try Self.layout(item, width: 375)
            #expect(measurement.height >= 44)
            #expect((arrangement.frames["disclosure"]?.width == 33) == row.hasChildren, "\(row.title)")
            #expect(arrangement.frames["title"]!.width == 375 - 30 - (row.hasChildren ? 33 : 0))
        }
    }

    @Test("Book lists with many, one and no books always read as lists")
    func books() throws {
        for (file, count) in [("books-many.xml", 2), ("books-one.xml", 1), ("books-none.xml", 0)] {
            let books = try Self.elements("book", in: file)
            #expect(books.count == count, "\(file)")
            for (index, book) in books.enumerated() {
                let item = ItemDescriptor(
                    id: "\(file)-\(index)", kind: "book",
                    fields: [
                        "title": .string(book["title"]?.first ?? ""), "author": .string(book["author"]?.first ?? ""),
                        "completed": .string(book["completed"]?.first ?? ""),
                    ])
                let (_, arrangement) = try Self.layout(item, width: 320)
                for name in ["title", "author", "completed"] { #expect(arrangement.frames[name] != .zero, "\(name) in \(file)") }
                #expect(arrangement.frames["completed"]!.maxX == 320 - 15)
            }
        }
    }
}
