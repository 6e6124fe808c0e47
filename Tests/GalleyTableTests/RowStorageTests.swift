// How the table keeps its rows: chunks against a plain array, the id index against a set with
// hashes made to collide, updates applied in place against rebuilt, and a batch that fails late
// undone to the last bit.

import GalleyJSON
import GalleyLayout
import GalleyTestSupport
import Testing

@testable import GalleyTable

@Suite("Row storage")
struct RowStorageTests {
    typealias Model = TableModelTests

    static func state(_ number: Int) -> TableModel.ElementState {
        TableModel.ElementState(
            item: ItemDescriptor(id: "r\(number)", kind: "text"), key: number % 3 == 0 ? .unset : .fixed, template: Int32(number % 5),
            height: Double(number), isMeasured: number % 2 == 0)
    }

    static func summary(_ state: TableModel.ElementState) -> String {
        "\(state.item!.id) \(state.key == .unset ? "unset" : "fixed") \(state.template) \(state.height) \(state.isMeasured)"
    }

    @Test("Rows inserted, removed and replaced at random across chunks read back as a plain array does", arguments: [1, 2, 3])
    func rowStoreAgainstArray(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        let items = (0..<700).map { ItemDescriptor(id: "r\($0)", kind: "text") }
        // Built over a shared array, as a table is from its sections' items.
        var store = TableModel.RowStore(items) { item in
            let number = Int(item.pointee.id.dropFirst())!
            let state = Self.state(number)
            return (TableModel.RowStore.Meta(state), state.key)
        }
        var model = (0..<700).map(Self.state)
        var next = 700
        for step in 0..<2_000 {
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<4:
                // Inserts bunched in one place split chunks.
                let place = step % 3 == 0 ? min(model.count, 300) : Int.random(in: 0...model.count, using: &generator)
                store.insert(Self.state(next), at: place)
                model.insert(Self.state(next), at: place)
                next += 1
            case 4..<8 where !model.isEmpty:
                let place = Int.random(in: model.indices, using: &generator)
                #expect(Self.summary(store.remove(at: place)) == Self.summary(model.remove(at: place)))
            case 8 where !model.isEmpty:
                let place = Int.random(in: model.indices, using: &generator)
                store[place] = Self.state(next)
                model[place] = Self.state(next)
                next += 1
            default:
                store.append(Self.state(next))
                model.append(Self.state(next))
                next += 1
            }
            #expect(store.count == model.count)
            if step % 97 == 0 || step == 1_999 {
                #expect(store.map(Self.summary) == model.map(Self.summary), "seed \(seed), step \(step)")
                #expect(store.indices.map { Self.summary(store[$0]) } == model.map(Self.summary))
                #expect(store.indices.allSatisfy { store.id(at: $0) == model[$0].item!.id && store.height(at: $0).height == model[$0].height })
                #expect(store.chunks.allSatisfy { $0.meta.count < 2 * TableModel.RowStore.chunkSize })
                #expect(store.chunks.filter(\.meta.isEmpty).count * 2 <= store.chunks.count)
            }
        }
        #expect(store.firstIndex(ofID: model[model.count / 2].item!.id) == model.count / 2)
        #expect(store.firstIndex(ofID: "absent") == nil)
        // Emptied to the last row (chunks emptied, then let go together), and filled again.
        while !model.isEmpty {
            let place = model.count / 3
            #expect(Self.summary(store.remove(at: place)) == Self.summary(model.remove(at: place)))
            if model.count % 50 == 0 { #expect(store.map(Self.summary) == model.map(Self.summary) && store.count == model.count) }
        }
        #expect(store.isEmpty && store.chunks.count <= 1)
        for number in 0..<40 {
            store.insert(Self.state(number), at: number / 2)
            model.insert(Self.state(number), at: number / 2)
        }
        #expect(store.map(Self.summary) == model.map(Self.summary) && store.indices.allSatisfy { store.id(at: $0) == model[$0].item!.id })
    }

