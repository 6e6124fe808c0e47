// Colour emoji bitmaps (CBDT strikes), read with FreeType and drawn as images scaled to the
// size measured: cairo 1.16 draws a bitmap font's glyphs at the strike's own size, not the
// text's, which is not what was measured.

import CCairo
import CFreeType
import GalleyLocks
import GalleyText

/// The colour bitmaps of fonts with bitmap glyphs, from a FreeType face over each font file's
/// bytes, made once for the process; at most ``capacity`` faces are kept (the least recently
/// used are let go).
final class ColorGlyphs: Sendable {
    static let shared = ColorGlyphs()

    /// The most faces kept.
    static let capacity = 16

    /// A glyph's bitmap: premultiplied BGRA pixels (cairo's ARGB32 in memory), where it sits
    /// from the origin, in pixels of a strike `pixelsPerEm` pixels an em.
    struct Bitmap {
        var width: Int
        var height: Int
        var pixels: [UInt32]
        var left: Double
        var top: Double
        var pixelsPerEm: Double
    }

    /// The faces, touched only under the lock (a FreeType face is not thread-safe).
    private struct State: Sendable {
        var faces: [FaceKey: (loaded: MemoryFace?, lastUse: Int)] = [:]
        var uses = 0
    }

    private let state = Locked(State())

    private init() {}

    /// `glyph` of `face` from the strike nearest above `pixelsPerEm` (else the largest); nil
    /// when the face has no bitmap for it.
    func bitmap(of glyph: UInt32, in face: FontFace, pixelsPerEm: Double) -> Bitmap? {
        state.withLock { state in
            state.uses += 1
            let key = FaceKey(face)
            if state.faces[key] == nil {
                if state.faces.count >= Self.capacity, let oldest = state.faces.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    state.faces[oldest.key] = nil
                }
                state.faces[key] = (MemoryFace(key.data, index: key.index), 0)
            }
            state.faces[key]!.lastUse = state.uses
            guard let ftFace = state.faces[key]!.loaded?.pointer, ftFace.pointee.num_fixed_sizes > 0 else { return nil }
            let sizes = (0..<Int(ftFace.pointee.num_fixed_sizes)).map { Double(ftFace.pointee.available_sizes[$0].y_ppem) / 64 }
            let strike = sizes.indices.filter { sizes[$0] >= pixelsPerEm }.min { sizes[$0] < sizes[$1] } ?? sizes.indices.max { sizes[$0] < sizes[$1] }!
            guard FT_Select_Size(ftFace, Int32(strike)) == 0, FT_Load_Glyph(ftFace, glyph, Int32(1 << 20)) == 0 else { return nil }  // FT_LOAD_COLOR
            let slot = ftFace.pointee.glyph!.pointee
            let bitmap = slot.bitmap
            guard bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_BGRA.rawValue), let buffer = bitmap.buffer, bitmap.width > 0, bitmap.rows > 0 else {
                return nil
            }
            let (width, height, pitch) = (Int(bitmap.width), Int(bitmap.rows), Int(bitmap.pitch))
            var pixels = [UInt32](repeating: 0, count: width * height)
            pixels.withUnsafeMutableBytes { pixels in
                for row in 0..<height {
                    (pixels.baseAddress! + row * width * 4).copyMemory(from: buffer + row * pitch, byteCount: width * 4)
                }
            }
            return Bitmap(
                width: width, height: height, pixels: pixels, left: Double(slot.bitmap_left), top: Double(slot.bitmap_top),
                pixelsPerEm: sizes[strike])
        }
    }
}

extension CairoImage {
    /// A colour glyph's bitmap as an image.
    convenience init?(_ bitmap: ColorGlyphs.Bitmap) {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(bitmap.width), Int32(bitmap.height))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        bitmap.pixels.withUnsafeBytes { pixels in
            for row in 0..<bitmap.height {
                UnsafeMutableRawPointer(data + row * stride).copyMemory(from: pixels.baseAddress! + row * bitmap.width * 4, byteCount: bitmap.width * 4)
            }
        }
        cairo_surface_mark_dirty(surface)
        self.init(surface: surface)
    }
}
