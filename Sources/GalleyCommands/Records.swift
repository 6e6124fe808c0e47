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

        @OptionGroup var fields: FieldArguments

        @OptionGroup var workers: WorkerArguments

        func run() throws {
            try input.checkFiles()
            try OutputArguments.checkApart(inputs: input.files, output: nil, errors: nil)
            let mapping = try fields.mapping
            try workers.runner.runReportingFailures(input.records(), command: "records", quiet: report.quiet) { record, _, output in
                do {
                    var object = try record.object()
                    mapping.apply(to: &object)
                    record.identify(&object)
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
