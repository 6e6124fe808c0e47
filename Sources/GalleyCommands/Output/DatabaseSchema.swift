// The tables of a Galley database, how an earlier Galley's are brought up to date, and how
// another program's are told apart.

import GRDB

/// A Galley database (`PRAGMA application_id` "Gly1", `user_version` 2) holds two tables, and a
/// view that joins them for readers:
///
/// - `galley_rows`: one row per item, width and scale: `id`, `width`, `scale`, `template`,
///   `settings` (a fingerprint of what else decides the layout), `fingerprint` (of the item's
///   content; both 64-bit hashes, as integers), `height` and, from `galley layout`, `frames`
///   (JSON). Keyed by id, width and scale, so that a row is never there twice.
/// - `galley_places`: each item's place in the input (`id`, `position`). Kept apart from the rows,
///   so that a rerun over an input whose items moved (a feed with new items on top) rewrites a
///   small table, not every row.
/// - `heights`: the view of both, one row per item, width and scale with its `position`: what
///   readers query (`SELECT id, width, height FROM heights ORDER BY position, width`).
///
/// Galley 0.5's databases held `heights` as one table, positions in every row: they are brought
/// up to date when a run opens them.
enum DatabaseSchema {
    /// Marks a database as Galley's (`PRAGMA application_id`: "Gly1").
    static let applicationID: Int32 = 0x476C_7931
    /// The layout described above (`PRAGMA user_version`).
    static let version = 2

    /// The columns of `galley_rows`, `galley_places`, and of Galley 0.5's table `heights`.
    static let rowColumns: Set = ["id", "width", "scale", "template", "settings", "fingerprint", "height", "frames"]
    static let placeColumns: Set = ["id", "position"]
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
            objects.contains(where: { $0.type == "view" && $0.name == "heights" })
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
                CREATE TABLE galley_places (id BLOB NOT NULL PRIMARY KEY, position INTEGER NOT NULL) WITHOUT ROWID;
                """)
        if state == .earlier {
            try db.execute(
                sql: """
                    INSERT INTO galley_rows SELECT id, width, scale, template, settings, fingerprint, height, frames FROM heights;
                    INSERT INTO galley_places SELECT id, max(position) FROM heights GROUP BY id;
                    DROP TABLE heights;
                    """)
        }
        try db.execute(
            sql: """
                CREATE VIEW heights AS
                    SELECT r.id AS id, r.width AS width, r.scale AS scale, p.position AS position, r.template AS template,
                        r.settings AS settings, r.fingerprint AS fingerprint, r.height AS height, r.frames AS frames
                    FROM galley_rows AS r JOIN galley_places AS p ON p.id = r.id;
                PRAGMA user_version = \(version);
                """)
    }
}
