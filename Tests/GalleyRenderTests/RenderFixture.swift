// Shared fixtures: one engine, the built-in templates, rows of the sample data, and each font
// file's head box read with FreeType here, apart from the engine.

import CFreeType
import GalleyJSON
import GalleyLayout
import GalleyRender
import GalleyTestSupport
import GalleyText

enum RenderFixture {
    static let engine = SharedEngine.bundled
    static let registry: TemplateRegistry = {
        do { return try BuiltInTemplates.registry() } catch { fatalError("\(error)") }
    }()

    static func environment(scale: Double, keepsTextLayouts: Bool = true) -> LayoutEnvironment {
        LayoutEnvironment(textEngine: engine, scale: scale, keepsTextLayouts: keepsTextLayouts)
    }

    /// Text from the examples' blog feed, in every field the built-in templates read.
    static func item(for kind: String, _ index: Int) -> ItemDescriptor {
        let titles = ["State of the Three20 Union", "TTTableViewController & didReceiveMemoryWarning", "Ε, ж and W — wide glyphs"]
        let summaries = [
            "I’ve been sitting on this topic for a little while now, and feel like I should finally weigh in on where the Three20 framework is at this point.",
            "Note: this is adapted from my post on the Three20 forums.",
            "Using a single TTTableViewController and a TTTabStrip can sometimes be an appropriate way to lazy-load several tables.",
        ]
        var fields: JSONObject = [
            "text": .string(summaries[index % 3]), "title": .string(titles[index % 3]), "caption": .string(titles[(index + 1) % 3]),
            "subtitle": .string(summaries[(index + 1) % 3]), "detail": .string("Detail \(index)"), "timestamp": .string("10:4\(index) PM"),
        ]
        if index % 2 == 0 {
            fields["url"] = .string("app://post/\(index)")
            fields["imageURL"] = .string("https://example.com/\(index).png")
            fields["image"] = .object(["width": .integer(40), "height": .integer(40)])
        }
        return ItemDescriptor(id: "\(kind)-\(index)", kind: kind, fields: fields)
    }

    /// Every built-in kind's rows at `width`, measured with their text layouts.
    static func rows(width: Double, scale: Double) throws -> [RowArrangement] {
        try BuiltInTemplates.all.keys.sorted().flatMap { kind in
            try (0..<3).map { index in
                try registry.template(forKind: kind)!.measure(item(for: kind, index), width: width, environment: environment(scale: scale))
                    .arranged()
            }
        }
    }

    /// A face's head box (`xMin`, `yMin`, `xMax`, `yMax`) in font units, and its units per em;
    /// for a bitmap font, its largest strike's advance, ascender and descender, in its pixels.
    struct HeadBox {
        var xMin, yMin, xMax, yMax: Double
        var unitsPerEm: Double
    }

    /// The head box of each face, read from its file.
    static func headBox(of face: FontFace) -> HeadBox {
        var library: FT_Library?
        FT_Init_FreeType(&library)
        defer { FT_Done_FreeType(library) }
        var ftFace: FT_Face?
        guard FT_New_Face(library, face.path, face.faceIndex, &ftFace) == 0, let ftFace else { fatalError("cannot open \(face.path)") }
        defer { FT_Done_Face(ftFace) }
        // A bitmap font (colour emoji) has no outlines, nor units: its largest strike's own
        // metrics bound its bitmaps, in that strike's pixels.
        if ftFace.pointee.units_per_EM == 0, ftFace.pointee.num_fixed_sizes > 0 {
            let strike = ftFace.pointee.num_fixed_sizes - 1
            FT_Select_Size(ftFace, strike)
            let metrics = ftFace.pointee.size.pointee.metrics
            return HeadBox(
                xMin: 0, yMin: Double(metrics.descender) / 64, xMax: Double(metrics.max_advance) / 64, yMax: Double(metrics.ascender) / 64,
                unitsPerEm: Double(ftFace.pointee.available_sizes[Int(strike)].y_ppem) / 64)
        }
        let box = ftFace.pointee.bbox
        return HeadBox(
            xMin: Double(box.xMin), yMin: Double(box.yMin), xMax: Double(box.xMax), yMax: Double(box.yMax),
            unitsPerEm: Double(ftFace.pointee.units_per_EM))
    }
}

extension RenderFixture {
    /// Where the fonts' head boxes let ink go around glyph origins, in points.
    struct InkBound: CustomStringConvertible {
        var left = Double.infinity, right = -Double.infinity, top = Double.infinity, bottom = -Double.infinity
        var description: String { "(\(left), \(top), \(right), \(bottom))" }

        /// Whether `ink`, a pixel box of an image drawn `scale` pixels a point with the layout's
        /// corner `margin` points in, lies within the bound: give or take the pixel an outline
        /// reaches into, and the half pixel cairo moves a glyph by (it draws each at its origin
        /// rounded to a whole pixel).
        func contains(_ ink: (minX: Int, minY: Int, maxX: Int, maxY: Int), scale: Double, margin: Double) -> Bool {
            let pixel = 1.5 / scale
            return Double(ink.minX) / scale - margin >= left - pixel && Double(ink.maxX) / scale - margin <= right + pixel
                && Double(ink.minY) / scale - margin >= top - pixel && Double(ink.maxY) / scale - margin <= bottom + pixel
        }
    }

    /// The bound of `runs`' ink from their faces' head boxes (read once each into `headBoxes`).
    static func inkBound(of runs: [GlyphRun], headBoxes: inout [String: HeadBox]) -> InkBound {
        var bound = InkBound()
        for run in runs {
            let key = "\(run.face.path)#\(run.face.faceIndex)"
            let box = headBoxes[key] ?? headBox(of: run.face)
            headBoxes[key] = box
            let scaleToPoints = run.size / box.unitsPerEm
            for position in run.positions {
                bound.left = min(bound.left, position.x + box.xMin * scaleToPoints)
                bound.right = max(bound.right, position.x + box.xMax * scaleToPoints)
                bound.top = min(bound.top, position.y - box.yMax * scaleToPoints)
                bound.bottom = max(bound.bottom, position.y - box.yMin * scaleToPoints)
            }
        }
        return bound
    }
}

extension RenderedImage {
    /// The box of every pixel drawn on (any alpha), in pixels: (minX, minY, maxX, maxY) with
    /// the max edges exclusive; nil when nothing is drawn.
    var inkBox: (minX: Int, minY: Int, maxX: Int, maxY: Int)? {
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)?
        for y in 0..<height {
            for x in 0..<width where alpha(x: x, y: y) != 0 {
                if var found = box {
                    found = (min(found.minX, x), min(found.minY, y), max(found.maxX, x + 1), max(found.maxY, y + 1))
                    box = found
                } else {
                    box = (x, y, x + 1, y + 1)
                }
            }
        }
        return box
    }
}
