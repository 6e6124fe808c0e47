// The offset index of a million-row table: building it, and single inserts, deletes, moves and
// offset queries on it; then the table model over it (TableModelBenchmarks.swift).

import Benchmark
import GalleyTable

let benchmarks: @Sendable () -> Void = {
    let rows = 1_000_000
    let heights = (0..<rows).map { Double(44 + ($0 * 7919) % 97) }
    let perOperation = Benchmark.Configuration(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 200_000)

    Benchmark(
        "Table/build 1M rows",
        configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds, maxDuration: .seconds(3))
    ) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(OffsetIndex(heights: heights)) }
    }

    // Positions spread over the whole table by a multiplicative hash of the iteration.
    func position(_ index: Int, _ count: Int) -> Int { (index &* 2_654_435_761) % count }

    Benchmark("Table/insert", configuration: perOperation) { benchmark in
        var index = OffsetIndex(heights: heights)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations { index.insert(60, at: position(iteration, index.count)) }
        blackHole(index.count)
    }

    Benchmark("Table/delete", configuration: perOperation) { benchmark in
        var index = OffsetIndex(heights: heights)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations { blackHole(index.remove(at: position(iteration, index.count))) }
    }

    Benchmark("Table/move", configuration: perOperation) { benchmark in
        var index = OffsetIndex(heights: heights)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            index.move(from: position(iteration, rows), to: position(iteration &+ 7, rows))
        }
        blackHole(index.count)
    }

    Benchmark("Table/offset of row", configuration: perOperation) { benchmark in
        let index = OffsetIndex(heights: heights)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations { blackHole(index.offset(ofRow: position(iteration, rows))) }
    }

    Benchmark("Table/row at offset", configuration: perOperation) { benchmark in
        let index = OffsetIndex(heights: heights)
        let total = index.totalHeight
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            blackHole(index.row(atOffset: Double(position(iteration, rows)) / Double(rows) * total))
        }
    }

    Benchmark("Table/set height", configuration: perOperation) { benchmark in
        var index = OffsetIndex(heights: heights)
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations { index.setHeight(Double(40 + iteration % 50), ofRow: position(iteration, rows)) }
        blackHole(index.totalHeight)
    }

    tableModelBenchmarks()
}
