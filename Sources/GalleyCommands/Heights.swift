// `galley heights`: row heights for items at one or more widths.

import ArgumentParser
import GalleyJSON
import GalleyLayout

extension Galley {
    struct Heights: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Compute row heights for items: JSON Lines, JSON, CSV, XML or property lists.",
            discussion: """
                Each input record is an item {"id", "kind", …fields}. Its template is the built-in or \
                --templates entry for its kind, or --template for every item. For each width, one \
                line {"id", "width", "height"} is written (a CSV line, or a row of the SQLite table \
                `heights`), in input order; a bad item gives an error line {"id", "line", "error"} \
                on standard error (or --errors) and the rest go on. The exit status is 1 if any \
                item failed.
                """)

        @OptionGroup var options: RowOptions

        func run() throws {
            // A line is {"id":…,"width":…,"height":…}, as JSONWriter writes it; what follows the id up
            // to the height is the same for every row at a width, so it is written once. (Member by
            // member, writing it would add to every row's work.)
            let middles = options.widths.map { width in
                var middle = Array(#","width":"#.utf8)
                JSONWriter.write(width, to: &middle)
                middle.append(contentsOf: #","height":"#.utf8)
                return middle
            }
            // The fixed parts as byte arrays: appending a literal's UTF-8 view goes element by element.
            let opening = Array(#"{"id":"#.utf8)
            let closing = Array("}\n".utf8)
            let snap = PixelSnapping(scale: options.scale)
            let widths = options.widths
            let safe = options.output.csvSafe
            switch options.output.resolvedFormat {
            case .jsonl:
                try options.run(keepsTextLayouts: false, command: "heights") { row, block throws(LayoutError) in
                    let heights = try row.heights().map(snap.callAsFunction)
                    // A row's lines composed in stack memory and appended at once, the id formatted
                    // once: piece by piece, appending would cost more than writing the numbers.
                    if Self.appendLines(opening, id: row.id, middles: middles, heights: heights, closing: closing, to: &block.bytes) { return }
                    for (middle, height) in zip(middles, heights) {
                        block.bytes.append(contentsOf: opening)
                        JSONWriter.write(row.id, to: &block.bytes)
                        block.bytes.append(contentsOf: middle)
                        JSONWriter.write(height, to: &block.bytes)
                        block.bytes.append(contentsOf: closing)
                    }
                }
            case .csv:
                try options.run(keepsTextLayouts: false, command: "heights") { row, block throws(LayoutError) in
                    for (width, height) in zip(widths, try row.heights()) {
                        CSVText.append(row.id, guardingFormulas: safe, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: ","))
                        JSONWriter.write(width, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: ","))
                        JSONWriter.write(snap(height), to: &block.bytes)
                        block.bytes.append(UInt8(ascii: "\n"))
                    }
                }
            case .sqlite:
                try options.run(keepsTextLayouts: false, command: "heights") { row, block throws(LayoutError) in
                    for (width, height) in zip(widths, try row.heights()) { block.rows.append(row.row(width: width, height: snap(height))) }
                }
            }
        }

        /// Appends the lines `opening id middle height closing` for each middle and height;
        /// false, having appended nothing, when they take more room than rows usually do (a long
        /// id, many widths) or a value is not written in place (see ``ByteScratch/append(_:)-(JSONValue)``).
        private static func appendLines(
            _ opening: [UInt8], id: JSONValue, middles: [[UInt8]], heights: [Double], closing: [UInt8], to output: inout [UInt8]
        ) -> Bool {
            ByteScratch.with(capacity: 1024) { line in
                var idBytes = 0..<0
                for (middle, height) in zip(middles, heights) {
                    let fits =
                        opening.withUnsafeBufferPointer { line.append(contentsOf: $0) }
                        && (idBytes.isEmpty ? Self.append(id, to: &line, at: &idBytes) : line.appendAgain(idBytes))
                        && middle.withUnsafeBufferPointer { line.append(contentsOf: $0) }
                        && line.append(height)
                        && closing.withUnsafeBufferPointer { line.append(contentsOf: $0) }
                    guard fits else { return false }
                }
                output.append(contentsOf: line.bytes)
                return true
            }
        }

        /// Appends `id` to `line`, and where in it to `range`.
        private static func append(_ id: JSONValue, to line: inout ByteScratch, at range: inout Range<Int>) -> Bool {
            let start = line.count
            guard line.append(id) else { return false }
            range = start..<line.count
            return true
        }
    }
}
