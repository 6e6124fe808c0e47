// Swift face of the Pango reference (Sources/PangoReference): the one the differential tests
// and the benchmarks' Pango peer both measure with.

import Foundation
import GalleyLocks
import GalleyText
import PangoReference

/// Pango (pangoft2) measuring with given font files: a private fontconfig configuration holding
/// only them, 72 dpi, hinting off, `PANGO_WRAP_WORD_CHAR` without inserted hyphens, one reused
/// `PangoLayout`. Calls take a lock, because Pango's objects are not thread-safe.
public final class PangoMeasurer: Sendable {
    /// Pango's measurement of one text.
    public struct Result: Sendable {
        /// How many lines Pango broke the text into.
        public var lineCount: Int
        /// The text's height in points.
        public var height: Double
        /// The widest line's width in points.
        public var width: Double
        /// Unicode scalar offsets where each line after the first starts.
        public var lineStarts: [Int]
    }

    /// Pango or its fonts could not be loaded.
    public struct LoadError: Error, CustomStringConvertible {
        /// What went wrong.
        public var description: String
    }

    private struct Handle: @unchecked Sendable {
        // @unchecked: used only under `handle`'s lock.
        let pointer: OpaquePointer
        var byteStarts: [Int32]
    }
    private let handle: Locked<Handle>

