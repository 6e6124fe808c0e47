// The options that say what the input files are and how to read them.

import ArgumentParser

/// Input files and their format, for every command that reads records.
struct InputArguments: ParsableArguments {
    @Argument(
        help: ArgumentHelp(
            "Input files: JSON Lines, a JSON array, CSV, TSV, XML (RSS, Atom, or --record) or a property list (standard input when none, or '-').",
            valueName: "file"))
    var files: [String] = []

    @Option(help: "The inputs' format (jsonl, json, csv, tsv, xml, plist); by default each file's extension or first bytes tell.")
    var inputFormat: InputFormat?

    @Option(
        help: ArgumentHelp(
            "The XML element that is one record (RSS and Atom need none), or the key of a property list's root dictionary that holds the records.",
            valueName: "name"))
    var record: String?

    @Option(help: ArgumentHelp("An XML element read as a list in every record, even when it occurs once or not at all (repeatable).", valueName: "name"))
    var list: [String] = []

    @Option(
        name: [.customLong("max-record-length"), .customLong("max-line-length")],
        help: ArgumentHelp(
            "The longest input record (a line, an array element, a CSV row, an XML record, the strings and data of a property list's record), in bytes: a longer one is an error for that record.",
            valueName: "bytes"))
    var maxRecordLength = InputOptions.defaultMaximumRecordLength

    @Option(
        help: ArgumentHelp(
            "The largest property list read (property lists are read whole), and the most bytes of strings and data its records expand to, in bytes.",
            valueName: "bytes"))
    var maxDocumentSize = InputOptions.defaultMaximumDocumentSize

    func validate() throws {
        guard maxRecordLength > 0 else { throw ValidationError("--max-record-length must be more than 0, got \(maxRecordLength)") }
        guard maxDocumentSize > 0 else { throw ValidationError("--max-document-size must be more than 0, got \(maxDocumentSize)") }
        if files.filter({ $0 == "-" }).count > 1 { throw ValidationError("standard input ('-') can be read only once") }
    }

    /// Checks that every file can be read, before any work starts: a typo in the last of many
    /// stops the run at once. Not part of `validate()`, which runs before the parser reports an
    /// unknown option: `--widht 320` would be reported as a file named 320 that cannot be read.
    /// A CSV file's header, and the start of an XML file without `--record`, are read too, so
    /// that columns whose names conflict, or XML that is not a feed, stop the run before any of
    /// it is done.
    ///
    /// - Throws: a usage error naming the first file that cannot be read, and why.
    func checkFiles() throws {
        for file in files {
            if let problem = ByteInput.problem(opening: file) { throw setupFailure("cannot read \(file): \(problem)") }
        }
        // Regular files only: what a pipe gives cannot be read twice.
        for file in files where file != "-" && FileIdentity(path: file) != nil {
            do {
                let input = try ByteInput(path: file)
                let format = inputFormat ?? InputFormat.named(byExtensionOf: file) ?? InputFormat.detect(input.peek(4096))
                switch format {
                case .csv, .tsv:
                    _ = try CSVReader(input, maximumLength: maxRecordLength, delimiter: format == .tsv ? 0x09 : UInt8(ascii: ",")).readHeader()
                case .xml where record == nil:
                    // Read up to the first record: the root tells whether it is a feed.
                    _ = try XMLReader(input, recordName: nil, listNames: [], maximumLength: maxRecordLength).next(1)
                default:
                    continue
                }
            } catch let error as InputUsageError {
                throw setupFailure(error.description)
            } catch {
                // Reading fails again, and is reported, when the run comes to the file.
            }
        }
    }

    var options: InputOptions {
        InputOptions(
            format: inputFormat, maximumRecordLength: maxRecordLength, maximumDocumentSize: maxDocumentSize,
            recordName: record, listNames: Set(list))
    }

    /// The records of the files.
    func records() -> InputFiles { InputFiles(paths: files, options: options) }
}
