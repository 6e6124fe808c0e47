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

    @Flag(
        inversion: .prefixedNo,
        help: "In CSV output, start a cell a spreadsheet would run as a formula (=, +, -, @, tab, CR) with ' (on unless --no-csv-safe).")
    var csvSafe = true

    /// The format results are written in.
    var resolvedFormat: OutputFormat {
        format ?? output.flatMap(OutputFormat.named(byExtensionOf:)) ?? .jsonl
    }

    func validate() throws {
        if resolvedFormat == .sqlite && output == nil {
            throw ValidationError("a SQLite output needs --output FILE")
        }
    }
}

extension OutputArguments {
    /// Where a run of `command` at `widths` and `scale` over `inputs` writes, opened before any work starts.
    ///
    /// - Throws: a usage error when the output or the errors file is one of the inputs (it
    ///   would be emptied before it is read) or the other, or cannot be opened.
    func sink(command: String, widths: [Double], scale: Double, settings: Int64, inputs: [String]) throws -> any OutputSink {
        try checkFiles(inputs: inputs)
        // The errors file is opened (and emptied) only once the output is known to be usable.
        let openErrors = { () throws -> ByteStream in
            do { return try errors.map(ByteStream.init(path:)) ?? ByteStream(standard: StandardStreams.current.error, name: "standard error") } catch {
                throw setupFailure("\(error)")
            }
        }
        switch resolvedFormat {
        case .sqlite:
            return try SQLiteSink(
                path: output!, errors: openErrors, widths: widths, scale: scale, settings: settings, keepsFrames: command == "layout")
        case .jsonl, .csv:
            let stream: ByteStream
            do { stream = try output.map(ByteStream.init(path:)) ?? ByteStream(standard: StandardStreams.current.output, name: "standard output") } catch {
                throw setupFailure("\(error)")
            }
            let header = resolvedFormat == .csv ? Array((command == "layout" ? "id,width,height,frames\n" : "id,width,height\n").utf8) : nil
            return StreamSink(output: stream, errors: try openErrors(), header: header)
        }
    }

    /// Refuses files that would be written over one another: see
    /// ``checkApart(inputs:output:errors:databaseJournals:)``.
    private func checkFiles(inputs: [String]) throws {
        try Self.checkApart(inputs: inputs, output: output, errors: errors, databaseJournals: resolvedFormat == .sqlite)
    }

    /// Refuses files that would be written over one another: an output, the errors file, a
    /// database's journals, standard output or standard error that is an input (standard input
    /// included), or two of them one file. Files are compared as the system knows them,
    /// whatever they are called; nil `output` or `errors` stand for standard output and error.
    ///
    /// - Throws: a usage error naming the two.
    static func checkApart(inputs: [String], output: String?, errors: String?, databaseJournals: Bool = false) throws {
        var written: [(name: String, identity: FileIdentity)] = []
        func add(_ name: String, _ identity: FileIdentity?) { if let identity { written.append((name, identity)) } }
        if let output {
            add("--output \(output)", FileIdentity(path: output))
            if databaseJournals {
                // SQLite's own files beside the database, where links lead.
                let real = realpath(output, nil).map { path in
                    defer { free(path) }
                    return String(cString: path)
                }
                for suffix in ["-wal", "-shm", "-journal"] {
                    add("--output \(output)'s \(suffix.dropFirst()) file", FileIdentity(path: (real ?? output) + suffix))
                }
            }
        } else {
            add("standard output", FileIdentity(descriptor: StandardStreams.current.output))
        }
        if let errors { add("--errors \(errors)", FileIdentity(path: errors)) }
        // Progress and the summary go to standard error whatever --errors says.
        add("standard error", FileIdentity(descriptor: StandardStreams.current.error))
        var read: [(name: String, identity: FileIdentity)] = []
        for input in inputs where input != "-" {
            if let identity = FileIdentity(path: input) { read.append(("the input \(input)", identity)) }
        }
        if inputs.isEmpty || inputs.contains("-"), let identity = FileIdentity(descriptor: StandardStreams.current.input) {
            read.append(("standard input", identity))
        }
        for (index, writer) in written.enumerated() {
            if let input = read.first(where: { $0.identity == writer.identity }) {
                throw setupFailure("\(writer.name) is \(input.name): it would be written over while it is read")
            }
            // Standard output and standard error may share a file (`>log 2>&1`): they write in turn.
            let isStandard = !writer.name.hasPrefix("--")
            if let other = written[(index + 1)...].first(where: { $0.identity == writer.identity && !(isStandard && !$0.name.hasPrefix("--")) }) {
                throw setupFailure("\(writer.name) and \(other.name) are the same file: one would be written over the other")
            }
        }
    }
}
