// One SVG document made of rows cairo drew one at a time: each row a `g` of its own, its ids
// made its own, and the drawing's images embedded once for all rows. (cairo 1.16's SVG surface
// leaks memory for every group pushed, so rows are not grouped while drawing.)

import Foundation

/// An SVG document joined from rows' SVG drawings.
struct SVGRows {
    private let width: Double
    private let height: Double
    private let background: RenderColor?
    private var definitions: [UInt8] = []
    private var rows: [UInt8] = []
    private var count = 0
    /// The images the rows draw (tagged by ``DrawingImages``): cairo's number for each (its
    /// surface's, the same in every row) → its place among the drawing's images.
    private var sharedImages: [Substring: Int] = [:]
    /// Their elements as cairo wrote them, in the order first drawn, each with its reference
    /// where the pixels go.
    private var sharedElements: [(place: Int, element: String)] = []

    init(width: Double, height: Double, background: RenderColor?) {
        (self.width, self.height, self.background) = (width, height, background)
    }

    /// Adds a row's drawing (one of cairo's SVG documents) with its top-left corner at (`x`, `y`).
    mutating func add(_ drawing: [UInt8], x: Double, y: Double) {
        count += 1
        let prefix = "row\(count)-"
        var text = takingSharedImages(from: String(decoding: drawing, as: UTF8.self))
        text = Self.prefixingIDs(text, with: prefix)
        text = renumberingImages(in: text, prefix: prefix)
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

    /// The joined document, each shared image embedded once as the PNG `png` gives for its place
    /// among the drawing's images.
    ///
    /// - Throws: ``RenderError/cairo(_:)`` when an image cannot be written as a PNG.
    func document(png: (Int) -> [UInt8]?) throws(RenderError) -> [UInt8] {
        let (w, h) = (Self.number(width), Self.number(height))
        var document = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\(w)pt" height="\(h)pt" \
            viewBox="0 0 \(w) \(h)" version="1.1">
            <defs>

            """.utf8)
        for (place, element) in sharedElements {
            guard let data = png(place) else { throw .cairo("an image could not be written as a PNG") }
            let reference = DrawingImages.reference(to: place)
            let link = "data:image/png;base64," + Data(data).base64EncodedString()
            document += Array(element.replacingOccurrences(of: "\"\(reference)\"", with: "\"\(link)\"").utf8)
        }
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

    /// `svg` without the elements of the drawing's tagged images (cairo writes them as
    /// `<image id="image12" … xlink:href="galley-image:3"/>`), which are noted to be embedded once.
    private mutating func takingSharedImages(from svg: String) -> String {
        var result = ""
        var rest = svg[...]
        let opening = "<image id=\"image"
        while let start = rest.range(of: opening) {
            guard let end = rest.range(of: "/>", range: start.upperBound..<rest.endIndex) else { break }
            let element = rest[start.lowerBound..<end.upperBound]
            let number = rest[start.upperBound...].prefix { $0.isASCII && $0.isNumber }
            guard let link = element.range(of: "xlink:href=\"\(DrawingImages.referencePrefix)"),
                let place = Int(element[link.upperBound...].prefix { $0.isASCII && $0.isNumber })
            else {
                result += rest[..<end.upperBound]
                rest = rest[end.upperBound...]
                continue
            }
            result += rest[..<start.lowerBound]
            rest = rest[end.upperBound...]
            if rest.first == "\n" { rest = rest.dropFirst() }
            if sharedImages[number] == nil {
                sharedImages[number] = place
                let id = "id=\"image\(number)\""
                sharedElements.append((place, String(element).replacingOccurrences(of: id, with: "id=\"image\(place)\"") + "\n"))
            }
        }
        return result + rest
    }

    /// `svg` (its ids prefixed with `prefix`) with each reference to a shared image made to its
    /// one element, and the row's other images (none so far) numbered from 1 in order: cairo
    /// numbers them across the process, and the same drawing must make the same bytes.
    private func renumberingImages(in svg: String, prefix: String) -> String {
        var result = ""
        var rest = svg[...]
        var local: [Substring: Int] = [:]
        let word = prefix + "image"
        while let found = rest.range(of: word) {
            let number = rest[found.upperBound...].prefix { $0.isASCII && $0.isNumber }
            let before = rest[..<found.lowerBound]
            // Only ids and references: `id="row1-image12"`, `href="#row1-image12"`.
            guard !number.isEmpty, before.hasSuffix("\"") || before.hasSuffix("\"#"), rest[number.endIndex...].hasPrefix("\"") else {
                result += rest[..<found.upperBound]
                rest = rest[found.upperBound...]
                continue
            }
            result += before
            if let place = sharedImages[number] {
                result += "image\(place)"
            } else {
                let renumbered = local[number] ?? local.count + 1
                local[number] = renumbered
                result += word + String(renumbered)
            }
            rest = rest[number.endIndex...]
        }
        return result + rest
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
