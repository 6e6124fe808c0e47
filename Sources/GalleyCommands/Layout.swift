// `galley layout`: frames of every named node for items at one or more widths.

import ArgumentParser
import GalleyJSON
import GalleyLayout

extension Galley {
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lay out items given as JSON Lines: row heights and the frame of every named node.",
            discussion: """
                Like `galley heights`, but each line is {"id", "width", "height", "frames": {"name": \
                [x, y, width, height], …}} in row coordinates; collapsed nodes have [0, 0, 0, 0].
                """)

        @OptionGroup var options: RowOptions

        func run() throws {
            try options.run(keepsTextLayouts: false, command: "layout") { row, output throws(LayoutError) in
                for measurement in try row.measurements() {
                    let arrangement = arrange(measurement)
                    // Never `null` in place of a number: a frame that is not one fails its row.
                    if let (name, frame) = arrangement.frames.first(where: { !$0.value.components.allSatisfy(\.isFinite) }) {
                        throw .invalidGeometry("the frame of '\(name)' is not finite: \(frame)")
                    }
                    var writer = JSONWriter(appendingTo: consume output)
                    writer.add("id", row.id)
                    writer.add("width", measurement.width)
                    writer.add("height", measurement.height)
                    let frames = arrangement.frames.mapValues { JSONValue.array($0.components.map { .number($0) }) }
                    writer.add("frames", .object(JSONObject(frames)))
                    output = writer.finish()
                    output.append(UInt8(ascii: "\n"))
                }
            }
        }
    }
}
