// A `galley measure` request end to end: any line gives one JSON object with the id and either
// an error or every result, each a finite number.

import FuzzDriver
import GalleyCommands
import GalleyJSON
import GalleyText

/// The bundled fonts, which requests may also name by path (their folder is registered);
/// limits small enough that every input is quick.
private let engine: TextEngine = {
    do {
        let fonts = try FontCollection(access: .registeredFolders)
        return TextEngine(fonts: fonts, limits: TextLimits(maximumTextLength: 1 << 16, maximumRuns: 64))
    } catch { finding("cannot load the bundled fonts: \(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzMeasureRequest(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    // One line of a JSON Lines file: the reader has split at line feeds already.
    guard !bytes.contains(0x0A) else { return 0 }
    for scale in [nil, 2.0] {
        let (line, failed) = MeasureLine.output(for: bytes, engine: engine, scale: scale)
        guard case .object(let object)? = try? JSONParser.parse(line) else {
            finding("the output is not one JSON object: \(String(decoding: line, as: UTF8.self))")
        }
        guard object["id"] != nil else { finding("the output has no id") }
        if failed {
            guard case .string(let message)? = object["error"], !message.isEmpty else { finding("an error line without a message") }
            continue
        }
        for name in ["height", "width", "lineHeight"] + (scale == nil ? [] : ["roundedHeight"]) {
            guard let number = object[name]?.doubleValue, number.isFinite, number >= 0 else {
                finding("'\(name)' is not a finite number ≥ 0: \(String(decoding: line, as: UTF8.self))")
            }
        }
        // An empty text has no lines (and no height); any other a start for each line after the first.
        guard case .integer(let lines)? = object["lines"], lines >= 0, case .array(let starts)? = object["lineStarts"],
            lines == 0 ? starts.isEmpty && object["height"]?.doubleValue == 0 : starts.count == lines - 1
        else { finding("lines and lineStarts disagree: \(String(decoding: line, as: UTF8.self))") }
    }
    return 0
}

@_cdecl("FuzzMeasureRequest_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzMeasureRequest)
}
