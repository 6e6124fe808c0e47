// The items a database's rows are current for, read once when a run resumes.

import GRDB
import GRDBSQLite
import GalleyJSON

/// The items whose rows a database already holds for this run: at every width the run asks for,
/// at its scale and settings, made from content with the same fingerprint (and with frames, when
/// the run keeps them). Read in one pass over the table when the run starts, so that asking about
/// an item is a hash lookup, not a query: a rerun over a complete database costs little more
/// than reading its input.
///
/// An item's fingerprint stands for its id and template too (both come from its content, under
/// the same settings), so a JSON text is looked up before it is parsed. Its memory is about a
/// hundred bytes per item stored.
final class ResumeIndex: Sendable {
    /// Each current item's place in ``storedIDs``, by the fingerprint of its content.
    private let slots: FingerprintTable
    /// Each current item's id, as stored.
    let storedIDs: [StoredID]
    /// Each current item's place in the input, as stored (`galley_places`); −1 where none is.
    let storedPositions: [Int]

    /// An id as the table holds it: an integer, or text (bytes, a NUL included).
    enum StoredID: Hashable, Sendable {
        case integer(Int64)
        case text([UInt8])

        /// An id as the input gave it, as it is stored: an integer as an integer, anything
        /// else as its text.
        init(_ id: JSONValue) {
            switch id {
            case .integer(let integer): self = .integer(Int64(integer))
            case .string(let text), .numeral(let text): self = .text(Array(text.utf8))
            default: self = .text(Array("\(id)".utf8))
            }
        }

        /// Whether `self` sorts before `other` as SQLite orders the column: integers first, then
        /// text byte by byte (its BINARY collation).
        func precedes(_ other: StoredID) -> Bool {
            switch (self, other) {
            case (.integer(let left), .integer(let right)): left < right
            case (.integer, .text): true
            case (.text, .integer): false
            case (.text(let left), .text(let right)): left.lexicographicallyPrecedes(right)
            }
        }
    }

    /// Reads the items current at `widths` from the table `galley_rows`, and their places from
    /// `galley_places` (both read in id order, side by side).
    init(_ db: Database, widths: [Double], scale: Double, settings: Int64, needsFrames: Bool) throws {
        // GRDB's statements own SQLite's, which they finalize when they go.
        let rowsOwner = try db.makeStatement(
            sql: "SELECT id, width, fingerprint, frames IS NOT NULL FROM galley_rows WHERE scale = ?1 AND settings = ?2 ORDER BY id, width")
        let placesOwner = try db.makeStatement(sql: "SELECT id, position FROM galley_places ORDER BY id")
        defer { withExtendedLifetime((rowsOwner, placesOwner)) {} }
        let (rows, places) = (rowsOwner.sqliteStatement, placesOwner.sqliteStatement)
        sqlite3_bind_double(rows, 1, scale)
        sqlite3_bind_int64(rows, 2, settings)
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM galley_places") ?? 0
        let wanted = Array(Set(widths))
        var slots = FingerprintTable(capacity: count)
        var ids: [StoredID] = []
        var positions: [Int] = []
        ids.reserveCapacity(count)
        positions.reserveCapacity(count)
        // The place read last, ahead of or at the rows' id.
        var place: (id: StoredID, position: Int)?
        var placesDone = false
        func position(of id: StoredID) throws -> Int {
            while !placesDone, place.map({ $0.id.precedes(id) }) ?? true {
                guard try Self.step(places, db) else {
                    placesDone = true
                    place = nil
                    break
                }
                place = (Self.id(places), Int(sqlite3_column_int64(places, 1)))
            }
            return place?.id == id ? place!.position : -1
        }
        // The rows of one id come together: the fingerprint each wanted width's row holds.
        var current: StoredID?
        var found: [Int64?] = Array(repeating: nil, count: wanted.count)
        func close() throws {
            guard let id = current, let fingerprint = found[0], found.allSatisfy({ $0 == fingerprint }) else { return }
            if slots.insert(fingerprint, Int32(ids.count)) {
                ids.append(id)
                positions.append(try position(of: id))
            }
        }
        while try Self.step(rows, db) {
            let id = Self.id(rows)
            if id != current {
                try close()
                current = id
                for index in found.indices { found[index] = nil }
            }
            guard let index = wanted.firstIndex(of: sqlite3_column_double(rows, 1)) else { continue }
            guard !needsFrames || sqlite3_column_int(rows, 3) != 0 else { continue }
            found[index] = sqlite3_column_int64(rows, 2)
        }
        try close()
        (self.slots, storedIDs, storedPositions) = (slots, ids, positions)
    }

    /// Steps `statement`: whether it gave a row.
    private static func step(_ statement: OpaquePointer, _ db: Database) throws -> Bool {
        let status = sqlite3_step(statement)
        if status == SQLITE_DONE { return false }
        guard status == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return true
    }

    /// The stored item whose content has `fingerprint`, when its rows are current.
    func slot(for fingerprint: Int64) -> Int32? { slots[fingerprint] }

    /// The id in the result column 0 of `statement`, its text read by length.
    private static func id(_ statement: OpaquePointer) -> StoredID {
        if sqlite3_column_type(statement, 0) == SQLITE_INTEGER { return .integer(sqlite3_column_int64(statement, 0)) }
        // The text first, then its length: SQLite's documented order.
        guard let text = sqlite3_column_text(statement, 0) else { return .text([]) }
        let count = Int(sqlite3_column_bytes(statement, 0))
        return .text(Array(UnsafeBufferPointer(start: text, count: count)))
    }
}
