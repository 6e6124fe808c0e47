// cairo font faces over the very bytes and face indices the text engine shaped with, so that a
// glyph id in a run names the same glyph to cairo.

import CCairo
import CFreeType
import GalleyLocks
import GalleyText

/// cairo's FreeType faces, one per font file's bytes and face index drawn with, made once and
/// shared by every drawing in the process. At most ``capacity`` faces over ``byteLimit`` bytes of
/// font files are kept, the least recently used let go; cairo keeps its last 256 scaled fonts,
/// and a face they use, until it lets them go too.
final class CairoFontFaces: Sendable {
    static let shared = CairoFontFaces()

    /// The most faces kept.
    static let capacity = 64
    /// The most bytes of font files the kept faces hold.
    static let byteLimit = 256 << 20

    /// A cairo face pointer, used by cairo under its own locks.
    private struct Entry: @unchecked Sendable {
        let pointer: OpaquePointer
        var lastUse: Int
    }

    private struct Table: Sendable {
        var entries: [FaceKey: Entry] = [:]
        var uses = 0

        /// The bytes of the distinct files the entries hold.
        var bytes: Int { Set(entries.keys.map(\.data)).reduce(0) { $0 + $1.bytes.count } }
    }

    private let table = Locked(Table())

    /// How many faces are kept now.
    var count: Int { table.withLock { $0.entries.count } }

    /// Calls `body` with the cairo face drawing `face`'s glyphs, unhinted, as the engine measured
    /// unhinted advances; nil when FreeType cannot load the face.
    func withFace<R>(for face: FontFace, _ body: (OpaquePointer?) -> R) -> R {
        let key = FaceKey(face)
        var evicted: [OpaquePointer] = []
        let pointer = table.withLock { table -> OpaquePointer? in
            table.uses += 1
            if table.entries[key] == nil {
                guard let made = Self.makeFace(key) else { return nil }
                table.entries[key] = Entry(pointer: made, lastUse: 0)
                while table.entries.count > Self.capacity || (table.entries.count > 1 && table.bytes > Self.byteLimit),
                    let oldest = table.entries.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse })
                {
                    table.entries[oldest.key] = nil
                    evicted.append(oldest.value.pointer)
                }
            }
            table.entries[key]!.lastUse = table.uses
            // A reference of the caller's own, so that the face outlives an eviction meanwhile.
            return cairo_font_face_reference(table.entries[key]!.pointer)
        }
        // Released outside the lock: freeing a face takes FreeType's lock.
        for face in evicted { cairo_font_face_destroy(face) }
        defer { if let pointer { cairo_font_face_destroy(pointer) } }
        return body(pointer)
    }

    /// A cairo face over `key`'s bytes, which frees its FreeType face when cairo is done with it.
    private static func makeFace(_ key: FaceKey) -> OpaquePointer? {
        guard let memoryFace = MemoryFace(key.data, index: key.index) else { return nil }
        // No hinting and no embedded bitmaps: outlines as the engine measured them.
        let made = cairo_ft_font_face_create_for_ft_face(memoryFace.pointer, Int32(FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP))!
        let retained = Unmanaged.passRetained(memoryFace).toOpaque()
        guard cairo_font_face_set_user_data(made, memoryFaceKey, retained, releaseMemoryFace) == CAIRO_STATUS_SUCCESS else {
            // cairo first, as it documents: it still names the FreeType face until destroyed.
            cairo_font_face_destroy(made)
            Unmanaged<MemoryFace>.fromOpaque(retained).release()
            return nil
        }
        return made
    }
}

/// The key cairo keeps a face's FreeType face under; only its address matters, so it is
/// allocated once and never moved.
nonisolated(unsafe) private let memoryFaceKey = UnsafeMutablePointer<cairo_user_data_key_t>.allocate(capacity: 1)

private let releaseMemoryFace: cairo_destroy_func_t = { Unmanaged<MemoryFace>.fromOpaque($0!).release() }
