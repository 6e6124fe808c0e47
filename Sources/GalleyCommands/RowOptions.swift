// Options shared by `galley heights` and `galley layout`: where items come from, how they are
// laid out, where rows go; and the run they share.

import ArgumentParser
import GalleyLayout

/// Where rows come from, how they are measured, and where they go.
struct RowOptions: ParsableArguments {
    @OptionGroup var input: InputArguments

    @OptionGroup var fields: FieldArguments

    @OptionGroup var layout: LayoutArguments

    @OptionGroup var output: OutputArguments

    @OptionGroup var report: ReportArguments

    var widths: [Double] { layout.widths }
    var scale: Double { layout.scale }

    /// Runs `write` for every item, handing its results to the output in input order; a record
    /// that fails gives an error line `{"id", "line" or "record", "file", "error"}` on standard
    /// error (or `--errors`). Exits 1 when any failed. `write` measures the item it is given and
    /// appends its lines or rows to the block, in the output's format.
    func run(
        keepsTextLayouts: Bool, command: String, write: @escaping @Sendable (ItemRow, inout ResultBlock) throws(LayoutError) -> Void
    ) throws {
        try input.checkFiles()
        let runner = layout.engine.runner
        var prepared = try layout.setup(keepsTextLayouts: keepsTextLayouts, workers: runner.jobs, command: command, fields: fields)
        let sink = try output.sink(command: command, widths: layout.widths, scale: layout.scale, settings: prepared.settings, inputs: input.files)
        prepared.resume = (sink as? SQLiteSink)?.resumeIndex
        prepared.fingerprints = sink is SQLiteSink
        let setup = prepared
        // A resumed run looks a block's records up before transforming them.
        var prepare: (@Sendable (ArraySlice<InputRecord>, Int) -> Void)?
        if let index = setup.resume {
            prepare = { records, worker in setup.workers[worker].memory.lookUp(records, in: index) }
        }
        try runner.runCommand(
            input.records(), sink: sink, command: command, quiet: report.quiet,
            warnings: { statistics in
                setup.missingFieldWarnings(command: command, reused: statistics.reused)
            },
            cacheStatistics: {
                setup.workers.reduce(into: (hits: 0, misses: 0)) { total, worker in
                    let statistics = worker.environment.textEngine.paragraphCacheStatistics
                    total.hits += statistics.hits
                    total.misses += statistics.misses
                }
            },
            prepare: prepare,
            transform: { record, worker, block in
                setup.rows(for: record, worker: setup.workers[worker], into: &block, write: write)
            })
    }
}
