// The Pango reference the differential tests compare against.

import PangoComparison

extension PangoMeasurer {
    /// Pango with the bundled fonts, listed from the font manifest (not by the engine under test).
    static let shared: PangoMeasurer = {
        do { return try PangoMeasurer(fontFiles: BundledFonts.files) } catch { fatalError("\(error)") }
    }()
}
