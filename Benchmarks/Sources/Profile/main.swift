// A driver for profilers (valgrind --tool=callgrind): runs one hot path many times.
//
//     swift build -c release --product Profile
//     valgrind --tool=callgrind .build/release/Profile warm 2000
//     valgrind --tool=callgrind .build/release/Profile cold 1500 Latn,Cyrl,Grek   # those scripts' sentences only

import BenchmarkFixtures
import Foundation
import GalleyLayout
import GalleyTable
import GalleyText

let mode = CommandLine.arguments.dropFirst().first ?? "warm"
let count = CommandLine.arguments.dropFirst(2).first.flatMap(Int.init) ?? 1000
// An optional third argument keeps only the sentences in those scripts (ISO 15924, comma-separated).
let scripts = CommandLine.arguments.dropFirst(3).first.map { Set($0.split(separator: ",").map(String.init)) }
let sentences = Samples.sentences.filter { scripts?.contains($0.script) ?? true }
var total = 0.0
switch mode {
case "warm":
    let engine = Samples.warmEngine(for: sentences)
    for index in 0..<count {
        let sample = sentences[index % sentences.count]
        total += try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang)).size.height
    }
case "segments":
    // Warm shape cache, no paragraph cache: what a batch of new texts costs.
    let engine = TextEngine(fonts: try FontCollection.bundled(), paragraphCacheByteLimit: 0)
    for sample in sentences {
        _ = try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang))
    }
    for index in 0..<count {
        let sample = sentences[index % sentences.count]
        total += try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang)).size.height
    }
case "cold":
    let engine = try TextEngine()
    for index in 0..<count {
        let sample = sentences[index % sentences.count]
        engine.removeCachedShapes()
        total += try engine.measure(sample.text, style: Samples.style, width: Samples.width, paragraph: ParagraphStyle(language: sample.lang)).size.height
    }
case "pango":
    // Pango measuring the same sentences, to see how much of its time is HarfBuzz's shaping.
    let pango = PangoPeer()
    for index in 0..<count {
        let sample = sentences[index % sentences.count]
        total += pango.height(of: sample.text, language: sample.lang ?? "en")
    }
case "row":
    // A warm message row, measured and arranged with its text layouts, as the row benchmark does.
    let template = try CompiledTemplate(BuiltInTemplates.message)
    let environment = LayoutEnvironment(textEngine: Samples.warmEngine(for: []), scale: 2)
    let rows = Samples.rowItems(kind: "message")
    for row in rows { _ = try template.measure(row, width: 375, environment: environment).arranged() }
    for index in 0..<count {
        total += try template.measure(rows[index % rows.count], width: 375, environment: environment).arranged().height
    }
case "preview", "pango-preview":
    // The benchmark paragraphs as two-line previews (tail truncation), caches emptied: Galley,
    // or Pango ellipsizing at two lines.
    let preview = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)
    let engine = try TextEngine()
    let pango = PangoPeer()
    for index in 0..<count {
        let text = Samples.paragraphs[index % Samples.paragraphs.count].text
        if mode == "preview" {
            engine.removeCachedShapes()
            total += try engine.measure(text, style: Samples.style, width: Samples.width, paragraph: preview).size.height
        } else {
            total += pango.height(of: text, maximumLines: 2)
        }
    }
case "table-insert":
    var index = OffsetIndex(heights: (0..<1_000_000).map { Double(44 + $0 % 97) })
    for iteration in 0..<count { index.insert(60, at: (iteration &* 2_654_435_761) % index.count) }
    total = index.totalHeight
case "relayout":
    let engine = Samples.warmEngine(for: Samples.paragraphs)
    let shaped = Samples.paragraphs.map { try! engine.shape(AttributedText($0.text, style: Samples.style)) }
    for index in 0..<count { total += shaped[index % shaped.count].measure(width: index & 1 == 0 ? 320 : 568).size.height }
default:
    fatalError("modes: warm, segments, cold, pango, preview, pango-preview, row, relayout, table-insert")
}
print(total)