    @Test("Chunk counts find each row's chunk and each chunk's start as running sums do, through adds, inserts and removals")
    func chunkCounts() {
        var generator = SeededGenerator(seed: 41)
        var model: [Int32] = (0..<37).map { _ in Int32.random(in: 1...9, using: &generator) }
        var counts = ChunkCounts(model)
        for step in 0..<600 {
            switch Int.random(in: 0..<5, using: &generator) {
            case 0:
                let count = Int32.random(in: 1...9, using: &generator)
                let place = Int.random(in: 0...model.count, using: &generator)
                model.insert(count, at: place)
                counts.insert(count, at: place)
            case 1 where model.count > 1:
                let place = Int.random(in: model.indices, using: &generator)
                model.remove(at: place)
                counts.remove(at: place)
            case 2:
                let count = Int32.random(in: 1...9, using: &generator)
                model.append(count)
                counts.append(count)
            default:
                let place = Int.random(in: model.indices, using: &generator)
                let delta = Int32.random(in: (1 - model[place])...5, using: &generator)
                model[place] += delta
                counts.add(delta, toChunk: place)
            }
            var start = 0
            var located: [String] = []
            var expected: [String] = []
            for (chunk, count) in model.enumerated() {
                #expect(counts.start(ofChunk: chunk) == start && counts[chunk] == Int(count), "step \(step)")
                for offset in 0..<Int(count) {
                    let found = counts.locate(start + offset)
                    located.append("\(found.chunk).\(found.offset)")
                    expected.append("\(chunk).\(offset)")
                }
                start += Int(count)
            }
            #expect(located == expected && counts.total == start && counts.start(ofChunk: model.count) == start, "step \(step)")
        }
    }

    @Test("The id index holds ids whose hashes collide apart, and removes them one at a time", arguments: [4, 5])
    func idIndexCollisions(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var index = ItemIDIndex()
        // Hashes from a small set, so that probe runs are long and entries repeat.
        var held: [UInt64: Int] = [:]
        for _ in 0..<20_000 {
            let hash = UInt64.random(in: 1...300, using: &generator) &* 0x9E37_79B9_7F4A_7C15 | 1
            if Bool.random(using: &generator), held[hash, default: 0] > 0 {
                index.remove(hash: hash)
                held[hash]! -= 1
            } else {
                // A collision the caller says is not a repeat: kept beside the other.
                var asked = false
                #expect(
                    index.insert(hash: hash) {
                        asked = true
                        return false
                    })
                #expect(asked == (held[hash, default: 0] > 0))
                held[hash, default: 0] += 1
            }
        }
        #expect(index.count == held.values.reduce(0, +))
        for (hash, count) in held { #expect(index.contains(hash: hash) { true } == (count > 0)) }
        // One the caller confirms is refused.
        let present = held.first { $0.value > 0 }!.key
        #expect(!index.insert(hash: present) { true })

        // Built at once, hashes seen twice are reported.
        var repeated: [UInt64] = []
        let built = ItemIDIndex(hashes: [5, 9, 5, 7, 9, 5], repeated: &repeated)
        #expect(built.count == 6 && repeated.sorted() == [5, 5, 9])
        // Looked up before and after its first change (which makes its lists hash tables).
        #expect(built.contains(hash: 7) { true } && !built.contains(hash: 8) { true })
        var changed = built
        changed.remove(hash: 5)
        #expect(changed.count == 5 && changed.contains(hash: 5) { true } && changed.contains(hash: 7) { true })
        #expect(changed.insert(hash: 8) { false } && changed.contains(hash: 8) { true } && !changed.contains(hash: 11) { true })
    }

