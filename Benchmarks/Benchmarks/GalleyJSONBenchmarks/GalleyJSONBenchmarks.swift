// Why Galley keeps a JSON parser of its own: parsing one JSON Lines row into a dynamic value with
// it, with Foundation's JSONSerialization, and with JSONDecoder into the same JSONValue.

import Benchmark
import BenchmarkFixtures
import Foundation
import GalleyJSON

let benchmarks: @Sendable () -> Void = {
    let url = Samples.packageDirectory.appendingPathComponent("Examples/items.jsonl")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else { fatalError("cannot read \(url.path)") }
    let lines = text.split(separator: "\n").map { Array($0.utf8) }
    let data = lines.map { Data($0) }
    let perRow = Benchmark.Configuration(
        metrics: [.wallClock, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(2), maxIterations: 100_000)

    Benchmark("JSON/row, Galley's parser", configuration: perRow) { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(try JSONParser.parse(lines[iteration % lines.count]))
        }
    }

    Benchmark("JSON/row, JSONSerialization", configuration: perRow) { benchmark in
        for iteration in benchmark.scaledIterations {
            blackHole(try JSONSerialization.jsonObject(with: data[iteration % data.count]))
        }
    }

    Benchmark("JSON/row, JSONDecoder into JSONValue", configuration: perRow) { benchmark in
        let decoder = JSONDecoder()
        for iteration in benchmark.scaledIterations {
            blackHole(try decoder.decode(JSONValue.self, from: data[iteration % data.count]))
        }
    }
}
