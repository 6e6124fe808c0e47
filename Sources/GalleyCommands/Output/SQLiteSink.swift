// Results in a SQLite database that a later run resumes.

import Foundation
import GRDB
import GRDBSQLite
import GalleyJSON

/// Rows in a SQLite database (through GRDB, on the system's SQLite) laid out as
/// ``DatabaseSchema`` says: each item's rows, and its place in the input, read together through
/// the view `heights`. Written in one transaction per chunk of records, in WAL mode, so that a
/// run killed at any point leaves every chunk it committed and nothing else.
///
/// Run again with the same input, a run measures only the items whose rows are missing or were
/// made from other content, another template or other settings (see ``ResumeIndex``), and ends
/// with the same table as a run that was never interrupted. Items that moved in the input (a feed
/// with new items on top) take their new places without being measured, most by one change to
/// their segment's base, and an item the input holds twice ends where, and as, the last one is.
/// Rows of items no longer in the input stay.
///
/// `@unchecked Sendable`: its mutable state is the writer's, used from one queue at a time (see
/// ``OutputSink``).
final class SQLiteSink: OutputSink, @unchecked Sendable {
    private let pool: DatabasePool
    private let path: String
    private let errors: ByteStream
    private let scale: Double
    private let settings: Int64
    /// Held for the run: a second run on the same file is refused rather than interleaved.
    private let lock: Int32
    /// The items whose rows are stored and current, when there are any.
    let resumeIndex: ResumeIndex?
    /// What this run's rows are made for, the key each measured item's place is written with.
    private let rowsKey: RowsKey
    /// Each item of ``resumeIndex``'s segment and place, and each segment's base, as written
    /// now: the writer's own copies, changed as it writes, so that only what changes is written.
    private var segments: [Int64] = []
    private var places: [Int] = []
    private var bases: [Int64: Int] = [:]
    /// The segments whose base this run has settled (by the first of their items it met).
    private var settled: Set<Int64> = []
    /// The segment this run writes places in, once it has made it.
    private var runSegment: Int64?

