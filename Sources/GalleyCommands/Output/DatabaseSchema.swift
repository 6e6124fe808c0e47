// The tables of a Galley database, how an earlier Galley's are brought up to date, and how
// another program's are told apart.

import GRDB
import GRDBSQLite

/// A Galley database (`PRAGMA application_id` "Gly1", `user_version` 2) holds three tables, and
/// a view that joins them for readers:
///
/// - `galley_rows`: one row per item, width and scale: `id`, `width`, `scale`, `template`,
///   `settings` (a fingerprint of what else decides the layout), `fingerprint` (of the item's
///   content; both 64-bit hashes, as integers), `height` and, from `galley layout`, `frames`
///   (JSON). Keyed by id, width and scale, so that a row is never there twice.
/// - `galley_places`: each item's place in the input, as a `place` in a `segment`, and the
///   ``RowsKey`` its rows were last written for (`rows_key`), which a rerun looks it up by.
/// - `galley_segments`: each segment's `base`: an item's position is its segment's base plus its
///   place. Items a run finds moved together (a feed's kept items, all one further down for each
///   new item on top) move by one change to their segment's base, not one write each.
/// - `heights`: the view of all three, one row per item, width and scale with its `position`:
///   what readers query (`SELECT id, width, height FROM heights ORDER BY position, width`).
///
/// Galley 0.5's databases held `heights` as one table, positions in every row: they are brought
/// up to date when a run opens them, their rows current for the runs that made them.
enum DatabaseSchema {
    /// Marks a database as Galley's (`PRAGMA application_id`: "Gly1").
    static let applicationID: Int32 = 0x476C_7931
    /// The layout described above (`PRAGMA user_version`).
    static let version = 2

    /// The columns of the tables, and of Galley 0.5's table `heights`.
    static let rowColumns: Set = ["id", "width", "scale", "template", "settings", "fingerprint", "height", "frames"]
    static let placeColumns: Set = ["id", "segment", "place", "rows_key"]
    static let segmentColumns: Set = ["segment", "base"]
    private static let earlierColumns = rowColumns.union(["position"])

    /// What a database holds, as far as writing to it goes.
    enum State: Equatable {
        /// Nothing at all: a new file, or an empty database.
        case empty
        /// Galley's, as this version writes it.
        case current
        /// Galley 0.5's: one table `heights`.
        case earlier
        /// Anything else, and why it is not Galley's to write.
        case foreign(String)
    }

    /// What `db` holds.
    static func state(of db: Database) throws -> State {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master").map { (type: $0[0] as String, name: $0[1] as String) }
        if objects.isEmpty && (id == 0 || id == applicationID) { return .empty }
        guard id == applicationID else { return .foreign("it is not a database Galley wrote (its tables are another program's)") }
        func columns(of table: String) throws -> Set<String>? {
            guard objects.contains(where: { $0.type == "table" && $0.name == table }) else { return nil }
            return Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))").map { $0["name"] as String })
        }
        if try columns(of: "heights") == earlierColumns { return .earlier }
        if try columns(of: "galley_rows") == rowColumns, try columns(of: "galley_places") == placeColumns,
            try columns(of: "galley_segments") == segmentColumns, objects.contains(where: { $0.type == "view" && $0.name == "heights" })
        {
            return .current
        }
        let names = objects.map { "\($0.type) \($0.name)" }.sorted().joined(separator: ", ")
        return .foreign("its tables are not the ones Galley writes (it holds \(names))")
    }

    /// Makes the tables in an empty database, or brings Galley 0.5's up to date (in the caller's
    /// transaction: all of it or none).
    static func prepare(_ db: Database, from state: State) throws {
        switch state {
        case .current: return
        case .foreign(let reason): throw DatabaseError(message: reason)
        case .empty, .earlier: break
        }
        try db.execute(
            sql: """
                PRAGMA application_id = \(applicationID);
                CREATE TABLE galley_rows (
                    id BLOB NOT NULL, width REAL NOT NULL, scale REAL NOT NULL, template TEXT NOT NULL,
                    settings INTEGER NOT NULL, fingerprint INTEGER NOT NULL, height REAL NOT NULL, frames TEXT,
                    PRIMARY KEY (id, width, scale)
                ) WITHOUT ROWID;
                CREATE TABLE galley_places (
                    id BLOB NOT NULL PRIMARY KEY, segment INTEGER NOT NULL, place INTEGER NOT NULL, rows_key INTEGER NOT NULL
                ) WITHOUT ROWID;
                CREATE TABLE galley_segments (segment INTEGER PRIMARY KEY, base INTEGER NOT NULL);
                """)
        if state == .earlier { try bringUpToDate(db) }
        try db.execute(
            sql: """
                CREATE VIEW heights AS
                    SELECT r.id AS id, r.width AS width, r.scale AS scale, s.base + p.place AS position, r.template AS template,
                        r.settings AS settings, r.fingerprint AS fingerprint, r.height AS height, r.frames AS frames
                    FROM galley_rows AS r JOIN galley_places AS p ON p.id = r.id JOIN galley_segments AS s ON s.segment = p.segment;
                PRAGMA user_version = \(version);
                """)
    }

    /// Galley 0.5's table `heights` as the three tables: its rows as they were, each item in one
    /// segment at its place (the last it was written at), its rows' key worked out when all its
    /// rows were made by one run (one scale, settings and content), else none.
    private static func bringUpToDate(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO galley_rows SELECT id, width, scale, template, settings, fingerprint, height, frames FROM heights;
                INSERT INTO galley_segments (segment, base) VALUES (1, 0);
                """)
        let rows = try db.makeStatement(sql: "SELECT id, width, scale, settings, fingerprint, position FROM heights ORDER BY id")
        let insert = try db.makeStatement(sql: "INSERT INTO galley_places (id, segment, place, rows_key) VALUES (?1, 1, ?2, ?3)")
        defer { withExtendedLifetime((rows, insert)) {} }
        let (read, write) = (rows.sqliteStatement, insert.sqliteStatement)
        // One item's rows: its id (read again as the value SQLite holds), and what they agree on.
        var id: ResumeIndex.StoredID?
        var widths: [Double] = []
        var made: (scale: Double, settings: Int64, fingerprint: Int64)?
        var agree = true
        var position = 0
        func close() throws {
            guard let current = id else { return }
            let key = agree ? made.map { RowsKey(settings: $0.settings, scale: $0.scale, widths: widths).key(for: $0.fingerprint) } ?? 0 : 0
            SQLiteSink.bind(current, to: write, at: 1)
            sqlite3_bind_int64(write, 2, Int64(position))
            sqlite3_bind_int64(write, 3, key)
            try SQLiteSink.run(write, db: db)
        }
        while try ResumeIndex.step(read, db) {
            let next = ResumeIndex.id(read)
            let row = (scale: sqlite3_column_double(read, 2), settings: sqlite3_column_int64(read, 3), fingerprint: sqlite3_column_int64(read, 4))
            if next != id {
                try close()
                (id, widths, made, agree, position) = (next, [], row, true, 0)
            }
            widths.append(sqlite3_column_double(read, 1))
            if made.map({ $0 != row }) ?? false { agree = false }
            position = max(position, Int(sqlite3_column_int64(read, 5)))
        }
        try close()
        try db.execute(sql: "DROP TABLE heights")
    }
}
