// The items a database's rows are current for, read once when a run resumes.

import GRDB
import GRDBSQLite
import GalleyJSON

/// The items whose rows a database already holds for this run: rows made, at every width the
/// run asks for, at its scale and under its settings, from content with the fingerprint a record
/// has now (the item's ``RowsKey``, kept beside its place). Read in one pass over the places
/// when the run starts, so that asking about an item is a table lookup, not a query: a rerun
/// over a complete database costs little more than reading its input.
///
/// An item's fingerprint stands for its id and template too (both come from its content, under
/// the same settings), so a JSON text is looked up before it is parsed. Its memory is about a
/// hundred bytes per item stored.
final class ResumeIndex: Sendable {
    /// Each current item's place in the arrays below, by its rows' key.
    private let slots: FingerprintTable
    /// The key of this run's rows for a fingerprint.
    let rowsKey: RowsKey
    /// Each current item's id, as stored.
    let storedIDs: [StoredID]
    /// Each current item's rows' key.
    let storedKeys: [Int64]
    /// Each current item's segment and place in it (`galley_places`).
    let storedSegments: [Int64]
    let storedPlaces: [Int]
    /// Every segment's base (`galley_segments`).
    let bases: [Int64: Int]

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

        /// A 64-bit hash of the id, its bits spread for ``FingerprintTable``.
        var hash: Int64 {
            var fingerprint = Fingerprint()
            switch self {
            case .integer(let integer): withUnsafeBytes(of: integer.littleEndian) { fingerprint.add($0) }
            case .text(let bytes):
                fingerprint.add(CollectionOfOne(0xFF))
                fingerprint.add(bytes[...])
            }
            return RowsKey.spread(fingerprint.value)
        }
    }

    /// Reads the places, and the items among them whose rows are current for `rowsKey`.
    init(_ db: Database, rowsKey: RowsKey) throws {
        self.rowsKey = rowsKey
        var bases: [Int64: Int] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT segment, base FROM galley_segments") { bases[row[0] as Int64] = row[1] as Int }
        // GRDB's statement owns SQLite's, which it finalizes when it goes.
        let owner = try db.makeStatement(sql: "SELECT id, segment, place, rows_key FROM galley_places")
        defer { withExtendedLifetime(owner) {} }
        let places = owner.sqliteStatement
        var (ids, keys, segments, placesInSegments) = ([StoredID](), [Int64](), [Int64](), [Int]())
        while try Self.step(places, db) {
            let key = sqlite3_column_int64(places, 3)
            // 0: rows made for no key known (brought from an earlier Galley, mixed).
            guard key != 0 else { continue }
            ids.append(Self.id(places))
            keys.append(key)
            segments.append(sqlite3_column_int64(places, 1))
            placesInSegments.append(Int(sqlite3_column_int64(places, 2)))
        }
        let slots = FingerprintTable(slotsOf: keys)
        (self.slots, storedIDs, storedKeys, storedSegments, storedPlaces, self.bases) = (slots, ids, keys, segments, placesInSegments, bases)
    }

    /// Steps `statement`: whether it gave a row.
    static func step(_ statement: OpaquePointer, _ db: Database) throws -> Bool {
        let status = sqlite3_step(statement)
        if status == SQLITE_DONE { return false }
        guard status == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
        }
        return true
    }

    /// The stored item whose content has `fingerprint`, when its rows are current.
    func slot(for fingerprint: Int64) -> Int32? { slots[rowsKey.key(for: fingerprint)] }

    /// The id in the result column 0 of `statement`, its text read by length.
    static func id(_ statement: OpaquePointer) -> StoredID {
        if sqlite3_column_type(statement, 0) == SQLITE_INTEGER { return .integer(sqlite3_column_int64(statement, 0)) }
        // The text first, then its length: SQLite's documented order.
        guard let text = sqlite3_column_text(statement, 0) else { return .text([]) }
        let count = Int(sqlite3_column_bytes(statement, 0))
        return .text(Array(UnsafeBufferPointer(start: text, count: count)))
    }
}
