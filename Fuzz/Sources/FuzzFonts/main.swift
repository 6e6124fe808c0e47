// A font file: loading it either fails with an error or gives a face whose metrics are numbers,
// and text in it measures to finite sizes and lays out, whatever its tables say.

import Foundation
import FuzzDriver
import GalleyText

/// Where each input is written, to be named by path as requests name fonts.
private let path = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fuzz-font-\(getpid()).ttf").path

private let texts = [
    "Hello, world — ﬁne façade", "Ελληνικά κείμενα", "Привет мир", "مرحبا بالعالم", "שלום עולם", "สวัสดีครับ", "नमस्ते दुनिया",
    "日本語のテキスト", "a\u{301}\u{302}\u{303}", "🎉 emoji ✔︎",
]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzFonts(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { finding("cannot write \(path)") }
    // A collection of its own for each input: the file at the path changes every time.
    guard let fonts = try? FontCollection(includeBundled: false) else { finding("cannot make a collection") }
    for index in 0..<2 {
        let face: FontFace
        do { face = try fonts.face(for: .file(path, index: index)) } catch { continue }
        let metrics = face.metrics.scaled(to: 17)
        guard metrics.lineHeight.isFinite, face.metrics.unitsPerEm > 0 else { finding("metrics \(face.metrics)") }
        let engine = TextEngine(fonts: fonts, limits: TextLimits(maximumTextLength: 4096))
        for text in texts {
            for paragraph in [ParagraphStyle(), ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)] {
                let style = TextStyle(font: .file(path, index: index), size: 17, letterSpacing: index == 0 ? 0 : 1)
                guard let measured = try? engine.measure(text, style: style, width: 120, paragraph: paragraph) else { continue }
                guard measured.size.width.isFinite, measured.size.height.isFinite else { finding("size \(measured.size) for \(text)") }
                _ = try? engine.layout(text, style: style, width: 120, paragraph: paragraph)
            }
        }
    }
    return 0
}

@_cdecl("FuzzFonts_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzFonts)
}
