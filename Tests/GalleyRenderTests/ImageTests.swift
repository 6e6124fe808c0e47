// Images drawn from PNG files in the folder a caller names, and from nowhere else.

import CCairo
import Foundation
import GalleyJSON
import GalleyLayout
import Testing

@testable import GalleyRender

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Images from an image folder")
struct ImageTests {
    typealias F = RenderFixture

    /// A `size` × `size` PNG of one opaque colour (0xRRGGBB), written with cairo.
    static func writePNG(_ path: String, color: UInt32, size: Int32 = 20) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, size, size)!
        let context = cairo_create(surface)!
        cairo_set_source_rgb(context, Double(color >> 16 & 0xFF) / 255, Double(color >> 8 & 0xFF) / 255, Double(color & 0xFF) / 255)
        cairo_paint(context)
        cairo_destroy(context)
        cairo_surface_write_to_png(surface, path)
        cairo_surface_destroy(surface)
    }

    /// The colour (0xRRGGBB) at the centre of the image node of a message row whose image
    /// source is `source`, drawn with `folder`.
    static func imageColor(source: String, folder: ImageFolder?) throws -> UInt32 {
        let (sheet, node) = try sheet(source: source, folder: folder)
        let image = try sheet.image()
        let (x, y) = (Int((node.frame.x + node.frame.width / 2) * 2), Int((node.frame.y + node.frame.height / 2) * 2))
        return image.pixels[y * image.width + x] & 0xFF_FFFF
    }

    /// A sheet of one message row whose image source is `source`, at two widths, and the row's
    /// image node.
    static func sheet(source: String, folder: ImageFolder?) throws -> (RowSheet, ArrangedNode) {
        let item = ItemDescriptor(id: "m", kind: "message", fields: ["title": "Ada", "text": "Hello", "imageURL": .string(source)])
        let template = F.registry.template(forKind: "message")!
        let rows = try [320.0, 375].map { try template.measure(item, width: $0, environment: F.environment(scale: 2)).arranged() }
        let node = try #require(rows[0].nodes.first { $0.type == "image" && !$0.isCollapsed })
        #expect(node.imageSource == source)
        return (RowSheet(columns: [[rows[0]], [rows[1]]], scale: 2, background: nil, drawsSeparators: false, imageFolder: folder), node)
    }

    @Test("A source naming a PNG in the folder is drawn from it; any other source, or no folder, is a placeholder, and the sheet says why")
    func onlyTheFolderIsRead() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("galley-images-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("images")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let red: UInt32 = 0xFF0000
        let placeholder: UInt32 = 0xE5E5EA
        Self.writePNG(folder.appendingPathComponent("red.png").path, color: red)
        Self.writePNG(root.appendingPathComponent("outside.png").path, color: red)
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: root.appendingPathComponent("outside.png").path)
        try Data("not a PNG".utf8).write(to: folder.appendingPathComponent("fake.png"))
        // A header claiming 100,000 pixels a side: refused before anything is decoded.
        var huge: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        huge += [0x00, 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0, 8, 6, 0, 0, 0, 0, 0, 0, 0]
        try Data(huge).write(to: folder.appendingPathComponent("huge.png"))

        // A PNG cut short after its header: refused by the decoder.
        let whole = try Data(contentsOf: folder.appendingPathComponent("red.png"))
        try whole.prefix(40).write(to: folder.appendingPathComponent("cut.png"))
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub.png"), withIntermediateDirectories: true)
        // A FIFO with no writer: opening it to read would wait forever.
        #expect(mkfifo(folder.appendingPathComponent("pipe.png").path, 0o600) == 0)

        let images = try ImageFolder(path: folder.path)
        let encoded = "file://localhost\(folder.path)/re%64.png"
        for source in ["red.png", "file://\(folder.path)/red.png", encoded, "\(folder.path)/red.png", "./red.png"] {
            #expect(try Self.imageColor(source: source, folder: images) == red, "\(source)")
            #expect(try Self.sheet(source: source, folder: images).0.drawing(as: .png).imagesNotDrawn.isEmpty)
        }
        let refused: [(String, ImageProblem)] = [
            ("../outside.png", .notInFolder), (root.appendingPathComponent("outside.png").path, .notInFolder), ("link.png", .notInFolder),
            ("fake.png", .notPNG), ("huge.png", .tooManyPixels(width: 100_000, height: 100_000)), ("missing.png", .notInFolder),
            ("https://example.com/red.png", .notAPath), ("cut.png", .undecodable), ("sub.png", .notAFile), ("pipe.png", .notAFile), (".", .notAFile),
            ("file://example.com/red.png", .notAPath), ("file://\(folder.path)/red%2.png", .notAPath),
        ]
        for (source, problem) in refused {
            #expect(try Self.imageColor(source: source, folder: images) == placeholder, "\(source)")
            // Said once, though the row is drawn at two widths, in every format.
            for format in [RenderFormat.png, .svg, .pdf] {
                let notDrawn = try Self.sheet(source: source, folder: images).0.drawing(as: format).imagesNotDrawn
                #expect(notDrawn == [ImageNotDrawn(itemID: "m", source: source, problem: problem)], "\(source) as \(format)")
            }
        }
        #expect(try Self.imageColor(source: "red.png", folder: nil) == placeholder)
        #expect(try Self.sheet(source: "red.png", folder: nil).0.drawing(as: .png).imagesNotDrawn.isEmpty)
        #expect(throws: RenderError.self) { try ImageFolder(path: root.appendingPathComponent("missing").path) }
        #expect(throws: RenderError.self) { try ImageFolder(path: folder.appendingPathComponent("red.png").path) }
    }

    @Test("Every source that is not in the folder is told alike, whether what it names outside exists or not")
    func nothingOutsideIsTold() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("galley-images-\(UUID().uuidString)")
        let folder = root.appendingPathComponent("images")
        let secret = root.appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: secret, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let red: UInt32 = 0xFF0000
        Self.writePNG(folder.appendingPathComponent("red.png").path, color: red)
        Self.writePNG(root.appendingPathComponent("outside.png").path, color: red)
        Self.writePNG(secret.appendingPathComponent("kept.png").path, color: red)
        let links = [
            ("out.png", root.appendingPathComponent("outside.png").path), ("dead.png", root.appendingPathComponent("gone.png").path),
            ("outdir", secret.path), ("alias", folder.path),
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(name).path, withDestinationPath: target)
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("named").path, withDestinationPath: folder.path)
        let images = try ImageFolder(path: folder.path)

        // Pairs of sources alike but for whether what they name outside the folder exists: a
        // message that differed between them would tell.
        let outside = [
            "../outside.png", "../nowhere.png", "../secret/../images/red.png", "../nowhere/../images/red.png", "sub/../../outside.png",
            "sub/../../nowhere.png", root.appendingPathComponent("outside.png").path, root.appendingPathComponent("nowhere.png").path,
            "out.png", "dead.png", "outdir/kept.png", "outdir/nowhere.png", "/etc/passwd", "/nowhere/x.png", "file:///etc/passwd",
            "file:///nowhere/x.png", "missing.png", "sub/missing.png", "red.png/x.png",
        ]
        var messages = Set<String>()
        for source in outside {
            let notDrawn = try Self.sheet(source: source, folder: images).0.drawing(as: .png).imagesNotDrawn
            #expect(notDrawn.map(\.problem) == [.notInFolder], "\(source)")
            messages.formUnion(notDrawn.map(\.problem.description))
        }
        #expect(messages == ["no such file in the folder"])

        // What stays inside is drawn: `..` within the folder, a link to the folder itself, and an
        // absolute path through the name the folder was given.
        for source in ["sub/../red.png", "./sub/./../red.png", "alias/red.png", "\(folder.path)/sub/../red.png"] {
            #expect(try Self.imageColor(source: source, folder: images) == red, "\(source)")
        }
        let named = try ImageFolder(path: root.appendingPathComponent("named").path)
        #expect(named.path == images.path)
        for source in [root.appendingPathComponent("named/red.png").path, "\(folder.path)/red.png"] {
            #expect(try Self.imageColor(source: source, folder: named) == red, "\(source)")
        }
    }

    /// A sheet of one message row a source at 320 points, in one column.
    static func sheet(sources: [String], folder: ImageFolder?) throws -> RowSheet {
        let template = F.registry.template(forKind: "message")!
        let rows = try sources.enumerated().map { index, source in
            let item = ItemDescriptor(id: "m\(index)", kind: "message", fields: ["title": "Ada 🎉", "text": "Hello", "imageURL": .string(source)])
            return try template.measure(item, width: 320, environment: F.environment(scale: 2)).arranged()
        }
        return RowSheet(columns: [rows], scale: 2, background: nil, drawsSeparators: false, imageFolder: folder)
    }

    /// A folder of 20-pixel red, green and blue PNGs, removed after `body`.
    static func withColorFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-images-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, color) in [("red", 0xFF0000), ("green", 0x00FF00), ("blue", 0x0000FF)] as [(String, UInt32)] {
            Self.writePNG(folder.appendingPathComponent("\(name).png").path, color: color)
        }
        try body(folder)
    }

    @Test("A file is decoded once a drawing, however many paths name it; a copy of it is another file")
    func decodedOncePerFile() throws {
        try Self.withColorFolder { folder in
            let red = folder.appendingPathComponent("red.png").path
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.png").path, withDestinationPath: red)
            #expect(link(red, folder.appendingPathComponent("hard.png").path) == 0)
            try FileManager.default.copyItem(atPath: red, toPath: folder.appendingPathComponent("copy.png").path)
            let images = try ImageFolder(path: folder.path)
            let names = ["red.png", "./red.png", "././red.png", "sub/../red.png", red, "file://\(red)", "link.png", "hard.png", "red.png"]
            for format in RenderFormat.allCases {
                let drawing = try Self.sheet(sources: names + ["copy.png"], folder: images).drawing(as: format)
                #expect(drawing.imagesNotDrawn.isEmpty)
                #expect(drawing.imagesDecoded == 2, "\(format)")
            }
        }
    }

    @Test("The images of one drawing decode at most the folder's pixels in all: those past it are placeholders, and said")
    func pixelsInAllBounded() throws {
        try Self.withColorFolder { folder in
            // Room for two of the three 20 × 20 images.
            let images = try ImageFolder(path: folder.path, maximumDecodedPixels: 2 * 20 * 20 + 399)
            let sheet = try Self.sheet(sources: ["red.png", "green.png", "blue.png", "./red.png", "sub/../green.png"], folder: images)
            for format in RenderFormat.allCases {
                let drawing = try sheet.drawing(as: format)
                #expect(drawing.imagesNotDrawn == [ImageNotDrawn(itemID: "m2", source: "blue.png", problem: .tooManyPixelsInDrawing(limit: 1_199))])
                #expect(drawing.imagesDecoded == 2)
            }
            #expect(ImageProblem.tooManyPixelsInDrawing(limit: 1_199).description.contains("1199 pixels"))
            // The third row's image is a grey box, the others their colours.
            let image = try sheet.image()
            let colors = sheet.columns[0].enumerated().map { index, row -> UInt32 in
                let node = row.nodes.first { $0.type == "image" && !$0.isCollapsed }!
                let y = sheet.columns[0][..<index].reduce(0) { $0 + $1.height } + node.frame.y + node.frame.height / 2
                return image.pixels[Int(y * 2) * image.width + Int((node.frame.x + node.frame.width / 2) * 2)] & 0xFF_FFFF
            }
            #expect(colors == [0xFF0000, 0x00FF00, 0xE5E5EA, 0xFF0000, 0x00FF00])
        }
    }

    @Test("In SVG an image drawn in many rows is embedded once and referred to by each; the document is the same bytes every time")
    func svgEmbedsOnce() throws {
        try Self.withColorFolder { folder in
            let images = try ImageFolder(path: folder.path)
            let sheet = try Self.sheet(sources: (0..<30).map { ["red.png", "./red.png", "sub/../red.png"][$0 % 3] } + ["green.png"], folder: images)
            let svg = try sheet.data(as: .svg)
            let text = String(decoding: svg, as: UTF8.self)
            // Red in thirty rows, green in one, and the colour emoji in every row's title: three.
            #expect(text.components(separatedBy: "data:image/png;base64,").count - 1 == 3)
            #expect(text.components(separatedBy: "<image ").count - 1 == 3)
            let parser = XMLParser(data: Data(svg))
            let elements = RootElement()
            parser.delegate = elements
            #expect(parser.parse())
            #expect(Set(elements.references).isSubset(of: Set(elements.ids)) && Set(elements.ids).count == elements.ids.count)
            let uses = Dictionary(grouping: elements.references.filter { $0.hasPrefix("image") }, by: { $0 }).mapValues(\.count)
            #expect(uses == ["image1": 30, "image2": 31, "image3": 1])
            // The embedded image is the file's pixels, decoded by cairo apart from the drawing.
            let start = try #require(text.range(of: "<image id=\"image1\""))
            let link = try #require(text.range(of: "base64,", range: start.upperBound..<text.endIndex))
            let end = try #require(text.range(of: "\"", range: link.upperBound..<text.endIndex))
            let png = try #require(Data(base64Encoded: String(text[link.upperBound..<end.lowerBound])))
            let pixels = try #require(PNGDecoderTests.cairoPixels([UInt8](png)))
            #expect(pixels.rows.count == 20 && pixels.rows.allSatisfy { $0 == Array(repeating: [0, 0, 0xFF, 0xFF], count: 20).flatMap { $0 } })
            let again = try sheet.data(as: .svg)
            let same = svg == again  // compared apart: a failure would print every byte
            #expect(same)
        }
    }
}
