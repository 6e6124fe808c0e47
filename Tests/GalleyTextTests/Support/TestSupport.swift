// Shared fixtures: the package's fonts, one engine, the test corpus.

import Foundation
import GalleyText

/// Paths inside the package, found from this file's location.
enum PackagePaths {
    /// The package root.
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static let fonts = root.appendingPathComponent("Fonts")
    static let fixtures = root.appendingPathComponent("Tests/GalleyTextTests/Fixtures")

    static func font(_ file: String) -> String { fonts.appendingPathComponent(file).path }
}

/// One engine over the bundled fonts, shared by the tests (as an app would share one).
enum Shared {
    static let engine = makeEngine()

    /// An engine without a paragraph cache: a text shaped only as far as a width shows is not
    /// answered with the whole text shaped before.
    static let uncachedEngine = makeEngine(paragraphCacheByteLimit: 0)

    private static func makeEngine(paragraphCacheByteLimit: Int = TextEngine.defaultParagraphCacheByteLimit) -> TextEngine {
        do { return try TextEngine(paragraphCacheByteLimit: paragraphCacheByteLimit) } catch {
            fatalError("cannot load the bundled fonts: \(error)")
        }
    }

    static func style(_ size: Double = 17, weight: Int = 400, italic: Bool = false) -> TextStyle {
        TextStyle(font: .family("Noto Sans", weight: weight, italic: italic), size: size)
    }
}

/// A string of the differential corpus (`Fixtures/corpus.json`, built by `make-corpus.py`).
struct CorpusEntry: Decodable, Sendable {
    var script: String
    var lang: String?
    var text: String

    static let all: [CorpusEntry] = {
        let url = PackagePaths.fixtures.appendingPathComponent("corpus.json")
        do { return try JSONDecoder().decode([CorpusEntry].self, from: Data(contentsOf: url)) } catch { fatalError("cannot read \(url.path): \(error)") }
    }()
}

/// The bundled font files, from the manifest.
enum BundledFonts {
    struct Entry: Decodable, Sendable {
        var file: String
        var index: Int
        var family: String
        var weight: Int
        var style: String
        var scripts: [String]
        var licence: String
        var licenceFile: String
    }

    static let manifest: [Entry] = {
        struct Manifest: Decodable { var fonts: [Entry] }
        let url = PackagePaths.fonts.appendingPathComponent("manifest.json")
        do { return try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: url)).fonts } catch { fatalError("cannot read \(url.path): \(error)") }
    }()

    static var files: [String] {
        var seen = Set<String>()
        return manifest.map { PackagePaths.font($0.file) }.filter { seen.insert($0).inserted }
    }
}
