// Results in a SQLite database that a later run resumes.

import Foundation
import GRDB
import GRDBSQLite
import GalleyJSON

/// Rows in the table `heights` of a SQLite database (through GRDB, on the system's SQLite):
/// `id`, `width`, `scale`, `position` (the record's place in the input), `template`,
/// `settings` (a fingerprint of what else decides the layout), `fingerprint` (of the item's
/// content; both 64-bit hashes, as integers), `height` and, from `galley layout`, `frames` (JSON). Keyed by id, width and scale,
/// so that a row is never there twice; written in one transaction per chunk of records, in WAL
/// mode, so that a run killed at any point leaves every chunk it committed and nothing else.
///
/// Run again with the same input, a run measures only the items whose rows are missing or were
/// made from other content, another template or other settings (see ``ResumeIndex``), moves
/// the rows of items that moved in the input to their new places, and ends with the same table
/// as a run that was never interrupted. Rows of items no longer in the input stay.
/// `@unchecked Sendable`: its one mutable property is the writer's, written from one queue at a
/// time (see ``OutputSink``).
final class SQLiteSink: OutputSink, @unchecked Sendable {
    /// Marks a database as Galley's (`PRAGMA application_id`: "Gly1").
    static let applicationID: Int32 = 0x476C_7931

    private let pool: DatabasePool
    private let path: String
    private let errors: ByteStream
    private let scale: Double
    private let settings: Int64
    /// Held for the run: a second run on the same file is refused rather than interleaved.
    private let lock: Int32
    /// The items whose rows are stored and current, when there are any.
    let resumeIndex: ResumeIndex?
    /// Where each item of ``resumeIndex`` sits in the table now: the writer's own copy, changed
    /// as it moves rows, so that an item the input holds twice ends where the last one is.
    private var positions: [Int]
    /// The run's widths, whose rows move with their item.
    private let widths: [Double]

