// The commands' input reading, for callers that read files themselves.

import GalleyJSON

/// Reads an input file's records as `galley heights` does: a service that accepts the same
/// files, and the fuzz target of the readers (Fuzz/), call it as the commands do.
public enum InputReading {
    /// One record: its object, or why it could not be read.
    public enum Record: Sendable {
        case object(JSONObject)
        case error(String)
    }

    /// A file that cannot give records as it was given, whatever its records hold: XML that is
    /// not an RSS or Atom feed read without a record name, CSV whose column names conflict
    /// (`text` and `text.x`). `galley` reports it as a usage error.
    public struct FileRefused: Error, CustomStringConvertible {
        /// The file, and why.
        public var description: String
    }

    /// The records of the file at `path` (at most `limit`), each as the commands would take it.
    ///
    /// - Parameters:
    ///   - format: `jsonl`, `json`, `csv`, `tsv`, `xml` or `plist`; nil to tell from the file.
    ///   - recordName: The XML element or property-list key that holds the records.
    ///   - stripHTML: Reduce every string field's HTML to its text, as `--strip-html` does.
    /// - Throws: ``FileRefused`` for a file that cannot give records as it was given; an error
    ///   naming the file when it cannot be read, or `format` is unknown.
    public static func records(
        ofFile path: String, format: String? = nil, recordName: String? = nil, stripHTML: Bool = false, limit: Int = .max
    ) throws -> [Record] {
        var options = InputOptions()
        if let format {
            guard let known = InputFormat(rawValue: format) else { throw InputError(file: path, reason: "unknown format '\(format)'") }
            options.format = known
        }
        options.recordName = recordName
        let files = InputFiles(paths: [path], options: options)
        var mapping = FieldMapping()
        mapping.everyStringIsHTML = stripHTML
        var names = JSONNameCache()
        var records: [Record] = []
        while records.count < limit {
            let chunk: [InputRecord]
            do { chunk = try files.next(min(limit - records.count, 4096)) } catch let error as InputUsageError {
                throw FileRefused(description: error.description)
            }
            if chunk.isEmpty { break }
            for record in chunk where !record.isBlank {
                do {
                    var object = try record.object(names: &names)
                    mapping.apply(to: &object)
                    records.append(.object(object))
                } catch {
                    records.append(.error(error.description))
                }
            }
        }
        return records
    }
}
