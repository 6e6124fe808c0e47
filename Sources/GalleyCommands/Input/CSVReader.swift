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
        while records.count < count && !failed {
            guard let (fields, startLine, length) = try readRow() else { break }
            if columns == nil {
                if let problem = header(fields) {
                    records.append(InputRecord(file: input.name, number: startLine, ordinal: 0, content: .invalid("\(input.name): \(problem)")))
                    failed = true
                }
                continue
            }
            guard let fields else {
                ordinal += 1
                records.append(InputRecord(file: input.name, number: startLine, ordinal: ordinal, content: .tooLong(length, limit: maximumLength)))
                continue
            }
            if fields.count == 1 && fields[0].isEmpty { continue }  // a blank line
            ordinal += 1
            records.append(InputRecord(file: input.name, number: startLine, ordinal: ordinal, content: record(fields)))
        }
        return records
    }

    /// Checks and keeps the header; what is wrong with it, if anything.
    private func header(_ fields: [[UInt8]]?) -> String? {
        guard let fields else { return "the header row is longer than the limit of \(maximumLength) bytes" }
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
        columns = names.map { $0.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }
        if let deep = columns?.firstIndex(where: { $0.count > Self.maximumNesting }) {
            return "column \(deep + 1)'s name nests more than \(Self.maximumNesting) levels deep"
        }
        return nil
    }

    private func record(_ fields: [[UInt8]]) -> InputRecord.Content {
        guard let columns else { return .invalid("no header") }
        guard fields.count == columns.count else {
            return .invalid("the record has \(fields.count) field\(fields.count == 1 ? "" : "s"), the header \(columns.count)")
        }
        return .csv(CSVRecord(fields: fields, columns: columns))
    }

    /// The next row's fields (nil when it is longer than the limit), the line it starts on and
    /// its length in bytes; nil at the end of the input.
    private func readRow() throws -> (fields: [[UInt8]]?, line: Int, length: Int)? {
        if position == buffer.count {
            try refill()
            if position == buffer.count { return nil }
        }
        let startLine = line
        var fields: [[UInt8]] = []
        var field: [UInt8] = []
        var length = 0
        var tooLong = false
        var quoted = false
        var inQuotes = false
        while true {
            if position == buffer.count {
                try refill()
                if position == buffer.count {
                    // The end of the input ends the row (an unclosed quote included: what was read stands).
                    fields.append(field)
                    return (tooLong ? nil : fields, startLine, length)
                }
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
                    if try peek() == UInt8(ascii: "\"") {
                        position += 1
                        length += 1
                        if !tooLong { field.append(byte) }
                    } else {
                        inQuotes = false
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
            case 0x0A:
                fields.append(field)
                return (tooLong ? nil : fields, startLine, length - 1)
            case 0x0D:
                // The CR of a CRLF ending is dropped; a lone one is text.
                if try peek() != 0x0A, !tooLong { field.append(byte) }
            case UInt8(ascii: "\"") where field.isEmpty && !quoted:
                inQuotes = true
                quoted = true
            default:
                if !tooLong { field.append(byte) }
            }
        }
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
    private func peek() throws -> UInt8? {
        if position == buffer.count { try refill() }
        return position < buffer.count ? buffer[position] : nil
    }

    private func refill() throws {
        guard !atEnd else { return }
        let first = buffer.isEmpty && position == 0 && line == 1
        buffer = try [UInt8](unsafeUninitializedCapacity: LineReader.chunkSize) { storage, count in
            count = try input.read(into: storage.baseAddress!, count: storage.count)
        }
        position = 0
        if buffer.isEmpty {
            atEnd = true
            input.close()
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