    @Test("A table refuses a repeated id at any size, and finds rows by id", arguments: [10, 5_000])
    func repeatedIDs(_ count: Int) throws {
        let items = (0..<count).map { Model.item($0, length: 2, kind: 1) }
        #expect(throws: TableError.repeatedItemID(items[count / 2].id)) {
            try TableModel(
                sections: [TableSection(id: "a", items: items), TableSection(id: "b", items: [items[count / 2]])], registry: Model.registry, width: 320,
                environment: Model.environment)
        }
        var table = try TableModel(sections: [TableSection(id: "a", items: items)], registry: Model.registry, width: 320, environment: Model.environment)
        #expect(table.element(withID: .row(itemID: items[count - 1].id)) == .row(RowIndex(section: 0, row: count - 1)))
        #expect(table.element(withID: .row(itemID: "absent")) == nil)
        #expect(throws: TableError.repeatedItemID(items[3].id)) { try table.apply([.appendRows([items[3]], toSection: 0)]) }
        #expect(throws: TableError.repeatedItemID("new")) {
            try table.apply([
                .insertSection(TableSection(id: "b", items: [ItemDescriptor(id: "new", kind: "text"), ItemDescriptor(id: "new", kind: "text")]), at: 1)
            ])
        }
        try table.apply([.deleteRow(RowIndex(section: 0, row: 3)), .insertRow(items[3], at: RowIndex(section: 0, row: 0))])
        #expect(table.element(withID: .row(itemID: items[3].id)) == .row(RowIndex(section: 0, row: 0)))
    }

    @Test(
        "Updating in place and rebuilding give the same table and the same changes; rows not reported moved keep their order",
        arguments: [11, 12, 13])
    func inPlaceAgainstRebuilt(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        var newItems = Model.RandomItems(maxLength: 20)
        func newItem() -> ItemDescriptor { newItems.next(using: &generator) }
        var current = (0..<3).map { TableSection(id: "s\($0)", header: $0 == 1 ? .fixed(30) : nil, items: (0..<400).map { _ in newItem() }) }
        var inPlace = try TableModel(sections: current, registry: Model.registry, width: 375, environment: Model.environment)
        inPlace.measureAll()
        for step in 0..<12 {
            // Same sections; a few rows changed, dropped, added, swapped (near and far), across sections too.
            var new = current
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                let section = Int.random(in: new.indices, using: &generator)
                guard !new[section].items.isEmpty else { continue }
                let row = Int.random(in: new[section].items.indices, using: &generator)
                switch Int.random(in: 0..<6, using: &generator) {
                case 0: new[section].items[row].fields["text"] = .string("changed \(step) \(row)")
                case 1: new[section].items.remove(at: row)
                case 2: new[section].items.insert(newItem(), at: row)
                case 3: new[section].items.swapAt(row, min(row + Int.random(in: 1...3, using: &generator), new[section].items.count - 1))
                case 4: new[section].items.swapAt(row, Int.random(in: new[section].items.indices, using: &generator))
                default: new[(section + 1) % new.count].items.insert(new[section].items.remove(at: row), at: 0)
                }
            }
            if step % 4 == 3 { new[0].footer = .fixed(Double(step)) }
            var rebuilt = inPlace
            let changes = try inPlace.update(to: new, inPlaceLimit: .max)
            let rebuiltChanges = try rebuilt.update(to: new, inPlaceLimit: 0)
            #expect(changes == rebuiltChanges, "seed \(seed), step \(step)")
            #expect(Model.frames(inPlace).map(\.height) == Model.frames(rebuilt).map(\.height), "seed \(seed), step \(step)")
            #expect(Model.frames(inPlace).map(\.isMeasured) == Model.frames(rebuilt).map(\.isMeasured), "seed \(seed), step \(step)")
            #expect(inPlace.heightCacheStatistics == rebuilt.heightCacheStatistics)
            Model.checkInvariants(inPlace, Model.Naive(sections: new), "seed \(seed), step \(step)")

            // The rows left in line keep their relative order: reported moves and inserts explain every other place.
            let moved = Set(changes.moved + changes.inserted)
            for (old, updated) in zip(current, new) {
                let staying = Set(updated.items.map(\.id)).subtracting(moved)
                #expect(old.items.map(\.id).filter(staying.contains) == updated.items.map(\.id).filter(staying.contains), "seed \(seed), step \(step)")
            }
            inPlace.measureAll()
            #expect(Model.frames(inPlace).map(\.height) == (try Model.Naive(sections: new).heights(width: 375)))
            current = new
        }
    }

    @Test("A batch that fails at its last update leaves the table as it was: rows, heights, ids, averages and cache", arguments: [21, 22])
    func failedBatchUndone(_ seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        let sections = (0..<3).map { section in
            TableSection(id: "s\(section)", items: (0..<300).map { Model.item(section * 1_000 + $0, length: $0 % 17, kind: $0) }, footer: .fixed(12))
        }
        var table = try TableModel(sections: sections, registry: Model.registry, width: 375, environment: Model.environment)
        _ = table.layOut(viewport: 0..<2_000)
        try table.setWidth(320)
        _ = table.layOut(viewport: 0..<2_000)
        var next = 10_000
        for round in 0..<10 {
            let frames = Model.frames(table)
            let items: [[ItemDescriptor]] = (0..<table.sectionCount).map { section in
                (0..<table.rowCount(inSection: section)).map { table.item(at: RowIndex(section: section, row: $0))! }
            }
            let statistics = table.heightCacheStatistics
            let counters = table.counters
            var updates: [TableUpdate] = []
            var counts = items.map(\.count)
            for _ in 0..<40 {
                let section = Int.random(in: counts.indices, using: &generator)
                switch Int.random(in: 0..<5, using: &generator) {
                case 0:
                    next += 1
                    updates.append(
                        .insertRow(
                            Model.item(next, length: 3, kind: next), at: RowIndex(section: section, row: Int.random(in: 0...counts[section], using: &generator))
                        ))
                    counts[section] += 1
                case 1 where counts[section] > 0:
                    updates.append(.deleteRow(RowIndex(section: section, row: Int.random(in: 0..<counts[section], using: &generator))))
                    counts[section] -= 1
                case 2 where counts[section] > 0:
                    let to = Int.random(in: counts.indices, using: &generator)
                    updates.append(
                        .moveRow(
                            from: RowIndex(section: section, row: Int.random(in: 0..<counts[section], using: &generator)),
                            to: RowIndex(section: to, row: Int.random(in: 0..<max(1, counts[to]), using: &generator))))
                    counts[section] -= 1
                    counts[to] += 1
                case 3 where counts[section] > 0:
                    next += 1
                    updates.append(
                        .replaceRow(
                            RowIndex(section: section, row: Int.random(in: 0..<counts[section], using: &generator)),
                            with: Model.item(next, length: 5, kind: next)))
                default:
                    next += 1
                    updates.append(.appendRows([Model.item(next, length: 1, kind: next)], toSection: section))
                    counts[section] += 1
                }
            }
            updates.append(.deleteSection(0))
            updates.append(.deleteRow(RowIndex(section: 9, row: 0)))
            #expect(throws: TableError.noSuchPosition("row 9.0 to delete")) { try table.apply(updates) }
            // The same elements and heights; offsets to rounding (the offset index may sum in other groups).
            let after = Model.frames(table)
            let same =
                after.count == frames.count
                && zip(after, frames).allSatisfy {
                    $0.element == $1.element && $0.height == $1.height && $0.isMeasured == $1.isMeasured && abs($0.offset - $1.offset) < 1e-6
                }
            #expect(same, "seed \(seed), round \(round)")
            #expect(table.heightCacheStatistics == statistics && table.counters == counters)
            for (section, rows) in items.enumerated() {
                #expect(rows.indices.allSatisfy { table.item(at: RowIndex(section: section, row: $0)) == rows[$0] })
                // Every id is still held: adding one again is refused.
                #expect(throws: TableError.repeatedItemID(rows[0].id)) { try table.apply([.appendRows([rows[0]], toSection: section)]) }
            }
            // Without the bad update, the batch applies.
            try table.apply(Array(updates.dropLast(2)))
            _ = table.layOut(viewport: 0..<2_000)
        }
    }
}

