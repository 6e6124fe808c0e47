// cairo font faces over the very bytes and face indices the text engine shaped with, so that a
// glyph id in a run names the same glyph to cairo.

import CCairo
import CFreeType
import GalleyLocks
import GalleyText

/// cairo's FreeType faces, one per ``FontFace`` drawn with, made once and shared by every
/// drawing in the process; at most ``capacity`` are kept (the least recently used are let go),
/// so that faces loaded for requests do not pile up.
final class CairoFontFaces: Sendable {
    static let shared = CairoFontFaces()

    /// The most faces kept.
    static let capacity = 64

    /// A cairo face pointer, used by cairo under its own locks.
    private struct Entry: @unchecked Sendable {
        let pointer: OpaquePointer
        /// Keeps the face, so that its identifier names no other while the entry lives.
        let face: FontFace
        var lastUse: Int
    }

    private struct Table: Sendable {
        var entries: [ObjectIdentifier: Entry] = [:]
        var uses = 0
    }

    private let table = Locked(Table())

    /// How many faces are kept now.
    var count: Int { table.withLock { $0.entries.count } }

    /// Calls `body` with the cairo face drawing `face`'s glyphs, unhinted, as the engine measured
    /// unhinted advances; nil when FreeType cannot load the face.
    func withFace<R>(for face: FontFace, _ body: (OpaquePointer?) -> R) -> R {
        var evicted: OpaquePointer?
        let pointer = table.withLock { table -> OpaquePointer? in
            table.uses += 1
            let key = ObjectIdentifier(face)
            if table.entries[key] == nil {
                guard let made = Self.makeFace(face) else { return nil }
                if table.entries.count >= Self.capacity, let oldest = table.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    table.entries[oldest.key] = nil
                    evicted = oldest.value.pointer
                }
                table.entries[key] = Entry(pointer: made, face: face, lastUse: 0)
            }
            table.entries[key]!.lastUse = table.uses
            // A reference of the caller's own, so that the face outlives an eviction meanwhile.
            return cairo_font_face_reference(table.entries[key]!.pointer)
        }
        // Released outside the lock: freeing a face takes FreeType's lock.
        if let evicted { cairo_font_face_destroy(evicted) }
        defer { if let pointer { cairo_font_face_destroy(pointer) } }
        return body(pointer)
    }

    /// A cairo face over `face`'s bytes, which frees its FreeType face when cairo is done with it.
    private static func makeFace(_ face: FontFace) -> OpaquePointer? {
        guard let memoryFace = MemoryFace(face) else { return nil }
        let made = cairo_ft_font_face_create_for_ft_face(memoryFace.pointer, Int32(FT_LOAD_NO_HINTING))!
        let retained = Unmanaged.passRetained(memoryFace).toOpaque()
        guard cairo_font_face_set_user_data(made, &memoryFaceKey, retained, releaseMemoryFace) == CAIRO_STATUS_SUCCESS else {
            Unmanaged<MemoryFace>.fromOpaque(retained).release()
            cairo_font_face_destroy(made)
            return nil
        }
        return made
    }
}

/// The key cairo keeps a face's FreeType face under; only its address matters.
nonisolated(unsafe) private var memoryFaceKey = cairo_user_data_key_t()

private let releaseMemoryFace: cairo_destroy_func_t = { Unmanaged<MemoryFace>.fromOpaque($0!).release() }
