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
