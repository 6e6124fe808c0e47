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
        for sample in sentences {
            blackHole(try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang)))
        }
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

    // MARK: - Hostile text: what a service must measure in bounded time and memory

    // One call per iteration, a few iterations: each call is milliseconds to seconds.
    let slow = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident], timeUnits: .milliseconds,
        maxDuration: .seconds(10), maxIterations: 20)

    // A paragraph of two million characters (the feed's paragraphs over and over), no line
    // limit: Galley measures it a window at a time; Pango lays out the whole of it.
    let long = String(paragraphs.map(\.text).joined(separator: " ").prefix(20_000))
    let longText = String(repeating: long + " ", count: 100)

    /// Measures `text` once per iteration, with Galley (caches off, as a new text in each call
    /// would find them) or with Pango.
    func measureEachIteration(_ benchmark: Benchmark, _ text: String, galley: Bool) throws {
        let engine = TextEngine(fonts: try FontCollection.bundled(), shapeCacheByteLimit: 0, paragraphCacheByteLimit: 0)
        let pango = galley ? nil : PangoPeer()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            if let pango { blackHole(pango.height(of: text)) } else { blackHole(try engine.measure(text, style: Samples.style, width: Samples.width)) }
        }
    }

    Benchmark("Text long paragraph/Galley", configuration: slow) { try measureEachIteration($0, longText, galley: true) }
    Benchmark("Text long paragraph/Pango", configuration: slow) { try measureEachIteration($0, longText, galley: false) }

    // One letter with ten thousand combining marks: HarfBuzz 6.0 looks back over every mark
    // for each mark's base, so one shaping of the run is quadratic; Galley shapes it thirty
    // marks at a time.
    let marks = "a" + String(repeating: "\u{301}", count: 10_000)
    Benchmark("Text combining marks/Galley", configuration: slow) { try measureEachIteration($0, marks, galley: true) }
    Benchmark("Text combining marks/Pango", configuration: slow) { try measureEachIteration($0, marks, galley: false) }

    // A sentence in a language tag no call has used before, every call: what tags cost that a
    // service's requests make up.
    Benchmark("Text new language tag/Galley", configuration: perCall) { benchmark in
        let engine = Samples.warmEngine(for: sentences)
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            let paragraph = ParagraphStyle(language: "ro-x-\(index)")
            blackHole(try engine.measure(sentences[index % sentences.count].text, style: Samples.style, width: Samples.width, paragraph: paragraph))
        }
    }

    Benchmark("Text new language tag/Pango", configuration: perCall) { benchmark in
        let pango = PangoPeer()
        benchmark.startMeasurement()
        for index in benchmark.scaledIterations {
            blackHole(pango.height(of: sentences[index % sentences.count].text, language: "ro-x-\(index)"))
        }
    }
}
