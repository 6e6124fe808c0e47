// `galley render`: items drawn as a table shows them, one column per width, to look at a
// template before running a batch.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLayout
import GalleyRender

extension Galley {
    struct Render: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw items as a table shows them: a sheet of rows at each width, as PNG, SVG or PDF.",
            discussion: """
                Rows are stacked with separators, one column per --width, side by side. The \
                drawing is what measuring found: each label's glyph runs at their measured places. \
                --frames outlines every node's frame and every line box. A record that cannot be \
                laid out gives an error line {"id", "line" or "record", "file", "error"} on \
                standard error, and the others are drawn.
                """)

        @OptionGroup var input: InputArguments

        @OptionGroup var fields: FieldArguments

        @OptionGroup var layout: LayoutArguments

        @Flag(help: "Outline every node's frame and every line box, to debug a template.")
        var frames = false

        @Option(
            name: [.short, .customLong("output")],
            help: ArgumentHelp("The drawing: a .png, .svg or .pdf file (standard output, as PNG, when none).", valueName: "file"))
        var output: String?

        @Option(help: ArgumentHelp("The most items a sheet shows: a run with more is an error.", valueName: "count"))
        var maxItems = 1_000

        @Option(
            help: ArgumentHelp(
                "The most glyphs a sheet draws, its labels' in all: a run with more is an error.", valueName: "count"))
        var maxGlyphs = RowSheet.defaultMaximumGlyphs

        @Option(
            help: ArgumentHelp(
                "A folder of PNG images: an image whose source names a file in it is drawn from it (others, with a warning, and all without this, as grey boxes).",
                valueName: "folder"))
        var images: String?

        func validate() throws {
            if let output, RenderFormat(path: output) == nil {
                throw ValidationError("--output must name a .png, .svg or .pdf file, got '\(output)'")
            }
            guard maxItems > 0 else { throw ValidationError("--max-items must be more than 0, got \(maxItems)") }
            guard maxGlyphs > 0 else { throw ValidationError("--max-glyphs must be more than 0, got \(maxGlyphs)") }
            if output == nil, isatty(StandardStreams.current.output) == 1 {
                throw ValidationError("give --output FILE.png (or .svg, .pdf), or send standard output to a file or a pipe")
            }
        }

        func run() throws {
            try input.checkFiles()
            let folder: ImageFolder?
            do { folder = try images.map { path throws(RenderError) in try ImageFolder(path: path) } } catch {
                throw setupFailure("--images \(images ?? ""): \(error)")
            }
            let setup = try layout.setup(keepsTextLayouts: true, workers: 1, command: "render", fields: fields)
            let worker = setup.workers[0]
            let format = output.flatMap(RenderFormat.init(path:)) ?? .png
            var columns = Array(repeating: [RowArrangement](), count: setup.widths.count)
            // Checked after every item: a sheet too large or of too many glyphs stops the run at
            // the item that makes it so, before the rest are read and measured.
            var tally = RowSheet.Tally(columns: setup.widths.count)
            var failures = 0
            var items = 0
            let records = input.records()
            while true {
                let batch: [InputRecord]
                do { batch = try records.next(256) } catch let error as InputUsageError {
                    throw setupFailure(error.description)
                } catch {
                    throw Self.failure("\(error); no drawing written")
                }
                if batch.isEmpty { break }
                for record in batch where !record.isBlank {
                    items += 1
                    guard items <= maxItems else {
                        throw Self.failure("more than --max-items \(maxItems) items: a sheet shows at most that many; no drawing written")
                    }
                    var id: JSONValue = .null
                    do {
                        let row = try setup.itemRow(for: record, worker: worker, id: &id)
                        for (column, measurement) in try row.measurements().enumerated() {
                            let arranged = measurement.arranged()
                            tally.add(arranged, toColumn: column)
                            columns[column].append(arranged)
                        }
                    } catch {
                        StandardError.write(record.errorJSON(id: id, message: "\(error)") + [UInt8(ascii: "\n")])
                        failures += 1
                        continue
                    }
                    do { try tally.check(for: format, scale: layout.scale, maximumGlyphs: maxGlyphs) } catch {
                        throw Self.failure("\(Self.describe(error)); no drawing written")
                    }
                }
            }
            guard columns.contains(where: { !$0.isEmpty }) else {
                if failures > 0 { throw Self.failure("no item could be drawn; no drawing written") }
                throw setupFailure("the input holds no items to draw")
            }
            let sheet = RowSheet(columns: columns, scale: layout.scale, showsFrames: frames, imageFolder: folder, maximumGlyphs: maxGlyphs)
            let drawing: RowSheet.Drawing
            do { drawing = try sheet.drawing(as: format) } catch { throw Self.failure("\(Self.describe(error)); no drawing written") }
            for warning in setup.missingFieldWarnings(command: "render") + Self.imageWarnings(drawing.imagesNotDrawn) {
                StandardError.write(warning + "\n")
            }
            let bytes = drawing.data
            do {
                let stream = try output.map(ByteStream.init(path:)) ?? ByteStream(standard: StandardStreams.current.output, name: "standard output")
                try stream.write(bytes)
            } catch is OutputClosed {
                throw ExitCode(BatchRunner.outputClosedStatus)
            } catch {
                StandardError.write("galley render: \(error)\n")
                throw ExitCode(1)
            }
            if failures > 0 { throw ExitCode(1) }
        }

        /// A drawing's error, with the option that bounds it.
        static func describe(_ error: RenderError) -> String {
            guard case .tooManyGlyphs = error else { return "\(error)" }
            return "\(error) (--max-glyphs)"
        }

        /// A failure found after the input was read: said on standard error, exit status 1.
        static func failure(_ message: String) -> ExitCode {
            StandardError.write("galley render: \(message)\n")
            return ExitCode(1)
        }

        /// A warning for each image --images could not give, the first few of them; the input's
        /// names quoted as JSON strings, so that no control character reaches the terminal.
        static func imageWarnings(_ notDrawn: [ImageNotDrawn], limit: Int = 10) -> [String] {
            func quoted(_ string: String) -> String {
                var bytes: [UInt8] = []
                JSONWriter.writeString(string, to: &bytes)
                return String(decoding: bytes, as: UTF8.self)
            }
            var warnings = notDrawn.prefix(limit).map {
                "galley render: warning: item \(quoted($0.itemID)), image \(quoted($0.source)): \($0.problem); drawn as a grey box"
            }
            let more = notDrawn.count - limit
            if more > 0 { warnings.append("galley render: warning: \(more) more image\(more == 1 ? "" : "s") drawn as grey boxes") }
            return warnings
        }
    }
}
