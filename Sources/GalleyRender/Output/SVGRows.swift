// One SVG document made of rows cairo drew one at a time: each row a `g` of its own, its ids
// made its own. (cairo 1.16's SVG surface leaks memory for every group pushed, so rows are not
// grouped while drawing.)

import Foundation

/// An SVG document joined from rows' SVG drawings.
struct SVGRows {
    private let width: Double
    private let height: Double
    private let background: RenderColor?
    private var definitions: [UInt8] = []
    private var rows: [UInt8] = []
    private var count = 0

    init(width: Double, height: Double, background: RenderColor?) {
        (self.width, self.height, self.background) = (width, height, background)
    }

    /// Adds a row's drawing (one of cairo's SVG documents) with its top-left corner at (`x`, `y`).
    mutating func add(_ drawing: [UInt8], x: Double, y: Double) {
        count += 1
        let text = Self.prefixingIDs(String(decoding: drawing, as: UTF8.self), with: "row\(count)-")
        if let start = text.range(of: "<defs>"), let end = text.range(of: "</defs>", range: start.upperBound..<text.endIndex) {
            definitions += Array(text[start.upperBound..<end.lowerBound].utf8)
        }
        // The drawing is what follows the definitions (or the svg element), up to the document's end.
        let bodyStart = text.range(of: "</defs>")?.upperBound ?? text.range(of: ">", range: text.range(of: "<svg")!.upperBound..<text.endIndex)!.upperBound
        let bodyEnd = text.range(of: "</svg>", options: .backwards)!.lowerBound
        rows += Array("<g id=\"row\(count)\" transform=\"translate(\(Self.number(x)),\(Self.number(y)))\">".utf8)
        rows += Array(text[bodyStart..<bodyEnd].utf8)
        rows += Array("</g>\n".utf8)
    }

    /// The joined document.
    var document: [UInt8] {
        let (w, h) = (Self.number(width), Self.number(height))
        var document = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(w)pt" height="\(h)pt" \
            viewBox="0 0 \(w) \(h)" version="1.1">
            <defs>

            """.utf8)
        document += definitions
        document += Array("</defs>\n".utf8)
        if let background {
            let channels = [background.red, background.green, background.blue].map { Self.number(($0 * 255).rounded()) }
            document += Array(
                "<rect x=\"0\" y=\"0\" width=\"\(w)\" height=\"\(h)\" style=\"fill:rgb(\(channels.joined(separator: ",")));fill-opacity:\(Self.number(background.alpha));stroke:none;\"/>\n"
                    .utf8)
        }
        document += rows
        document += Array("</svg>\n".utf8)
        return document
    }

    /// `svg` with every id, and every reference to one, prefixed.
    private static func prefixingIDs(_ svg: String, with prefix: String) -> String {
        svg.replacingOccurrences(of: "id=\"", with: "id=\"\(prefix)")
            .replacingOccurrences(of: "href=\"#", with: "href=\"#\(prefix)")
            .replacingOccurrences(of: "url(#", with: "url(#\(prefix)")
    }

    /// A length as SVG writes it: without a fraction when it has none.
    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
