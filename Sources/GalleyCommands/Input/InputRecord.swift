// One record of input (an item, or a measure request) and where it came from.

import GalleyJSON

/// A record read from an input file: a JSON text for the workers to parse, an object a reader
/// already built (CSV, XML, property lists), or why it could not be read.
struct InputRecord: Sendable {
    /// The file's path, or `<stdin>`.
    var file: String
    /// Where the record starts: its line (JSON Lines, JSON arrays, CSV, XML) or its place among
    /// the file's records (property lists, which have no lines to point at).
    var number: Int
    /// Whether ``number`` is a line or a record number.
    var unit: Unit = .line
    /// The record's place among its file's records, from 1.
    var ordinal: Int
    var content: Content
    /// The record's place among all the run's records, from 0 (set by ``InputFiles``); one more
    /// is the id of a CSV, XML or property-list record that has none.
    var position = 0

    enum Unit: String, Sendable { case line, record }

    enum Content: Sendable {
        /// A JSON text (without its line ending), kept as bytes: the JSON parser reads them in
        /// place, on the worker that measures the record. A slice of the reader's buffer.
        case json(ArraySlice<UInt8>)
        /// A record already read into an object.
        case object(JSONObject)
        /// An XML record, made into an object where it is used.
        case xml(XMLRecord)
        /// A CSV row, made into an object where it is used.
        case csv(CSVRecord)
        /// A binary property list's record, made into an object where it is used.
        case propertyList(PropertyListRecord)
        /// A record longer than the limit, with its length in bytes: skipped, not kept.
        case tooLong(Int, limit: Int)
        /// A record that could not be read, and why.
        case invalid(String)
    }

    /// The JSON text's bytes (empty for the other kinds of content).
    var bytes: ArraySlice<UInt8> {
        if case .json(let bytes) = content { return bytes }
        return []
    }

    /// Gives `object`, this record's, an `id` when a reader made it from a format without ids of
    /// its own (CSV, XML, property lists) and it has none: its place in the input, from 1.
    func identify(_ object: inout JSONObject) {
        switch content {
        case .object, .xml, .csv, .propertyList: if object["id"] == nil { object["id"] = .integer(position + 1) }
        default: break
        }
    }

    /// For a record longer than the limit, its length; nil for the others.
    var skippedLength: Int? {
        if case .tooLong(let length, _) = content { return length }
        return nil
    }

    /// Whether the record is a line of nothing but whitespace (which JSON Lines skips).
    var isBlank: Bool {
        guard case .json(let bytes) = content else { return false }
        guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return true }
        // Past ASCII whitespace, only a non-ASCII character can still be blank (a no-break space, say).
        return bytes[first] >= 0x80 && String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
    }

    /// The record as an object: its JSON text parsed, or the object its reader made.
    ///
    /// - Throws: ``RecordError`` saying why it is not one.
    func object() throws(RecordError) -> JSONObject {
        try object { bytes throws(JSONParseError) in try JSONParser.parse(bytes) }
    }

    /// The record as an object, its JSON text parsed with `names` remembering member names from
    /// record to record.
    func object(names: inout JSONNameCache) throws(RecordError) -> JSONObject {
        try object { bytes throws(JSONParseError) in try JSONParser.parse(bytes, names: &names) }
    }

    private func object(parsing parse: (ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue) throws(RecordError) -> JSONObject {
        switch content {
        case .json(let bytes):
            let value: JSONValue
            do { value = try parse(bytes) } catch { throw RecordError("invalid JSON at \(error)") }
            guard case .object(let object) = value else { throw RecordError("expected a JSON object, got \(value.kindName)") }
            return object
        case .object(let object):
            return object
        case .xml(let record):
            return try record.object()
        case .csv(let record):
            return try record.object()
        case .propertyList(let record):
            return try record.object()
        case .tooLong(let length, let limit):
            throw RecordError("the \(unit) is \(length) bytes long, more than the limit of \(limit)")
        case .invalid(let reason):
            throw RecordError(reason)
        }
    }

    /// `{"id", "line" or "record", "file", "error"}` for this record (`file` only when not
    /// standard input).
    func errorJSON(id: JSONValue, message: String) -> [UInt8] {
        var writer = JSONWriter()
        writer.add("id", id)
        writer.add(unit.rawValue, number)
        if file != "<stdin>" { writer.add("file", file) }
        writer.add("error", message)
        return writer.finish()
    }
}

/// Where records come from: a reader of one file's format, or a list of files.
protocol RecordSource: AnyObject {
    /// Up to `count` more records, or an empty array at the end of the input.
    ///
    /// - Throws: ``InputError`` when the input cannot be read; the records before the failure
    ///   come out first.
    func next(_ count: Int) throws -> [InputRecord]
}

/// Why a record is not an object.
struct RecordError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// An input that cannot be opened or read: one plain line naming the file and the reason.
struct InputError: Error, CustomStringConvertible {
    var file: String
    var reason: String
    var description: String { "cannot read \(file): \(reason)" }
}

/// A problem with how an input was given rather than with one of its records (a CSV header
/// whose column names conflict): the run stops as for a mistyped option, exit status 64.
struct InputUsageError: Error, CustomStringConvertible {
    var file: String
    var reason: String
    var description: String { "cannot read \(file): \(reason)" }
}
