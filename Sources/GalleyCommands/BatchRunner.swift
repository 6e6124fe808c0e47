// Runs a per-record job over input on all cores, writing results in input order.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyText
import GalleyLocks
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

    /// Runs `transform` on every record that is not a blank line, writes its output in input
    /// order, and exits with status 1 (after saying how many on standard error) when any failed.
    ///
    /// - Parameters:
    ///   - command: The subcommand's name, for the failure message.
    ///   - transform: Appends the record's output lines (UTF-8, each ending in a newline) and
    ///     returns whether the record failed.
    func runReportingFailures(
        _ source: any RecordSource, command: String,
        transform: @escaping @Sendable (InputRecord, Int, inout [UInt8]) -> Bool
    ) throws {
        let failures = FailureCounter()
        try run(source) { record, worker, output in
            guard !record.isBlank else { return }
            if transform(record, worker, &output) { failures.increment() }
        }
        if failures.count > 0 {
            try? FileHandle.standardError.write(contentsOf: Data("galley \(command): \(failures.count) line(s) failed\n".utf8))
            throw ExitCode(1)
        }
    }

    /// One text engine for each of `count` workers, over fonts of their own from `loadFonts`.
    ///
    /// Two cores sharing objects fight over their cache lines. With one engine (its locks and
    /// recency lists, the shaped words they retain), two workers spent about 6% more CPU time
    /// than with one each (`galley heights` on 300,000 rows, runs alternated: 13.7 s on average
    /// over nine runs, against 12.9 s over twelve); with one font collection (every item and
    /// paragraph retains its faces and fallback chain), about 2% more again (5.07 s against
    /// 4.98 s on 200,000 rows, eight runs each in ABBA order, with jemalloc; 6% in an earlier
    /// A-then-B comparison on glibc's malloc). A bundled collection more costs about 10 ms and
    /// 2 MB, one with system fonts about 5 MB: there are at most eight, shared round-robin
    /// beyond eight workers. The engines split the default cache bounds as many ways (smaller
    /// caches would miss more than a shared one contends), so together they stay within one
    /// engine's bounds.
    ///
    /// Their paragraph caches keep only texts that recur (``TextEngine/ParagraphAdmission/recurring``):
    /// a batch sees most texts once, and keeping each row's paragraph until the cache pushed it
    /// out made every row work in memory no processor cache still held. Over a million message
    /// rows at three widths, two workers went from about 155,000 rows a second to 192,000 to
    /// 216,000, one from about 80,000 to 110,000 (three rounds, alternated), for as many
    /// instructions.
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

    /// Runs `transform` on every line and writes what it appends to standard output.
    /// `transform` gets the line, the worker running it (0 to `jobs` − 1, for state a worker
    /// keeps to itself) and its block's output, to which it appends whole lines (or nothing).
    ///
    /// Workers take blocks of lines from a shared counter, so a worker that drew slow lines
    /// holds the others up by one block at most; a chunk's output is written on a queue of its
    /// own while the next chunk is measured, and the chunk after it read on another.
    func run(
        _ source: any RecordSource, transform: @Sendable (InputRecord, Int, inout [UInt8]) -> Void
    ) throws {
        let output = FileHandle.standardOutput
        let writing = DispatchQueue(label: "galley.output")
        // Why output could not be written (a full disk, a closed descriptor): the run stops there.
        let writeFailure = Locked<(any Error)?>(nil)
        defer { writing.sync {} }
        let reader = ChunkReader(source, chunkSize: chunkSize)
        reader.start()
        while true {
            if let failure = writeFailure.withLock({ $0 }) { throw OutputError(reason: failure.localizedDescription) }
            let lines = try reader.next()
            if lines.isEmpty { break }
            // Read while this chunk is measured: read between chunks, it kept every worker but
            // one waiting (two workers went about 1% faster).
            reader.start()
            let blockCount = (lines.count + blockSize - 1) / blockSize
            let blocks = ResultSlots(count: blockCount)
            let nextBlock = Atomic<Int>(0)
            DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, blockCount))) { worker in
                while true {
                    let block = nextBlock.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard block < blockCount else { return }
                    var output: [UInt8] = []
                    for line in lines[(block * blockSize)..<min((block + 1) * blockSize, lines.count)] {
                        transform(line, worker, &output)
                    }
                    blocks.set(block, output)
                }
            }
            let values = blocks.values()
            // At most one chunk waits to be written, so memory stays bounded however slow the reader.
            writing.sync {}
            writing.async {
                // Joined on the writing queue, not between chunks while the workers wait; by
                // copying whole blocks: `Data(joined())` would go byte by byte.
                var joined = Data(capacity: values.reduce(0) { $0 + $1.count })
                for block in values { joined.append(contentsOf: block) }
                do { try output.write(contentsOf: joined) } catch { writeFailure.withLock { $0 = error } }
            }
        }
        writing.sync {}
        if let failure = writeFailure.withLock({ $0 }) { throw OutputError(reason: failure.localizedDescription) }
    }

    /// Standard output could not be written.
    struct OutputError: Error, CustomStringConvertible {
        var reason: String
        var description: String { "cannot write the output: \(reason)" }
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
    private let slots: Locked<[[UInt8]]>

    init(count: Int) { slots = Locked(Array(repeating: [], count: count)) }

    func set(_ index: Int, _ value: consuming [UInt8]) {
        slots.withLock { $0[index] = value }
    }

    /// Every slot's output, in order, once the workers are done (the slots are left empty).
    func values() -> [[UInt8]] { slots.withLock { slots in
        var values: [[UInt8]] = []
        swap(&values, &slots)
        return values
    } }
}

/// Counts failed lines across worker threads.
private final class FailureCounter: Sendable {
    private let value = Locked(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}
