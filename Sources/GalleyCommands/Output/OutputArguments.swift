// Where results and errors go.

import ArgumentParser
import Foundation

/// The output file and format, and where errors go.
struct OutputArguments: ParsableArguments {
    @Option(
        name: [.short, .customLong("output")],
        help: ArgumentHelp(
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
    /// Where a run of `command` at `scale` over `inputs` writes, opened before any work starts.
    ///
    /// - Throws: a usage error when the output or the errors file is one of the inputs (it
    ///   would be emptied before it is read), or cannot be opened.
    func sink(command: String, scale: Double, settings: Int64, inputs: [String]) throws -> any OutputSink {
        for (option, path) in [("--output", output), ("--errors", errors)] {
            guard let path, let target = Self.identity(of: path) else { continue }
            if let input = inputs.first(where: { $0 != "-" && Self.identity(of: $0) == target }) {
                throw setupFailure("\(option) \(path) is the input \(input): it would be emptied before it is read")
            }
        }
        // The errors file is opened (and emptied) only once the output is known to be usable.
        let openErrors = { () throws -> ByteStream in
            do { return try errors.map(ByteStream.init(path:)) ?? ByteStream(standard: STDERR_FILENO, name: "standard error") } catch {
                throw setupFailure("\(error)")
            }
        }
        switch resolvedFormat {
        case .sqlite:
            return try SQLiteSink(path: output!, errors: openErrors, scale: scale, settings: settings, keepsFrames: command == "layout")
        case .jsonl, .csv:
            let stream: ByteStream
            do { stream = try output.map(ByteStream.init(path:)) ?? ByteStream(standard: STDOUT_FILENO, name: "standard output") } catch {
                throw setupFailure("\(error)")
            }
            let header = resolvedFormat == .csv ? Array((command == "layout" ? "id,width,height,frames\n" : "id,width,height\n").utf8) : nil
            return StreamSink(output: stream, errors: try openErrors(), header: header)
        }
    }

    /// A file's device and inode, when it exists.
    private static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
