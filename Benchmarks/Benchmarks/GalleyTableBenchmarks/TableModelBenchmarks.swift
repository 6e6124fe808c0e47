// The table model over a million message rows: building it, querying a viewport, a batch of
// updates, coming back to a cached width, measuring ahead; and, beside it, what a UIKit app
// does without one: measure every row again after a change.

import Benchmark
import BenchmarkFixtures
import Foundation
import GalleyLayout
import GalleyTable
import GalleyText

/// A million message rows, made once for every benchmark that needs them.
let millionRows = Samples.messageRows(count: 1_000_000)
let registry = try! BuiltInTemplates.registry()
let environment = LayoutEnvironment(textEngine: try! TextEngine(), scale: 2, keepsTextLayouts: false)

/// The million-row table, built once for the benchmarks that only read it.
let millionTable = millionRowTable()

func millionRowTable() -> TableModel {
    try! TableModel(sections: [TableSection(id: "inbox", items: millionRows)], registry: registry, width: 375, environment: environment)
}

/// 1,000 updates as a feed gets them: replacements, deletions, insertions and moves spread over
/// the table, as the new contents of its one section.
func updatedRows(_ rows: [ItemDescriptor]) -> [ItemDescriptor] {
    var rows = rows
    for step in 0..<250 {
        let place = (step &* 2_654_435_761) % (rows.count - 1)
        rows[place].fields["text"] = .string("Edited \(step)")
        rows.remove(at: (place + 17) % rows.count)
        rows.insert(ItemDescriptor(id: "new\(step)", kind: "message", fields: ["title": "New", "text": "Just in"]), at: (place + 91) % rows.count)
        rows.swapAt((place + 5) % rows.count, (place + 40_000) % rows.count)
    }
    return rows
}

/// A table changed once, as a table that gets updates has been: the one-time work of a first
/// change (its id index made ready) is measured on its own, below.
func changeOnce(_ table: inout TableModel) throws {
    let first = table.item(at: RowIndex(section: 0, row: 0))!
    try table.apply([.deleteRow(RowIndex(section: 0, row: 0)), .insertRow(first, at: RowIndex(section: 0, row: 0))])
}

/// 1,000 updates as a list view's batch gets them: replacements, deletions, insertions and
/// moves spread over a table of `count` rows.
func mixedUpdates(count: Int) -> [TableUpdate] {
    var updates: [TableUpdate] = []
    var rows = count
    func index(_ row: Int) -> RowIndex { RowIndex(section: 0, row: row) }
    for step in 0..<250 {
        let place = (step &* 2_654_435_761) % (rows - 1)
        updates.append(.replaceRow(index(place), with: ItemDescriptor(id: "edited\(step)", kind: "message", fields: ["title": "Edited", "text": "Changed"])))
        updates.append(.deleteRow(index((place + 17) % rows)))
        rows -= 1
        updates.append(
            .insertRow(ItemDescriptor(id: "new\(step)", kind: "message", fields: ["title": "New", "text": "Just in"]), at: index((place + 91) % rows)))
        rows += 1
        updates.append(.moveRow(from: index((place + 5) % rows), to: index((place + 40_000) % rows)))
    }
    return updates
}

