// Golden images, where nothing else checks the whole picture: a right-to-left row and a
// wrapped row of chips, compared with a tolerance. `bash scripts/update-golden.sh` draws them
// again after a deliberate change.

import CCairo
import Foundation
import GalleyJSON
import GalleyLayout
import GalleyRender
import GalleyText
import Testing

@Suite("Golden images")
struct GoldenImageTests {
    typealias F = RenderFixture

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// Compares `sheet`, drawn, with the golden image `name`: the same size, and at most one
    /// pixel in 500 differing by more than 24 in any channel (what another cairo or FreeType
    /// release may move). With GALLEY_UPDATE_GOLDEN=1, writes the golden image instead.
    static func compare(_ sheet: RowSheet, with name: String) throws {
        let path = folder.appendingPathComponent(name).path
        if ProcessInfo.processInfo.environment["GALLEY_UPDATE_GOLDEN"] == "1" {
            try Data(sheet.data(as: .png)).write(to: URL(fileURLWithPath: path))
            return
        }
        let drawn = try sheet.image()
        let surface = try #require(cairo_image_surface_create_from_png(path))
        defer { cairo_surface_destroy(surface) }
        try #require(cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, "cannot read \(path): run scripts/update-golden.sh")
        let (width, height) = (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
        try #require(width == drawn.width && height == drawn.height, "\(name): \(drawn.width) × \(drawn.height), golden \(width) × \(height)")
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        let rowBytes = Int(cairo_image_surface_get_stride(surface))
        var differing = 0
        for y in 0..<height {
            for x in 0..<width {
                let golden = data.load(fromByteOffset: y * rowBytes + x * 4, as: UInt32.self)
                let pixel = drawn.pixels[y * width + x]
                for shift: UInt32 in [0, 8, 16, 24] {
                    let difference = abs(Int((golden >> shift) & 0xFF) - Int((pixel >> shift) & 0xFF))
                    if difference > 24 {
                        differing += 1
                        break
                    }
                }
            }
        }
        #expect(differing * 500 <= width * height, "\(name): \(differing) of \(width * height) pixels differ")
    }

    @Test("A right-to-left message row: mirrored, its text at the right, as its golden image")
    func rightToLeftRow() throws {
        let item = ItemDescriptor(
            id: "rtl", kind: "message",
            fields: [
                "title": "שרה כהן", "caption": "اجتماع الفريق", "timestamp": "9:41",
                "text": "נתראה מחר בבוקר ליד המשרד, ואז נלך יחד לפגישה עם הצוות החדש.", "imageURL": "avatar.png",
            ])
        let row = try F.registry.template(forKind: "message")!.measure(item, width: 320, environment: F.environment(scale: 2)).arranged()
        // Mirrored: the image on the right, the title's text ending at its frame's right edge.
        let image = try #require(row.frames["image"])
        let title = try #require(row.labels["title"])
        let titleLine = try #require(title.layout?.lines.first)
        #expect(image.minX > 320 / 2 && title.frame.maxX < image.minX)
        #expect(abs(titleLine.x + titleLine.width - title.frame.width) < 0.5)
        try Self.compare(RowSheet(columns: [[row]], scale: 2, showsFrames: true), with: "rtl-message.png")
    }

    @Test("A wrapped row of chips: every chip inside the row, as its golden image")
    func wrappedChips() throws {
        let tags = ["swift", "linux", "harfbuzz", "freetype", "icu", "cairo", "tables", "three20", "uikit", "rows"]
        let chips = tags.indices.map { index in
            Node.inset(Insets(all: .points(4)), .label("tag\(index)", .field(FieldPath("tag\(index)")), style: "tableSubTextFont"))
        }
        let template = try CompiledTemplate(
            Template(
                name: "chips",
                root: .inset(
                    Insets(all: .points(10)), .hstack(spacing: .points(6), alignment: .firstBaseline, wraps: true, lineSpacing: .points(6), chips))))
        var fields: JSONObject = [:]
        for (index, tag) in tags.enumerated() { fields["tag\(index)"] = .string(tag) }
        let row = try template.measure(ItemDescriptor(id: "chips", kind: "chips", fields: fields), width: 200, environment: F.environment(scale: 2))
            .arranged()
        let chipFrames = tags.indices.compactMap { row.frames["tag\($0)"] }
        #expect(chipFrames.count == tags.count && chipFrames.allSatisfy { $0.minX >= 10 && $0.maxX <= 190 && $0.maxY <= row.height })
        #expect(Set(chipFrames.map(\.minY)).count >= 3)  // wrapped onto several lines
        try Self.compare(RowSheet(columns: [[row]], scale: 2, showsFrames: true), with: "wrapped-chips.png")
    }
}
