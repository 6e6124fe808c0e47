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
            // A line is {"id":…,"width":…,"height":…}, as JSONWriter writes it; what follows the id up
            // to the height is the same for every row at a width, so it is written once. (Member by
            // member, writing was a twentieth of a row's work.)
            let middles = options.widths.map { width in
                var middle = Array(#","width":"#.utf8)
                JSONWriter.write(width, to: &middle)
                middle.append(contentsOf: #","height":"#.utf8)
                return middle
            }
            // The fixed parts as byte arrays: appending a literal's UTF-8 view went element by element.
            let opening = Array(#"{"id":"#.utf8), closing = Array("}\n".utf8)
            try options.run(keepsTextLayouts: false, command: "heights") { row, output throws(LayoutError) in
                for (middle, height) in zip(middles, try row.heights()) {
                    output.append(contentsOf: opening)
                    JSONWriter.write(row.id, to: &output)
                    output.append(contentsOf: middle)
                    JSONWriter.write(height, to: &output)
                    output.append(contentsOf: closing)
                }
            }
        }
    }
}
