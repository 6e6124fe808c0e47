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
    private let slots: [Int64: Int32]
    /// Each current item's id, as stored.
    let storedIDs: [StoredID]

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
    }

    /// Reads the items current at `widths` from the table `galley_rows`.
    init(_ db: Database, widths: [Double], scale: Double, settings: Int64, needsFrames: Bool) throws {
        // GRDB's statement owns SQLite's, which it finalizes when it goes.
        let owner = try db.makeStatement(
            sql: "SELECT id, width, fingerprint, frames IS NOT NULL FROM galley_rows WHERE scale = ?1 AND settings = ?2 ORDER BY id, width")
        defer { withExtendedLifetime(owner) {} }
        let statement = owner.sqliteStatement
        sqlite3_bind_double(statement, 1, scale)
        sqlite3_bind_int64(statement, 2, settings)
        let wanted = Array(Set(widths))
        var slots: [Int64: Int32] = [:]
        var ambiguous: Set<Int64> = []
        var ids: [StoredID] = []
        // The rows of one id come together: the fingerprint each wanted width's row holds.
        var current: StoredID?
        var found: [Int64?] = Array(repeating: nil, count: wanted.count)
        func close() {
            guard let id = current, let fingerprint = found[0], found.allSatisfy({ $0 == fingerprint }) else { return }
            // Two ids with one fingerprint (which only a hash collision makes): neither is trusted.
            if slots[fingerprint] != nil || ambiguous.contains(fingerprint) {
                slots[fingerprint] = nil
                ambiguous.insert(fingerprint)
                return
            }
            slots[fingerprint] = Int32(ids.count)
            ids.append(id)
        }
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: status), message: String(cString: sqlite3_errmsg(db.sqliteConnection)))
            }
            let id = Self.id(statement)
            if id != current {
                close()
                current = id
                for index in found.indices { found[index] = nil }
            }
            guard let index = wanted.firstIndex(of: sqlite3_column_double(statement, 1)) else { continue }
            guard !needsFrames || sqlite3_column_int(statement, 3) != 0 else { continue }
            found[index] = sqlite3_column_int64(statement, 2)
        }
        close()
        (self.slots, storedIDs) = (slots, ids)
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
