// `--map` and `--strip-html`, shared by the commands that read records.

import ArgumentParser

/// Which input names the template's fields read, and which fields hold HTML.
struct FieldArguments: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Template fields read from other input names: field=path pairs, comma-separated (title=headline,subtitle=author.name); repeatable.",
            valueName: "pairs"))
    var map: [String] = []

    @Option(
        name: .customLong("strip-html"),
        help: ArgumentHelp(
            "Fields (after --map) whose HTML is reduced to its text, entities decoded; comma-separated, repeatable.", valueName: "fields"))
    var stripHTML: [String] = []

    func validate() throws {
        do { _ = try FieldMapping(maps: map, htmlFields: stripHTML) } catch { throw ValidationError(error.description) }
    }

    /// The mapping the options give (checked by ``validate()``).
    var mapping: FieldMapping {
        get throws { try FieldMapping(maps: map, htmlFields: stripHTML) }
    }
}