    /// Opens (or makes) the database at `path` for a run with `settings` at `scale`.
    ///
    /// - Throws: an exit with a usage error when the file is not Galley's, not a database, or
    ///   in use by another run.
    init(path: String, errors openErrors: () throws -> ByteStream, widths: [Double], scale: Double, settings: Int64, keepsFrames: Bool) throws {
        self.path = path
        self.scale = scale
        self.settings = settings
        self.widths = widths
        lock = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw setupFailure("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            close(lock)
            throw setupFailure("\(path) is in use by another galley run")
        }
        // Another program's database is refused before anything is written to it (opening
        // the pool would switch it to WAL).
        do {
            var look = Configuration()
            look.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: look)
            let problem = try queue.read(Self.problem)
            try queue.close()
            if let problem {
                close(lock)
                throw setupFailure("cannot use \(path): \(problem)")
            }
        } catch let error as DatabaseError {
            close(lock)
            throw setupFailure("cannot use \(path): \(error.message ?? "\(error)")")
        }
        do { errors = try openErrors() } catch {
            close(lock)
            throw error
        }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            // Durable at each checkpoint, consistent always; a larger log between checkpoints
            // writes the tail pages of the table, changed by every chunk, fewer times.
            try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 8192; PRAGMA cache_size = -32768")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            try pool.write { db in
                if let problem = try Self.problem(db) { throw DatabaseError(message: problem) }
                try db.execute(sql: "PRAGMA application_id = \(Self.applicationID)")
                try db.execute(
                    sql: """
                        CREATE TABLE IF NOT EXISTS heights (
                            id BLOB NOT NULL, width REAL NOT NULL, scale REAL NOT NULL, position INTEGER NOT NULL,
                            template TEXT NOT NULL, settings INTEGER NOT NULL, fingerprint INTEGER NOT NULL,
                            height REAL NOT NULL, frames TEXT,
                            PRIMARY KEY (id, width, scale)
                        ) WITHOUT ROWID
                        """)
            }
            resumeIndex = try pool.read { db in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM heights)") ?? false else { return nil }
                return try ResumeIndex(db, widths: widths, scale: scale, settings: settings, needsFrames: keepsFrames)
            }
            positions = resumeIndex?.storedPositions ?? []
        } catch let error as DatabaseError {
            close(lock)
            throw setupFailure("cannot use \(path): \(error.message ?? "\(error)")")
        }
    }

    /// Why the open database `db` is not one Galley may write, if it is not: another program's
    /// (its application id, or any table, view, index or trigger in a database without Galley's
    /// id), or Galley's with a `heights` that is not Galley's table.
    private static func problem(_ db: Database) throws -> String? {
        let id = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master").map { (type: $0[0] as String, name: $0[1] as String) }
        if id == 0 && objects.isEmpty { return nil }
        let notGalleys = "it is not a database Galley wrote (its tables are another program's)"
        guard id == applicationID else { return notGalleys }
        guard objects.contains(where: { $0.type == "table" && $0.name == "heights" }) else {
            return objects.isEmpty ? nil : notGalleys
        }
        let columns = Set(try Row.fetchAll(db, sql: "PRAGMA table_info(heights)").map { $0["name"] as String })
        let expected: Set = ["id", "width", "scale", "position", "template", "settings", "fingerprint", "height", "frames"]
        return columns == expected ? nil : "its table heights is not the one Galley writes (columns \(columns.sorted().joined(separator: ", ")))"
    }

    deinit {
        // The pool's connections first: closing any descriptor of the file drops the process's
        // POSIX locks on it, SQLite's included.
        try? pool.close()
        close(lock)
    }

    /// Rows inserted by one statement: a statement of many rows steps once for all of them,
    /// which costs SQLite less a row than a statement each.
    static let rowsPerInsert = 16

    /// `INSERT OR REPLACE` of `count` rows. The run's scale and settings, the same for every row,
    /// are parameters 1 and 2, bound once a write; each row's seven values follow.
    private static func insertSQL(rows count: Int) -> String {
        let rows = (0..<count).map { row in
            let first = 3 + row * Int(parametersPerRow)
            return "(?\(first), ?\(first + 1), ?1, ?\(first + 2), ?\(first + 3), ?2, ?\(first + 4), ?\(first + 5), ?\(first + 6))"
        }
        return "INSERT OR REPLACE INTO heights (id, width, scale, position, template, settings, fingerprint, height, frames) VALUES "
            + rows.joined(separator: ", ")
    }

    /// The parameters each row binds.
    private static let parametersPerRow: Int32 = 7

    func write(_ blocks: [ResultBlock]) throws {
        do {
            try pool.write { db in
                // Bound through SQLite's C API: GRDB's `StatementArguments`, an array of boxed
                // values a row, would cost as much as the insert on the writer, which runs alone.
                let many = try db.cachedStatement(sql: Self.insertSQL(rows: Self.rowsPerInsert)).sqliteStatement
                let one = try db.cachedStatement(sql: Self.insertSQL(rows: 1)).sqliteStatement
                func step(_ statement: OpaquePointer) throws {
                    let status = sqlite3_step(statement)
                    sqlite3_reset(statement)
                    guard status == SQLITE_DONE else {
                        throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                    }
                }
                for statement in [many, one] {
                    sqlite3_bind_double(statement, 1, scale)
                    sqlite3_bind_int64(statement, 2, settings)
                }
                // Template names, a few for every row, bound as SQLite's own without copying: kept
                // here until the bindings are cleared.
                var names = TemplateNames()
                defer {
                    sqlite3_clear_bindings(many)
                    sqlite3_clear_bindings(one)
                    names.free()
                }
                // Rows bound sixteen at a time across blocks, the rest one at a time.
                var bound = 0
                for block in blocks {
                    for row in block.rows {
                        bind(row, to: many, from: Int32(bound) * Self.parametersPerRow + 3, names: &names)
                        bound += 1
                        if bound == Self.rowsPerInsert {
                            try step(many)
                            bound = 0
                        }
                    }
                }
                try moveRows(of: blocks, db: db)
                if bound > 0 {
                    // The last rows are bound to `many` already: bound again to `one`, row by row.
                    var rows: [MeasuredRow] = []
                    var left = bound
                    for block in blocks.reversed() where left > 0 {
                        rows.insert(contentsOf: block.rows.suffix(left), at: 0)
                        left -= min(left, block.rows.count)
                    }
                    for row in rows {
                        bind(row, to: one, from: 3, names: &names)
                        try step(one)
                    }
                }
            }
        } catch let error as DatabaseError {
            throw OutputError(file: path, reason: error.message ?? "\(error)")
        }
        let errorBytes = blocks.flatMap(\.errors)
        if !errorBytes.isEmpty { try errors.write(errorBytes) }
    }

    /// Moves the rows of the blocks' current items whose place in the input is not the one
    /// stored, in input order (an item the input holds twice ends at its last place, as when
    /// it is written twice).
    private func moveRows(of blocks: [ResultBlock], db: Database) throws {
        guard let index = resumeIndex else { return }
        var statement: OpaquePointer?
        for block in blocks {
            for current in block.current where positions[Int(current.slot)] != current.position {
                positions[Int(current.slot)] = current.position
                if statement == nil {
                    let placeholders = widths.indices.map { "?\($0 + 4)" }.joined(separator: ", ")
                    statement = try db.cachedStatement(
                        sql: "UPDATE heights SET position = ?1 WHERE id = ?2 AND scale = ?3 AND width IN (\(placeholders))"
                    ).sqliteStatement
                    sqlite3_bind_double(statement, 3, scale)
                    for (offset, width) in widths.enumerated() { sqlite3_bind_double(statement, Int32(offset + 4), width) }
                }
                sqlite3_bind_int64(statement, 1, Int64(current.position))
                switch index.storedIDs[Int(current.slot)] {
                case .integer(let integer): sqlite3_bind_int64(statement, 2, integer)
                case .text(let bytes): Self.bind(bytes, to: statement!, at: 2)
                }
                let status = sqlite3_step(statement)
                sqlite3_reset(statement)
                guard status == SQLITE_DONE else {
                    throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
                }
            }
        }
        if let statement { sqlite3_clear_bindings(statement) }
    }

    /// Binds `bytes` (copied by SQLite) as text, by length, to the statement's parameter `index`.
    private static func bind(_ bytes: [UInt8], to statement: OpaquePointer, at index: Int32) {
        bytes.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                _ = sqlite3_bind_text(statement, index, "", 0, nil)
                return
            }
            _ = sqlite3_bind_text(
                statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
                unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    /// Binds `row`'s seven values to the statement's parameters from `first`.
    private func bind(_ row: MeasuredRow, to statement: OpaquePointer, from first: Int32, names: inout TemplateNames) {
        switch row.id {
        case .integer(let integer): sqlite3_bind_int64(statement, first, Int64(integer))
        case .string(let text), .numeral(let text): Self.bind(text, to: statement, at: first)
        default: Self.bind("\(row.id)", to: statement, at: first)
        }
        sqlite3_bind_double(statement, first + 1, row.width)
        sqlite3_bind_int64(statement, first + 2, Int64(row.position))
        let name = names.text(row.template)
        sqlite3_bind_text(statement, first + 3, name.text, name.count, nil)
        sqlite3_bind_int64(statement, first + 4, row.fingerprint)
        sqlite3_bind_double(statement, first + 5, row.height)
        if let frames = row.frames { Self.bind(frames, to: statement, at: first + 6) } else { sqlite3_bind_null(statement, first + 6) }
    }

    /// Template names as C strings of their own, made once a write and freed after it.
    private struct TemplateNames {
        private var texts: [String: (text: UnsafeMutablePointer<CChar>, count: Int32)] = [:]

        mutating func text(_ name: String) -> (text: UnsafeMutablePointer<CChar>, count: Int32) {
            if let known = texts[name] { return known }
            // Its bytes exactly (a name can hold a NUL), not a C string.
            let bytes = Array(name.utf8)
            let text = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { UnsafeMutableRawPointer(text).copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(text), byteCount: bytes.count) }
            let made = (text: text, count: Int32(bytes.count))
            texts[name] = made
            return made
        }

        func free() { for (text, _) in texts.values { text.deallocate() } }
    }

    /// Binds `text` (copied by SQLite) to the statement's parameter `index`.
    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        var text = text
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else {
                _ = sqlite3_bind_text(statement, index, "", 0, nil)
                return
            }
            _ = sqlite3_bind_text(
                statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self),
                Int32(bytes.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
    }

    func finish() throws {
        do {
            // The file on its own afterwards, without its write-ahead log.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch let error as DatabaseError {
            throw OutputError(file: path, reason: error.message ?? "\(error)")
        }
    }

    /// An id as stored: integers as integers, anything else as its text.
    static func databaseValue(_ id: JSONValue) -> DatabaseValue {
        switch id {
        case .integer(let integer): integer.databaseValue
        case .string(let string): string.databaseValue
        case .numeral(let digits): digits.databaseValue
        default: "\(id)".databaseValue
        }
    }
}