@Suite("Changing the registry")
struct RegistryChangeTests {
    typealias Model = TableModelTests

    static func heights(_ sections: [TableSection], _ registry: TemplateRegistry, width: Double) throws -> [Double] {
        try sections.flatMap(\.items).map { item in
            guard let template = registry.template(forKind: item.kind) ?? registry.fallback else { return 0 }
            return try template.heights(item, widths: [width], environment: Model.environment)[0]
        }
    }

    @Test("A larger content size measures again; back to the old stylesheet measures nothing; a kind whose template stays keeps its heights")
    func stylesheetAndTemplates() throws {
        let sections = [TableSection(id: "a", items: (0..<120).map { Model.item($0, length: $0 % 23, kind: $0) })]
        var larger = Stylesheet.standard
        larger.contentSizeMultiplier = 1.4
        let standard = Model.registry
        let large = try BuiltInTemplates.registry(stylesheet: larger)
        var table = try TableModel(sections: sections, registry: standard, width: 375, environment: Model.environment)
        table.measureAll()
        let standardFrames = Model.frames(table)
        #expect(standardFrames.map(\.height) == (try Self.heights(sections, standard, width: 375)))

        table.setRegistry(large)
        #expect(table.counters.rowsMeasured == 120 && Model.frames(table).allSatisfy { !$0.isMeasured })
        table.measureAll()
        let largeHeights = try Self.heights(sections, large, width: 375)
        #expect(Model.frames(table).map(\.height) == largeHeights)
        #expect(zip(largeHeights, standardFrames).contains { $0 > $1.height })

        // Dynamic Type back: every height comes back, nothing measured.
        table.setRegistry(standard)
        #expect(table.counters.rowsMeasured == 240 && Model.frames(table) == standardFrames)

        // One kind's template swapped, one kind dropped: those rows alone change.
        var mixed = standard
        mixed.register(large.template(forKind: "text")!, for: "text")
        var withoutSubtitle = TemplateRegistry()
        for kind in mixed.kinds where kind != "subtitle" { withoutSubtitle.register(mixed.template(forKind: kind)!, for: kind) }
        table.setRegistry(withoutSubtitle)
        #expect(table.counters.rowsMeasured == 240)
        for (frame, item) in zip(Model.frames(table), sections[0].items) {
            switch item.kind {
            case "message": #expect(frame.isMeasured && frame.height == standardFrames[Int(item.id.dropFirst())!].height)
            case "subtitle": #expect(frame.isMeasured && frame.height == 0)
            default: #expect(!frame.isMeasured)
            }
        }
        #expect(table.error(at: RowIndex(section: 0, row: 2)) == .noTemplate(kind: "subtitle"))
        table.measureAll()
        #expect(table.counters.rowsMeasured == 280)
        #expect(Model.frames(table).map(\.height) == (try Self.heights(sections, withoutSubtitle, width: 375)))
        Model.checkInvariants(table, Model.Naive(sections: sections), "after the registry changes")

        // The large registry was kept: going back to it measures nothing.
        table.setRegistry(large)
        #expect(table.counters.rowsMeasured == 280 && Model.frames(table).map(\.height) == largeHeights)
    }
}

