// What workers hand the writer for a block of records.

import GalleyJSON

/// A block of records' results, in input order: output bytes (JSON Lines or CSV), rows for a
/// database, and error lines.
struct ResultBlock: Sendable {
    /// Output lines, UTF-8, each ending in a line feed.
    var bytes: [UInt8] = []
    /// Rows for a database output.
    var rows: [MeasuredRow] = []
    /// Error lines (JSON, each ending in a line feed), for standard error or `--errors`.
    var errors: [UInt8] = []
    /// Records that failed.
    var failures = 0
    /// Records whose stored rows were current, so not measured again.
    var reused = 0
    /// For a database output, those records: each one's place in ``ResumeIndex``, and its
    /// place in the input, which the database keeps.
    var current: [(slot: Int32, position: Int)] = []
}

/// One item measured at one width, for a database.
struct MeasuredRow: Sendable {
    var id: JSONValue
    /// The record's place in the input, from 0.
    var position: Int
    var template: String
    /// The item's content fingerprint (``Fingerprint``).
    var fingerprint: Int64
    var width: Double
    var height: Double
    /// The frames as JSON, for `galley layout`.
    var frames: String?
}
