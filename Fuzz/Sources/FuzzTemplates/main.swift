// A templates file end to end: it compiles or fails with errors; every template that compiles
// measures an item at any width and scale, with heights alone equal to full measurements, and
// arranges it with every frame inside its row.

import FuzzDriver
import GalleyJSON
import GalleyLayout
import GalleyText

private let engine: TextEngine = {
    do {
        let fonts = try FontCollection(access: .familiesOnly)
        return TextEngine(fonts: fonts, limits: TextLimits(maximumTextLength: 1 << 14, maximumRuns: 64))
    } catch { finding("cannot load the bundled fonts: \(error)") }
}()

/// An item with the fields templates commonly bind, when the input gives none.
private let defaultItem = ItemDescriptor(
    id: "x", kind: "k",
    fields: [
        "title": "A title that wraps onto a second line", "text": "Some body text", "subtitle": "Sub", "caption": "Caption",
        "imageURL": "http://a/b.png", "timestamp": "9:41", "w": 40, "h": 30, "tags": ["a", "b"], "author": ["name": "Ada"],
        "runs": [["text": "Bold ", "style": "tableFont"], ["text": "plain"]], "count": 3, "flag": true,
    ])

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzTemplates(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    // A templates file, then optionally a line feed and an item.
    let parts = bytes.split(separator: 0x0A, maxSplits: 1, omittingEmptySubsequences: false)
    var registry = TemplateRegistry()
    do {
        try registry.register(templatesJSON: String(decoding: parts[0], as: UTF8.self), limits: TemplateLimits(maximumDepth: 32, maximumNodes: 200))
    } catch {
        guard !"\(error)".isEmpty else { finding("an error without a message") }
        return 0
    }
    var item = defaultItem
    if parts.count > 1, let given = try? ItemDescriptor(json: String(decoding: parts[1], as: UTF8.self)) { item = given }
    for kind in registry.kinds {
        guard let template = try? registry.template(for: ItemDescriptor(id: item.id, kind: kind, fields: item.fields)) else { continue }
        for scale in [1.0, 3.0] {
            let environment = LayoutEnvironment(textEngine: engine, scale: scale)
            let widths: [Double] = [320, 0, 1, 17.5, 1_000_000]
            guard let measured = try? template.measure(item, widths: widths, environment: environment) else { continue }
            guard let heights = try? template.heights(item, widths: widths, environment: environment),
                heights == measured.map(\.height)
            else { finding("heights alone differ from the measurements' in '\(kind)'") }
            for measurement in measured {
                guard measurement.height.isFinite, measurement.height >= 0 else { finding("a height of \(measurement.height)") }
                let arrangement = measurement.arranged()
                for (name, frame) in arrangement.frames {
                    guard frame.minX >= 0, frame.maxX <= measurement.width, frame.minY >= 0, frame.maxY <= measurement.height,
                        frame.width >= 0, frame.height >= 0
                    else { finding("frame '\(name)' \(frame) outside a row \(measurement.width) × \(measurement.height)") }
                }
            }
        }
    }
    return 0
}

@_cdecl("FuzzTemplates_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzTemplates)
}
