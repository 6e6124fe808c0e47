// cairo font faces made from the same font files and face indices the text engine shaped with,
// so that a glyph id in a run names the same glyph to cairo.

import CCairo
import CFontconfig
import GalleyLocks
import GalleyText

/// cairo's FreeType faces, one per font file and face index, made once for the process: there
/// are as many as font files drawn with, and cairo keeps its own per-size state.
final class CairoFontFaces: Sendable {
    static let shared = CairoFontFaces()

    private struct Key: Hashable {
        var path: String
        var index: Int
    }

    /// A cairo face pointer, used by cairo under its own locks.
    struct Face: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private let faces = Locked<[Key: Face]>([:])

    /// The cairo face drawing `face`'s glyphs: loaded by cairo from the file and index, with
    /// hinting off, as the engine measured unhinted advances.
    func face(for face: FontFace) -> Face {
        let key = Key(path: face.path, index: face.faceIndex)
        return faces.withLock { faces in
            if let known = faces[key] { return known }
            let pattern = FcPatternCreate()!
            defer { FcPatternDestroy(pattern) }
            _ = face.path.withCString { path in
                path.withMemoryRebound(to: FcChar8.self, capacity: face.path.utf8.count + 1) { FcPatternAddString(pattern, FC_FILE, $0) }
            }
            FcPatternAddInteger(pattern, FC_INDEX, Int32(truncatingIfNeeded: face.faceIndex))
            FcPatternAddBool(pattern, FC_HINTING, FcFalse)
            let made = Face(pointer: cairo_ft_font_face_create_for_pattern(pattern))
            faces[key] = made
            return made
        }
    }
}
