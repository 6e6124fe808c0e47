// CSV that goes wrong: a quote that never closes costs its own row, not the rest of the file;
// column names that cannot both hold a value stop the run before any of it.

import Foundation
import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("CSV that goes wrong")
struct CSVReaderTests {
    /// The records of `text` read as CSV, each as its object's `id` or its error: from a regular
    /// file (which can be read again), or through a pipe-like source (which cannot).
    static func records(_ text: String, maximumLength: Int = InputOptions.defaultMaximumRecordLength, fromFile: Bool = false) throws -> [String] {
        var options = InputOptions(format: .csv)
        options.maximumRecordLength = maximumLength
        let bytes = Array(text.utf8)
        if fromFile {
            return try withTemporaryFolder("csv") { folder in
                let file = folder.appendingPathComponent("in.csv")
                try Data(bytes).write(to: file)
                return try records(of: InputFiles(paths: [file.path], options: options))
            }
        }
        var offset = 0
        let input = ByteInput(name: "in.csv") { buffer, count in
            let taken = min(count, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: taken) }
            offset += taken
            return taken
        }
        return try records(of: InputFiles(inputs: [input], options: options))
    }

    private static func records(of files: InputFiles) throws -> [String] {
        var results: [String] = []
        while true {
            let chunk = try files.next(4096)
            if chunk.isEmpty { break }
            for record in chunk {
                do { results.append("\(try record.object()["id"] ?? .null)") } catch { results.append("line \(record.number): \(error)") }
            }
        }
        return results
    }

    @Test("A quote that runs to the end of the file is an error naming its line, and the lines after it are read as records")
    func quoteToTheEnd() throws {
        let rows = (2...100_002).map { "\($0),row \($0)" }
        let text = "id,text\n1,\"unterminated\n" + rows.joined(separator: "\n") + "\n"
        let records = try Self.records(text)
        #expect(records.count == 100_002)
        #expect(records.first == "line 2: the quoted field that opens on line 2 runs to the end of the file; reading goes on at line 3")
        #expect(Array(records.dropFirst()) == (2...100_002).map(String.init))
    }

    @Test("A quote past the record limit that never closes: a file is read again after its line; a pipe cannot be, and says so")
    func quotePastTheLimit() throws {
        let long = String(repeating: "x", count: 3 << 20)
        let text = "id,text\n1,one\n2,\"\(long)\n3,three\n4,four\n"
        let unclosed = "the quoted field that opens on line 3 runs to the end"
        #expect(try Self.records(text, maximumLength: 1000, fromFile: true) == ["1", "line 3: \(unclosed) of the file; reading goes on at line 4", "3", "4"])
        #expect(try Self.records(text, maximumLength: 1000) == ["1", "line 3: \(unclosed) of the input, which cannot be read again to go on after it"])
    }

    @Test("A quoted field that closes, however long, is one field: past the limit, its row is too long, and nothing inside it is read as a record")
    func longQuotedFields() throws {
        let inside = (0..<100).map { "\($0 + 40),hello \($0)" }.joined(separator: "\n")
        let text = "id,text\n1,\"\(inside)\"\n2,two\n3,\"a \"\"quoted\"\" word\n  on two lines\"\n"
        #expect(
            try Self.records(text, maximumLength: 500) == ["line 2: the line is \(inside.utf8.count + 4) bytes long, more than the limit of 500", "2", "3"])
        #expect(
            try Self.records(text, maximumLength: 500, fromFile: true) == [
                "line 2: the line is \(inside.utf8.count + 4) bytes long, more than the limit of 500", "2", "3",
            ])
        // Within the default limit, the same field is read whole.
        #expect(try Self.records(text) == ["1", "2", "3"])
        // A row too long already before a quote in the middle of a field: the quote is text.
        let late = "id,text\n1,\(String(repeating: "y", count: 600))\"z\n2,two\n"
        #expect(try Self.records(late, maximumLength: 500) == ["line 2: the line is 604 bytes long, more than the limit of 500", "2"])
    }

    @Test("Column names where one would hold a value and an object are a usage error naming both")
    func conflictingColumns() throws {
        for (header, first, second) in [("id,a.b,a,a.b.c", "a", "a.b"), ("id,text,text.x", "text", "text.x"), ("id,x.y.z,x.y", "x.y", "x.y.z")] {
            let error = #expect(throws: InputUsageError.self) { try Self.records("\(header)\n1,2,3,4\n") }
            #expect(
                error?.description
                    == "cannot read in.csv: the header's columns '\(first)' and '\(second)' conflict: '\(first)' would hold a value and an object at once (rename one)"
            )
        }
        // Names that only share a beginning do not conflict.
        #expect(try Self.records("id,ab,a.b,a.bc\n1,2,3,4\n") == ["1"])
    }

    @Test("The run stops before any work when a file's columns conflict (64), and says which")
    func conflictingColumnsInARun() throws {
        try withTemporaryFolder("csv-conflict") { folder in
            let good = folder.appendingPathComponent("good.jsonl")
            let bad = folder.appendingPathComponent("bad.csv")
            try #"{"id": 1, "kind": "text", "text": "a"}"#.write(to: good, atomically: true, encoding: .utf8)
            try "id,text,text.x\n1,2,3\n".write(to: bad, atomically: true, encoding: .utf8)
            let run = try GalleyCommand.run(["heights", good.path, bad.path])
            #expect(run.status == 64 && run.stdout.isEmpty, "\(run.stdout)")
            #expect(run.stderr.contains("the header's columns 'text' and 'text.x' conflict"), "\(run.stderr)")
        }
    }
}
