// The `galley` command.

import ArgumentParser

@main
struct Galley: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "galley",
        abstract: "Measure text and lay out rows with HarfBuzz, FreeType and ICU.",
        subcommands: [Measure.self, Heights.self, Layout.self])
}
