// FreeType faces over the bytes the text engine shaped with: drawing opens no font file, and a
// glyph id names the glyph that was measured even if the file has changed since.

import CFreeType
import GalleyLocks
import GalleyText

/// A FreeType face made from a ``FontFace``'s own bytes; it keeps the face, and so its bytes,
/// alive while it lives.
final class MemoryFace: @unchecked Sendable {
    // `@unchecked Sendable`: the FT_Face has one user at a time, cairo under its own locks or
    // ColorGlyphs under its lock; making and freeing faces share the library's lock.
    let pointer: FT_Face
    private let face: FontFace

    /// `face` loaded by FreeType from its bytes; nil when FreeType cannot.
    init?(_ face: FontFace) {
        let bytes = face.fileBytes
        let opened = FreeTypeLibrary.library.withLock { library -> FreeTypeLibrary.Face in
            var opened: FT_Face?
            let status = FT_New_Memory_Face(
                library.pointer, bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self), FT_Long(bytes.count), FT_Long(face.faceIndex), &opened)
            return FreeTypeLibrary.Face(pointer: status == 0 ? opened : nil)
        }
        guard let opened = opened.pointer else { return nil }
        pointer = opened
        self.face = face
    }

    deinit {
        FreeTypeLibrary.library.withLock { _ in _ = FT_Done_Face(pointer) }
    }
}

/// The FreeType library the renderer's faces are made in: FreeType wants the making and freeing
/// of faces in one library serialized.
private enum FreeTypeLibrary {
    struct Library: @unchecked Sendable {
        let pointer: FT_Library?
    }

    /// A face just made, on its way out of the lock.
    struct Face: @unchecked Sendable {
        let pointer: FT_Face?
    }

    static let library: Locked<Library> = {
        var library: FT_Library?
        FT_Init_FreeType(&library)
        return Locked(Library(pointer: library))
    }()
}
