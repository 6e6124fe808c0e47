// `galley measure`: measure texts given as JSON Lines.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyText

extension Galley {
    struct Measure: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure texts given as JSON Lines.",
            discussion: """
                Each input line is an object {"id", "text", "font", "size", "width"} with optional \
                "maxLines", "lineBreakMode" (wordWrap, charWrap, clip, truncateHead, truncateMiddle, \
                truncateTail), "lang", "fallback", "weight", "italic", "lineHeightMultiple" and \
                "letterSpacing". Each output line is {"id", "lines", "height", "width", "lineStarts", \
                "lineHeight"} in input order; a bad line gives {"id", "line", "error"} and the rest go on. \
                Blank lines are skipped. The exit status is 1 if any line failed.
                """)

        @OptionGroup var input: InputArguments

        @OptionGroup var report: ReportArguments

        @Option(help: "Also report heights rounded up to device pixels at this scale (1, 2 or 3).")
        var scale: Double?

        @OptionGroup var engine: EngineOptions

        func validate() throws {
            if let scale, !ValueRanges.scale.contains(scale) {
                throw ValidationError("--scale \(ValueRanges.problem(scale, outside: ValueRanges.scale))")
            }
        }

        func run() throws {
            try input.checkFiles()
            try OutputArguments.checkApart(inputs: input.files, output: nil, errors: nil)
            let runner = engine.runner
            let engines = try engine.engines(count: runner.jobs)
            let scale = scale
            try runner.runReportingFailures(input.records(), command: "measure", quiet: report.quiet) { line, worker, output in
                let result = Self.measure(line, engine: engines[worker], scale: scale)
                output += result.line
                output.append(UInt8(ascii: "\n"))
                return result.failed
            }
        }

        /// The output line for one input line, and whether it is an error.
        static func measure(_ line: InputRecord, engine: TextEngine, scale: Double?) -> (line: [UInt8], failed: Bool) {
            let object: JSONObject
            do {
                object = try line.object()
            } catch {
                return (line.errorJSON(id: .null, message: "\(error)"), true)
            }
            let id = object["id"] ?? .null
            do {
                let request = try MeasureRequest(object)
                let (measurement, lineHeight) = try engine.measureWithLineHeight(
                    AttributedText(request.text, style: request.style), width: request.width, paragraph: request.paragraph)
                var writer = JSONWriter()
                writer.add("id", request.id)
                writer.add("lines", measurement.lineCount)
                writer.add("height", measurement.size.height)
                writer.add("width", measurement.size.width)
                writer.add("lineStarts", measurement.lineStarts)
                writer.add("lineHeight", lineHeight)
                if let scale { writer.add("roundedHeight", LayoutSize.roundUp(measurement.size.height, scale: scale)) }
                if measurement.isTruncated { writer.add("truncated", true) }
                if !measurement.missingCharacters.isEmpty {
                    writer.add("missingCharacters", .array(measurement.missingCharacters.map { .string(String($0)) }))
                }
                return (writer.finish(), false)
            } catch {
                return (line.errorJSON(id: id, message: "\(error)"), true)
            }
        }
    }
}
