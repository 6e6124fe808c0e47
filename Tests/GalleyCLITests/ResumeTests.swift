// Resuming into a database: what counts as current, rows that move with their items, and which
// databases are Galley's to write.

import Foundation
import GalleyTestSupport
import Testing

@Suite("Resuming into a database")
struct ResumeTests {
    static func item(_ id: String, _ text: String) -> String { #"{"id": \#(id), "kind": "text", "text": "\#(text)"}"# }

    /// A database's rows, as text in table order.
    static func table(_ path: String) throws -> String { try OutputFormatTests.table(path) }

    /// `galley heights` at `widths` over `original` into a database, then over `updated` into it
    /// again (the rerun) and into a fresh one: the rerun's output and the two databases.
    static func rerun(_ original: [String], then updated: [String], widths: String, in folder: URL) throws -> (
        rerun: GalleyExecutable.Output, resumed: String, fresh: String
    ) {
        let items = folder.appendingPathComponent("items.jsonl").path
        let resumed = folder.appendingPathComponent("resumed.sqlite").path
        let fresh = folder.appendingPathComponent("fresh.sqlite").path
        try original.joined(separator: "\n").write(toFile: items, atomically: true, encoding: .utf8)
        _ = try GalleyCommand.run(["heights", "--width", widths, "-o", resumed, items])
        try updated.joined(separator: "\n").write(toFile: items, atomically: true, encoding: .utf8)
        let rerun = try GalleyCommand.run(["heights", "--width", widths, "-o", resumed, items])
        _ = try GalleyCommand.run(["heights", "--width", widths, "-o", fresh, items])
        return (rerun, resumed, fresh)
    }

    @Test("Ids holding a NUL are current on a rerun like any other, and two that differ after the NUL stay two")
    func idsWithNUL() throws {
        try withTemporaryFolder("nul-ids") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            let input = [Self.item(#""a\u0000b""#, "one"), Self.item(#""a\u0000c""#, "two two"), Self.item(#""a""#, "three")].joined(separator: "\n")
            try input.write(toFile: items, atomically: true, encoding: .utf8)
            let database = folder.appendingPathComponent("db.sqlite").path
            let first = try GalleyCommand.run(["heights", "--width", "320,375", "-o", database, items])
            #expect(first.status == 0, "\(first.stderr)")
            let stored = try GalleyExecutable.shell("sqlite3 '\(database)' 'SELECT count(DISTINCT hex(id)) FROM heights'")
            #expect(stored.stdout == "3\n")
            let again = try GalleyCommand.run(["heights", "--width", "320,375", "-o", database, items])
            #expect(again.stderr.contains("3 records, 3 already current"), "\(again.stderr)")
        }
    }

    @Test("Items that moved in the input keep their rows, moved to their new places: the table is a fresh run's, and nothing is measured again")
    func movedItems() throws {
        try withTemporaryFolder("moved") { folder in
            let original = (0..<3_000).map { Self.item("\($0 % 2 == 0 ? "\($0)" : "\"s\($0)\"")", "Item \($0) " + String(repeating: "word ", count: $0 % 17)) }
            // A feed a day later: new items on top, one changed, the oldest gone, two swapped, and
            // one item twice (its rows belong where the second one is).
            var updated = (0..<30).map { Self.item("\"new\($0)\"", "New \($0)") } + original.dropLast(20)
            updated[30 + 71] = Self.item("\"s71\"", "Item 71, edited")
            updated.swapAt(500, 900)
            updated.insert(original[40], at: 2_000)
            let (rerun, database, fresh) = try Self.rerun(original, then: updated, widths: "320,768", in: folder)
            // Measured again: the 30 new items and the edited one.
            #expect(
                rerun.stderr.contains("\(OutputFormatTests.grouped(updated.count)) records, \(OutputFormatTests.grouped(updated.count - 31)) already current"),
                "\(rerun.stderr)")
            // The dropped items' rows stay in the resumed table; the rest is the fresh run's.
            let dropped = (2_980..<3_000).map { $0 % 2 == 0 ? "\($0)" : "'s\($0)'" }.joined(separator: ", ")
            let kept = try GalleyExecutable.shell(
                "sqlite3 '\(database)' \"DELETE FROM galley_rows WHERE id IN (\(dropped)); SELECT changes(); DELETE FROM galley_places WHERE id IN (\(dropped)); SELECT changes()\""
            )
            #expect(kept.stdout == "40\n20\n", "\(kept.stdout) \(kept.stderr)")
            #expect(try Self.table(database) == Self.table(fresh))
        }
    }

    @Test("An id the input gives twice with other content ends with the last one's rows on every rerun, as in a fresh run")
    func idGivenTwice() throws {
        try withTemporaryFolder("twice") { folder in
            var input = (0..<40).map { Self.item("\($0)", "Item \($0)") }
            // Id 7 again later, longer; id 9 three times, the middle one as the first.
            input.insert(Self.item("7", "Item seven, given again with text long enough to wrap at three hundred and twenty points"), at: 30)
            input.insert(Self.item("9", "Item 9 again, longer than the first one by some words"), at: 20)
            input.insert(Self.item("9", "Item 9"), at: 35)
            let items = folder.appendingPathComponent("items.jsonl").path
            try input.joined(separator: "\n").write(toFile: items, atomically: true, encoding: .utf8)
            let fresh = folder.appendingPathComponent("fresh.sqlite").path
            let resumed = folder.appendingPathComponent("resumed.sqlite").path
            _ = try GalleyCommand.run(["heights", "--width", "320,375", "-o", fresh, items])
            _ = try GalleyCommand.run(["heights", "--width", "320,375", "-o", resumed, items])
            let expected = try Self.table(fresh)
            #expect(try Self.table(resumed) == expected)
            for _ in 0..<2 {
                let rerun = try GalleyCommand.run(["heights", "--width", "320,375", "-o", resumed, items])
                #expect(rerun.status == 0, "\(rerun.stderr)")
                #expect(try Self.table(resumed) == expected)
            }
        }
    }

    @Test("A database holding only views, or Galley's id on a heights that is not Galley's table, is refused untouched (64)")
    func notGalleysDatabases() throws {
        try withTemporaryFolder("not-galleys") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try Self.item("1", "one").write(toFile: items, atomically: true, encoding: .utf8)
            let schemas = [
                "CREATE VIEW heights AS SELECT 1 AS id",
                "CREATE VIEW people AS SELECT 1 AS name",
                "PRAGMA application_id = 1198356785; CREATE TABLE heights (id, width, height)",
                "PRAGMA application_id = 1198356785; CREATE VIEW heights AS SELECT 1 AS id",
            ]
            for (index, schema) in schemas.enumerated() {
                let database = folder.appendingPathComponent("db\(index).sqlite").path
                let made = try GalleyExecutable.shell("sqlite3 '\(database)' '\(schema)'; sqlite3 '\(database)' '.schema' 'PRAGMA application_id'")
                let run = try GalleyCommand.run(["heights", "-o", database, items])
                #expect(run.status == 64 && run.stderr.contains("cannot use \(database)"), "\(schema): \(run.stderr)")
                let after = try GalleyExecutable.shell("sqlite3 '\(database)' '.schema' 'PRAGMA application_id'")
                #expect(after.stdout == made.stdout, "\(schema)")
            }
        }
    }

    @Test("CSV output starts cells a spreadsheet would run as formulas with ' (unless --no-csv-safe); numbers stay numbers; no NUL reaches a cell")
    func csvFormulas() throws {
        let ids = [#""=1+2""#, #""+SUM(A1)""#, #""-2+3""#, #""@cmd""#, #""\tx""#, #""\ry""#, "-5", #""a\u0000b""#, #""plain""#, #""=x,y""#]
        let input = ids.map { Self.item($0, "t") }.joined(separator: "\n")
        let read = """
            python3 -c 'import csv, json, sys
            print(json.dumps([row[0] for row in csv.reader(sys.stdin)]))'
            """
        let safe = try GalleyExecutable.shell("\"$GALLEY\" heights --format csv 2>/dev/null | \(read)", input: input)
        let cells = try JSONSerialization.jsonObject(with: Data(safe.stdout.utf8)) as? [String]
        #expect(cells == ["id", "'=1+2", "'+SUM(A1)", "'-2+3", "'@cmd", "'\tx", "'\ry", "-5", "a\u{FFFD}b", "plain", "'=x,y"], "\(safe.stdout) \(safe.stderr)")
        let raw = try GalleyExecutable.shell("\"$GALLEY\" heights --format csv --no-csv-safe 2>/dev/null | \(read)", input: input)
        let rawCells = try JSONSerialization.jsonObject(with: Data(raw.stdout.utf8)) as? [String]
        #expect(rawCells == ["id", "=1+2", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\ry", "-5", "a\u{FFFD}b", "plain", "=x,y"], "\(raw.stdout)")
    }
}

extension ResumeTests {
    @Test("A database of Galley 0.5 (one table heights, positions in every row) is brought up to date, and its rows are current")
    func earlierDatabase() throws {
        try withTemporaryFolder("earlier") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try (0..<500).map { Self.item("\($0)", "Item \($0)") }.joined(separator: "\n").write(toFile: items, atomically: true, encoding: .utf8)
            let database = folder.appendingPathComponent("db.sqlite").path
            _ = try GalleyCommand.run(["heights", "--width", "320,375", "-o", database, items])
            let expected = try Self.table(database)
            // The same rows as Galley 0.5 laid them out.
            let earlier = try GalleyExecutable.shell(
                """
                sqlite3 '\(database)' "CREATE TABLE old (id BLOB NOT NULL, width REAL NOT NULL, scale REAL NOT NULL, position INTEGER NOT NULL,
                    template TEXT NOT NULL, settings INTEGER NOT NULL, fingerprint INTEGER NOT NULL, height REAL NOT NULL, frames TEXT,
                    PRIMARY KEY (id, width, scale)) WITHOUT ROWID;
                  INSERT INTO old SELECT * FROM heights; DROP VIEW heights; DROP TABLE galley_rows; DROP TABLE galley_places; DROP TABLE galley_segments;
                  ALTER TABLE old RENAME TO heights; PRAGMA user_version = 0;"
                sqlite3 '\(database)' "SELECT type, name FROM sqlite_master"
                """)
            #expect(earlier.stdout == "table|heights\n", "\(earlier.stdout) \(earlier.stderr)")
            let rerun = try GalleyCommand.run(["heights", "--width", "320,375", "-o", database, items])
            #expect(rerun.stderr.contains("500 records, 500 already current"), "\(rerun.stderr)")
            #expect(try Self.table(database) == expected)
            let schema = try GalleyExecutable.shell("sqlite3 '\(database)' 'PRAGMA user_version' \"SELECT type, name FROM sqlite_master ORDER BY name\"")
            #expect(schema.stdout == "2\ntable|galley_places\ntable|galley_rows\ntable|galley_segments\nview|heights\n", "\(schema.stdout)")
        }
    }
}

extension ResumeTests {
    @Test("--strict is part of a run's settings: items it would refuse are not taken as current from a run without it")
    func strictIsASetting() throws {
        try withTemporaryFolder("strict") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            let input = (0..<10).map { #"{"id": \#($0), "kind": "message", "title": "T\#($0)", "text": "Text"}"# }.joined(separator: "\n")
            try input.write(toFile: items, atomically: true, encoding: .utf8)
            let database = folder.appendingPathComponent("db.sqlite").path
            let loose = try GalleyCommand.run(["heights", "-o", database, items])
            #expect(loose.status == 0, "\(loose.stderr)")
            let strict = try GalleyCommand.run(["heights", "--strict", "-o", database, items])
            #expect(strict.status == 1 && strict.errorLines.count == 10, "\(strict.stderr)")
            #expect(!strict.stderr.contains("already current"))
        }
    }
}

extension ResumeTests {
    @Test(
        "A feed a day later (new items on top, some edited, the oldest gone) writes the places of the new and edited items only; the rest move with their segment"
    )
    func feedMovesBySegment() throws {
        try withTemporaryFolder("feed") { folder in
            let original = (0..<2_000).map { Self.item("\($0)", "Item \($0)") }
            var updated = (0..<25).map { Self.item("\"new\($0)\"", "New \($0)") } + original.dropLast(25)
            for index in [100, 700, 1_500] { updated[25 + index] = Self.item("\(index)", "Item \(index), edited") }
            let (rerun, database, fresh) = try Self.rerun(original, then: updated, widths: "320,375", in: folder)
            #expect(rerun.stderr.contains("2,000 records, 1,972 already current"), "\(rerun.stderr)")
            let written = try GalleyExecutable.shell(
                "sqlite3 '\(database)' 'SELECT count(*) FROM galley_places WHERE segment = (SELECT max(segment) FROM galley_segments)'")
            #expect(written.stdout == "28\n", "\(written.stdout)")
            // The view is a fresh run's, but for the rows of the items gone.
            let gone = (1_975..<2_000).map(String.init).joined(separator: ", ")
            _ = try GalleyExecutable.shell(
                "sqlite3 '\(database)' 'DELETE FROM galley_rows WHERE id IN (\(gone)); DELETE FROM galley_places WHERE id IN (\(gone))'")
            #expect(try Self.table(database) == Self.table(fresh))
        }
    }
}
