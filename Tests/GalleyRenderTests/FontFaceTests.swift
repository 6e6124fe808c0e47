// The faces cairo draws with are made from the engine's own bytes: a font file replaced after
// it was loaded changes nothing drawn, and faces loaded for requests do not pile up.

import Foundation
import GalleyLayout
import GalleyLocks
import GalleyTestSupport
import GalleyText
import Testing

@testable import GalleyRender

@Suite("Font faces for drawing")
struct FontFaceTests {
    typealias F = RenderFixture

    static let fonts = PackagePaths.fonts

    /// "Hamburgefonstiv" laid out by `engine`, drawn alone at scale 2.
    static func drawing(with engine: TextEngine) throws -> [UInt32] {
        let layout = try engine.layout("Hamburgefonstiv", style: TextStyle(font: .family("Noto Sans"), size: 17), width: 300)
        #expect(layout.glyphRuns.allSatisfy { $0.face.familyName == "Noto Sans" })
        return try RenderedImage.text(layout, size: layout.size, margin: 4, scale: 2).pixels
    }

    @Test("A font file replaced after it was loaded draws as it was measured: the glyphs come from the engine's bytes, not the path")
    func replacedFile() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-faces-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("Face.ttf")
        try FileManager.default.copyItem(at: Self.fonts.appendingPathComponent("NotoSans-Regular.ttf"), to: path)
        let engine = TextEngine(fonts: try FontCollection(includeBundled: false, fontPaths: [path.path]))
        // Replaced as package managers replace files: a new file renamed over the old name.
        let bold = folder.appendingPathComponent("Bold.ttf")
        try FileManager.default.copyItem(at: Self.fonts.appendingPathComponent("NotoSans-Bold.ttf"), to: bold)
        #expect(rename(bold.path, path.path) == 0)

        let drawn = try Self.drawing(with: engine)
        let expected = try Self.drawing(with: F.engine)
        // Compared outside the expectation, which would print every pixel.
        let same = drawn == expected
        #expect(same, "pixels differ from the bundled regular face's")
    }

    @Test("No more than a bound of faces is kept, however many collections draw; each still draws as measured")
    func boundedFaces() throws {
        let expected = try Self.drawing(with: F.engine)
        for _ in 0..<(CairoFontFaces.capacity + 8) {
            let engine = TextEngine(
                fonts: try FontCollection(includeBundled: false, fontPaths: [Self.fonts.appendingPathComponent("NotoSans-Regular.ttf").path]))
            let same = try Self.drawing(with: engine) == expected
            #expect(same)
            #expect(CairoFontFaces.shared.count <= CairoFontFaces.capacity)
        }
        #expect(CairoFontFaces.shared.count == CairoFontFaces.capacity)
    }

    @Test("Threads drawing with more faces than are kept, at once: each drawing as measured")
    func concurrentEviction() throws {
        let expected = try Self.drawing(with: F.engine)
        let path = Self.fonts.appendingPathComponent("NotoSans-Regular.ttf").path
        let engines = try (0..<(CairoFontFaces.capacity * 2)).map { _ in TextEngine(fonts: try FontCollection(includeBundled: false, fontPaths: [path])) }
        let mismatches = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for step in 0..<engines.count {
                let same = (try? Self.drawing(with: engines[(step * 7 + thread * 31) % engines.count])) == expected
                if !same { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(CairoFontFaces.shared.count <= CairoFontFaces.capacity)
    }

    @Test("Drawing keeps a font file's bytes, not its faces: a face whose collection is gone is freed")
    func facesAreNotKept() throws {
        let path = Self.fonts.appendingPathComponent("NotoSans-Regular.ttf").path
        weak var face: FontFace?
        try {
            let engine = TextEngine(fonts: try FontCollection(includeBundled: false, fontPaths: [path]))
            let layout = try engine.layout("Hamburgefonstiv", style: TextStyle(font: .family("Noto Sans"), size: 17), width: 300)
            face = layout.glyphRuns.first?.face
            _ = try RenderedImage.text(layout, size: layout.size, margin: 4, scale: 2)
            #expect(face != nil)
        }()
        #expect(face == nil)
    }
}
