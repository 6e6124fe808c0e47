// The text engine's hot paths, each beside Pango measuring the same strings in the same run.

import Benchmark
import BenchmarkFixtures
import GalleyText

let benchmarks: @Sendable () -> Void = {
    // One call per iteration, reported per call (1,000 calls per sample).
    let perCall = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .instructions, .mallocCountTotal, .throughput],
        timeUnits: .nanoseconds, scalingFactor: .kilo, maxDuration: .seconds(3), maxIterations: 1_000_000)

    let sentences = Samples.sentences
    let paragraphs = Samples.paragraphs

    /// Measures the sentences round-robin, one per iteration; `before` runs ahead of each call.
    func measureSentences(_ benchmark: Benchmark, with engine: TextEngine, before: () -> Void = {}) throws {
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let sample = sentences[index % sentences.count]
            before()
            blackHole(try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang)))
        }
    }

    // MARK: - Text, cold: caches emptied before every call, so everything is shaped

    Benchmark("Text cold/Galley", configuration: perCall) { benchmark in
        let engine = try TextEngine()
        try measureSentences(benchmark, with: engine) { engine.removeCachedShapes() }
    }

    Benchmark("Text cold/Pango", configuration: perCall) { benchmark in
        let pango = PangoPeer()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let sample = sentences[index % sentences.count]
            blackHole(pango.height(of: sample.text, language: sample.lang ?? "en"))
        }
    }

    // MARK: - Text, warm: every segment already in the shape cache

    Benchmark("Text warm/Galley", configuration: perCall) { benchmark in
        try measureSentences(benchmark, with: Samples.warmEngine(for: sentences))
    }

    // The same, with only the word-level shape cache (no paragraph cache): ICU analysis, font
    // fallback and itemization run every time, shaping does not.
    Benchmark("Text warm segments/Galley", configuration: perCall) { benchmark in
        let engine = TextEngine(fonts: try FontCollection.bundled(), paragraphCacheByteLimit: 0)
        for sample in sentences { blackHole(try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang))) }
        try measureSentences(benchmark, with: engine)
    }

    // Pango has no shape cache: its warm measurement is its cold one, with font caches warm.
    Benchmark("Text warm/Pango", configuration: perCall) { benchmark in
        let pango = PangoPeer()
        for sample in sentences { blackHole(pango.height(of: sample.text, language: sample.lang ?? "en")) }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let sample = sentences[index % sentences.count]
            blackHole(pango.height(of: sample.text, language: sample.lang ?? "en"))
        }
    }

    // MARK: - Previews: a paragraph limited to two lines, the second truncated, caches emptied

    // A list cell's two-line preview of a post: Galley shapes only the start those lines show;
    // Pango, ellipsizing at two lines, lays out the paragraph.
    let preview = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)

    Benchmark("Text preview cold/Galley", configuration: perCall) { benchmark in
        let engine = try TextEngine()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            engine.removeCachedShapes()
            blackHole(try engine.measure(paragraphs[index % paragraphs.count].text, style: Samples.style, width: Samples.width, paragraph: preview))
        }
    }

    Benchmark("Text preview cold/Pango", configuration: perCall) { benchmark in
        let pango = PangoPeer()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(pango.height(of: paragraphs[index % paragraphs.count].text, maximumLines: 2))
        }
    }

    // MARK: - Re-layout: a measured paragraph broken at a new width (rotation, resize)

    Benchmark("Relayout/Galley", configuration: perCall) { benchmark in
        let engine = Samples.warmEngine(for: paragraphs)
        let shaped = paragraphs.map { try! engine.shape(AttributedText($0.text, style: Samples.style)) }
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(shaped[index % shaped.count].measure(width: index & 1 == 0 ? 320 : 568))
        }
    }

    Benchmark("Relayout/Pango", configuration: perCall) { benchmark in
        let pango = PangoPeer()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(pango.height(of: paragraphs[index % paragraphs.count].text, width: index & 1 == 0 ? 320 : 568))
        }
    }
}
