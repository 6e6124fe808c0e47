// `--jobs`, shared by the commands that run on every core.

import ArgumentParser

/// How many worker threads a run uses.
struct WorkerArguments: ParsableArguments {
    @Option(help: "Worker threads (default: all cores).")
    var jobs: Int?

    /// The most worker threads: far more than cores only costs memory (an engine and fonts each).
    static let mostJobs = 256

    func validate() throws {
        if let jobs, !(1...Self.mostJobs).contains(jobs) { throw ValidationError("--jobs must be 1 to \(Self.mostJobs), got \(jobs)") }
    }

    /// The batch runner, with its worker count.
    var runner: BatchRunner {
        var runner = BatchRunner()
        if let jobs { runner.jobs = jobs }
        return runner
    }
}
