// FreeType faces over the bytes the text engine shaped with: drawing opens no font file, and a
// glyph id names the glyph that was measured even if the file has changed since.

import CFreeType
import GalleyLocks
import GalleyText

/// A FreeType face made from a font file's bytes as the text engine holds them; it keeps the
/// bytes alive while it lives (not the ``FontFace``, whose request may be over).
final class MemoryFace: @unchecked Sendable {
    // `@unchecked Sendable`: the FT_Face has one user at a time, cairo under its own locks or
    // ColorGlyphs under its lock; making and freeing faces share the library's lock.
    let pointer: FT_Face
    private let data: FontData

    /// Face `index` of `data`, loaded by FreeType; nil when FreeType cannot.
    init?(_ data: FontData, index: Int) {
        let opened = FreeTypeLibrary.library.withLock { library -> FreeTypeLibrary.Face in
            var opened: FT_Face?
            let status = FT_New_Memory_Face(
                library.pointer, data.bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self), FT_Long(data.bytes.count), FT_Long(index), &opened)
            return FreeTypeLibrary.Face(pointer: status == 0 ? opened : nil)
        }
        guard let opened = opened.pointer else { return nil }
        pointer = opened
        self.data = data
    }

    deinit {
        FreeTypeLibrary.library.withLock { _ in _ = FT_Done_Face(pointer) }
    }
}

/// A face of a font file's bytes: what the renderer's tables are keyed by, so that one loading
/// of one file makes one face however many ``FontFace``s name it. It holds the bytes, so that
/// their address names nothing else while it is kept.
struct FaceKey: Hashable, Sendable {
    let data: FontData
    let index: Int

    init(_ face: FontFace) {
        data = face.data
        index = face.faceIndex
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
