// PNG files decoded with libpng: the pixels cairo's own reader gives, for every colour type and
// depth; chunks other than the image's skipped unread, however much they would inflate to.

import CCairo
import Testing

@testable import GalleyRender

@Suite("PNG decoding")
struct PNGDecoderTests {
    /// `png` decoded by cairo's own reader (libpng with its defaults): its format and each row's
    /// pixels; nil when cairo cannot.
    static func cairoPixels(_ png: [UInt8]) -> (format: cairo_format_t, rows: [[UInt8]])? {
        final class Reader {
            let bytes: [UInt8]
            var offset = 0
            init(_ bytes: [UInt8]) { self.bytes = bytes }
        }
        let reader = Reader(png)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(
                { closure, data, length in
                    let reader = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
                    guard let data, reader.offset + Int(length) <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
                    for index in 0..<Int(length) { data[index] = reader.bytes[reader.offset + index] }
                    reader.offset += Int(length)
                    return CAIRO_STATUS_SUCCESS
                }, Unmanaged.passUnretained(reader).toOpaque())!
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else { return nil }
        return (cairo_image_surface_get_format(surface), rows(of: surface))
    }

    /// Each row's pixels of an image surface, without the padding past its width.
    static func rows(of surface: OpaquePointer) -> [[UInt8]] {
        cairo_surface_flush(surface)
        let (width, height, stride) =
            (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)), Int(cairo_image_surface_get_stride(surface)))
        let data = cairo_image_surface_get_data(surface)!
        return (0..<height).map { row in Array(UnsafeBufferPointer(start: data + row * stride, count: width * 4)) }
    }

    /// A sample that varies with place and channel, over the depth's whole range.
    static func sample(depth: UInt8) -> (Int, Int, Int) -> Int {
        { x, y, channel in (x * 37 + y * 91 + channel * 53 + x * y * 7) * (depth == 16 ? 257 : 1) }
    }

    @Test("Every colour type and depth, interlaced or not, with transparency or not, decodes to the pixels cairo's reader gives")
    func sameAsCairo() throws {
        var cases: [(colorType: UInt8, depth: UInt8, transparency: Bool)] = []
        for depth: UInt8 in [1, 2, 4, 8, 16] { cases += [(TestPNG.gray, depth, false), (TestPNG.gray, depth, true)] }
        for depth: UInt8 in [1, 2, 4, 8] { cases += [(TestPNG.palette, depth, false), (TestPNG.palette, depth, true)] }
        for depth: UInt8 in [8, 16] {
            cases += [(TestPNG.rgb, depth, false), (TestPNG.rgb, depth, true), (TestPNG.grayAlpha, depth, false), (TestPNG.rgba, depth, false)]
        }
        for (colorType, depth, transparent) in cases {
            for interlaced in [false, true] {
                let entries = 1 << min(Int(depth), 8)
                let palette = colorType == TestPNG.palette ? (0..<entries * 3).map { UInt8(truncatingIfNeeded: $0 * 29 + 7) } : nil
                var transparency: [UInt8]?
                if transparent {
                    // Half the palette see-through to various degrees; one grey or colour value clear.
                    transparency =
                        colorType == TestPNG.palette
                        ? (0..<entries / 2 + 1).map { UInt8(truncatingIfNeeded: $0 * 97) }
                        : Array(repeating: 0, count: colorType == TestPNG.gray ? 1 : 3).flatMap { _ in TestPNG.bigEndian(UInt32(5)).suffix(2) }
                }
                let png = TestPNG.file(
                    width: 13, height: 9, colorType: colorType, bitDepth: depth, interlaced: interlaced, palette: palette, transparency: transparency,
                    sample: Self.sample(depth: depth))
                let label = "colour type \(colorType), depth \(depth), transparency \(transparent), interlaced \(interlaced)"
                let expected = try #require(Self.cairoPixels(png), "cairo cannot read \(label)")
                let decoded = try #require(PNGDecoder.decode(png).image, "\(label)")
                #expect(cairo_image_surface_get_format(decoded.surface) == expected.format, "\(label)")
                #expect(Self.rows(of: decoded.surface) == expected.rows, "\(label)")
            }
        }
    }

    @Test("Text, profiles and other chunks are skipped unread: a small file of compressed text costs libpng no memory")
    func ancillaryChunksSkipped() throws {
        // Compressed chunks of half a megabyte each, from about 3 KB: 50 MB in all, and a profile
        // of 16 MB.
        let text = TestPNG.zlibBomb(of: UInt8(ascii: "a"), count: 512 << 10)
        var extra: [(type: String, data: [UInt8])] = [("iCCP", Array("profile".utf8) + [0, 0] + TestPNG.zlibBomb(of: 1, count: 16 << 20))]
        for index in 0..<50 {
            extra.append(("zTXt", Array("Comment \(index)".utf8) + [0, 0] + text))
            extra.append(("iTXt", Array("Note \(index)".utf8) + [0, 1, 0, 0, 0] + text))
        }
        extra += [("tEXt", Array("Title\0plain".utf8)), ("seRk", [1, 2, 3])]
        let png = TestPNG.file(width: 16, height: 16, colorType: TestPNG.rgba, bitDepth: 8, extra: extra) { _, _, channel in
            [0xFF, 0, 0, 0xFF][channel]
        }
        #expect(png.count < 1 << 20)
        let decoded = PNGDecoder.decode(png)
        let image = try #require(decoded.image)
        #expect(Self.rows(of: image.surface).allSatisfy { row in row == Array(repeating: [0, 0, 0xFF, 0xFF], count: 16).flatMap { $0 } })
        // A 16-pixel image's rows, zlib's window and the structures: well under a megabyte.
        #expect(decoded.peakLibraryBytes > 0 && decoded.peakLibraryBytes < 1 << 20, "\(decoded.peakLibraryBytes)")
    }

    @Test("Damaged and bounded files fail, never crash: cut short, a bad CRC, a side past the bound, image data that inflates past the image")
    func failures() throws {
        let good = TestPNG.file(width: 8, height: 8, colorType: TestPNG.rgb, bitDepth: 8, sample: Self.sample(depth: 8))
        #expect(PNGDecoder.decode(good).image != nil)
        // Cut anywhere before the image data's end; the end chunk is not needed.
        for length in [0, 8, 20, 33, 50, good.count - 13] { #expect(PNGDecoder.decode(Array(good.prefix(length))).image == nil, "cut at \(length)") }
        #expect(PNGDecoder.decode(Array(good.dropLast(12))).image != nil)
        var badCRC = good
        badCRC[29] ^= 0xFF  // IHDR's CRC
        #expect(PNGDecoder.decode(badCRC).image == nil)
        #expect(PNGDecoder.decode(good, maximumSide: 7).image == nil)
        // Image data that inflates to 64 MB for an 8 × 8 image: libpng stops at the image's end.
        var flood = Array(good.prefix(33))
        flood += TestPNG.chunk("IDAT", TestPNG.zlibBomb(of: 0, count: 64 << 20))
        flood += TestPNG.chunk("IEND", [])
        let decoded = PNGDecoder.decode(flood)
        #expect(decoded.peakLibraryBytes < 1 << 20)
        #expect(PNGDecoder.decode([UInt8](repeating: 0x89, count: 100)).image == nil)
        // A chunk before the header (libpng would skip an ancillary one): not a PNG, as an image
        // folder says before decoding (found by FuzzImages).
        let late = Array(good.prefix(8)) + TestPNG.chunk("tEXt", Array("a\u{0}b".utf8)) + Array(good.dropFirst(8))
        #expect(PNGDecoder.decode(late).image == nil)
    }
}
