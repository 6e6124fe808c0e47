// A PNG file: libpng within its bounds either fails or gives an image of the header's size whose
// pixels are cairo's (premultiplied, or opaque); the image draws, writes as a PNG that decodes to
// the same pixels, and reads from an image folder as it decodes.

import Foundation
import FuzzDriver
import GalleyLayout

@testable import GalleyRender

/// A folder of its own, where each input is written to be named as rows name images.
private let folder: ImageFolder = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fuzz-images-\(getpid())").path
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    do { return try ImageFolder(path: path) } catch { finding("cannot make \(path): \(error)") }
}()

/// Images this many pixels or fewer are drawn and written again; larger ones only decoded.
private let drawnPixels = 1 << 20

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzImages(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    let decoded = PNGDecoder.decode(bytes)
    guard decoded.peakLibraryBytes <= PNGDecoder.maximumLibraryBytes else { finding("libpng held \(decoded.peakLibraryBytes) bytes") }
    let pixels = decoded.image.map { RenderedImage(surface: $0.surface) }
    if let image = decoded.image, let pixels {
        // The size the header gives: libpng skips ancillary chunks before it as it does after.
        guard let header = headerSize(bytes), pixels.width == header.width, pixels.height == header.height else {
            finding("a \(pixels.width) × \(pixels.height) image from a header that says otherwise")
        }
        guard pixels.width <= ImageFolder.maximumSide, pixels.height <= ImageFolder.maximumSide else { finding("a side past the bound") }
        // Premultiplied: no channel above alpha.
        for pixel in pixels.pixels {
            let alpha = pixel >> 24
            guard (pixel >> 16) & 0xFF <= alpha, (pixel >> 8) & 0xFF <= alpha, pixel & 0xFF <= alpha else {
                finding("pixel \(String(pixel, radix: 16)) is not premultiplied")
            }
        }
        if pixels.width * pixels.height <= drawnPixels { check(image, pixels) }
    }
    // Through a folder, as rows name images: the same outcome as decoding, or refused before.
    let name = "input.png"
    guard FileManager.default.createFile(atPath: folder.path + "/" + name, contents: Data(bytes)) else { finding("cannot write the input") }
    let loader = ImageLoader(folder: folder, images: DrawingImages())
    let loaded = loader.image(for: name, itemID: "fuzz")
    if let loaded {
        guard let pixels, RenderedImage(surface: loaded.surface) == pixels else { finding("the folder gave another image than decoding") }
    } else if decoded.image != nil {
        guard let problem = loader.notDrawn.first?.problem, case .tooManyPixels = problem else {
            finding("the folder refused a PNG that decodes: \(loader.notDrawn)")
        }
    }
    return 0
}

/// The width and height in the file's first IHDR chunk, found by walking its chunks.
private func headerSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
    func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
    var offset = 8
    while offset + 16 <= bytes.count {
        if bytes[(offset + 4)..<(offset + 8)].elementsEqual("IHDR".utf8) { return (bigEndian(offset + 8), bigEndian(offset + 12)) }
        offset += 12 + bigEndian(offset)
    }
    return nil
}

/// Draws `image` scaled into a small canvas, and writes it as a PNG that must decode to the same
/// pixels, give or take the rounding of unpremultiplying.
private func check(_ image: CairoImage, _ pixels: RenderedImage) {
    do {
        let drawn = try CairoOutput.image(width: 12, height: 7, scale: 1) { canvas in
            canvas.draw(image, in: LayoutRect(x: 1, y: 1, width: 10, height: 5))
        }
        guard drawn.width == 12, drawn.height == 7 else { finding("a drawing of the wrong size") }
    } catch { finding("drawing the image failed: \(error)") }
    guard let png = image.pngData(), let again = PNGDecoder.decode(png).image.map({ RenderedImage(surface: $0.surface) }) else {
        finding("the image written as a PNG does not decode")
    }
    guard again.width == pixels.width, again.height == pixels.height else { finding("written and decoded, another size") }
    for (first, second) in zip(pixels.pixels, again.pixels) {
        func channel(_ pixel: UInt32, _ shift: UInt32) -> Int { Int((pixel >> shift) & 0xFF) }
        let shifts: [UInt32] = [16, 8, 0]
        let differs = channel(first, 24) != channel(second, 24) || shifts.contains { abs(channel(first, $0) - channel(second, $0)) > 1 }
        guard !differs else { finding("written and decoded: \(String(first, radix: 16)) became \(String(second, radix: 16))") }
    }
}

@_cdecl("FuzzImages_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzImages)
}
