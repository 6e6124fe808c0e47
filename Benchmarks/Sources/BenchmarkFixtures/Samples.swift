// The benchmark fixtures (Fixtures/samples.json), the shared engine, and the Pango peer.

import Foundation
import GalleyText
import PangoReference

/// One sample text.
public struct Sample: Decodable, Sendable {
    public var script: String
    public var lang: String?
    public var text: String
}

/// Real text in several scripts and lengths; see `Fixtures/README.md`.
public enum Samples {
    struct File: Decodable {
        var labels: [Sample]
        var sentences: [Sample]
        var paragraphs: [Sample]
    }

    /// The benchmark package's folder, and the Galley package above it.
    public static let benchmarksDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let packageDirectory = benchmarksDirectory.deletingLastPathComponent()

    static let file: File = {
        let url = benchmarksDirectory.appendingPathComponent("Fixtures/samples.json")
        do { return try JSONDecoder().decode(File.self, from: Data(contentsOf: url)) }
        catch { fatalError("cannot read \(url.path): \(error)") }
    }()

    public static var labels: [Sample] { file.labels }
    public static var sentences: [Sample] { file.sentences }
    public static var paragraphs: [Sample] { file.paragraphs }

    /// The font every benchmark measures in.
    public static let style = TextStyle(font: .family("Noto Sans"), size: 15)
    public static let width = 320.0

    /// An engine over the bundled fonts with a warm shape cache for `samples`.
    public static func warmEngine(for samples: [Sample]) -> TextEngine {
        let engine = try! TextEngine()
        for sample in samples { _ = try! engine.measure(sample.text, style: style, width: width, paragraph: ParagraphStyle(language: sample.lang)) }
        return engine
    }

    /// An engine that caches nothing: every measurement analyses and shapes from scratch.
    public static func coldEngine() -> TextEngine {
        TextEngine(fonts: try! FontCollection.bundled(), shapeCacheByteLimit: 0, paragraphCacheByteLimit: 0)
    }
}

/// Pango (pangoft2) measuring with the same font files: private fontconfig configuration,
/// 72 dpi, hinting off, PANGO_WRAP_WORD_CHAR, one reused PangoLayout.
public final class PangoPeer: @unchecked Sendable {
    // @unchecked: one benchmark uses a peer at a time, on one thread.
    private let reference: OpaquePointer
    private var starts = [Int32](repeating: 0, count: 512)

    public init() {
        let fonts = Samples.packageDirectory.appendingPathComponent("Fonts")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: fonts.path)) ?? [])
            .filter { $0.hasSuffix(".ttf") || $0.hasSuffix(".ttc") }.sorted().map { fonts.appendingPathComponent($0).path }
        var cStrings = files.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var error: UnsafePointer<CChar>?
        let pointer = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                PangoReference_create($0.baseAddress, Int32(files.count), &error)
            }
        }
        guard let pointer else { fatalError("Pango: \(error.map { String(cString: $0) } ?? "?")") }
        reference = pointer
    }

    deinit { PangoReference_destroy(reference) }

    /// The height Pango gives `text` at `width`.
    public func height(of text: String, width: Double = Samples.width, size: Double = 15, language: String? = nil) -> Double {
        PangoReference_measure(reference, text, "Noto Sans", size, 400, 0, width, language, &starts, Int32(starts.count)).height
    }
}