    /// Loads Pango with exactly `fontFiles` (paths, in fallback order); `forDrawing`, with
    /// pangocairo's font map, for ``inkBoxes(of:family:size:weight:italic:width:language:scale:margin:)``.
    public init(fontFiles: [String], forDrawing: Bool = false) throws(LoadError) {
        var cStrings = fontFiles.map { strdup($0) }
        defer { for string in cStrings { free(string) } }
        var error: UnsafePointer<CChar>?
        let pointer = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                forDrawing
                    ? PangoReference_createForDrawing($0.baseAddress, Int32(fontFiles.count), &error)
                    : PangoReference_create($0.baseAddress, Int32(fontFiles.count), &error)
            }
        }
        guard let pointer else { throw LoadError(description: "Pango: \(error.map { String(cString: $0) } ?? "?")") }
        handle = Locked(Handle(pointer: pointer, byteStarts: Array(repeating: 0, count: 4096)))
    }

    /// Pango with Galley's bundled font files, in the order Galley falls back through them.
    public static func bundled(forDrawing: Bool = false) throws -> PangoMeasurer {
        var seen = Set<String>()
        return try PangoMeasurer(fontFiles: FontCollection.bundled().faces.map(\.path).filter { seen.insert($0).inserted }, forDrawing: forDrawing)
    }

    /// A line's ink in device pixels: left and top inclusive, right and bottom exclusive.
    public struct InkBox: Sendable, Hashable, CustomStringConvertible {
        /// The leftmost column with ink.
        public var left: Int
        /// The top row with ink.
        public var top: Int
        /// One past the rightmost column with ink.
        public var right: Int
        /// One past the bottom row with ink.
        public var bottom: Int

        /// A box of ink from its edges.
        public init(left: Int, top: Int, right: Int, bottom: Int) {
            (self.left, self.top, self.right, self.bottom) = (left, top, right, bottom)
        }

        /// The edges, for messages.
        public var description: String { "[\(left), \(top), \(right), \(bottom)]" }
    }

    /// A line as pangocairo drew it.
    public struct DrawnLine: Sendable, Hashable {
        /// The line's ink; nil for a line with none.
        public var ink: InkBox?
        /// Whether Pango moved a run of the line off the line's baseline: Pango 1.50 sets each
        /// run on the first run's script baseline as the fonts' BASE tables place it (a Latin run
        /// after kanji sits a point higher), where UIKit keeps every run on one baseline.
        public var movesRuns: Bool
    }

    /// Each line of `text` at `width` drawn alone by pangocairo, `scale` pixels a point, with the
    /// layout's top-left corner `margin` points in. Only for a measurer made `forDrawing`.
    public func drawnLines(
        of text: String, family: String = "Noto Sans", size: Double, weight: Int = 400, italic: Bool = false,
        width: Double?, language: String?, scale: Double, margin: Double
    ) -> [DrawnLine] {
        handle.withLock { handle in
            PangoReference_setLineLimit(handle.pointer, 0)
            var numbers = [Int32](repeating: -1, count: 5 * 512)
            let count = PangoReference_drawLines(
                handle.pointer, text, family, size, Int32(weight), italic ? 1 : 0, width ?? -1, language, scale, margin, &numbers, 512)
            precondition(count != -1, "a measurer not made for drawing")
            precondition(count != -2, "a drawing larger than cairo's images")
            return (0..<min(Int(count), 512)).map { line in
                let box = numbers[5 * line..<5 * line + 4].map(Int.init)
                return DrawnLine(
                    ink: box[0] < 0 ? nil : InkBox(left: box[0], top: box[1], right: box[2], bottom: box[3]), movesRuns: numbers[5 * line + 4] != 0)
            }
        }
    }

    deinit {
        handle.withLock { PangoReference_destroy($0.pointer) }
    }

    /// The height of `text` at `width` (nil: no wrapping), for timing Pango: nothing else is read.
    /// With `maximumLines`, at most that many lines, the last ellipsized at its end.
    public func height(
        of text: String, family: String = "Noto Sans", size: Double, weight: Int = 400, italic: Bool = false,
        width: Double?, language: String?, maximumLines: Int = 0
    ) -> Double {
        handle.withLock { handle in
            PangoReference_setLineLimit(handle.pointer, Int32(maximumLines))
            return PangoReference_measure(
                handle.pointer, text, family, size, Int32(weight), italic ? 1 : 0, width ?? -1, language,
                &handle.byteStarts, Int32(handle.byteStarts.count)
            ).height
        }
    }

    /// Lines, size and line starts of `text` at `width` (nil: no wrapping).
    public func measure(
        _ text: String, family: String = "Noto Sans", size: Double, weight: Int = 400, italic: Bool = false,
        width: Double?, language: String?
    ) -> Result {
        handle.withLock { handle in
            PangoReference_setLineLimit(handle.pointer, 0)
            let result = PangoReference_measure(
                handle.pointer, text, family, size, Int32(weight), italic ? 1 : 0, width ?? -1, language,
                &handle.byteStarts, Int32(handle.byteStarts.count))
            let byteStarts = handle.byteStarts.prefix(max(Int(result.lineCount) - 1, 0)).map(Int.init)
            return Result(
                lineCount: Int(result.lineCount), height: result.height, width: result.width,
                lineStarts: byteStarts.map { Self.scalarOffset(ofUTF8Offset: $0, in: text) })
        }
    }

    private static func scalarOffset(ofUTF8Offset offset: Int, in text: String) -> Int {
        let utf8 = text.utf8
        let index = utf8.index(utf8.startIndex, offsetBy: offset)
        return text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: index)
    }

    /// A text for ``draw(_:width:height:scale:)``: laid out at `width` (nil: unwrapped), at most
    /// `maximumLines` lines (0: any), its top-left corner at (`x`, `y`) points.
    public struct DrawnText: Sendable {
        /// The text.
        public var text: String
        /// The font family.
        public var family: String
        /// The size in points.
        public var size: Double
        /// The weight (400 regular, 700 bold).
        public var weight: Int
        /// Whether italic.
        public var italic: Bool
        /// The width lines wrap at; nil for none.
        public var width: Double?
        /// The left of the text, in points.
        public var x: Double
        /// The top of the text, in points.
        public var y: Double
        /// The most lines, the last ellipsized; 0 for any.
        public var maximumLines: Int

        /// A text to draw, and where.
        public init(
            _ text: String, family: String, size: Double, weight: Int = 400, italic: Bool = false, width: Double?, x: Double, y: Double,
            maximumLines: Int = 0
        ) {
            (self.text, self.family, self.size, self.weight, self.italic) = (text, family, size, weight, italic)
            (self.width, self.x, self.y, self.maximumLines) = (width, x, y, maximumLines)
        }
    }

    /// Lays out and draws `texts` with pangocairo on a white image `width` × `height` points,
    /// `scale` pixels a point: what a renderer drawing rows with Pango does. Only for a measurer
    /// made `forDrawing`.
    public func draw(_ texts: [DrawnText], width: Double, height: Double, scale: Double) {
        let strings = texts.map { (strdup($0.text)!, strdup($0.family)!) }
        defer {
            for (text, family) in strings {
                free(text)
                free(family)
            }
        }
        let cTexts = zip(texts, strings).map { text, strings in
            PangoReferenceText(
                text: strings.0, family: strings.1, size: text.size, weight: Int32(text.weight), italic: text.italic ? 1 : 0,
                width: text.width ?? -1, x: text.x, y: text.y, maximumLines: Int32(text.maximumLines))
        }
        handle.withLock { handle in
            let status = PangoReference_drawTexts(handle.pointer, cTexts, Int32(cTexts.count), width, height, scale)
            precondition(status == 0, status == -1 ? "a measurer not made for drawing" : "a drawing larger than cairo's images")
        }
    }
}
