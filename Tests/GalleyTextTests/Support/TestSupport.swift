// Shared fixtures: the package's fonts, one engine, the test corpus.

import Foundation
import GalleyTestSupport
import GalleyText

extension PackagePaths {
    /// This target's fixtures: the differential corpus and the reference data made from it.
    static let fixtures = root.appendingPathComponent("Tests/GalleyTextTests/Fixtures")
}

/// One engine over the bundled fonts, shared by the tests (as an app would share one).
enum Shared {
    static let engine = SharedEngine.bundled

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
