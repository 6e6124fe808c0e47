// The batch tool against inputs and outputs meant to hurt it: each ends in bounded time and
// memory with a clear error, and nothing of the user's is damaged.

import Foundation
import GalleyTestSupport
import Testing

@Suite("Hostile batch inputs and outputs")
struct HostileBatchTests {
    @Test("A CSV row far over the limit is read past in linear time and is an error for that row alone")
    func longCSVRow() throws {
        let long = String(repeating: "x", count: 8 << 20)
        let csv = "id,text\n1,\(long)\n2,\"\(long)\"\n3,short\n"
        let run = try GalleyExecutable.run(["records", "--input-format", "csv", "--max-record-length", "1000"], input: csv, timeout: 60)
        #expect(!run.timedOut && run.status == 1)
        #expect(run.lines.map { $0["id"] as? Int } == [nil, nil, 3])
        #expect(
            (run.lines[0]["error"] as? String)?.hasPrefix("the line is 8388610 bytes long, more than the limit of 1000") == true, "\(run.lines.first ?? [:])")
    }

    @Test("XML nested a hundred thousand deep is one bad record, without a crash")
    func deepXML() throws {
        let depth = 100_000
        let xml = "<r><item>" + String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth) + "</item><item><t>ok</t></item></r>"
        let run = try GalleyExecutable.run(["records", "--record", "item"], input: xml, timeout: 60)
        #expect(!run.timedOut && run.status == 1, "\(run.stderr.suffix(300))")
        #expect((run.lines.first?["error"] as? String)?.contains("nest more than 64 deep") == true)
        #expect(run.lines.last?["t"] as? String == "ok")
    }

    @Test("A binary property list naming one object many times over is refused before it is expanded")
    func propertyListBomb() throws {
        try withTemporaryFolder("bomb") { folder in
            // Python's writer stores a shared object once (Foundation's writes every reference
            // out in full): forty levels, each naming the level below twice, in under a kilobyte.
            let file = folder.appendingPathComponent("bomb.plist").path
            let made = try GalleyExecutable.shell(
                """
                python3 -c "import plistlib
                level = {'Title': 'leaf'}
                for index in range(40): level = {'Title': 'level %d' % index, 'Children': [level, level]}
                open('\(file)', 'wb').write(plistlib.dumps({'Rows': [level]}, fmt=plistlib.FMT_BINARY))"
                """)
            #expect(made.status == 0, "\(made.stderr)")
            let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
            #expect(size > 0 && size < 2_000)
            let run = try GalleyExecutable.run(["records", file], timeout: 60)
            #expect(!run.timedOut && run.status == 1)
            #expect((run.lines.last?["error"] as? String)?.contains("expands to more values than its") == true, "\(run.stdout.prefix(300))")
            // A list that shares nothing reads as before.
            let plain = try GalleyCommand.run(["records", InputFormatTests.examples.appendingPathComponent("drilldown-Data.plist").path])
            #expect(plain.status == 0 && plain.lines.count > 10)
        }
    }

    @Test("An output that is also an input is refused before it is emptied; another program's database is left as it was")
    func protectedFiles() throws {
        try withTemporaryFolder("protected") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            let text = #"{"id": 1, "kind": "text", "text": "Hello"}"# + "\n"
            try text.write(toFile: items, atomically: true, encoding: .utf8)
            for option in ["-o", "--errors"] {
                let run = try GalleyCommand.run(["heights", option, items, items])
                #expect(run.status == 64 && run.stderr.contains("is the input \(items)"), "\(run.stderr)")
                #expect(try String(contentsOfFile: items, encoding: .utf8) == text)
            }
            let foreign = folder.appendingPathComponent("app.db").path
            _ = try GalleyExecutable.shell("sqlite3 '\(foreign)' 'CREATE TABLE people (name TEXT); INSERT INTO people VALUES (1)'")
            let refused = try GalleyCommand.run(["heights", "--format", "sqlite", "-o", foreign, items])
            #expect(refused.status == 64)
            let mode = try GalleyExecutable.shell("sqlite3 '\(foreign)' 'PRAGMA journal_mode'; ls '\(folder.path)'")
            #expect(mode.stdout.hasPrefix("delete\n") && !mode.stdout.contains("app.db-wal"), "\(mode.stdout)")
        }
    }

    @Test("SQLite keeps ids as written: the string \"42\", \"042\" and the integer 42 are three items; ids made up for CSV records differ across files")
    func databaseIDs() throws {
        try withTemporaryFolder("ids") { folder in
            let database = folder.appendingPathComponent("ids.sqlite").path
            let items = [
                #"{"id": "42", "kind": "text", "text": "a"}"#, #"{"id": "042", "kind": "text", "text": "bb"}"#,
                #"{"id": 42, "kind": "text", "text": "ccc"}"#,
            ].joined(separator: "\n")
            let run = try GalleyCommand.run(["heights", "-o", database], input: items)
            #expect(run.status == 0, "\(run.stderr)")
            let stored = try GalleyExecutable.shell("sqlite3 '\(database)' 'SELECT typeof(id), id FROM heights ORDER BY position'")
            #expect(stored.stdout == "text|42\ntext|042\ninteger|42\n", "\(stored.stdout)")
            let first = folder.appendingPathComponent("a.csv")
            let second = folder.appendingPathComponent("b.csv")
            try "text\none\ntwo\n".write(to: first, atomically: true, encoding: .utf8)
            try "text\nthree\n".write(to: second, atomically: true, encoding: .utf8)
            let records = try GalleyCommand.run(["records", first.path, second.path])
            #expect(records.lines.map { $0["id"] as? Int } == [1, 2, 3])
        }
    }

    @Test("galley templates reports a format with an empty placeholder instead of trapping")
    func emptyPlaceholder() throws {
        try withTemporaryFolder("placeholder") { folder in
            let file = folder.appendingPathComponent("t.json")
            try #"{"k": {"root": {"type": "label", "name": "a", "format": "{} and {x}", "style": "font"}}}"#.write(to: file, atomically: true, encoding: .utf8)
            let run = try GalleyCommand.run(["templates", "--templates", file.path, "k"])
            #expect(run.status == 0 && run.stdout.contains("fields: x"), "\(run.stdout) \(run.stderr)")
        }
    }
}
