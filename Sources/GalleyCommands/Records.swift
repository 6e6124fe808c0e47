// `galley records`: the input's records as Galley reads them, for choosing --map.

import ArgumentParser
import GalleyJSON

extension Galley {
    struct Records: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the input's records as JSON Lines, as `galley heights` reads them.",
            discussion: """
                Shows the fields a CSV, XML or property-list record has (and what --map and \
                --strip-html make of them), to see which names a template must read. A record that \
                cannot be read gives {"id", "line" or "record", "error"}.
                """)

        @OptionGroup var input: InputArguments

        @OptionGroup var report: ReportArguments

        @Option(help: ArgumentHelp("Fields read from other input names: field=path pairs, comma-separated; repeatable.", valueName: "pairs"))
        var map: [String] = []

        @Option(name: .customLong("strip-html"), help: ArgumentHelp("Fields whose HTML is reduced to its text; comma-separated, repeatable.", valueName: "fields"))
        var stripHTML: [String] = []

        @Option(help: "Worker threads (default: all cores).")
        var jobs: Int?

        func validate() throws {
            do { _ = try FieldMapping(maps: map, htmlFields: stripHTML) } catch { throw ValidationError(error.description) }
            if let jobs, !(1...EngineOptions.mostJobs).contains(jobs) { throw ValidationError("--jobs must be 1 to \(EngineOptions.mostJobs), got \(jobs)") }
        }

        func run() throws {
            let mapping = try FieldMapping(maps: map, htmlFields: stripHTML)
            var runner = BatchRunner()
            if let jobs { runner.jobs = jobs }
            try runner.runReportingFailures(input.records(), command: "records", quiet: report.quiet) { record, _, output in
                do {
                    var object = try record.object()
                    mapping.apply(to: &object)
                    if record.isFromFieldsFormat, object["id"] == nil { object["id"] = .integer(record.position + 1) }
                    var writer = JSONWriter(appendingTo: consume output)
                    for (name, value) in object { writer.add(name, value) }
                    output = writer.finish()
                    output.append(UInt8(ascii: "\n"))
                    return false
                } catch {
                    output += record.errorJSON(id: .null, message: "\(error)")
                    output.append(UInt8(ascii: "\n"))
                    return true
                }
            }
        }
    }
}
