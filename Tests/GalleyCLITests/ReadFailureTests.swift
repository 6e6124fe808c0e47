// A read that fails part way through an input: every whole record before it is measured and
// written, the record it cut short is not, and the failure names the file and the last record.

import Foundation
import Testing

@testable import GalleyCommands

@Suite("Inputs whose reading fails")
struct ReadFailureTests {
    /// An input of `bytes` whose reads fail with EIO once `limit` bytes have been given, in reads
    /// of at most `step` bytes (as a failing disk or network file system would).
    static func failingInput(_ bytes: [UInt8], name: String, failingAfter limit: Int, step: Int = 65_536) -> ByteInput {
        var offset = 0
        return ByteInput(name: name) { buffer, count in
            guard offset < limit else {
                errno = EIO
                return -1
            }
            let taken = min(count, step, limit - offset, bytes.count - offset)
            bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + offset, byteCount: taken) }
            offset += taken
            return taken
        }
    }

    /// Everything handed to the sink, for checking what a run wrote.
    final class CollectingSink: OutputSink, @unchecked Sendable {
        var bytes: [UInt8] = []
        var finished = false
        func write(_ blocks: [ResultBlock]) throws { for block in blocks { bytes += block.bytes } }
        func finish() throws { finished = true }
    }

    /// Runs a batch over `input` that writes each record's `id` on a line of its own.
    static func run(_ input: ByteInput, format: InputFormat) throws -> (ids: [String], statistics: BatchRunner.Statistics, finished: Bool) {
        let sink = CollectingSink()
        let source = InputFiles(inputs: [input], options: InputOptions(format: format))
        let statistics = try BatchRunner(chunkSize: 1000, blockSize: 16, jobs: 2).run(source, sink: sink) { record, _, block in
            guard let object = try? record.object(), let id = object["id"] else {
                block.failures += 1
                return
            }
            block.bytes += Array("\(id)\n".utf8)
        }
        let ids = String(decoding: sink.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        return (ids, statistics, sink.finished)
    }

    @Test("JSON Lines: every whole line before the failure is written; the line it cut is not; the error names the file and the last line")
    func jsonLines() throws {
        let text = (1...60_000).map { #"{"id": \#($0), "text": "line \#($0)"}"# }.joined(separator: "\n") + "\n"
        let bytes = Array(text.utf8)
        // Cut inside a line, past several chunks and reads.
        let limit = bytes.count * 3 / 5 + 7
        let whole = bytes[..<limit].split(separator: 0x0A, omittingEmptySubsequences: false).count - 1
        let (ids, statistics, finished) = try Self.run(Self.failingInput(bytes, name: "flaky.jsonl", failingAfter: limit), format: .jsonl)
        #expect(ids == (1...whole).map(String.init))
        #expect(statistics.failures == 0 && finished)
        let failure = try #require(statistics.readFailure.map { "\($0)" })
        #expect(failure == "cannot read flaky.jsonl: Input/output error, after line \(whole) (record \(whole)), the last record read whole")
    }

    @Test("CSV, TSV and JSON arrays: the record the failure cut is not handed out as if whole; XML says the reading failed, not libxml2")
    func otherFormats() throws {
        let csv = "id,text\n" + (1...5_000).map { "\($0),\"text \($0)\"" }.joined(separator: "\n") + "\n"
        let array = "[\n" + (1...5_000).map { #"{"id": \#($0), "text": "text \#($0)"}"# }.joined(separator: ",\n") + "\n]\n"
        for (format, text) in [(InputFormat.csv, csv), (.json, array)] {
            let bytes = Array(text.utf8)
            // Inside the record on line 3001: in CSV, where "3000," ends a valid-looking record.
            let cut = text.range(of: format == .csv ? "\n3000," : "\n{\"id\": 3000,")!.upperBound.utf16Offset(in: text)
            let (ids, statistics, _) = try Self.run(Self.failingInput(bytes, name: "flaky", failingAfter: cut, step: 4096), format: format)
            #expect(ids == (1...2999).map(String.init), "\(format)")
            #expect(statistics.failures == 0, "\(format)")
            #expect(
                "\(statistics.readFailure.map { "\($0)" } ?? "")".contains("after line 3000 (record 2999)"),
                "\(format): \(String(describing: statistics.readFailure))")
        }
        let xml = "<rss><channel>" + (1...2_000).map { "<item><id>\($0)</id><title>t</title></item>" }.joined() + "</channel></rss>"
        let (ids, statistics, _) = try Self.run(
            Self.failingInput(Array(xml.utf8), name: "feed.xml", failingAfter: xml.utf8.count / 2, step: 4096), format: .xml)
        #expect(!ids.isEmpty && ids == (1...ids.count).map(String.init))
        #expect(statistics.failures == 0)
        #expect("\(statistics.readFailure.map { "\($0)" } ?? "")".hasPrefix("cannot read feed.xml: Input/output error, after line 1 (record \(ids.count))"))
    }

    @Test("A failure before any record says so; a property list, read whole, fails whole")
    func failureAtOnce() throws {
        let (ids, statistics, _) = try Self.run(Self.failingInput(Array("{\"id\": 1}\n".utf8), name: "dead", failingAfter: 0), format: .jsonl)
        #expect(ids.isEmpty)
        #expect(statistics.readFailure.map { "\($0)" } == "cannot read dead: Input/output error, before its first record")
        let plist = #"<?xml version="1.0"?><plist version="1.0"><array><dict><key>id</key><integer>1</integer></dict></array></plist>"#
        let (none, whole, _) = try Self.run(Self.failingInput(Array(plist.utf8), name: "list.plist", failingAfter: 40, step: 8), format: .plist)
        #expect(none.isEmpty && "\(whole.readFailure.map { "\($0)" } ?? "")".hasPrefix("cannot read list.plist: Input/output error"))
    }
}
