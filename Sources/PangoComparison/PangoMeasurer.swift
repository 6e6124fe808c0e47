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

    /// Loads Pango with exactly `fontFiles` (paths, in fallback order).
    public init(fontFiles: [String]) throws(LoadError) {
        var cStrings = fontFiles.map { strdup($0) }
        defer { for string in cStrings { free(string) } }
        var error: UnsafePointer<CChar>?
        let pointer = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                PangoReference_create($0.baseAddress, Int32(fontFiles.count), &error)
            }
        }
        guard let pointer else { throw LoadError(description: "Pango: \(error.map { String(cString: $0) } ?? "?")") }
        handle = Locked(Handle(pointer: pointer, byteStarts: Array(repeating: 0, count: 4096)))
    }

    /// Pango with Galley's bundled font files, in the order Galley falls back through them.
    public static func bundled() throws -> PangoMeasurer {
        var seen = Set<String>()
        return try PangoMeasurer(fontFiles: FontCollection.bundled().faces.map(\.path).filter { seen.insert($0).inserted })
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
}
