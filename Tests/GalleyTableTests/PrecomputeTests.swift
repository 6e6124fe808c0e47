// Heights measured ahead of time on every core: the same as measuring in order, never stale
// for a row changed meanwhile, cancellable, with progress.

import GalleyJSON
import GalleyLayout
import GalleyLocks
import GalleyTable
import GalleyText
import Testing

@Suite("Precomputing heights")
struct PrecomputeTests {
    static func table(rows: Int) throws -> TableModel {
        let items = (0..<rows).map { TableModelTests.item($0, length: $0 % 37, kind: $0) }
        return try TableModel(
            sections: [TableSection(id: "a", header: .fixed(30), items: items)], registry: TableModelTests.registry, width: 375,
            environment: TableModelTests.environment)
    }

    @Test("On several workers, the heights are those measuring row by row gives; progress reaches every row")
    func sameAsSerial() async throws {
        var parallel = try Self.table(rows: 700)
        var serial = parallel
        serial.measureAll()
        let job = parallel.heightJob()
        #expect(job.count == 700)
        let reported = Locked<[Int]>([])
        let heights = await job.run(workers: 3) { done in reported.withLock { $0.append(done) } }
        parallel.absorb(heights)
        #expect(TableModelTests.frames(parallel) == TableModelTests.frames(serial))
        let progress = reported.withLock { $0 }
        #expect(progress.last == 700 && zip(progress, progress.dropFirst()).allSatisfy { $0 < $1 })
        #expect(parallel.heightJob().count == 0)

        // Workers with engines of their own (fonts of their own too) measure the same heights.
        var separate = try Self.table(rows: 700)
        let engines = try (0..<2).map { _ in TextEngine(fonts: try FontCollection.bundled()) }
        separate.absorb(await separate.heightJob().run(workers: 2, engines: engines))
        #expect(TableModelTests.frames(separate) == TableModelTests.frames(serial))
    }

    @Test("Rows meeting the viewport come first, then outward, below and above in turn")
    func viewportFirst() async throws {
        var table = try Self.table(rows: 300)
        _ = table.layOut(viewport: 44.0 * 150..<44.0 * 150 + 200)  // some rows measured already: not in the job
        let viewport = 44.0 * 100..<44.0 * 100 + 400
        let ids = { (element: TableElement) -> String? in
            guard case .row(let index) = element else { return nil }
            return table.item(at: index)?.id
        }
        let shown = table.elements(in: viewport).compactMap { ids($0.element) }
        #expect(shown.count == 10)
        let job = table.heightJob(around: viewport)
        #expect(Array(job.itemIDs.prefix(shown.count)) == shown)
        // Then the row below the viewport, the row above it, and so on outward.
        let firstRow = 100 - 1  // the header is element 0: row r is at 30 + 44 r
        let shownRows = table.elements(in: viewport).compactMap { frame -> Int? in
            if case .row(let index) = frame.element { return index.row } else { return nil }
        }
        #expect(shownRows.first == firstRow)
        let next = job.itemIDs.dropFirst(shown.count).prefix(4)
        let expected = [shownRows.last! + 1, firstRow - 1, shownRows.last! + 2, firstRow - 2].map { table.item(at: RowIndex(section: 0, row: $0))!.id }
        #expect(Array(next) == expected)
        #expect(job.count == 300 - table.counters.rowsMeasured)
        #expect(Set(job.itemIDs).count == job.count)

        // Taken in from the job's order, the heights are those measuring in order gives.
        var serial = table
        serial.measureAll()
        table.absorb(await job.run(workers: 2))
        #expect(TableModelTests.frames(table) == TableModelTests.frames(serial))
    }

