// Tabs switched at random while their sources change and the width turns: each tab's table
// against a naive one measured from its source, and laziness kept throughout.

import GalleyLayout
import GalleyTable
import GalleyTestSupport
import Testing

@Suite("Tab switches")
struct TabSwitchingTests {
    typealias Model = TableModelTests

    @Test("Random switches, source changes and width changes: every made tab matches its source; unshown tabs measure nothing", arguments: [31, 32, 33])
    func randomSwitches(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var newItems = Model.RandomItems(maxLength: 25)
        func newItem() -> ItemDescriptor { newItems.next(using: &generator) }
        let ids = ["inbox", "sent", "archive", "spam"]
        var sources = ids.map { _ in ArrayDataSource(items: (0..<Int.random(in: 0...60, using: &generator)).map { _ in newItem() }) }
        var tabs = TabbedTables(
            tabs: Array(zip(ids, sources.map { $0 as any TableDataSource })), registry: Model.registry, width: 375, environment: Model.environment)
        var shown: Set<String> = []
        for step in 0..<80 {
            let tab = Int.random(in: ids.indices, using: &generator)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                // Switching to a tab made before measures nothing.
                let before = tabs.table(ids[tab])?.counters
                try tabs.select(ids[tab])
                shown.insert(ids[tab])
                if let before { #expect(tabs.selectedTable?.counters == before, "seed \(seed), step \(step)") }
                let top = Double.random(in: 0...max(0, tabs.selectedTable!.contentHeight), using: &generator)
                _ = tabs.selectedTable?.layOut(viewport: top..<top + 700)
            case 4..<8:
                var items = sources[tab].items
                for _ in 0..<Int.random(in: 1...5, using: &generator) {
                    switch Int.random(in: 0..<4, using: &generator) {
                    case 0: items.insert(newItem(), at: Int.random(in: 0...items.count, using: &generator))
                    case 1 where !items.isEmpty: items.remove(at: Int.random(in: items.indices, using: &generator))
                    case 2 where !items.isEmpty: items[Int.random(in: items.indices, using: &generator)].fields["text"] = .string("edited \(step)")
                    case 3 where items.count > 1:
                        items.swapAt(Int.random(in: items.indices, using: &generator), Int.random(in: items.indices, using: &generator))
                    default: break
                    }
                }
                sources[tab].items = items
                try tabs.update(ids[tab], to: sources[tab])
            default:
                try tabs.setWidth(tabs.width == 375 ? 320 : 375)
            }
            for (index, id) in ids.enumerated() {
                guard var table = tabs.table(id) else {
                    #expect(!shown.contains(id), "seed \(seed), step \(step): \(id)")
                    continue
                }
                let naive = Model.Naive(sections: sources[index].sections)
                Model.checkInvariants(table, naive, "seed \(seed), step \(step), \(id)")
                if step % 10 == 9 {
                    table.measureAll()
                    #expect(Model.frames(table).map(\.height) == (try naive.heights(width: tabs.width)), "seed \(seed), step \(step), \(id)")
                }
            }
        }
        // Tabs never selected were never made, so measured nothing.
        #expect(ids.filter { tabs.table($0) != nil } == ids.filter(shown.contains))
    }
}
