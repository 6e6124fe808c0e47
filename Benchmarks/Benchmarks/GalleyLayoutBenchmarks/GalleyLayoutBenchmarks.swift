// Rows: measure and arrange with the built-in message, subtitle and image templates.

import Benchmark
import BenchmarkFixtures
import GalleyLayout
import GalleyText

let benchmarks: @Sendable () -> Void = {
    let perRow = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 1_000_000)

    for (kind, template) in [("message", BuiltInTemplates.message), ("subtitle", BuiltInTemplates.subtitle), ("image", BuiltInTemplates.image)] {
        let rows = Samples.rowItems(kind: kind)
        let compiled = try! CompiledTemplate(template)
        for warm in [false, true] {
            Benchmark("Rows \(warm ? "warm" : "cold")/\(kind)", configuration: perRow) { benchmark in
                let engine = warm ? Samples.warmEngine(for: []) : Samples.coldEngine()
                let environment = LayoutEnvironment(textEngine: engine, scale: 2)
                if warm { for row in rows { blackHole(try compiled.measure(row, width: 375, environment: environment).arranged()) } }
                benchmark.startMeasurement()
                for index in benchmark.scaledIterations {
                    let measurement = try compiled.measure(rows[index % rows.count], width: 375, environment: environment)
                    blackHole(measurement.arranged())
                }
            }
        }
    }
}
