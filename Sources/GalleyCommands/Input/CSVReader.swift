// CSV with a header row: each record an object keyed by the header's names.

import GalleyJSON

/// The records of a CSV file (RFC 4180: quoted fields, doubled quotes, line breaks inside
/// quotes, CRLF or LF endings; UTF-8 with or without a byte order mark), each an object of its
/// header's names. A dotted name (`author.name`) makes a nested object; an empty cell is a
/// missing field; a cell written as a JSON number is a number (see ``TextValues``).
///
/// Handwritten: CSV.swift, the maintained package on hand, takes longer to read a row than
/// measuring the row takes, and reports an error at the end of a well-formed file (the
/// measurement is in Docs/Batch.md).
final class CSVReader: RecordSource {
    private let input: ByteInput
    private let maximumLength: Int
    private let delimiter: UInt8
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false
    /// The line the next record starts on, and the record count.
    private var line = 1
    private var ordinal = 0
    /// The header's names, each split at its dots.
    private var columns: [[String]]?
    private var failed = false
    /// Where `buffer` starts in the input.
    private var consumed = 0
    /// The quoted field being read, when one is open.
    private var openQuote: OpenQuote?

    /// Where a quoted field opened: while it is no longer than the record limit, refilling keeps
    /// the buffer from there, so that a quote that never closes can be read again as the lines
    /// it swallowed; past the limit, a regular file is read again from there instead.
    private struct OpenQuote {
        /// Its place in `buffer`, while kept.
        var offset: Int
        /// Its place in the input.
        var start: Int
        var line: Int
        var isKept = true
    }

    /// The most levels a dotted column name may nest (`a.b.c` is three).
    static let maximumNesting = 32
    /// The most columns: each record's object is built field by field.
    static let maximumColumns = 10_000

    init(_ input: ByteInput, maximumLength: Int, delimiter: UInt8 = UInt8(ascii: ",")) {
        self.input = input
        self.maximumLength = max(maximumLength, 1)
        self.delimiter = delimiter
    }

    func next(_ count: Int) throws -> [InputRecord] {
        var records: [InputRecord] = []
        if columns == nil && !failed, let problem = try readHeader() {
            records.append(InputRecord(file: input.name, number: 1, ordinal: 0, content: .invalid("\(input.name): \(problem)")))
            failed = true
        }
        while records.count < count && !failed {
            guard let (row, startLine) = try readRow() else { break }
            switch row {
            case .fields(let fields):
                if fields.count == 1 && fields[0].isEmpty { continue }  // a blank line
                ordinal += 1
                records.append(InputRecord(file: input.name, number: startLine, ordinal: ordinal, content: record(fields)))
            case .tooLong(let length):
                ordinal += 1
                records.append(InputRecord(file: input.name, number: startLine, ordinal: ordinal, content: .tooLong(length, limit: maximumLength)))
            case .unclosedQuote(let problem):
                ordinal += 1
                records.append(InputRecord(file: input.name, number: startLine, ordinal: ordinal, content: .invalid(problem)))
            }
        }
        return records
    }

    /// Reads and keeps the header row, unless read already; what is wrong with it, if anything.
    ///
    /// - Throws: ``InputUsageError`` when two columns' dotted names conflict (`text` and
    ///   `text.x`: one would hold a value and an object), an error of how the input was given
    ///   rather than of one record; ``InputError`` when reading fails.
    func readHeader() throws -> String? {
        guard columns == nil else { return nil }
        guard let (row, _) = try readRow() else {
            columns = []
            return nil
        }
        switch row {
        case .fields(let fields): return try header(fields)
        case .tooLong: return "the header row is longer than the limit of \(maximumLength) bytes"
        case .unclosedQuote: return "the header row has a quoted field that does not close"
        }
    }