@Suite("Updating to new contents, in long runs and other spellings")
struct UpdateRunTests {
    typealias Model = TableModelTests

    @Test("Runs of rows inserted or deleted longer than the look-ahead are inserts and deletes, not moves of every row after them", arguments: [9, 40, 300])
    func longRuns(_ length: Int) throws {
        let items = (0..<600).map { Model.item($0, length: $0 % 7, kind: $0) }
        var table = try TableModel(sections: [TableSection(id: "a", items: items)], registry: Model.registry, width: 320, environment: Model.environment)
        let added = (0..<length).map { Model.item(10_000 + $0, length: 2, kind: $0) }
        // A run inserted at the top and another deleted from the middle.
        var kept = items
        kept.removeSubrange(250..<(250 + length))
        let new = added + kept
        let changes = try table.update(to: [TableSection(id: "a", items: new)])
        #expect(changes.moved.isEmpty, "\(changes.moved.count) reported moved")
        #expect(changes.inserted == added.map(\.id))
        #expect(changes.deleted == items[250..<(250 + length)].map(\.id))
        Model.checkInvariants(table, Model.Naive(sections: [TableSection(id: "a", items: new)]), "a run of \(length)")
        // And back: the deleted run comes back, the inserted one goes.
        let back = try table.update(to: [TableSection(id: "a", items: items)])
        #expect(back.moved.isEmpty && Set(back.deleted) == Set(added.map(\.id)) && back.inserted.count == length)
    }

    @Test("A row moved far into a block of new rows is one move, not the rows between its places")
    func farMoveAmongNewRows() throws {
        let items = (0..<600).map { Model.item($0, length: $0 % 5, kind: $0) }
        var table = try TableModel(sections: [TableSection(id: "a", items: items)], registry: Model.registry, width: 320, environment: Model.environment)
        let added = (0..<3).map { Model.item(10_000 + $0, length: 1, kind: $0) }
        var new = items
        new.remove(at: 500)
        new.replaceSubrange(100..<104, with: [items[500]] + added)
        let changes = try table.update(to: [TableSection(id: "a", items: new)])
        #expect(changes.moved == [items[500].id])
        #expect(changes.inserted == added.map(\.id) && changes.deleted == items[100..<104].map(\.id))
        Model.checkInvariants(table, Model.Naive(sections: [TableSection(id: "a", items: new)]), "far move")
    }