let tableModelBenchmarks: @Sendable () -> Void = {
    Benchmark(
        "TableModel/build 1M rows with estimates",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
    ) { benchmark in
        _ = millionRows.count
        benchmark.startMeasurement()
        let table = millionRowTable()
        // Stopped before the table is let go: freeing it is not building it.
        benchmark.stopMeasurement()
        blackHole(table)
    }

    Benchmark(
        "TableModel/viewport query, 1M rows",
        configuration: .init(
            metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3),
            maxIterations: 100_000)
    ) { benchmark in
        let table = millionTable
        let height = table.contentHeight
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            let top = Double((iteration &* 2_654_435_761) % 1_000_000) / 1_000_000 * (height - 812)
            blackHole(table.elements(in: top..<top + 812))
        }
    }

    Benchmark(
        "TableModel/1,000 mixed updates, diffed, 1M rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(20), maxIterations: 5)
    ) { benchmark in
        var table = millionRowTable()
        let new = [TableSection(id: "inbox", items: updatedRows(millionRows))]
        try changeOnce(&table)
        benchmark.startMeasurement()
        let changes = try table.update(to: new)
        benchmark.stopMeasurement()
        blackHole((table, new, changes))
    }

    Benchmark(
        "TableModel/first change after building, 1M rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        var table = millionRowTable()
        benchmark.startMeasurement()
        try changeOnce(&table)
        benchmark.stopMeasurement()
        blackHole(table)
    }

    Benchmark(
        "TableModel/1,000 mixed updates, applied as a batch, 1M rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(20), maxIterations: 5)
    ) { benchmark in
        var table = millionRowTable()
        let updates = mixedUpdates(count: millionRows.count)
        try changeOnce(&table)
        benchmark.startMeasurement()
        try table.apply(updates)
        benchmark.stopMeasurement()
        blackHole(table)
    }

    Benchmark(
        "TableModel/width change back to a cached width, 1M rows measured",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        var table = millionRowTable()
        let portrait = table.heightJob()
        table.absorb(await withTaskExecutorPreference(workerThreads) { await portrait.run() })
        try table.setWidth(768)
        let landscape = table.heightJob()
        table.absorb(await withTaskExecutorPreference(workerThreads) { await landscape.run() })
        let measured = table.counters.rowsMeasured
        benchmark.startMeasurement()
        try table.setWidth(375)
        benchmark.stopMeasurement()
        precondition(table.counters.rowsMeasured == measured && table.heightJob().count == 0)
    }

    Benchmark(
        "TableModel/precompute a million message rows, all cores",
        configuration: .init(metrics: [.wallClock, .cpuTotal], timeUnits: .milliseconds, maxDuration: .seconds(60), maxIterations: 3)
    ) { benchmark in
        var table = millionRowTable()
        // A worker for each core, each with an engine and fonts of its own, as `galley heights` runs.
        let engines = try (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in
            TextEngine(
                fonts: try FontCollection.bundled(), shapeCacheByteLimit: TextEngine.defaultShapeCacheByteLimit / 2,
                paragraphCacheByteLimit: TextEngine.defaultParagraphCacheByteLimit / 2, paragraphAdmission: .recurring)
        }
        let job = table.heightJob()
        benchmark.startMeasurement()
        // On threads of its own (see `WorkerThreads`), as an app's background work would run.
        let measured = await withTaskExecutorPreference(workerThreads) { await job.run(engines: engines) }
        table.absorb(measured)
        benchmark.stopMeasurement()
        precondition(table.counters.rowsMeasured == millionRows.count)
        blackHole((table, measured))
    }

    // What a list does without a table model, beside what one does, on 10,000 rows: one row
    // changes, and every height (the naive way) or that row's (the model's) is measured again.
    let rows = Array(millionRows.prefix(10_000))
    Benchmark(
        "TableModel/one change, then the visible rows, 10,000 rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 1_000)
    ) { benchmark in
        var table = try TableModel(sections: [TableSection(id: "inbox", items: rows)], registry: registry, width: 375, environment: environment)
        table.absorb(await table.heightJob().run())
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            var changed = rows[iteration % rows.count]
            changed.fields["text"] = .string("Edited \(iteration)")
            try table.apply([.replaceRow(RowIndex(section: 0, row: iteration % rows.count), with: changed)])
            blackHole(table.layOut(viewport: 0..<812))
        }
    }
    // Rotating: the model back at a width it has heights for, the naive way measuring every row.
    Benchmark(
        "TableModel/width change back, 10,000 rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .microseconds, maxDuration: .seconds(5), maxIterations: 1_000)
    ) { benchmark in
        var table = try TableModel(sections: [TableSection(id: "inbox", items: rows)], registry: registry, width: 375, environment: environment)
        table.absorb(await table.heightJob().run())
        try table.setWidth(768)
        table.absorb(await table.heightJob().run())
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try table.setWidth(iteration % 2 == 0 ? 375 : 768)
            blackHole(table.layOut(viewport: 0..<812))
        }
        benchmark.stopMeasurement()
        precondition(table.counters.rowsMeasured == 2 * rows.count)
    }
    for (name, width) in [("one change", 375.0), ("width change", 768)] {
        Benchmark(
            "Naive/\(name), then every row measured again, 10,000 rows",
            configuration: .init(metrics: [.wallClock, .mallocCountTotal], timeUnits: .milliseconds, maxDuration: .seconds(10), maxIterations: 10)
        ) { benchmark in
            let template = registry.template(forKind: "message")!
            for _ in benchmark.scaledIterations {
                var total = 0.0
                for row in rows { total += try template.heights(row, widths: [width], environment: environment)[0] }
                blackHole(total)
            }
        }
    }
}