    /// Checks and keeps the header; what is wrong with it, if anything.
    private func header(_ fields: [[UInt8]]) throws -> String? {
        guard fields.count <= Self.maximumColumns else { return "the header row has \(fields.count) columns, more than \(Self.maximumColumns)" }
        var names: [String] = []
        var seen: Set<String> = []
        for (index, bytes) in fields.enumerated() {
            guard let name = String(validating: bytes, as: UTF8.self) else { return "column \(index + 1)'s name is not UTF-8" }
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty else { return "column \(index + 1) of the header row has no name" }
            guard seen.insert(trimmed).inserted else { return "the header row names '\(trimmed)' twice" }
            names.append(trimmed)
        }
        let paths = names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        if let deep = paths.firstIndex(where: { $0.count > Self.maximumNesting }) {
            return "column \(deep + 1)'s name nests more than \(Self.maximumNesting) levels deep"
        }
        // Sorted by their parts, a name that is a prefix of others comes just before the first of them.
        let order = paths.indices.sorted { paths[$0].lexicographicallyPrecedes(paths[$1]) }
        for (shorter, longer) in zip(order, order.dropFirst()) where paths[longer].starts(with: paths[shorter]) {
            throw InputUsageError(
                file: input.name,
                reason:
                    "the header's columns '\(names[shorter])' and '\(names[longer])' conflict: '\(names[shorter])' would hold a value and an object at once (rename one)"
            )
        }
        columns = paths
        return nil
    }

    private func record(_ fields: [[UInt8]]) -> InputRecord.Content {
        guard let columns else { return .invalid("no header") }
        guard fields.count == columns.count else {
            return .invalid("the record has \(fields.count) field\(fields.count == 1 ? "" : "s"), the header \(columns.count)")
        }
        return .csv(CSVRecord(fields: fields, columns: columns))
    }

    /// A row as read.
    private enum Row {
        case fields([[UInt8]])
        /// Longer than the limit, with its length: read past, not kept.
        case tooLong(Int)
        /// A quoted field that did not close before the end of the input: what to say. Reading
        /// goes on at the line after the one the quote opened on.
        case unclosedQuote(String)
    }

