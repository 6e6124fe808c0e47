// Shared fixtures: one text engine, the standard stylesheet, and arithmetic helpers that
// derive expected sizes from the fonts' own metrics.

import GalleyJSON
import GalleyLayout
import GalleyTestSupport
import GalleyText
import Testing

enum Fixture {
    static let engine = SharedEngine.bundled
    static let stylesheet = Stylesheet.standard
    static let widths: [Double] = [320, 375, 414, 768]
    static let scales: [Double] = [1, 2, 3]

    static func environment(scale: Double, direction: LayoutEnvironment.Direction = .auto) -> LayoutEnvironment {
        LayoutEnvironment(textEngine: engine, scale: scale, direction: direction)
    }

    static func metric(_ name: String) -> Double { stylesheet.metrics[name]! }

    static func face(_ styleName: String) -> FontFace {
        let spec = stylesheet.textStyles[styleName]!
        return try! engine.fonts.face(for: .family(spec.family, weight: spec.weight, italic: spec.italic))
    }

    static func size(_ styleName: String) -> Double { stylesheet.textStyles[styleName]!.size }

    /// One line's height in a style, from the face's metrics: (ascender + descender + line gap)
    /// / units per em × size.
    static func lineHeight(_ styleName: String) -> Double {
        let metrics = face(styleName).metrics
        return Double(metrics.ascender + metrics.descender + metrics.lineGap) / Double(metrics.unitsPerEm) * size(styleName)
    }

    static func ascent(_ styleName: String) -> Double {
        let metrics = face(styleName).metrics
        return Double(metrics.ascender) / Double(metrics.unitsPerEm) * size(styleName)
    }

    /// The engine's style for a stylesheet style.
    static func textStyle(_ styleName: String) -> TextStyle {
        let style = stylesheet.textStyles[styleName]!
        return TextStyle(font: .family(style.family, weight: style.weight, italic: style.italic), size: style.size)
    }

    /// How many lines the text engine breaks `text` into (the engine's own tests check where).
    static func lines(_ text: String, _ styleName: String, width: Double, maximum: Int = 0) -> Int {
        let style = stylesheet.textStyles[styleName]!
        let textStyle = TextStyle(font: .family(style.family, weight: style.weight, italic: style.italic), size: style.size)
        return try! engine.measure(
            text, style: textStyle, width: width, paragraph: ParagraphStyle(lineBreakMode: maximum > 0 ? .truncateTail : .wordWrap, maximumLines: maximum)
        ).lineCount
    }

    /// The unwrapped width of `text` in a style.
    static func naturalWidth(_ text: String, _ styleName: String) -> Double {
        let style = stylesheet.textStyles[styleName]!
        let textStyle = TextStyle(font: .family(style.family, weight: style.weight, italic: style.italic), size: style.size)
        return try! engine.measure(text, style: textStyle, width: .infinity).size.width
    }

    /// `value` rounded up to device pixels.
    static func ceil(_ value: Double, _ scale: Double) -> Double { (value * scale - 1e-9).rounded(.up) / scale }

    /// A label's height: its line count times the style's line height, rounded up to pixels.
    static func textHeight(_ text: String, _ styleName: String, width: Double, maximum: Int = 0, scale: Double) -> Double {
        ceil(Double(lines(text, styleName, width: width, maximum: maximum)) * lineHeight(styleName), scale)
    }

    /// A rectangle with its edges rounded to the nearest pixel.
    static func snap(_ x: Double, _ y: Double, _ width: Double, _ height: Double, _ scale: Double) -> LayoutRect {
        func round(_ value: Double) -> Double { (value * scale).rounded() / scale }
        return LayoutRect(x: round(x), y: round(y), width: round(x + width) - round(x), height: round(y + height) - round(y))
    }

    static func item(_ kind: String, _ fields: JSONObject) -> ItemDescriptor { ItemDescriptor(id: kind, kind: kind, fields: fields) }
}

extension LayoutRect {
    func isClose(to other: LayoutRect) -> Bool {
        abs(x - other.x) < 1e-9 && abs(y - other.y) < 1e-9 && abs(width - other.width) < 1e-9 && abs(height - other.height) < 1e-9
    }
}

/// A width and scale to check a template at.
struct Geometry: Sendable, CustomTestStringConvertible {
    var width: Double
    var scale: Double
    var testDescription: String { "\(Int(width))@\(Int(scale))x" }

    static let all = Fixture.widths.flatMap { width in Fixture.scales.map { Geometry(width: width, scale: $0) } }
}
