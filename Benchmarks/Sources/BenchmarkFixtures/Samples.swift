// The benchmark fixtures (Fixtures/samples.json), the shared engine, and the Pango peer.

import Foundation
import GalleyJSON
import GalleyLayout
import GalleyText
import PangoComparison

/// One sample text.
public struct Sample: Decodable, Sendable {
    /// Its ISO 15924 script code ("Latn").
    public var script: String
    /// Its language (BCP 47), when it matters for breaking.
    public var lang: String?
    /// The text.
    public var text: String
}

/// Real text in several scripts and lengths; see `Fixtures/README.md`.
public enum Samples {
    struct File: Decodable {
        var labels: [Sample]
        var sentences: [Sample]
        var paragraphs: [Sample]
    }

    /// The benchmark package's folder, and the Galley package above it.
    public static let benchmarksDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The Galley package's folder.
    public static let packageDirectory = benchmarksDirectory.deletingLastPathComponent()

    static let file: File = {
        let url = benchmarksDirectory.appendingPathComponent("Fixtures/samples.json")
        do { return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)) } catch { fatalError("cannot read \(url.path): \(error)") }
    }()

    /// Short texts: names, titles, button labels.
    public static var labels: [Sample] { file.labels }
    /// Sentences of a few lines at the benchmarks' width.
    public static var sentences: [Sample] { file.sentences }
    /// Paragraphs of many lines.
    public static var paragraphs: [Sample] { file.paragraphs }

    /// The font every benchmark measures in.
    public static let style = TextStyle(font: .family("Noto Sans"), size: 15)
    /// The width every benchmark measures at, in points.
    public static let width = 320.0

    /// An engine over the bundled fonts with a warm shape cache for `samples`.
    public static func warmEngine(for samples: [Sample]) -> TextEngine {
        let engine = try! TextEngine()
        for sample in samples { _ = try! engine.measure(sample.text, style: style, width: width, paragraph: ParagraphStyle(language: sample.lang)) }
        return engine
    }

    /// 64 rows of `kind` from the Latin fixtures: the rows the row benchmarks measure.
    public static func rowItems(kind: String) -> [ItemDescriptor] {
        let sentences = sentences.filter { $0.script == "Latn" }
        let labels = labels.filter { $0.script == "Latn" }
        return (0..<64).map { index in
            ItemDescriptor(
                id: "\(index)", kind: kind,
                fields: [
                    "title": .string(labels[index % labels.count].text), "caption": .string(labels[(index + 7) % labels.count].text),
                    "text": .string(sentences[index % sentences.count].text), "timestamp": .string("\(index % 12 + 1):\(index % 50 + 10) PM"),
                    "subtitle": .string(sentences[(index + 3) % sentences.count].text), "imageURL": "https://example.com/a.png",
                    "image": ["width": .integer(40 + index % 30), "height": .integer(40 + index % 20)],
                ])
        }
    }

    /// `count` message rows as `scripts/make-rows.py` writes them: labels for titles and captions,
    /// two Latin, Greek or Cyrillic sentences for a text (a text comes back rarely, as real
    /// text's do), an avatar on every third row. Deterministic.
    public static func messageRows(count: Int) -> [ItemDescriptor] {
        let scripts: Set<String> = ["Latn", "Grek", "Cyrl"]
        let sentences = sentences.filter { scripts.contains($0.script) }.map(\.text)
        let labels = labels.filter { scripts.contains($0.script) }.map(\.text)
        var state: UInt64 = 20_261_122
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { index in
            var fields: JSONObject = [
                "title": .string(labels[next(labels.count)]), "caption": .string(labels[next(labels.count)]),
                "text": .string(sentences[next(sentences.count)] + " " + sentences[next(sentences.count)]),
                "timestamp": .string("\(next(12) + 1):\(next(50) + 10) PM"),
            ]
            if index % 3 == 0 { fields["imageURL"] = .string("https://example.com/avatars/\(index % 500).png") }
            return ItemDescriptor(id: "\(index)", kind: "message", fields: fields)
        }
    }

    /// An engine that caches nothing: every measurement analyses and shapes from scratch.
    public static func coldEngine() -> TextEngine {
        TextEngine(fonts: try! FontCollection.bundled(), shapeCacheByteLimit: 0, paragraphCacheByteLimit: 0)
    }
}

/// Pango measuring with the same font files (see `PangoMeasurer`), as the benchmarks use it.
public struct PangoPeer: Sendable {
    private let measurer: PangoMeasurer

    /// Pango with the bundled fonts; stops the benchmark when Pango cannot be loaded.
    public init() {
        do { measurer = try PangoMeasurer.bundled() } catch { fatalError("\(error)") }
    }

    /// The height Pango gives `text` at `width` (at most `maximumLines` lines, the last ellipsized, when > 0).
    public func height(
        of text: String, width: Double = Samples.width, size: Double = 15, language: String? = nil, maximumLines: Int = 0
    ) -> Double {
        measurer.height(of: text, size: size, width: width, language: language, maximumLines: maximumLines)
    }
}
