// The records of a list of input files, each read in its own format.

import Foundation
import Synchronization

/// How records are read: the format (or none, to tell each file's), the limits on one record,
/// and the record and list names for XML and property lists.
struct InputOptions: Sendable {
    var format: InputFormat?
    /// The longest record handed out (a line, an array element, a CSV row, an XML record, a
    /// property list record's strings and data), in bytes.
    var maximumRecordLength = InputOptions.defaultMaximumRecordLength
    /// The largest file read whole (property lists), and the most bytes of strings and data a
    /// property list's records expand to in all.
    var maximumDocumentSize = InputOptions.defaultMaximumDocumentSize
    /// The XML element, or the key of a property list's root dictionary, that holds records.
    var recordName: String?
    /// XML elements read as lists whether they occur zero, one or many times.
    var listNames: Set<String> = []

    /// 64 MiB.
    static let defaultMaximumRecordLength = 64 << 20
    /// 256 MiB.
    static let defaultMaximumDocumentSize = 256 << 20
}

/// The records of `paths` in order ("-" or no paths: standard input), each file read in its
/// format. A file that cannot be read ends the run, after every record read before it.
final class InputFiles: RecordSource {
    private var pending: [Pending]
    private let options: InputOptions
    private var current: (source: any RecordSource, input: ByteInput)?
    /// The last record handed out of the current input, to say where reading it failed.
    private var lastRecord: InputRecord?

    /// An input yet to be read: a path, or one opened by the caller.
    private enum Pending {
        case path(String)
        case input(ByteInput)
    }
    /// What opening or reading failed with after some records of this chunk were read.
    private var deferredError: (any Error)?
    /// The JSON text a chunk holds at most, past its first record.
    static let chunkByteBudget = 64 << 20

    /// Records handed out so far.
    private var handedOut = 0

    /// How much of the input has been read, for a progress line.
    let progress: ReadProgress
    /// What "-" reads: the command's standard input, known here (files are opened on the
    /// reader's thread, where it is not).
    private let standardInput = StandardStreams.current.input

    init(paths: [String], options: InputOptions = InputOptions()) {
        let paths = paths.isEmpty ? ["-"] : paths
        pending = paths.map(Pending.path)
        self.options = options
        progress = ReadProgress(paths: paths)
    }

    /// The records of inputs the caller opened, in order.
    init(inputs: [ByteInput], options: InputOptions = InputOptions()) {
        pending = inputs.map(Pending.input)
        self.options = options
        progress = ReadProgress(paths: [])
    }

    func next(_ count: Int) throws -> [InputRecord] {
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        var records: [InputRecord] = []
        do {
            // A chunk stops at a byte budget too, so that long records do not make it hold the input.
            var bytes = 0
            while records.count < count && bytes < Self.chunkByteBudget {
                if current == nil {
                    guard !pending.isEmpty else { break }
                    current = try open(pending.removeFirst())
                    lastRecord = nil
                }
                var more = try current!.source.next(count - records.count)
                if more.isEmpty {
                    let failure = current!.input.failure
                    current = nil
                    if let failure { throw InputError(file: failure.file, reason: failure.reason + Self.place(after: lastRecord)) }
                }
                for index in more.indices {
                    more[index].position = handedOut
                    handedOut += 1
                    bytes += more[index].bytes.count
                }
                lastRecord = more.last ?? lastRecord
                records += more
            }
        } catch  where !records.isEmpty {
            // The records read before a file that fails go out first: its error comes next call.
            deferredError = error
            current = nil
        }
        return records
    }

    /// Where reading stopped, for a failure after `record`: the last record read whole.
    private static func place(after record: InputRecord?) -> String {
        guard let record else { return ", before its first record" }
        return ", after \(record.unit.rawValue) \(record.number) (record \(record.ordinal)), the last record read whole"
    }

    private func open(_ pending: Pending) throws -> (source: any RecordSource, input: ByteInput) {
        let input: ByteInput
        var path: String?
        switch pending {
        case .path(let named):
            input = try ByteInput(path: named, standardInput: standardInput, progress: progress)
            path = named
        case .input(let given):
            input = given
        }
        let format = options.format ?? path.flatMap(InputFormat.named(byExtensionOf:)) ?? InputFormat.detect(input.peek(4096))
        let length = options.maximumRecordLength
        let source: any RecordSource =
            switch format {
            case .jsonl: LineReader(input, maximumLineLength: length)
            case .json: JSONArrayReader(input, maximumLength: length)
            case .csv: CSVReader(input, maximumLength: length)
            case .tsv: CSVReader(input, maximumLength: length, delimiter: 0x09)
            case .xml: XMLReader(input, recordName: options.recordName, listNames: options.listNames, maximumLength: length)
            case .plist:
                try PropertyLists.reader(input, recordKey: options.recordName, maximumSize: options.maximumDocumentSize, maximumRecordLength: length)
            }
        return (source, input)
    }
}

/// The bytes read of a run's input, against their total when every input is a regular file.
/// Read by the thread that draws progress while the reader's thread adds to it.
final class ReadProgress: Sendable {
    private let read = Atomic<Int>(0)
    /// The inputs' total size; nil when one is standard input or not a regular file.
    let total: Int?

    init(paths: [String]) {
        var total = 0
        for path in paths {
            var status = stat()
            guard path != "-", stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
                self.total = nil
                return
            }
            total += Int(status.st_size)
        }
        self.total = total
    }

    func add(_ count: Int) { read.wrappingAdd(count, ordering: .relaxed) }

    /// The share of the input read, from 0 to 1, when its size is known.
    var fraction: Double? {
        guard let total, total > 0 else { return nil }
        return min(1, Double(read.load(ordering: .relaxed)) / Double(total))
    }
}