    @Test("A change that lands while heights are measured never leaves a stale height for the row it changed")
    func changesDuringPrecompute() async throws {
        var table = try Self.table(rows: 200)
        let job = table.heightJob()
        var changed = table.item(at: RowIndex(section: 0, row: 5))!
        changed.fields["text"] = .string(String(repeating: "much longer text ", count: 9))
        try table.apply([
            .replaceRow(RowIndex(section: 0, row: 5), with: changed), .deleteRow(RowIndex(section: 0, row: 7)),
            .insertRow(TableModelTests.item(9999, length: 12, kind: 1), at: RowIndex(section: 0, row: 0)),
        ])
        table.absorb(await job.run())
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 6)))?.isMeasured == false)  // the replaced row, one down
        #expect(table.frame(of: .row(RowIndex(section: 0, row: 0)))?.isMeasured == false)  // the inserted row
        #expect(TableModelTests.frames(table).filter { !$0.isMeasured }.count == 2)
        var fresh = table
        fresh.measureAll()
        var naive = TableModelTests.Naive(sections: [])
        naive.sections = [
            TableSection(
                id: "a", header: .fixed(30),
                items: (0..<table.rowCount(inSection: 0)).map { table.item(at: RowIndex(section: 0, row: $0))! })
        ]
        #expect(TableModelTests.frames(fresh).map(\.height) == (try naive.heights(width: 375)))

        // A row replaced where it was (nothing moves) keeps its estimate; every other row is measured.
        var still = try Self.table(rows: 50)
        let stillJob = still.heightJob()
        var edited = still.item(at: RowIndex(section: 0, row: 3))!
        edited.fields["text"] = .string("edited")
        try still.apply([.replaceRow(RowIndex(section: 0, row: 3), with: edited)])
        still.absorb(await stillJob.run())
        #expect(still.frame(of: .row(RowIndex(section: 0, row: 3)))?.isMeasured == false)
        #expect(TableModelTests.frames(still).filter { !$0.isMeasured }.count == 1)

        // Heights measured for another width are not taken.
        let other = table.heightJob()
        try table.setWidth(320)
        let before = TableModelTests.frames(table)
        table.absorb(await other.run())
        #expect(TableModelTests.frames(table) == before)
    }

    @Test("Rows that cannot be measured are taken in as measuring on the table leaves them: 0 tall with their error, in no later job")
    func unmeasurableRows() async throws {
        // The two rows first; then rows whose text is not text among good ones, some
        // found where the job left them and some (after a row is inserted above) by key.
        func item(_ id: Int, broken: Bool) -> ItemDescriptor {
            broken
                ? ItemDescriptor(id: "x\(id)", kind: "text", fields: ["text": .object(["not": "text"])])
                : TableModelTests.item(id, length: id % 23, kind: id)
        }
        func table(_ items: [ItemDescriptor]) throws -> TableModel {
            try TableModel(
                sections: [TableSection(id: "a", items: items)], registry: TableModelTests.registry, width: 375, environment: TableModelTests.environment)
        }
        func errors(_ table: TableModel) -> [LayoutError?] { (0..<table.rowCount(inSection: 0)).map { table.error(at: RowIndex(section: 0, row: $0)) } }
        let inserted = TableModelTests.item(500, length: 9, kind: 1)
        for (items, insertsAbove) in [
            ([item(0, broken: false), item(1, broken: true)], false),
            ((0..<120).map { item($0, broken: $0 % 7 == 3) }, false),
            ((0..<120).map { item($0, broken: $0 % 7 == 3) }, true),
        ] {
            var absorbed = try table(items)
            let job = absorbed.heightJob()
            if insertsAbove { try absorbed.apply([.insertRow(inserted, at: RowIndex(section: 0, row: 0))]) }
            absorbed.absorb(await job.run(workers: 2))
            // The independent path: the same rows measured one by one on a fresh table.
            var measured = try table(items)
            if insertsAbove {
                try measured.apply([.insertRow(inserted, at: RowIndex(section: 0, row: 0))])
                // Every row but the inserted one, which the job did not know of.
                for row in 1..<measured.rowCount(inSection: 0) { measured.measure(.row(RowIndex(section: 0, row: row))) }
            } else {
                measured.measureAll()
            }
            #expect(TableModelTests.frames(absorbed) == TableModelTests.frames(measured))
            #expect(absorbed.contentHeight == measured.contentHeight)
            #expect(errors(absorbed) == errors(measured))
            #expect(errors(absorbed).compactMap { $0 }.count == items.filter { $0.id.hasPrefix("x") }.count)
            #expect(absorbed.counters.rowsMeasured == measured.counters.rowsMeasured)
            #expect(absorbed.heightJob().count == (insertsAbove ? 1 : 0))
            // A failure's 0 is no height its template's rows are estimated from.
            let later = TableModelTests.item(600, length: 4, kind: 1)
            try absorbed.apply([.insertRow(later, at: RowIndex(section: 0, row: 1))])
            try measured.apply([.insertRow(later, at: RowIndex(section: 0, row: 1))])
            #expect(absorbed.frame(of: .row(RowIndex(section: 0, row: 1))) == measured.frame(of: .row(RowIndex(section: 0, row: 1))))
        }
        // The case, in numbers: row 0.1 is 0 points tall.
        var two = try table([item(0, broken: false), item(1, broken: true)])
        two.absorb(await two.heightJob().run())
        #expect(two.frame(of: .row(RowIndex(section: 0, row: 1)))?.height == 0)
        #expect(two.frame(of: .row(RowIndex(section: 0, row: 1)))?.isMeasured == true)
        #expect(two.error(at: RowIndex(section: 0, row: 1)) != nil)
    }

    @Test("Cancelled, a job stops early and what it measured is taken in consistently")
    func cancellation() async throws {
        var table = try Self.table(rows: 3000)
        let job = table.heightJob()
        let task = Task { await job.run(workers: 1) }
        task.cancel()
        let heights = await task.value
        #expect(heights.count < 3000)
        table.absorb(heights)
        let frames = TableModelTests.frames(table)
        #expect(frames.filter(\.isMeasured).count == heights.count + 1)  // and the fixed header
        var top = 0.0
        for frame in frames {
            #expect(frame.offset == top)
            top += frame.height
        }
        #expect(table.contentHeight == top)
    }
}
