// `galley layout`: frames of every named node for items at one or more widths.

import ArgumentParser
import GalleyJSON
import GalleyLayout

extension Galley {
    struct Layout: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Lay out items: row heights and the frame of every named node.",
            discussion: """
                Like `galley heights`, but each line is {"id", "width", "height", "frames": {"name": \
                [x, y, width, height], …}} in row coordinates (in CSV and SQLite, the frames as that \
                JSON); collapsed nodes have [0, 0, 0, 0].
                """)

        @OptionGroup var options: RowOptions

        func run() throws {
            let snap = PixelSnapping(scale: options.scale)
            let format = options.output.resolvedFormat
            let safe = options.output.csvSafe
            try options.run(keepsTextLayouts: false, command: "layout") { row, block throws(LayoutError) in
                for measurement in try row.measurements() {
                    let arrangement = measurement.arranged()
                    // Never `null` in place of a number: a frame that is not one fails its row.
                    if let (name, frame) = arrangement.frames.first(where: { !$0.value.components.allSatisfy(\.isFinite) }) {
                        throw .invalidGeometry("the frame of '\(name)' is not finite: \(frame)")
                    }
                    let frames = JSONValue.object(JSONObject(arrangement.frames.mapValues { JSONValue.array($0.components.map { .number(snap($0)) }) }))
                    let height = snap(measurement.height)
                    switch format {
                    case .jsonl:
                        var writer = JSONWriter(appendingTo: block.bytes)
                        block.bytes = []
                        writer.add("id", row.id)
                        writer.add("width", measurement.width)
                        writer.add("height", height)
                        writer.add("frames", frames)
                        block.bytes = writer.finish()
                        block.bytes.append(UInt8(ascii: "\n"))
                    case .csv:
                        CSVText.append(row.id, guardingFormulas: safe, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: ","))
                        JSONWriter.write(measurement.width, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: ","))
                        JSONWriter.write(height, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: ","))
                        CSVText.append(Self.json(frames), guardingFormulas: safe, to: &block.bytes)
                        block.bytes.append(UInt8(ascii: "\n"))
                    case .sqlite:
                        block.rows.append(row.row(width: measurement.width, height: height, frames: Self.json(frames)))
                    }
                }
            }
        }

        private static func json(_ value: JSONValue) -> String {
            var bytes: [UInt8] = []
            JSONWriter.write(value, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
