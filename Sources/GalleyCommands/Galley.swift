// The `galley` command: its subcommands, for the executable (Sources/GalleyCLI) to run.

import ArgumentParser

/// `galley measure`, `heights`, `layout`, `render`, `records`, `templates` and `fonts`.
public struct Galley: ParsableCommand {
    /// The command's name, version and subcommands.
    public static let configuration = CommandConfiguration(
        commandName: "galley",
        abstract: "Measure text and lay out rows with HarfBuzz, FreeType and ICU.",
        version: Galley.version,
        subcommands: [Measure.self, Heights.self, Layout.self, Render.self, Records.self, Templates.self, Fonts.self])

    /// The command before its arguments are parsed.
    public init() {}

    /// Galley's version, for `galley --version` and the settings a database's rows were made under.
    public static let version = "0.5.0"
}
