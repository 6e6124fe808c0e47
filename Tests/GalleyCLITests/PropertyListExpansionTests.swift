// Binary property lists that name one object from many places: what their records expand to is
// bounded, per record and per list, in bytes of strings and data.

import Foundation
import GalleyJSON
import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("Property list expansion")
struct PropertyListExpansionTests {
    /// The records of the binary list Python's plistlib writes for `rows` (a Python expression;
    /// plistlib stores an object met twice once, as Apple's writer does), read in-process with
    /// the given limits: objects, or errors.
    private static func records(
        _ rows: String, maximumRecordLength: Int, maximumDocumentSize: Int
    ) throws -> [Result<JSONObject, RecordError>] {
        try withTemporaryFolder("shared") { folder in
            let path = folder.appendingPathComponent("shared.plist").path
            let made = try GalleyExecutable.shell(
                "python3 -c \"import plistlib; s = 'x' * 10000; open('\(path)', 'wb').write(plistlib.dumps(\(rows), fmt=plistlib.FMT_BINARY))\"")
            #expect(made.status == 0, "\(made.stderr)")
            let options = InputOptions(format: .plist, maximumRecordLength: maximumRecordLength, maximumDocumentSize: maximumDocumentSize)
            let source = InputFiles(paths: [path], options: options)
            var records: [Result<JSONObject, RecordError>] = []
            while case let chunk = try source.next(100), !chunk.isEmpty {
                records += chunk.map { record in Result { () throws(RecordError) in try record.object() } }
            }
            return records
        }
    }

    private static func message(_ record: Result<JSONObject, RecordError>?) -> String {
        if case .failure(let error)? = record { return error.description }
        return "no error"
    }

    @Test("Records that all name one long string expand to at most the list's limit: the list ends with an error there")
    func listLimit() throws {
        // A thousand records naming one string of 10,000 bytes: 10 MB from a file of 25 kB.
        let records = try Self.records("[{'t': s, 'i': i} for i in range(1000)]", maximumRecordLength: 1 << 20, maximumDocumentSize: 1 << 20)
        // Each record is 10,002 bytes ("t", "i" and the string): 104 fit in 1 MiB.
        #expect(records.count == 105)
        #expect((try? records[103].get())?["t"] == .string(String(repeating: "x", count: 10_000)))
        #expect((try? records[103].get())?["i"] == .integer(103))
        #expect(
            Self.message(records.last).hasSuffix(
                "shared.plist: its records expand to more than 1048576 bytes of strings and data (objects the list names more than once), the limit for a property list"
            ),
            "\(Self.message(records.last))")
        // Within the limit, every record reads.
        #expect(try Self.records("[{'t': s, 'i': i} for i in range(1000)]", maximumRecordLength: 1 << 20, maximumDocumentSize: 11 << 20).count == 1000)
    }

    @Test("A record that names a long string, data or UTF-16 text many times is an error of its own; the others and its children read")
    func recordLimit() throws {
        // 500 times 10,000 bytes and the key; data as Base64 (4,000 bytes for 3,000); UTF-16
        // text at three bytes a unit; a child of its own naming it 200 times, another 50 times.
        let rows = """
            [{'t': 'a'}, {'many': [s] * 500}, {'d': [b'\\\\x00' * 3000] * 400}, {'u': ['\\\\u00e9' * 1000] * 400},
             {'t': 'parent', 'Children': [{'m': [s] * 200}, {'m': [s] * 50}]}, {'t': 'b'}]
            """
        let records = try Self.records(rows, maximumRecordLength: 1 << 20, maximumDocumentSize: 64 << 20)
        #expect(records.count == 8)
        #expect((try? records[0].get())?["t"] == .string("a") && (try? records[7].get())?["t"] == .string("b"))
        let limit = "more than the limit of 1048576"
        #expect(Self.message(records[1]).contains("the record expands to 5000004 bytes of strings and data") && Self.message(records[1]).contains(limit))
        #expect(Self.message(records[2]).contains("the record expands to 1600001 bytes"), "\(Self.message(records[2]))")
        #expect(Self.message(records[3]).contains("the record expands to 1200001 bytes"), "\(Self.message(records[3]))")
        // The parent (its children are records of their own), its first child too long, its second read.
        #expect((try? records[4].get())?["t"] == .string("parent"))
        #expect(Self.message(records[5]).contains("the record expands to 2000001 bytes"), "\(Self.message(records[5]))")
        #expect((try? records[6].get())?["m"] == .array(Array(repeating: .string(String(repeating: "x", count: 10_000)), count: 50)))
    }
}