    /// The next row and the line it starts on; nil at the end of the input.
    private func readRow() throws -> (row: Row, line: Int)? {
        if position == buffer.count {
            refill()
            if position == buffer.count { return nil }
        }
        let startLine = line
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var length = 0
        var tooLong = false
        var quoted = false
        var inQuotes = false
        /// `length` where the current field starts: a quote opens a field only as its first byte.
        var fieldStart = 0
        while true {
            if position == buffer.count {
                refill()
                if position == buffer.count {
                    // A row that reading failed in is cut short: dropped, the failure said after it.
                    if input.failure != nil { return nil }
                    if inQuotes { return (reopen(), startLine) }
                    // The end of the input ends the row.
                    fields.append(field)
                    return (tooLong ? .tooLong(length) : .fields(fields), startLine)
                }
            }
            if let quote = openQuote, quote.isKept, consumed + position - quote.start > maximumLength {
                // Longer than any record may be: read past, not kept, until it closes (the row
                // is then too long) or the input ends.
                openQuote?.isKept = false
            }
            // A run of bytes with no meaning to CSV here is taken whole: byte by byte, the reader
            // (which runs alone) would cost more than the JSON Lines reader and parser together.
            let (end, newlines) = ordinaryRun(from: position, inQuotes: inQuotes)
            if end > position {
                let run = end - position
                if tooLong {
                    // Read past, counted: a row over the limit is skipped, not kept.
                } else if length + run <= maximumLength {
                    field.append(contentsOf: buffer[position..<end])
                } else {
                    tooLong = true
                    fields = []
                    field = []
                }
                length += run
                line += newlines
                position = end
                continue
            }
            let byte = buffer[position]
            position += 1
            length += 1
            if length > maximumLength && !tooLong {
                tooLong = true
                fields = []
                field = []
            }
            if byte == 0x0A { line += 1 }
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if peek() == UInt8(ascii: "\"") {
                        position += 1
                        length += 1
                        if !tooLong { field.append(byte) }
                    } else {
                        inQuotes = false
                        openQuote = nil
                    }
                } else if !tooLong {
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case delimiter:
                if !tooLong { fields.append(field) }
                field = []
                quoted = false
                fieldStart = length
            case 0x0A:
                fields.append(field)
                return (tooLong ? .tooLong(length - 1) : .fields(fields), startLine)
            case 0x0D:
                // The CR of a CRLF ending is dropped; a lone one is text.
                if peek() != 0x0A, !tooLong { field.append(byte) }
            case UInt8(ascii: "\"") where length - 1 == fieldStart && !quoted:
                inQuotes = true
                quoted = true
                openQuote = OpenQuote(offset: position - 1, start: consumed + position - 1, line: line)
            default:
                if !tooLong { field.append(byte) }
            }
        }
    }

    /// The open quote's row as an error, reading set to go on at the line after the quote's:
    /// a stray quote costs its own row, not every row after it. The quote's bytes are in
    /// `buffer` while it is kept; past the limit, a regular file is read again from it, and
    /// anything else (a pipe) cannot be.
    private func reopen() -> Row {
        guard let quote = openQuote else { return .unclosedQuote("a quoted field runs to the end of the file") }
        openQuote = nil
        if quote.isKept {
            position = quote.offset
        } else if input.seek(to: quote.start) {
            buffer = []
            position = 0
            consumed = quote.start
            atEnd = false
        } else {
            failed = true
            input.close()
            return .unclosedQuote(
                "the quoted field that opens on line \(quote.line) runs to the end of the input, which cannot be read again to go on after it")
        }
        // The rest of the quote's line may not have been read yet (a long line): read past it.
        while true {
            if let newline = buffer[position...].firstIndex(of: 0x0A) {
                position = newline + 1
                break
            }
            position = buffer.count
            refill()
            if position == buffer.count { break }
        }
        line = quote.line + 1
        return .unclosedQuote("the quoted field that opens on line \(quote.line) runs to the end of the file; reading goes on at line \(quote.line + 1)")
    }

    /// Where the run of ordinary bytes from `start` ends (a quote, or outside quotes also a
    /// delimiter, CR or LF, or the buffer's end), and the line feeds in it.
    private func ordinaryRun(from start: Int, inQuotes: Bool) -> (end: Int, newlines: Int) {
        buffer.withUnsafeBufferPointer { bytes in
            var index = start
            var newlines = 0
            let quote = UInt8(ascii: "\"")
            let delimiter = delimiter
            if inQuotes {
                while index < bytes.count, bytes[index] != quote {
                    if bytes[index] == 0x0A { newlines += 1 }
                    index += 1
                }
            } else {
                while index < bytes.count {
                    let byte = bytes[index]
                    if byte == delimiter || byte == 0x0A || byte == 0x0D || byte == quote { break }
                    index += 1
                }
            }
            return (index, newlines)
        }
    }

    /// The byte after `position`, reading more when it is not in `buffer`.
    private func peek() -> UInt8? {
        if position == buffer.count { refill() }
        return position < buffer.count ? buffer[position] : nil
    }

    /// Reads the next block into `buffer` (all of it read, `position` at its end). While a
    /// quote is open, the buffer keeps what it holds from the quote on, and grows by as much
    /// as it keeps, so that a long quoted field is copied a few times in all.
    private func refill() {
        guard !atEnd else { return }
        let first = buffer.isEmpty && position == 0 && line == 1 && consumed == 0
        let kept = openQuote.flatMap { $0.isKept ? buffer[$0.offset...] : nil } ?? []
        consumed += buffer.count - kept.count
        buffer = [UInt8](unsafeUninitializedCapacity: kept.count + max(LineReader.chunkSize, kept.count)) { storage, count in
            _ = storage.initialize(fromContentsOf: kept)
            count = kept.count
            count += input.read(into: storage.baseAddress! + kept.count, count: storage.count - kept.count)
        }
        position = kept.count
        if openQuote?.isKept == true { openQuote?.offset = 0 }
        if buffer.count == kept.count {
            atEnd = true
            // A quote still open may send reading back into the file.
            if openQuote == nil { input.close() }
        } else if first && buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            position = 3
        }
    }
}

/// A CSV row as read, made into an object on the worker that lays it out (the reader runs alone,
/// and decoding and nesting the fields would be most of its work).
struct CSVRecord: Sendable {
    /// The fields' bytes, as many as the header's names.
    var fields: [[UInt8]]
    /// The header's names, each split at its dots.
    var columns: [[String]]

    /// The record as an object: empty fields left out, numbers as numbers, dotted names nested.
    ///
    /// - Throws: ``RecordError`` naming a field that is not UTF-8.
    func object() throws(RecordError) -> JSONObject {
        var object = JSONObject(minimumCapacity: columns.count)
        for (index, bytes) in fields.enumerated() where !bytes.isEmpty {
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw RecordError("field '\(columns[index].joined(separator: "."))' is not UTF-8")
            }
            if columns[index].count == 1 {
                object[columns[index][0]] = TextValues.value(text)
            } else {
                object.setValue(TextValues.value(text), at: columns[index])
            }
        }
        return object
    }
}
