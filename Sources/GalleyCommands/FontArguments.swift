// `--fonts` and `--system-fonts`, shared by the commands that load fonts.

import ArgumentParser

/// The fonts registered besides the bundled ones.
struct FontArguments: ParsableArguments {
    @Option(name: .customLong("fonts"), help: "A font file or folder to register besides the bundled fonts (repeatable).")
    var fontPaths: [String] = []

    @Flag(help: "Also use the system's fonts (as fontconfig lists them) for lookup and fallback.")
    var systemFonts = false
}
