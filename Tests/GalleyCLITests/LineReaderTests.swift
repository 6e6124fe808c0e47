// Reading input lines across files and the reader's 1 MB reads.

import Foundation
import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("Input lines")
struct LineReaderTests {
    @Test("Lines come out as the files split them, across reads and files, numbered per file, CR endings dropped")
    func linesAcrossReadsAndFiles() throws {
        // Over two of the reader's 1 MB reads: lines of many lengths (a few longer than a read's
        // remainder), some ending in CRLF, the last without a line ending.
        var text = ""
        var index = 0
        while text.utf8.count < 2_300_000 {
            let length = (index * 7919) % 1_500 + (index % 97 == 0 ? 300_000 : 0)
            text += String(repeating: Character(UnicodeScalar(UInt8(0x61 + index % 26))), count: length)
            text += index % 5 == 0 ? "é\r\n" : "\n"
            index += 1
        }
        text += "last line, unterminated"
        try withTemporaryFolder("lines") { folder in
            let big = folder.appendingPathComponent("big.jsonl")
            let small = folder.appendingPathComponent("small.jsonl")
            try Data(text.utf8).write(to: big)
            try Data("one\r\ntwo\n".utf8).write(to: small)

            // Split by bytes: as characters, "\r\n" is one and holds no "\n".
            func expected(_ text: String, file: String) -> [(String, Int, [UInt8])] {
                Array(text.utf8).split(separator: 0x0A, omittingEmptySubsequences: false).enumerated().map { number, line in
                    var bytes = Array(line)
                    if bytes.last == 0x0D { bytes.removeLast() }
                    return (file, number + 1, bytes)
                }
            }
            // Nothing after small's final line feed: its lines are those of the text without it.
            let wanted = expected(text, file: big.path) + expected("one\r\ntwo", file: small.path)

            let source = InputFiles(paths: [big.path, small.path], options: InputOptions(format: .jsonl))
            var lines: [InputRecord] = []
            while true {
                // Earlier lines stay held while later ones are read.
                let next = try source.next(333)
                if next.isEmpty { break }
                lines += next
            }
            #expect(lines.count == wanted.count)
            for (line, (file, number, bytes)) in zip(lines, wanted) {
                #expect(line.file == file && line.number == number)
                // A Bool, not the arrays: a failure would print lines of 300,000 bytes.
                let same = Array(line.bytes) == bytes
                #expect(same, "\(file):\(number)")
            }
        }
    }

    @Test("Lines over the limit are skipped, counted and numbered, across reads and at the end; the rest come out whole")
    func overlongLines() throws {
        // Limits below, at and over the reader's 1 MB reads; lines just under, at and over them.
        for limit in [10, 1_000, 1 << 20, 3 << 20] {
            var lengths = [0, 1, limit - 1, limit, limit + 1, 2 * limit + 7, 5, 4 << 20, 3, limit + 2]
            lengths = lengths.filter { $0 >= 0 }
            var text = lengths.enumerated().map { index, length in
                String(repeating: Character(UnicodeScalar(UInt8(0x61 + index % 26))), count: length)
            }.joined(separator: "\n")
            text += "\n" + String(repeating: "z", count: limit + 3)  // over the limit and unterminated
            lengths.append(limit + 3)
            try withTemporaryFolder("overlong") { folder in
                let file = folder.appendingPathComponent("lines.jsonl")
                try Data(text.utf8).write(to: file)
                let source = InputFiles(paths: [file.path], options: InputOptions(format: .jsonl, maximumRecordLength: limit))
                var lines: [InputRecord] = []
                while true {
                    let next = try source.next(4)
                    if next.isEmpty { break }
                    lines += next
                }
                #expect(lines.count == lengths.count, "limit \(limit)")
                for (number, (line, length)) in zip(lines, lengths).enumerated() {
                    #expect(line.number == number + 1)
                    if length > limit {
                        #expect(line.skippedLength == length && line.bytes.isEmpty && !line.isBlank, "limit \(limit), line \(number + 1)")
                    } else {
                        #expect(line.skippedLength == nil && line.bytes.count == length, "limit \(limit), line \(number + 1)")
                    }
                }
            }
        }
    }

    @Test("The limit is on a line without its ending: a CRLF line of the limit's length is kept")
    func limitExcludesLineEnding() throws {
        try withTemporaryFolder("crlf") { folder in
            let file = folder.appendingPathComponent("lines.jsonl")
            try Data("abcd\r\nabcde\r\nabc\n".utf8).write(to: file)
            let lines = try InputFiles(paths: [file.path], options: InputOptions(format: .jsonl, maximumRecordLength: 4)).next(10)
            #expect(lines.map { Array($0.bytes) } == [Array("abcd".utf8), [], Array("abc".utf8)])
            #expect(lines.map(\.skippedLength) == [nil, 5, nil])
        }
    }

    @Test("A file that opens but cannot be read is an error naming it, not a crash")
    func unreadableFile() throws {
        try withTemporaryFolder("folder") { folder in
            let source = InputFiles(paths: [folder.path], options: InputOptions(format: .jsonl))
            #expect {
                _ = try source.next(10)
            } throws: { error in
                "\(error)" == "cannot read \(folder.path): it is a folder"
            }
        }
    }

    @Test("Lines before a file that cannot be opened or read are handed out first, then its error")
    func linesBeforeAFailingFile() throws {
        try withTemporaryFolder("before") { folder in
            let file = folder.appendingPathComponent("five.jsonl")
            try "1\n2\n3\n4\n5\n".write(to: file, atomically: true, encoding: .utf8)
            let absent = folder.appendingPathComponent("absent.jsonl").path
            for (failing, message) in [
                (folder.path, "cannot read \(folder.path): it is a folder"), (absent, "cannot read \(absent): No such file or directory"),
            ] {
                let source = InputFiles(paths: [file.path, failing, file.path], options: InputOptions(format: .jsonl))
                let lines = try source.next(10)
                #expect(lines.map { String(decoding: $0.bytes, as: UTF8.self) } == ["1", "2", "3", "4", "5"])
                #expect(lines.allSatisfy { $0.file == file.path })
                #expect {
                    _ = try source.next(10)
                } throws: { error in
                    "\(error)".contains(message)
                }
            }
        }
    }
}
