// Runs a per-line job over input on all cores, writing results in input order.

import Foundation

/// Processes input lines in chunks: each chunk is spread over all cores, then its results are
/// written in the order the lines came in. Memory stays bounded by the chunk size.
struct BatchRunner {
    /// Lines per chunk.
    var chunkSize = 4096
    /// Worker threads; defaults to the machine's active cores.
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// Runs `transform` on every line and writes each result line to standard output.
    /// `transform` returns nil for lines that produce no output (blank lines).
    func run(
        _ source: LineSource, transform: @Sendable (LineSource.Line) -> String?
    ) throws {
        let output = FileHandle.standardOutput
        while true {
            let lines = try source.next(chunkSize)
            if lines.isEmpty { break }
            let results = ResultSlots(count: lines.count)
            let workers = max(1, min(jobs, lines.count))
            DispatchQueue.concurrentPerform(iterations: workers) { worker in
                var index = worker
                while index < lines.count {
                    results.set(index, transform(lines[index]))
                    index += workers
                }
            }
            var text = ""
            for result in results.values() { if let result { text += result + "\n" } }
            output.write(Data(text.utf8))
        }
    }
}

/// One slot per line, each written by exactly one worker.
/// `@unchecked Sendable`: slots are disjoint between workers, and read only after all finish.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [String?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: String?) {
        slots.withUnsafeMutableBufferPointer { $0[index] = value }
    }

    func values() -> [String?] { slots }
}
