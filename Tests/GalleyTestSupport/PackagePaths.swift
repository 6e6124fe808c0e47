// Where the package's own files are, for tests that read them.

import Foundation

/// Paths inside the package, found from this file's place in it (`Tests/GalleyTestSupport/`):
/// tests read the bundled fonts, the examples and each other's fixtures from the checkout.
public enum PackagePaths {
    /// The package root.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The bundled fonts (`Fonts/`).
    public static let fonts = root.appendingPathComponent("Fonts")

    /// The example data (`Examples/data/`).
    public static let examples = root.appendingPathComponent("Examples/data")

    /// The path of a bundled font file.
    public static func font(_ file: String) -> String { fonts.appendingPathComponent(file).path }
}
