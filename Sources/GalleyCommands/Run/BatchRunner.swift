// Runs a per-record job over input on all cores, writing results in input order.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLocks
import GalleyText
import Synchronization

/// Processes input records in chunks: each chunk is spread over all cores, then its results are
/// written in the order the lines came in. Memory stays bounded by the chunk size.
struct BatchRunner {
    /// Lines per chunk.
    var chunkSize = 4096
    /// Lines a worker takes at a time.
    var blockSize = 32
    /// Worker threads; defaults to the machine's active cores.
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// Runs `transform` on every record that is not a blank line, writes its output to standard
    /// output in input order, and exits with status 1 when any failed.
    ///
    /// - Parameters:
    ///   - command: The subcommand's name, for the summary.
    ///   - transform: Appends the record's output lines (UTF-8, each ending in a newline) and
    ///     returns whether the record failed.
    func runReportingFailures(
        _ source: InputFiles, command: String, quiet: Bool = false,
        transform: @escaping @Sendable (InputRecord, Int, inout [UInt8]) -> Bool
    ) throws {
        let sink = StreamSink(
            output: ByteStream(standard: StandardStreams.current.output, name: "standard output"),
            errors: ByteStream(standard: StandardStreams.current.error, name: "standard error"))
        try runCommand(
            source, sink: sink, command: command, quiet: quiet, cacheStatistics: { nil },
            transform: { record, worker, block in
                if transform(record, worker, &block.bytes) { block.failures += 1 }
            })
    }

    /// Runs a command over `source` into `sink` (see ``run(_:sink:report:interruption:transform:)``),
    /// with a progress line while it runs and a summary at the end on standard error (neither when
    /// `quiet`); SIGINT and SIGTERM end it after the chunk in hand.
    ///
    /// - Throws: an exit with status 1 when reading failed (said after the summary, once every
    ///   record read before was written), 128 + the signal's number when a signal ended the
    ///   run, 141 when the output's reader went away, else 1 when any record failed; what
    ///   writing threw.
    func runCommand(
        _ source: InputFiles, sink: any OutputSink, command: String, quiet: Bool, warnings: (Statistics) -> [String] = { _ in [] },
        cacheStatistics: () -> (hits: Int, misses: Int)?, prepare: (@Sendable (ArraySlice<InputRecord>, Int) -> Void)? = nil,
        transform: @Sendable (InputRecord, Int, inout ResultBlock) -> Void
    ) throws {
        let report = RunReport(command: "galley \(command)", quiet: quiet, progress: source.progress)
        // A run in its caller's process leaves the process's signals to the caller.
        let interruption = StandardStreams.current.areTheProcessOwn ? Interruption() : nil
        defer { interruption?.stop() }
        let statistics: Statistics
        do {
            statistics = try run(source, sink: sink, report: report, interruption: interruption, prepare: prepare, transform: transform)
        } catch {
            report.clear()
            throw error
        }
        let cache = cacheStatistics().flatMap { $0.hits + $0.misses > 0 ? Double($0.hits) / Double($0.hits + $0.misses) : nil }
        report.clear()
        // Warnings are not progress: --quiet keeps them.
        for warning in warnings(statistics) { StandardError.write(warning + "\n") }
        report.finish(statistics, cacheHitRate: cache)
        // A run cut short says so first: its failures are those of a part of the input.
        if let failure = statistics.readFailure {
            if let usage = failure as? InputUsageError { throw setupFailure(usage.description) }
            StandardError.write("galley \(command): \(failure)\n")
            throw ExitCode(1)
        }
        if let signal = statistics.stoppedBy { throw ExitCode(128 + signal) }
        if statistics.outputClosed { throw ExitCode(BatchRunner.outputClosedStatus) }
        if statistics.failures > 0 { throw ExitCode(1) }
    }

    /// The exit status when the output's reader went away, as a shell reports a process that
    /// SIGPIPE ended (the status `yes | head` gives with `set -o pipefail`).
    static let outputClosedStatus: Int32 = 128 + SIGPIPE

    /// What a run did.
    struct Statistics {
        /// Records read (blank lines not counted).
        var records = 0
        var failures = 0
        /// Records whose stored rows were current.
        var reused = 0
        /// Whether the output's reader went away, ending the run early.
        var outputClosed = false
        /// The signal that ended the run early, if one did.
        var stoppedBy: Int32?
        /// The last record whose results were written.
        var lastRecord: InputRecord?
        /// What reading threw, ending the run after every record read before it was written.
        var readFailure: (any Error)?
    }

    /// One text engine for each of `count` workers, over fonts of their own from `loadFonts`.
    ///
    /// Two cores sharing objects fight over their cache lines: one engine's locks and recency
    /// lists, one font collection's faces (every item and paragraph retains them). A collection
    /// costs time and memory to load, so there are at most eight, shared round-robin beyond. The
    /// engines split the default cache bounds as many ways, so that together they stay within
    /// one engine's bounds.
    ///
    /// Their paragraph caches keep only texts that recur (``TextEngine/ParagraphAdmission/recurring``):
    /// a batch sees most texts once, and keeping each row's paragraph until the cache pushes it
    /// out would make every row work in memory no processor cache still holds.
    static func textEngines(count: Int, limits: TextLimits = TextLimits(), fonts loadFonts: () throws -> FontCollection) rethrows -> [TextEngine] {
        let share = min(max(count, 1), 8)
        let collections = try (0..<share).map { _ in try loadFonts() }
        return (0..<max(count, 1)).map { worker in
            TextEngine(
                fonts: collections[worker % share], shapeCacheByteLimit: TextEngine.defaultShapeCacheByteLimit / share,
                paragraphCacheByteLimit: TextEngine.defaultParagraphCacheByteLimit / share, paragraphAdmission: .recurring,
                limits: limits)
        }
    }

