// One text engine for the whole test run, as an app shares one.

import GalleyText

/// The engine over the bundled fonts that fixtures share: the fonts are loaded once for every
/// suite. A test that counts what an engine caches makes an engine of its own.
public enum SharedEngine {
    /// The engine, made the first time a test asks for it.
    public static let bundled: TextEngine = {
        do { return try TextEngine() } catch { fatalError("cannot load the bundled fonts: \(error)") }
    }()
}
