// `galley measure`'s work on one input line, for callers that run it themselves.

import GalleyText

/// What `galley measure` writes for one line of input: a service that takes the same JSON
/// requests one at a time, and the fuzz targets (Fuzz/), call it as the command does.
public enum MeasureLine {
    /// The JSON line `galley measure` writes for `bytes`, one request as JSON (without a line
    /// ending), measured with `engine`, and whether it is an error line.
    ///
    /// - Parameters:
    ///   - number: The line's number, for an error line.
    ///   - scale: Device pixels per point for `roundedHeight` (within ``ValueRanges/scale``); nil for none.
    public static func output(for bytes: [UInt8], number: Int = 1, engine: TextEngine, scale: Double? = nil) -> (line: [UInt8], failed: Bool) {
        Galley.Measure.measure(InputRecord(file: "<stdin>", number: number, ordinal: number, content: .json(bytes[...])), engine: engine, scale: scale)
    }
}
