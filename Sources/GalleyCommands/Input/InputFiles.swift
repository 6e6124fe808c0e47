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
    private var pending: [String]
    private let options: InputOptions
    private var current: (any RecordSource)?
    /// What opening or reading failed with after some records of this chunk were read.
    private var deferredError: (any Error)?
    /// The JSON text a chunk holds at most, past its first record.
    static let chunkByteBudget = 64 << 20

    /// Records handed out so far.
    private var handedOut = 0

    /// How much of the input has been read, for a progress line.
    let progress: ReadProgress

    init(paths: [String], options: InputOptions = InputOptions()) {
        pending = paths.isEmpty ? ["-"] : paths
        self.options = options
        progress = ReadProgress(paths: pending)
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
                }
                var more = try current!.next(count - records.count)
                if more.isEmpty { current = nil }
                for index in more.indices {
                    more[index].position = handedOut
                    handedOut += 1
                    bytes += more[index].bytes.count
                }
                records += more
            }
        } catch  where !records.isEmpty {
            // The records read before a file that fails go out first: its error comes next call.
            deferredError = error
            current = nil
        }
        return records
    }

    private func open(_ path: String) throws -> any RecordSource {
        let input = try ByteInput(path: path, progress: progress)
        let format = try options.format ?? InputFormat.named(byExtensionOf: path) ?? InputFormat.detect(input.peek(4096))
        let length = options.maximumRecordLength
        switch format {
        case .jsonl: return LineReader(input, maximumLineLength: length)
        case .json: return JSONArrayReader(input, maximumLength: length)
        case .csv: return CSVReader(input, maximumLength: length)
        case .tsv: return CSVReader(input, maximumLength: length, delimiter: 0x09)
        case .xml: return XMLReader(input, recordName: options.recordName, listNames: options.listNames, maximumLength: length)
        case .plist:
            return try PropertyLists.reader(
                input, recordKey: options.recordName, maximumSize: options.maximumDocumentSize, maximumRecordLength: length)
        }
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
