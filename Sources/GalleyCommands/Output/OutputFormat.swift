// The formats results are written in.

import ArgumentParser

/// JSON Lines (the default), CSV with a header row, or a SQLite database.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case jsonl, csv, sqlite

    /// The format an output file's extension names, if any.
    static func named(byExtensionOf path: String) -> OutputFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson", "json": return .jsonl
        case "csv": return .csv
        case "sqlite", "sqlite3", "db": return .sqlite
        default: return nil
        }
    }
}