    /// Opens (or makes) the database at `path` for a run at `widths` and `scale` with `settings`.
    ///
    /// - Throws: an exit with a usage error when the file is not Galley's, not a database, or
    ///   in use by another run.
    init(path: String, errors openErrors: () throws -> ByteStream, widths: [Double], scale: Double, settings: Int64, keepsFrames: Bool) throws {
        self.path = path
        self.scale = scale
        self.settings = settings
        rowsKey = RowsKey(settings: settings, scale: scale, widths: widths)
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
            let state = try queue.read(DatabaseSchema.state)
            try queue.close()
            if case .foreign(let reason) = state {
                close(lock)
                throw setupFailure("cannot use \(path): \(reason)")
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
            try pool.write { db in try DatabaseSchema.prepare(db, from: try DatabaseSchema.state(of: db)) }
            let rowsKey = rowsKey
            resumeIndex = try pool.read { db in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM galley_places)") ?? false else { return nil }
                return try ResumeIndex(db, rowsKey: rowsKey)
            }
            if let index = resumeIndex {
                (segments, places, bases) = (index.storedSegments, index.storedPlaces, index.bases)
                try pool.writeWithoutTransaction(Self.keepRowsWrittenOver)
            }
        } catch let error as DatabaseError {
            close(lock)
            throw setupFailure("cannot use \(path): \(error.message ?? "\(error)")")
        }
    }

    deinit {
        // The pool's connections first: closing any descriptor of the file drops the process's
        // POSIX locks on it, SQLite's included.
        try? pool.close()
        close(lock)
    }

    // MARK: - Writing

    /// Rows written by one statement: a statement of many rows steps once for all of them,
    /// which costs SQLite less a row than a statement each.
    static let rowsPerStatement = 16

    /// An upsert of `count` measured rows (an update where an item's row at that width is stored,
    /// so that ``keepRowsWrittenOver(_:)`` sees it). The run's scale and settings, the same for
    /// every row, are parameters 1 and 2; each row's six values follow.
    private static func rowsSQL(_ count: Int) -> String {
        let rows = (0..<count).map { row in
            let first = 3 + row * 6
            return "(?\(first), ?\(first + 1), ?1, ?\(first + 2), ?2, ?\(first + 3), ?\(first + 4), ?\(first + 5))"
        }
        return "INSERT INTO galley_rows (id, width, scale, template, settings, fingerprint, height, frames) VALUES "
            + rows.joined(separator: ", ")
            + " ON CONFLICT (id, width, scale) DO UPDATE SET template = excluded.template, settings = excluded.settings,"
            + " fingerprint = excluded.fingerprint, height = excluded.height, frames = excluded.frames"
    }

    /// `count` items' places in this run's segment (parameter 1), each with its id, place and
    /// rows' key.
    private static func placesSQL(_ count: Int) -> String {
        let places = (0..<count).map { "(?\(2 + 3 * $0), ?1, ?\(3 + 3 * $0), ?\(4 + 3 * $0))" }
        return "INSERT INTO galley_places (id, segment, place, rows_key) VALUES " + places.joined(separator: ", ")
            + " ON CONFLICT (id) DO UPDATE SET segment = excluded.segment, place = excluded.place, rows_key = excluded.rows_key"
    }

    /// An item of a write, in input order: one measured (its rows in the write's list of rows,
    /// its id as the input gave it), or one whose stored rows are current (its slot in
    /// ``resumeIndex``).
    private enum Item {
        case measured(rows: Range<Int>, id: JSONValue, position: Int)
        case current(slot: Int32, position: Int)
    }

    /// An item's place to write: its id, where it is, and its rows' key.
    private struct Place {
        /// The id as the input gave it (a measured item's) or as stored (a current item's).
        enum ID {
            case given(JSONValue)
            case stored(ResumeIndex.StoredID)
        }
        var id: ID
        var position: Int
        var key: Int64
    }

    func write(_ blocks: [ResultBlock]) throws {
        let rows = blocks.flatMap(\.rows)
        do {
            try pool.write { db in
                // Template names, a few for every row, bound as SQLite's own without copying: kept
                // here until the statements' bindings are cleared.
                var names = TemplateNames()
                defer { names.free() }
                func insert(_ rows: ArraySlice<MeasuredRow>) throws {
                    try Self.step(rows, db: db, sql: Self.rowsSQL, parameters: 6, first: 3) { statement in
                        sqlite3_bind_double(statement, 1, scale)
                        sqlite3_bind_int64(statement, 2, settings)
                    } bind: { row, statement, first in
                        Self.bind(row, to: statement, from: first, names: &names)
                    }
                }
                var places: [Place] = []
                // Rows are inserted in runs, up to an item whose stored rows come back.
                var inserted = 0
                var measured = 0
                for item in Self.items(of: blocks) {
                    switch item {
                    case .measured(let range, let id, let position):
                        if resumeIndex != nil { measuredIDs.insert(ResumeIndex.StoredID(id).hash) }
                        measured = range.upperBound
                        places.append(Place(id: .given(id), position: position, key: rowsKey.key(for: rows[range.lowerBound].fingerprint)))
                    case .current(let slot, let position):
                        let index = resumeIndex!
                        // Most current items are where they were: their place is made only when written.
                        func stored() -> Place {
                            Place(id: .stored(index.storedIDs[Int(slot)]), position: position, key: index.storedKeys[Int(slot)])
                        }
                        if !measuredIDs.isEmpty, measuredIDs.contains(index.storedIDs[Int(slot)].hash) {
                            // The rows measured before it go in first: they may be what wrote over its own.
                            try insert(rows[inserted..<measured])
                            inserted = measured
                            if try restoreRows(of: index.storedIDs[Int(slot)], db: db) {
                                // Its rows are back, and so are their key and its place.
                                places.append(stored())
                                try note(slot, at: position, db: db)
                                continue
                            }
                        }
                        if try !isWhere(slot, position, db: db) { places.append(stored()) }
                    }
                }
                try insert(rows[inserted...])
                guard !places.isEmpty else { return }
                let segment = try self.segment(db)
                try Self.step(places[...], db: db, sql: Self.placesSQL, parameters: 3, first: 2) { statement in
                    sqlite3_bind_int64(statement, 1, segment)
                } bind: { place, statement, first in
                    switch place.id {
                    case .given(let id): Self.bind(id, to: statement, at: first)
                    case .stored(let id): Self.bind(id, to: statement, at: first)
                    }
                    sqlite3_bind_int64(statement, first + 1, Int64(place.position))
                    sqlite3_bind_int64(statement, first + 2, place.key)
                }
            }
        } catch let error as DatabaseError {
            throw OutputError(file: path, reason: error.message ?? "\(error)")
        }
        let errorBytes = blocks.flatMap(\.errors)
        if !errorBytes.isEmpty { try errors.write(errorBytes) }
    }

    /// The blocks' items, measured or current, in input order (each block's two lists, both in
    /// input order, merged by position).
    private static func items(of blocks: [ResultBlock]) -> [Item] {
        var items: [Item] = []
        var offset = 0
        for block in blocks {
            var current = block.current[...]
            var index = 0
            while index < block.rows.count {
                let row = block.rows[index]
                var end = index + 1
                while end < block.rows.count && block.rows[end].position == row.position { end += 1 }
                while let next = current.first, next.position < row.position {
                    items.append(.current(slot: next.slot, position: next.position))
                    current = current.dropFirst()
                }
                items.append(.measured(rows: (offset + index)..<(offset + end), id: row.id, position: row.position))
                index = end
            }
            for next in current { items.append(.current(slot: next.slot, position: next.position)) }
            offset += block.rows.count
        }
        return items
    }

    // MARK: - Places

    /// Whether the current item in `slot` is at `position` already, once its segment's base is
    /// settled: by the first of the segment's items the run meets, so that items that moved
    /// together (all one further down for each new item on top) move by one change to their
    /// segment, and only those that moved otherwise are written one by one. When false, the
    /// item's place is to be written in this run's segment, and is noted so.
    private func isWhere(_ slot: Int32, _ position: Int, db: Database) throws -> Bool {
        let segment = segments[Int(slot)]
        let place = places[Int(slot)]
        let base: Int?
        // Items of one segment come in runs: its base, settled, is kept at hand.
        if let last = lastSegment, last.segment == segment {
            base = last.base
        } else {
            if settled.insert(segment).inserted, bases[segment].map({ $0 + place != position }) ?? false {
                bases[segment] = position - place
                let statement = try db.cachedStatement(sql: "UPDATE galley_segments SET base = ?2 WHERE segment = ?1").sqliteStatement
                sqlite3_bind_int64(statement, 1, segment)
                sqlite3_bind_int64(statement, 2, Int64(position - place))
                try Self.run(statement, db: db)
            }
            base = bases[segment]
            lastSegment = (segment, base)
        }
        if let base, base + place == position { return true }
        try note(slot, at: position, db: db)
        return false
    }

    /// The segment ``isWhere(_:_:db:)`` looked at last, and its base, settled.
    private var lastSegment: (segment: Int64, base: Int?)?

    /// Notes that the item in `slot` is written at `position`, in this run's segment (whose base
    /// stays 0).
    private func note(_ slot: Int32, at position: Int, db: Database) throws {
        segments[Int(slot)] = try segment(db)
        places[Int(slot)] = position
    }

    /// This run's segment, made the first time a place is written: its base is 0, so a place in
    /// it is a position.
    private func segment(_ db: Database) throws -> Int64 {
        if let runSegment { return runSegment }
        try db.execute(sql: "INSERT INTO galley_segments (base) VALUES (0)")
        let made = db.lastInsertedRowID
        runSegment = made
        bases[made] = 0
        settled.insert(made)
        return made
    }

    // MARK: - An id given twice with other content

    /// Hashes of the ids this run measured (``ResumeIndex/StoredID/hash``): a current item whose
    /// id is among them may have had its stored rows written over earlier in the run.
    private var measuredIDs: Set<Int64> = []

    /// Makes the writer's connection keep, in the temporary table `galley_saved`, the first
    /// stored rows a run writes over, by id, width and scale: the input may give an item twice,
    /// first with other content, then with the stored one, and an uninterrupted run would end
    /// with the stored rows. Only rows that are written over are kept, when they are.
    private static func keepRowsWrittenOver(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TEMP TABLE galley_saved (
                    id BLOB NOT NULL, width REAL NOT NULL, scale REAL NOT NULL, template TEXT NOT NULL,
                    settings INTEGER NOT NULL, fingerprint INTEGER NOT NULL, height REAL NOT NULL, frames TEXT,
                    PRIMARY KEY (id, width, scale)
                ) WITHOUT ROWID;
                CREATE TEMP TRIGGER galley_save BEFORE UPDATE ON main.galley_rows BEGIN
                    INSERT OR IGNORE INTO galley_saved VALUES (
                        old.id, old.width, old.scale, old.template, old.settings, old.fingerprint, old.height, old.frames);
                END;
                """)
    }

    /// Puts back the rows of `id` that this run wrote over (see ``keepRowsWrittenOver(_:)``):
    /// whether there were any.
    private func restoreRows(of id: ResumeIndex.StoredID, db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO galley_rows SELECT * FROM temp.galley_saved WHERE id = ?1").sqliteStatement
        Self.bind(id, to: statement, at: 1)
        try Self.run(statement, db: db)
        return sqlite3_changes(db.sqliteConnection) > 0
    }

    /// Steps `statement` once, and clears it for its next use.
    static func run(_ statement: OpaquePointer, db: Database) throws {
        let status = sqlite3_step(statement)
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        guard status == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
    }

    /// Steps `sql(16)` for each sixteen of `items`, then `sql(1)` for each of the rest, binding
    /// each item's `parameters` values from `first` on (after `prepare`'s, the same for all).
    /// Bound through SQLite's C API: GRDB's `StatementArguments`, an array of boxed values a
    /// row, would cost as much as the insert on the writer, which runs alone.
    private static func step<Element>(
        _ items: ArraySlice<Element>, db: Database, sql: (Int) -> String, parameters: Int32, first: Int32, prepare: (OpaquePointer) -> Void,
        bind: (Element, OpaquePointer, Int32) -> Void
    ) throws {
        guard !items.isEmpty else { return }
        func run(_ statement: OpaquePointer) throws {
            let status = sqlite3_step(statement)
            sqlite3_reset(statement)
            guard status == SQLITE_DONE else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
        }
        let whole = items.count / rowsPerStatement * rowsPerStatement
        for (count, range) in [(rowsPerStatement, 0..<whole), (1, whole..<items.count)] where !range.isEmpty {
            let statement = try db.cachedStatement(sql: sql(count)).sqliteStatement
            defer { sqlite3_clear_bindings(statement) }
            prepare(statement)
            for start in stride(from: range.lowerBound, to: range.upperBound, by: count) {
                for offset in 0..<count { bind(items[items.startIndex + start + offset], statement, first + Int32(offset) * parameters) }
                try run(statement)
            }
        }
    }

    /// Binds `row`'s six values to the statement's parameters from `first`.
    private static func bind(_ row: MeasuredRow, to statement: OpaquePointer, from first: Int32, names: inout TemplateNames) {
        bind(row.id, to: statement, at: first)
        sqlite3_bind_double(statement, first + 1, row.width)
        let name = names.text(row.template)
        sqlite3_bind_text(statement, first + 2, name.text, name.count, nil)
        sqlite3_bind_int64(statement, first + 3, row.fingerprint)
        sqlite3_bind_double(statement, first + 4, row.height)
        if let frames = row.frames { bind(frames, to: statement, at: first + 5) } else { sqlite3_bind_null(statement, first + 5) }
    }

    /// Binds an id as it is stored: an integer as an integer, anything else as its text.
    private static func bind(_ id: JSONValue, to statement: OpaquePointer, at index: Int32) {
        switch id {
        case .integer(let integer): sqlite3_bind_int64(statement, index, Int64(integer))
        case .string(let text), .numeral(let text): bind(text, to: statement, at: index)
        default: bind("\(id)", to: statement, at: index)
        }
    }

    /// Binds an id as the table holds it.
    static func bind(_ id: ResumeIndex.StoredID, to statement: OpaquePointer, at index: Int32) {
        switch id {
        case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
        case .text(let bytes): bytes.withUnsafeBufferPointer { bindText($0, to: statement, at: index) }
        }
    }

    /// Binds `text` (copied by SQLite) to the statement's parameter `index`.
    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) {
        var text = text
        text.withUTF8 { bindText($0, to: statement, at: index) }
    }

    /// Binds `bytes` as text (copied by SQLite), by their length: a NUL is part of the text.
    private static func bindText(_ bytes: UnsafeBufferPointer<UInt8>, to statement: OpaquePointer, at index: Int32) {
        guard let base = bytes.baseAddress, bytes.count > 0 else {
            _ = sqlite3_bind_text(statement, index, "", 0, nil)
            return
        }
        _ = sqlite3_bind_text(
            statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count),
            unsafeBitCast(-1, to: sqlite3_destructor_type.self))
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

    func finish() throws {
        do {
            // The file on its own afterwards, without its write-ahead log.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        } catch let error as DatabaseError {
            throw OutputError(file: path, reason: error.message ?? "\(error)")
        }
    }
}
