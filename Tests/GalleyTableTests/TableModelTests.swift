// The table model against a naive one that measures every row from scratch after every change,
// and the counters that show which rows it measured.

import GalleyJSON
import GalleyLayout
import GalleyTable
import GalleyTestSupport
import GalleyText
import Testing

@Suite("Table model")
struct TableModelTests {
    static let engine = SharedEngine.bundled
    static let registry: TemplateRegistry = {
        do { return try BuiltInTemplates.registry() } catch { fatalError("\(error)") }
    }()
    static let environment = LayoutEnvironment(textEngine: engine, scale: 2)
    /// The built-in templates with text a size larger, as Dynamic Type makes it.
    static let largerRegistry: TemplateRegistry = {
        var stylesheet = Stylesheet.standard
        stylesheet.contentSizeMultiplier = 1.3
        do { return try BuiltInTemplates.registry(stylesheet: stylesheet) } catch { fatalError("\(error)") }
    }()
    static let words = ["Ada", "replied", "to", "your", "post", "about", "tables", "on", "Linux", "and", "the", "height", "of", "rows"]

    /// An item of one of three kinds, its text `length` words long.
    static func item(_ id: Int, length: Int, kind: Int) -> ItemDescriptor {
        let text = (0..<length).map { words[($0 * 7 + id) % words.count] }.joined(separator: " ")
        switch kind % 3 {
        case 0: return ItemDescriptor(id: "m\(id)", kind: "message", fields: ["title": .string("Title \(id)"), "text": .string(text), "timestamp": "9:41"])
        case 1: return ItemDescriptor(id: "t\(id)", kind: "text", fields: ["text": .string(text)])
        default: return ItemDescriptor(id: "s\(id)", kind: "subtitle", fields: ["text": .string(text), "subtitle": .string("Sub \(id)")])
        }
    }

    /// New items with rising ids, texts of up to `maxLength` words and any of the three kinds.
    struct RandomItems {
        let maxLength: Int
        private var count = 0

        init(maxLength: Int) { self.maxLength = maxLength }

        mutating func next(using generator: inout SeededGenerator) -> ItemDescriptor {
            count += 1
            return TableModelTests.item(count, length: Int.random(in: 0...maxLength, using: &generator), kind: Int.random(in: 0..<3, using: &generator))
        }
    }

    /// The same table kept naively: its sections, every element measured afresh when asked.
    struct Naive {
        var sections: [TableSection]
        var registry = TableModelTests.registry

        func heights(width: Double) throws -> [Double] {
            var heights: [Double] = []
            func measure(_ item: ItemDescriptor) throws -> Double {
                guard let template = try? registry.template(for: item) else { return 0 }
                return try template.heights(item, widths: [width], environment: TableModelTests.environment)[0]
            }
            for section in sections {
                for supplement in [section.header].compactMap({ $0 }) {
                    switch supplement {
                    case .fixed(let height): heights.append(height)
                    case .item(let item): heights.append(try measure(item))
                    }
                }
                for item in section.items { heights.append(try measure(item)) }
                for supplement in [section.footer].compactMap({ $0 }) {
                    switch supplement {
                    case .fixed(let height): heights.append(height)
                    case .item(let item): heights.append(try measure(item))
                    }
                }
            }
            return heights
        }

        var ids: [TableElementID] {
            sections.flatMap { section in
                (section.header == nil ? [] : [TableElementID.header(sectionID: section.id)]) + section.items.map { .row(itemID: $0.id) }
                    + (section.footer == nil ? [] : [.footer(sectionID: section.id)])
            }
        }
    }

    /// Every element's frame, section by section.
    static func frames(_ table: TableModel) -> [TableElementFrame] {
        var frames: [TableElementFrame] = []
        for section in 0..<table.sectionCount {
            if let header = table.frame(of: .header(section: section)) { frames.append(header) }
            for row in 0..<table.rowCount(inSection: section) { frames.append(table.frame(of: .row(RowIndex(section: section, row: row)))!) }
            if let footer = table.frame(of: .footer(section: section)) { frames.append(footer) }
        }
        return frames
    }