    @Test("Ids the same to Swift but spelled in other code points are one id: a repeat is refused")
    func canonicallyEqualIDs() throws {
        let composed = ItemDescriptor(id: "caf\u{E9}", kind: "text", fields: ["text": "One"])
        let decomposed = ItemDescriptor(id: "cafe\u{301}", kind: "text", fields: ["text": "Two"])
        #expect(throws: TableError.repeatedItemID(decomposed.id)) {
            try TableModel(
                sections: [TableSection(id: "a", items: [composed, decomposed])], registry: Model.registry, width: 320, environment: Model.environment)
        }
        var table = try TableModel(sections: [TableSection(id: "a", items: [composed])], registry: Model.registry, width: 320, environment: Model.environment)
        #expect(throws: TableError.repeatedItemID(decomposed.id)) { try table.apply([.appendRows([decomposed], toSection: 0)]) }
        // The Kelvin sign is K to Swift.
        try table.apply([.appendRows([ItemDescriptor(id: "K", kind: "text")], toSection: 0)])
        #expect(throws: TableError.repeatedItemID("\u{212A}")) { try table.apply([.appendRows([ItemDescriptor(id: "\u{212A}", kind: "text")], toSection: 0)]) }
        #expect(table.element(withID: .row(itemID: decomposed.id)) == .row(RowIndex(section: 0, row: 0)))
        #expect(throws: TableError.repeatedItemID("\u{212A}")) {
            try table.update(to: [
                TableSection(id: "a", items: [composed, ItemDescriptor(id: "K", kind: "text"), ItemDescriptor(id: "\u{212A}", kind: "text")])
            ])
        }
    }

    @Test("Ids Swift compares equal hash the same, whichever of their spellings; ids it tells apart almost never do", arguments: [11, 12])
    func hashAgreesWithEquality(_ seed: UInt64) {
        // Each token's spellings are canonically equivalent: precomposed and decomposed letters,
        // singletons (Kelvin, Ohm, Ångström signs), Hangul syllables and jamo, combining marks in
        // either order when their classes differ, and letters of Unicode 16's Tulu-Tigalari and
        // Kirat Rai (which Foundation's composition here leaves decomposed).
        let tokens: [[String]] = [
            ["\u{E9}", "e\u{301}"], ["\u{C5}", "A\u{30A}", "\u{212B}"], ["K", "\u{212A}"], ["\u{3A9}", "\u{2126}"],
            ["\u{D55C}", "\u{1112}\u{1161}\u{11AB}"], ["a\u{323}\u{302}", "a\u{302}\u{323}", "\u{1EA1}\u{302}", "\u{1EAD}"],
            ["\u{1E69}", "s\u{323}\u{307}", "s\u{307}\u{323}", "\u{1E63}\u{307}"], ["\u{11391}", "\u{11390}\u{113C9}"],
            ["\u{113C5}", "\u{113C2}\u{113C2}"], ["\u{16D68}", "\u{16D67}\u{16D67}"],
            ["x"], ["7"], ["-"], ["\u{4E2D}"], ["\u{1F600}"], ["\u{5D0}\u{5B7}"],
        ]
        var generator = SeededGenerator(seed: seed)
        var hashes: [UInt64: String] = [:]
        for _ in 0..<2_000 {
            let picks = (0..<Int.random(in: 1...6, using: &generator)).map { _ in tokens.randomElement(using: &generator)! }
            let first = picks.map { $0.randomElement(using: &generator)! }.joined()
            let second = picks.map { $0.randomElement(using: &generator)! }.joined()
            #expect(first == second)
            #expect(ItemIDIndex.hash(first) == ItemIDIndex.hash(second), "\(Array(first.unicodeScalars)) \(Array(second.unicodeScalars))")
            // Different ids: different hashes (a 64-bit collision here would be a broken hash).
            if let earlier = hashes.updateValue(first, forKey: ItemIDIndex.hash(first)) { #expect(earlier == first) }
        }
    }
}
