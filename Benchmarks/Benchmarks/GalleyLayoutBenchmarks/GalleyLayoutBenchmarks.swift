// Rows: measure and arrange with the built-in message, subtitle and image templates.

import Benchmark
import BenchmarkFixtures
import GalleyJSON
import GalleyLayout
import GalleyText

let benchmarks: @Sendable () -> Void = {
    let perRow = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 1_000_000)

    let sentences = Samples.sentences.filter { $0.script == "Latn" }
    let labels = Samples.labels.filter { $0.script == "Latn" }
    func items(_ kind: String) -> [Item] {
        (0..<64).map { index in
            Item(id: "\(index)", kind: kind, fields: [
                "title": .string(labels[index % labels.count].text), "caption": .string(labels[(index + 7) % labels.count].text),
                "text": .string(sentences[index % sentences.count].text), "timestamp": .string("\(index % 12 + 1):\(index % 50 + 10) PM"),
                "subtitle": .string(sentences[(index + 3) % sentences.count].text), "imageURL": "https://example.com/a.png",
                "image": ["width": .integer(40 + index % 30), "height": .integer(40 + index % 20)],
            ])
        }
    }

    for (kind, template) in [("message", BuiltInTemplates.message), ("subtitle", BuiltInTemplates.subtitle), ("image", BuiltInTemplates.image)] {
        let rows = items(kind)
        let compiled = try! CompiledTemplate(template)
        for warm in [false, true] {
            Benchmark("Rows \(warm ? "warm" : "cold")/\(kind)", configuration: perRow) { benchmark in
                let engine = warm ? Samples.warmEngine(for: []) : Samples.coldEngine()
                let environment = LayoutEnvironment(textEngine: engine, scale: 2)
                if warm { for row in rows { blackHole(arrange(try measure(row, template: compiled, width: 375, environment: environment))) } }
                benchmark.startMeasurement()
                for index in benchmark.scaledIterations {
                    let measurement = try measure(rows[index % rows.count], template: compiled, width: 375, environment: environment)
                    blackHole(arrange(measurement))
                }
            }
        }
    }
}
