// Runs a per-line job over input on all cores, writing results in input order.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyText
import Synchronization

/// Processes input lines in chunks: each chunk is spread over all cores, then its results are
/// written in the order the lines came in. Memory stays bounded by the chunk size.
struct BatchRunner {
    /// Lines per chunk.
    var chunkSize = 4096
    /// Worker threads; defaults to the machine's active cores.
    var jobs = ProcessInfo.processInfo.activeProcessorCount

    /// Runs `transform` on every line that is not blank, writes its output in input order, and
    /// exits with status 1 (after saying how many on standard error) when any line failed.
    ///
    /// - Parameter command: The subcommand's name, for the failure message.
    func runReportingFailures(
        _ source: LineSource, command: String,
        transform: @escaping @Sendable (LineSource.Line) -> (text: String, failed: Bool)
    ) throws {
        let failures = FailureCounter()
        try run(source) { line in
            guard !line.text.allSatisfy(\.isWhitespace) else { return nil }
            let result = transform(line)
            if result.failed { failures.increment() }
            return result.text
        }
        if failures.count > 0 {
            FileHandle.standardError.write(Data("galley \(command): \(failures.count) line(s) failed\n".utf8))
            throw ExitCode(1)
        }
    }

    /// The fonts a command measures with: the bundled set, plus `paths` and, when asked, the
    /// system's fonts.
    static func fonts(paths: [String], includeSystemFonts: Bool = false) throws -> FontCollection {
        do {
            return paths.isEmpty && !includeSystemFonts
                ? try FontCollection.bundled()
                : try FontCollection(fontPaths: paths, includeSystemFonts: includeSystemFonts)
        } catch {
            throw ValidationError("cannot load fonts: \(error)")
        }
    }

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

/// Counts failed lines across worker threads.
private final class FailureCounter: Sendable {
    private let value = Mutex(0)
    func increment() { value.withLock { $0 += 1 } }
    var count: Int { value.withLock { $0 } }
}

extension LineSource.Line {
    /// `{"id", "line", "file", "error"}` for this line (`file` only when not standard input).
    func errorJSON(id: JSONValue, message: String) -> String {
        var writer = JSONWriter()
        writer.add("id", id)
        writer.add("line", number)
        if file != "<stdin>" { writer.add("file", file) }
        writer.add("error", message)
        return writer.line
    }
}