    /// What must hold after any change: frames stack without gaps, add up to the content height,
    /// each element's identity finds it, the element at each offset is the one covering it, and
    /// a viewport's elements are those whose frames meet it.
    static func checkInvariants(_ table: TableModel, _ naive: Naive, _ context: String) {
        let frames = Self.frames(table)
        #expect(frames.map { table.id(of: $0.element)! } == naive.ids, "\(context)")
        var top = 0.0
        for frame in frames {
            #expect(abs(frame.offset - top) < 1e-6, "\(context): \(frame)")
            top += frame.height
        }
        #expect(abs(table.contentHeight - top) < 1e-6, "\(context)")
        for frame in frames.prefix(40) { #expect(table.element(withID: table.id(of: frame.element)!) == frame.element, "\(context)") }
        for frame in frames where frame.height > 0 {
            #expect(table.element(atOffset: frame.offset + frame.height / 2) == frame.element, "\(context)")
        }
        let viewport = table.contentHeight * 0.3..<table.contentHeight * 0.3 + 400
        let expected = frames.filter {
            $0.offset < viewport.upperBound && ($0.offset + $0.height > viewport.lowerBound || ($0.height == 0 && $0.offset >= viewport.lowerBound))
        }
        #expect(table.elements(in: viewport).map(\.element) == expected.map(\.element), "\(context)")
    }

    @Test(
        "Random inserts, deletes, moves, replacements, section changes, pages, width and stylesheet changes and purges match a table measured from scratch",
        arguments: [1, 2, 3])
    func randomChanges(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var newItems = Self.RandomItems(maxLength: 30)
        func newItem() -> ItemDescriptor { newItems.next(using: &generator) }
        let start = (0..<3).map { section in
            TableSection(
                id: "s\(section)", header: section == 1 ? .fixed(28) : nil, items: (0..<8).map { _ in newItem() },
                footer: section == 2 ? .item(ItemDescriptor(id: "f", kind: "text", fields: ["text": "Footer"])) : nil)
        }
        var naive = Naive(sections: start)
        var table = try TableModel(sections: start, registry: Self.registry, width: 320, environment: Self.environment)
        var sectionNumber = 3
        for step in 0..<120 {
            let choice = Int.random(in: 0..<12, using: &generator)
            let nonEmpty = naive.sections.indices.filter { !naive.sections[$0].items.isEmpty }
            var update: TableUpdate?
            switch choice {
            case 0, 1:
                guard !naive.sections.isEmpty else { break }
                let section = Int.random(in: naive.sections.indices, using: &generator)
                let row = Int.random(in: 0...naive.sections[section].items.count, using: &generator)
                let item = newItem()
                naive.sections[section].items.insert(item, at: row)
                update = .insertRow(item, at: RowIndex(section: section, row: row))
            case 2, 3:
                guard let section = nonEmpty.randomElement(using: &generator) else { break }
                let row = Int.random(in: naive.sections[section].items.indices, using: &generator)
                naive.sections[section].items.remove(at: row)
                update = .deleteRow(RowIndex(section: section, row: row))
            case 4:
                guard let from = nonEmpty.randomElement(using: &generator) else { break }
                let row = Int.random(in: naive.sections[from].items.indices, using: &generator)
                let item = naive.sections[from].items.remove(at: row)
                let to = Int.random(in: naive.sections.indices, using: &generator)
                let destination = Int.random(in: 0...naive.sections[to].items.count, using: &generator)
                naive.sections[to].items.insert(item, at: destination)
                update = .moveRow(from: RowIndex(section: from, row: row), to: RowIndex(section: to, row: destination))
            case 5:
                guard let section = nonEmpty.randomElement(using: &generator) else { break }
                let row = Int.random(in: naive.sections[section].items.indices, using: &generator)
                var item = naive.sections[section].items[row]
                if Bool.random(using: &generator) {
                    item.fields["text"] = .string(String(repeating: "longer text ", count: Int.random(in: 1...12, using: &generator)))
                }
                naive.sections[section].items[row] = item
                update = .replaceRow(RowIndex(section: section, row: row), with: item)
            case 6:
                let position = Int.random(in: 0...naive.sections.count, using: &generator)
                sectionNumber += 1
                let section = TableSection(
                    id: "s\(sectionNumber)", header: .fixed(20), items: (0..<Int.random(in: 0...4, using: &generator)).map { _ in newItem() })
                naive.sections.insert(section, at: position)
                update = .insertSection(section, at: position)
            case 7:
                guard naive.sections.count > 1 else { break }
                let position = Int.random(in: naive.sections.indices, using: &generator)
                naive.sections.remove(at: position)
                update = .deleteSection(position)
            case 8:
                guard !naive.sections.isEmpty else { break }
                let from = Int.random(in: naive.sections.indices, using: &generator)
                let to = Int.random(in: naive.sections.indices, using: &generator)
                naive.sections.insert(naive.sections.remove(at: from), at: to)
                update = .moveSection(from: from, to: to)
            case 9:
                guard !naive.sections.isEmpty else { break }
                let section = naive.sections.count - 1
                let page = (0..<5).map { _ in newItem() }
                naive.sections[section].items += page
                update = .appendRows(page, toSection: section)
            case 10:
                if Bool.random(using: &generator) {
                    try table.setWidth([320.0, 375, 768].randomElement(using: &generator)!)
                } else {
                    let isStandard = table.registry.template(forKind: "text") === Self.registry.template(forKind: "text")
                    naive.registry = isStandard ? Self.largerRegistry : Self.registry
                    table.setRegistry(naive.registry)
                }
            default:
                if Bool.random(using: &generator) { table.purge() }
                let top = Double.random(in: 0...max(0, table.contentHeight), using: &generator)
                _ = table.layOut(viewport: top..<top + 600)
            }
            if let update { try table.apply([update]) }
            Self.checkInvariants(table, naive, "seed \(seed), step \(step)")
            if step % 20 == 19 {
                table.measureAll()
                #expect(Self.frames(table).map(\.height) == (try naive.heights(width: table.width)), "seed \(seed), step \(step)")
            }
        }
    }

    @Test(
        "Updating to new contents finds the rows that come, go, move and change; unchanged rows keep their heights and nothing is measured",
        arguments: [7, 8, 9])
    func updateToNewContents(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var newItems = Self.RandomItems(maxLength: 30)
        func newItem() -> ItemDescriptor { newItems.next(using: &generator) }
        var current = (0..<4).map { TableSection(id: "s\($0)", header: $0 == 0 ? .fixed(20) : nil, items: (0..<12).map { _ in newItem() }) }
        var table = try TableModel(sections: current, registry: Self.registry, width: 375, environment: Self.environment)
        var sectionNumber = 4
        for step in 0..<25 {
            table.measureAll()
            let measuredBefore = table.counters.rowsMeasured
            // New contents: sections dropped, added and reordered; rows dropped, added, changed,
            // shuffled within and across sections; headers changed.
            var all = current.flatMap(\.items).filter { _ in Int.random(in: 0..<10, using: &generator) > 1 }
            for index in all.indices where Int.random(in: 0..<8, using: &generator) == 0 {
                all[index].fields["text"] = .string("changed \(step) \(index)")
            }
            for _ in 0..<Int.random(in: 0...6, using: &generator) { all.insert(newItem(), at: Int.random(in: 0...all.count, using: &generator)) }
            for _ in 0..<Int.random(in: 0...4, using: &generator) where all.count > 1 {
                all.swapAt(Int.random(in: all.indices, using: &generator), Int.random(in: all.indices, using: &generator))
            }
            var ids = current.map(\.id).filter { _ in Int.random(in: 0..<6, using: &generator) > 0 }
            if Bool.random(using: &generator) {
                sectionNumber += 1
                ids.insert("s\(sectionNumber)", at: Int.random(in: 0...ids.count, using: &generator))
            }
            ids.shuffle(using: &generator)
            if ids.isEmpty { ids = ["s0"] }
            var new: [TableSection] = ids.map { TableSection(id: $0, header: Bool.random(using: &generator) ? .fixed(24) : nil, items: []) }
            for item in all { new[Int.random(in: new.indices, using: &generator)].items.append(item) }

            let oldItems = Dictionary(uniqueKeysWithValues: current.flatMap(\.items).map { ($0.id, $0) })
            let changes = try table.update(to: new)
            Self.checkInvariants(table, Naive(sections: new), "seed \(seed), step \(step)")
            #expect(table.counters.rowsMeasured == measuredBefore)
            let newItems = new.flatMap(\.items)
            #expect(Set(changes.inserted) == Set(newItems.map(\.id).filter { oldItems[$0] == nil }))
            #expect(Set(changes.deleted) == Set(oldItems.keys).subtracting(newItems.map(\.id)))
            let updated = newItems.filter { item in oldItems[item.id].map { $0 != item } ?? false }
            #expect(Set(changes.updated) == Set(updated.map(\.id)))
            #expect(Set(changes.moved).isSubset(of: Set(oldItems.keys)))
            for frame in Self.frames(table) {
                guard case .row(let index) = frame.element, let item = table.item(at: index) else { continue }
                #expect(frame.isMeasured == (oldItems[item.id] == item), "seed \(seed), step \(step): \(item.id)")
            }
            table.measureAll()
            #expect(Self.frames(table).map(\.height) == (try Naive(sections: new).heights(width: 375)), "seed \(seed), step \(step)")
            current = new
        }
    }

    @Test(
        "Counters show the laziness: building, appending a page and moving measure nothing; a viewport measures what it shows; rotating back measures nothing")
    func laziness() throws {
        let items = (0..<200).map { Self.item($0, length: $0 % 25, kind: $0) }
        var table = try TableModel(sections: [TableSection(id: "all", items: items)], registry: Self.registry, width: 375, environment: Self.environment)
        #expect(table.counters.rowsMeasured == 0)
        let shown = table.layOut(viewport: 0..<600)
        #expect(table.counters.rowsMeasured == shown.count && shown.allSatisfy(\.isMeasured) && shown.count < 40)

        try table.apply([.appendRows((200..<250).map { Self.item($0, length: 3, kind: $0) }, toSection: 0)])
        try table.apply([.moveRow(from: RowIndex(section: 0, row: 0), to: RowIndex(section: 0, row: 150))])
        #expect(table.counters.rowsMeasured == shown.count)
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 150)))?.isMeasured == true)

        table.measureAll()
        #expect(table.counters.rowsMeasured == 250)
        let portrait = Self.frames(table)
        try table.setWidth(768)
        table.measureAll()
        #expect(table.counters.rowsMeasured == 500)
        try table.setWidth(375)
        #expect(table.counters.rowsMeasured == 500 && table.counters.heightsReused == 250)
        #expect(Self.frames(table) == portrait)

        // A replaced item with the same content keeps its height; new content is measured again.
        let first = table.item(at: RowIndex(section: 0, row: 0))!
        try table.apply([.replaceRow(RowIndex(section: 0, row: 0), with: first)])
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 0)))?.isMeasured == true)
        var changed = first
        changed.fields["text"] = "Something else entirely"
        try table.apply([.replaceRow(RowIndex(section: 0, row: 0), with: changed)])
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 0)))?.isMeasured == false)
        #expect(table.counters.rowsMeasured == 500)
    }

    @Test("Through refinements and updates above and below it, the first visible row stays where it was on screen", arguments: [4, 5, 6])
    func anchoring(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let items = (0..<300).map { Self.item($0, length: Int.random(in: 0...40, using: &generator), kind: $0) }
        var table = try TableModel(sections: [TableSection(id: "a", items: items)], registry: Self.registry, width: 375, environment: Self.environment)
        var next = 1000
        for step in 0..<60 {
            let contentOffset = Double.random(in: 0...max(0, table.contentHeight - 800), using: &generator)
            let anchor = try #require(table.anchor(at: contentOffset))
            let anchorElement = try #require(table.element(withID: anchor.element))
            let screenTop = try #require(table.frame(of: anchorElement)).offset - contentOffset
            // Rows above and below measured, rows inserted and deleted elsewhere than the anchor.
            for _ in 0..<5 {
                let row = Int.random(in: 0..<table.rowCount(inSection: 0), using: &generator)
                table.measure(.row(RowIndex(section: 0, row: row)))
            }
            var updates: [TableUpdate] = []
            for _ in 0..<3 {
                next += 1
                updates.append(
                    .insertRow(
                        Self.item(next, length: next % 20, kind: next),
                        at: RowIndex(section: 0, row: Int.random(in: 0...table.rowCount(inSection: 0), using: &generator))))
            }
            let applied = try table.apply(updates, keeping: anchor)
            let corrected = try #require(applied)
            let afterElement = try #require(table.element(withID: anchor.element))
            let after = try #require(table.frame(of: afterElement))
            #expect(abs((after.offset - corrected) - screenTop) < 1e-9, "seed \(seed), step \(step)")
            let measuredOffset = table.measureAll(keeping: anchor)
            let measured = try #require(measuredOffset)
            let finalElement = try #require(table.element(withID: anchor.element))
            let final = try #require(table.frame(of: finalElement))
            #expect(abs((final.offset - measured) - screenTop) < 1e-9, "seed \(seed), step \(step)")
            try table.setWidth(Bool.random(using: &generator) ? 320 : 375)
        }
    }

    @Test(
        "A purge lets go of arrangements and other widths' heights, and every query answers as before (unlike Three20's flag that outlived the view it described)"
    )
    func purge() throws {
        let items = (0..<60).map { Self.item($0, length: $0 % 30, kind: $0) }
        var table = try TableModel(
            sections: [TableSection(id: "a", header: .fixed(30), items: items, footer: .fixed(10))], registry: Self.registry, width: 375,
            environment: Self.environment)
        table.measureAll()
        try table.setWidth(320)
        _ = table.layOut(viewport: 0..<500)
        let arrangement = table.arrangement(of: RowIndex(section: 0, row: 2))
        let before = (Self.frames(table), table.contentHeight, table.elements(in: 100..<700), table.element(atOffset: 250))
        #expect(table.heightCacheStatistics.layouts == 1)
        table.purge()
        #expect(table.heightCacheStatistics.layouts == 0)
        let after = (Self.frames(table), table.contentHeight, table.elements(in: 100..<700), table.element(atOffset: 250))
        #expect(before.0 == after.0 && before.1 == after.1 && before.2 == after.2 && before.3 == after.3)
        let measured = table.counters.rowsMeasured
        let again = table.arrangement(of: RowIndex(section: 0, row: 2))
        #expect(again?.frames == arrangement?.frames && table.counters.rowsMeasured == measured + 1)
    }

    @Test("Bad updates are errors that leave the table as it was; a kind without a template is a row 0 tall with its error")
    func badInput() throws {
        let items = (0..<5).map { Self.item($0, length: 3, kind: 0) }
        #expect(throws: TableError.repeatedItemID("m1")) {
            try TableModel(sections: [TableSection(id: "a", items: items + [items[1]])], registry: Self.registry, width: 320, environment: Self.environment)
        }
        #expect(throws: TableError.invalidWidth(-1)) {
            try TableModel(sections: [], registry: Self.registry, width: -1, environment: Self.environment)
        }
        #expect(throws: TableError.invalidHeight("the default estimate: 0.0 is not a finite number > 0")) {
            try TableModel(sections: [], registry: Self.registry, width: 320, environment: Self.environment, defaultEstimate: 0)
        }
        #expect(throws: TableError.invalidHeight("kind 'text': nan is not a finite number > 0")) {
            try TableModel(sections: [], registry: Self.registry, width: 320, environment: Self.environment, estimatedHeights: ["text": .nan])
        }
        #expect(throws: TableError.invalidHeight("section 'a': a fixed height of -1.0 is not a finite number ≥ 0")) {
            try TableModel(sections: [TableSection(id: "a", footer: .fixed(-1))], registry: Self.registry, width: 320, environment: Self.environment)
        }
        var table = try TableModel(
            sections: [TableSection(id: "a", items: items + [ItemDescriptor(id: "x", kind: "nosuch")])], registry: Self.registry, width: 320,
            environment: Self.environment)
        let before = Self.frames(table)
        #expect(throws: TableError.repeatedItemID("m2")) {
            try table.apply([.deleteRow(RowIndex(section: 0, row: 0)), .insertRow(items[2], at: RowIndex(section: 0, row: 0))])
        }
        #expect(throws: TableError.noSuchPosition("row 0.9 to delete")) { try table.apply([.deleteRow(RowIndex(section: 0, row: 9))]) }
        #expect(throws: TableError.repeatedSectionID("a")) { try table.apply([.insertSection(TableSection(id: "a", items: []), at: 0)]) }
        #expect(throws: TableError.invalidHeight("section 'b': a fixed height of inf is not a finite number ≥ 0")) {
            try table.apply([.insertSection(TableSection(id: "b", header: .fixed(.infinity), items: []), at: 1)])
        }
        #expect(Self.frames(table) == before)
        #expect(table.anchor(at: .nan) == nil && table.anchor(at: .infinity) == nil)
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 5)))?.height == 0)
        #expect(table.error(at: RowIndex(section: 0, row: 5)) == .noTemplate(kind: "nosuch"))
    }

    @Test("A million rows: built with estimates, queried at random offsets")
    func millionRows() throws {
        let items = (0..<1_000_000).map { ItemDescriptor(id: "\($0)", kind: "text", fields: ["text": "Row"]) }
        let table = try TableModel(sections: [TableSection(id: "all", items: items)], registry: Self.registry, width: 375, environment: Self.environment)
        #expect(table.contentHeight == 44_000_000 && table.counters.rowsMeasured == 0)
        var generator = SeededGenerator(seed: 9)
        for _ in 0..<1000 {
            let offset = Double.random(in: 0..<44_000_000, using: &generator)
            let shown = table.elements(in: offset..<offset + 800)
            #expect(shown.first?.element == .row(RowIndex(section: 0, row: Int(offset / 44))))
            #expect(shown.count == Int((offset + 800) / 44) - Int(offset / 44) + ((offset + 800).truncatingRemainder(dividingBy: 44) == 0 ? 0 : 1))
        }
    }

    @Test("A section comes in in table order: a header whose height the cache kept is taken up before its rows are estimated")
    func headerBeforeRows() throws {
        let (header, other, row) = (Self.item(1, length: 40, kind: 1), Self.item(2, length: 2, kind: 1), Self.item(3, length: 2, kind: 1))
        var table = try TableModel(
            sections: [TableSection(id: "a", items: [header, other])], registry: Self.registry, width: 320, environment: Self.environment)
        _ = table.layOut(viewport: 0..<1)  // the first row only
        let measured = try #require(table.frame(of: .row(RowIndex(section: 0, row: 0))))
        #expect(measured.isMeasured && measured.height > 100)
        try table.apply([.deleteRow(RowIndex(section: 0, row: 0))])  // its height kept, out of the average
        try table.apply([.insertSection(TableSection(id: "b", header: .item(header), items: [row]), at: 1)])
        #expect(table.frame(of: .header(section: 1))?.isMeasured == true && table.counters.heightsReused == 1)
        // The row's estimate is its template's average, which the header's height came back into.
        #expect(table.frame(of: .row(RowIndex(section: 1, row: 0)))?.height == measured.height)
    }
}
