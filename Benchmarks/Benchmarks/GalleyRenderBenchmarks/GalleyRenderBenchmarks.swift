// Drawing measured rows: Galley and cairo drawing the glyph runs measuring found, beside Pango
// and pangocairo laying out and drawing the same labels, in the same run.

import Benchmark
import BenchmarkFixtures
import GalleyJSON
import GalleyLayout
import GalleyRender
import GalleyText
import PangoComparison

let benchmarks: @Sendable () -> Void = {
    let perSheet = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput], timeUnits: .microseconds, maxDuration: .seconds(3),
        maxIterations: 100_000)
    let environment = LayoutEnvironment(textEngine: try! TextEngine(), scale: 2)
    let template = try! CompiledTemplate(BuiltInTemplates.message)
    let items = Array(Samples.rowItems(kind: "message").prefix(16))
    let rows = items.map { try! template.measure($0, width: 375, environment: environment).arranged() }
    let sheet = RowSheet(columns: [rows], scale: 2, drawsSeparators: false)

    // The same labels for Pango: each one's text in its style, at its frame's width and place,
    // as the message template gives them (field, style, most lines).
    let labels = [
        ("title", "title", "messageTitleFont", 1), ("timestamp", "timestamp", "messageTimestampFont", 1),
        ("caption", "caption", "messageCaptionFont", 1), ("message", "text", "messageTextFont", 2),
    ]
    var texts: [PangoMeasurer.DrawnText] = []
    var top = 0.0
    for (item, row) in zip(items, rows) {
        for (name, field, styleName, lines) in labels {
            guard let frame = row.frames[name], frame != .zero, case .string(let text)? = item.fields[field],
                let style = Stylesheet.standard.textStyles[styleName]
            else { continue }
            texts.append(
                PangoMeasurer.DrawnText(
                    text, family: style.family, size: style.size, weight: style.weight, italic: style.italic, width: frame.width, x: frame.x,
                    y: top + frame.y, maximumLines: lines))
        }
        top += row.height
    }
    let pango = try! PangoMeasurer.bundled(forDrawing: true)

    Benchmark("Render/Galley + cairo, 16 measured message rows", configuration: perSheet) { benchmark in
        blackHole(try sheet.image())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { blackHole(try sheet.image()) }
    }

    Benchmark("Render/Pango + pangocairo, the same labels laid out and drawn", configuration: perSheet) { benchmark in
        pango.draw(texts, width: 375, height: top, scale: 2)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations { pango.draw(texts, width: 375, height: top, scale: 2) }
    }
}
