// `galley heights`: row heights for items at one or more widths.

import ArgumentParser
import GalleyJSON
import GalleyLayout

extension Galley {
    struct Heights: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compute row heights for items given as JSON Lines.",
            discussion: """
                Each input line is an item {"id", "kind", …fields}. Its template is the built-in or \
                --templates entry for its kind, or --template for every item. For each width, one \
                line {"id", "width", "height"} is written, in input order; a bad item gives \
                {"id", "line", "error"} and the rest go on. The exit status is 1 if any item failed.
                """)

        @OptionGroup var options: RowOptions

        func run() throws {
            try options.run(keepsTextLayouts: false, command: "heights") { row, output throws(LayoutError) in
                for (width, height) in zip(row.widths, try row.heights()) {
                    var writer = JSONWriter(appendingTo: consume output)
                    writer.add("id", row.id)
                    writer.add("width", width)
                    writer.add("height", height)
                    output = writer.finish()
                    output.append(UInt8(ascii: "\n"))
                }
            }
        }
    }
}
