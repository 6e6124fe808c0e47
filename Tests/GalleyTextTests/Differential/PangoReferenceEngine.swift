// Swift face of the Pango reference (Sources/PangoReference), for differential tests.

import Foundation
import PangoReference
import Synchronization

/// Pango measuring with the same font files, under a lock (Pango objects are not thread-safe).
final class PangoReferenceEngine: Sendable {
    struct Result: Sendable {
        var lineCount: Int
        var height: Double
        var width: Double
        /// Unicode scalar offsets where each line after the first starts.
        var lineStarts: [Int]
    }

    private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }
    private let handle: Mutex<Handle>

    static let shared: PangoReferenceEngine = {
        do { return try PangoReferenceEngine(fontFiles: BundledFonts.files) }
        catch { fatalError("\(error)") }
    }()

    struct LoadError: Error, CustomStringConvertible { var description: String }

    init(fontFiles: [String]) throws {
        var cStrings = fontFiles.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        var error: UnsafePointer<CChar>?
        let pointer = cStrings.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) {
                PangoReference_create($0.baseAddress, Int32(fontFiles.count), &error)
            }
        }
        guard let pointer else { throw LoadError(description: "Pango: \(error.map { String(cString: $0) } ?? "?")") }
        handle = Mutex(Handle(pointer: pointer))
    }

    func measure(_ text: String, family: String = "Noto Sans", size: Double, weight: Int = 400, italic: Bool = false, width: Double?, language: String?) -> Result {
        handle.withLock { handle in
            var starts = [Int32](repeating: 0, count: 4096)
            let result = PangoReference_measure(
                handle.pointer, text, family, size, Int32(weight), italic ? 1 : 0, width ?? -1, language, &starts,
                Int32(starts.count))
            let byteStarts = starts.prefix(max(Int(result.lineCount) - 1, 0)).map(Int.init)
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
