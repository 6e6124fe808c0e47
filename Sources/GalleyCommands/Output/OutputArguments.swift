// Where results and errors go.

import ArgumentParser
import Foundation

/// The output file and format, and where errors go.
struct OutputArguments: ParsableArguments {
    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Write results to this file instead of standard output (a .sqlite file is a database that later runs resume).",
        valueName: "file"))
    var output: String?

    @Option(help: "The output format (jsonl, csv, sqlite); by default the output file's extension tells, else jsonl.")
    var format: OutputFormat?

    @Option(help: ArgumentHelp("Write error lines (JSON Lines) to this file instead of standard error.", valueName: "file"))
    var errors: String?

    /// The format results are written in.
    var resolvedFormat: OutputFormat {
        format ?? output.flatMap(OutputFormat.named(byExtensionOf:)) ?? .jsonl
    }

    func validate() throws {
        if resolvedFormat == .sqlite && output == nil {
            throw ValidationError("a SQLite output needs --output FILE")
        }
        if let output, output == errors { throw ValidationError("--output and --errors must be different files") }
    }
}

extension OutputArguments {
    /// Where a run of `command` at `scale` writes, opened before any work starts.
    func sink(command: String, scale: Double, settings: Int64) throws -> any OutputSink {
        let errorStream: ByteStream
        do {
            errorStream = try errors.map(ByteStream.init(path:)) ?? ByteStream(standard: STDERR_FILENO, name: "standard error")
        } catch { throw setupFailure("\(error)") }
        switch resolvedFormat {
        case .sqlite:
            return try SQLiteSink(path: output!, errors: errorStream, scale: scale, settings: settings, keepsFrames: command == "layout")
        case .jsonl, .csv:
            let stream: ByteStream
            do { stream = try output.map(ByteStream.init(path:)) ?? ByteStream(standard: STDOUT_FILENO, name: "standard output") }
            catch { throw setupFailure("\(error)") }
            let header = resolvedFormat == .csv ? Array((command == "layout" ? "id,width,height,frames\n" : "id,width,height\n").utf8) : nil
            return StreamSink(output: stream, errors: errorStream, header: header)
        }
    }
}
