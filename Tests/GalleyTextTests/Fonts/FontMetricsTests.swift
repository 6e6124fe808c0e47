// Font metrics against the font files' own head, hhea and OS/2 tables.

import Foundation
import GalleyTestSupport
import GalleyText
import Testing

@Suite("Font metrics")
struct FontMetricsTests {
    @Test("Every bundled face's metrics match its tables", arguments: BundledFonts.manifest)
    func metricsMatchTables(_ entry: BundledFonts.Entry) throws {
        let face = try Shared.engine.fonts.face(for: .file(PackagePaths.font(entry.file), index: entry.index))
        let tables = try OpenTypeTables(path: PackagePaths.font(entry.file), faceIndex: entry.index)
        let metrics = face.metrics
        #expect(metrics.unitsPerEm == tables.unitsPerEm)
        #expect(metrics.usesTypographicMetrics == tables.usesTypoMetrics)
        if tables.usesTypoMetrics {
            #expect(metrics.ascender == tables.typoAscender)
            #expect(metrics.descender == -tables.typoDescender)
            #expect(metrics.lineGap == tables.typoLineGap)
        } else {
            #expect(metrics.ascender == tables.hheaAscender)
            #expect(metrics.descender == -tables.hheaDescender)
            #expect(metrics.lineGap == tables.hheaLineGap)
        }
        #expect(metrics.capHeight == tables.capHeight)
        #expect(metrics.xHeight == tables.xHeight)
        #expect(face.weight == tables.weightClass)
    }

    @Test("The manifest describes each face as the face describes itself", arguments: BundledFonts.manifest)
    func manifestMatchesFaces(_ entry: BundledFonts.Entry) throws {
        let face = try Shared.engine.fonts.face(for: .file(PackagePaths.font(entry.file), index: entry.index))
        #expect(face.familyName == entry.family)
        #expect(face.weight == entry.weight)
        #expect(face.isItalic == (entry.style == "italic"))
        #expect(!entry.licence.isEmpty)
        #expect(FileManager.default.fileExists(atPath: PackagePaths.font(entry.licenceFile)))
    }

    @Test("Scaled metrics are font units times size over units per em")
    func scaledMetrics() throws {
        let tables = try OpenTypeTables(path: PackagePaths.font("NotoSans-Regular.ttf"))
        let face = try Shared.engine.fonts.face(for: .family("Noto Sans"))
        let scaled = face.metrics.scaled(to: 17)
        let scale = 17.0 / Double(tables.unitsPerEm)
        #expect(scaled.ascent == Double(tables.hheaAscender) * scale)
        #expect(scaled.descent == Double(-tables.hheaDescender) * scale)
        #expect(abs(scaled.lineHeight - Double(tables.hheaAscender - tables.hheaDescender + tables.hheaLineGap) * scale) < 1e-9)
        #expect(scaled.capHeight == Double(tables.capHeight) * scale)
    }

    @Test("The bundled fonts stay under 40 MB")
    func bundleSize() throws {
        let bytes = try BundledFonts.files.reduce(0) { total, path in
            total + ((try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
        }
        #expect(bytes < 40_000_000)
    }
}

extension BundledFonts.Entry: CustomTestStringConvertible {
    var testDescription: String { "\(family) \(weight) \(style)" }
}