    /// Runs `transform` on every record that is not a blank line and hands its results to
    /// `sink`, in input order. `transform` gets the record, the worker running it (0 to `jobs` − 1,
    /// for state a worker keeps to itself) and its block's results, to which it appends whole
    /// lines or rows (or nothing) and counts a failure. `prepare`, when given, gets each block's
    /// records first, on the worker that will transform them.
    ///
    /// Workers take blocks of records from a shared counter, so a worker that drew slow records
    /// holds the others up by one block at most; a chunk's results are written on a queue of
    /// their own while the next chunk is measured, and the chunk after it read on another.
    ///
    /// - Throws: what writing threw. A reader of the output that went away ends the run early
    ///   instead (``Statistics/outputClosed``), and so does a failure to read, once the records
    ///   before it are written (``Statistics/readFailure``).
    func run(
        _ source: any RecordSource, sink: any OutputSink, report: RunReport? = nil, interruption: Interruption? = nil,
        prepare: (@Sendable (ArraySlice<InputRecord>, Int) -> Void)? = nil, transform: @Sendable (InputRecord, Int, inout ResultBlock) -> Void
    ) throws -> Statistics {
        let writing = DispatchQueue(label: "galley.output")
        // Why results could not be written (a full disk, a closed pipe): the run stops there.
        let writeFailure = Locked<(any Error)?>(nil)
        defer { writing.sync {} }
        var statistics = Statistics()
        let reader = ChunkReader(source, chunkSize: chunkSize)
        reader.start()
        while writeFailure.withLock({ $0 }) == nil {
            if let signal = interruption?.signal {
                statistics.stoppedBy = signal
                break
            }
            let records: [InputRecord]
            do { records = try reader.next() } catch {
                statistics.readFailure = error
                break
            }
            if records.isEmpty { break }
            // Read while this chunk is measured: read between chunks, it would keep every worker
            // but one waiting.
            reader.start()
            let blockCount = (records.count + blockSize - 1) / blockSize
            let blocks = ResultSlots(count: blockCount)
            let nextBlock = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, blockCount))) { worker in
                while true {
                    let block = nextBlock.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard block < blockCount else { return }
                    var results = ResultBlock()
                    let slice = records[(block * blockSize)..<min((block + 1) * blockSize, records.count)]
                    prepare?(slice, worker)
                    for record in slice where !record.isBlank {
                        transform(record, worker, &results)
                    }
                    blocks.set(block, results)
                }
            }
            let values = blocks.values()
            for block in values {
                statistics.failures += block.failures
                statistics.reused += block.reused
            }
            statistics.records += records.count { !$0.isBlank }
            statistics.lastRecord = records.last
            report?.progress(records: statistics.records)
            // At most one chunk waits to be written, so memory stays bounded however slow the reader.
            writing.sync {}
            writing.async {
                do { try sink.write(values) } catch { writeFailure.withLock { $0 = error } }
            }
        }
        writing.sync {}
        switch writeFailure.withLock({ $0 }) {
        case nil: try sink.finish()
        case is OutputClosed: statistics.outputClosed = true
        case let failure?: throw failure
        }
        return statistics
    }
}

/// Reads a source's chunks of lines on a queue of its own, one chunk ahead of their use.
/// `@unchecked Sendable`: the source and the chunk read are touched only on that queue, and
/// the chunk is taken once its read is done (``next()`` waits for it there).
private final class ChunkReader: @unchecked Sendable {
    private let source: any RecordSource
    private let chunkSize: Int
    private let queue = DispatchQueue(label: "galley.input")
    private var chunk: Result<[InputRecord], any Error>?

    init(_ source: any RecordSource, chunkSize: Int) {
        self.source = source
        self.chunkSize = chunkSize
    }

    /// Starts reading the next chunk.
    func start() {
        queue.async { self.chunk = Result { try self.source.next(self.chunkSize) } }
    }

    /// The chunk last started, once read (empty at the end of the input).
    ///
    /// - Throws: what reading it threw.
    func next() throws -> [InputRecord] {
        try queue.sync {
            defer { chunk = nil }
            return chunk ?? .success([])
        }.get()
    }
}

/// One slot per block of lines, each filled by the worker that measured the block, under a lock:
/// workers hand over a block's output (32 lines) at a time, so they rarely meet there.
private final class ResultSlots: Sendable {
    private let slots: Locked<[ResultBlock]>

    init(count: Int) { slots = Locked(Array(repeating: ResultBlock(), count: count)) }

    func set(_ index: Int, _ value: consuming ResultBlock) {
        slots.withLock { $0[index] = value }
    }

    /// Every slot's output, in order, once the workers are done (the slots are left empty).
    func values() -> [ResultBlock] {
        slots.withLock { slots in
            var values: [ResultBlock] = []
            swap(&values, &slots)
            return values
        }
    }
}
