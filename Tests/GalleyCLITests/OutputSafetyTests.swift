// What a run writes never lands on what it reads or on another output, whatever the files are
// called or which descriptors the caller left closed; and every command's failed write shows in
// its exit status. Spawned: the descriptors, the shell's redirections and the status are the point.

import Foundation
import GalleyTestSupport
import Testing

@Suite("Outputs kept apart from inputs and from each other")
struct OutputSafetyTests {
    static let items = (1...40).map { #"{"id": \#($0), "kind": "text", "text": "Row \#($0)"}"# }.joined(separator: "\n") + "\n"
    /// Items of which two fail, so that error lines and warnings are written.
    static let itemsWithErrors = items + #"{"id": "bad", "kind": "text", "text": {"not": "text"}}"# + "\n" + #"{"id": "worse"}"# + "\n"

    /// The rows of a database as text, or what sqlite3 said when it could not read them.
    static func rows(_ database: String) throws -> String {
        let run = try GalleyExecutable.shell(
            "sqlite3 '\(database)' 'PRAGMA integrity_check; SELECT id, width, height FROM heights ORDER BY position, width' 2>&1")
        return run.stdout
    }

    @Test("A closed standard error (or input, or output) is not taken by the database or the output: the messages meant for it go nowhere")
    func closedStandardDescriptors() throws {
        try withTemporaryFolder("closed") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try Self.itemsWithErrors.write(toFile: items, atomically: true, encoding: .utf8)
            let database = folder.appendingPathComponent("db.sqlite").path
            let first = try GalleyCommand.run(["heights", "--width", "320,375", "-o", database, items])
            #expect(first.status == 1, "\(first.stderr)")
            let stored = try Self.rows(database)
            #expect(stored.hasPrefix("ok\n") && stored.split(separator: "\n").count == 1 + 80, "\(stored.prefix(300))")
            // Resumed with standard error closed, then with all three closed: the database is intact.
            for redirections in ["2>&-", "0<&- 1>&- 2>&-"] {
                let resumed = try GalleyExecutable.shell("\"$GALLEY\" heights --width 320,375 -o '\(database)' '\(items)' \(redirections); echo $?")
                #expect(resumed.stdout == "1\n", "\(redirections): \(resumed.stdout) \(resumed.stderr)")
                #expect(try Self.rows(database) == stored, "\(redirections)")
            }
            // JSON Lines to a file with standard error closed: nothing but result lines in it.
            let output = folder.appendingPathComponent("out.jsonl").path
            let run = try GalleyExecutable.shell("\"$GALLEY\" heights --width 320 -o '\(output)' '\(items)' 2>&-; echo $?")
            #expect(run.stdout == "1\n")
            let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == 40)
            #expect(lines.allSatisfy { $0.hasPrefix(#"{"id":"#) && $0.hasSuffix("}") && !$0.contains("error") }, "\(lines.prefix(3))")
        }
    }

    @Test("The errors file, the output and the database are compared as files, not as names: other spellings and links are refused (64)")
    func sameFileByAnotherName() throws {
        try withTemporaryFolder("identity") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try Self.itemsWithErrors.write(toFile: items, atomically: true, encoding: .utf8)
            let database = folder.appendingPathComponent("f.sqlite").path
            _ = try GalleyCommand.run(["heights", "-o", database, items])
            let stored = try Self.rows(database)
            #expect(stored.split(separator: "\n").count == 41)
            _ = try GalleyExecutable.shell("cd '\(folder.path)' && mkdir sub && ln -s f.sqlite link.sqlite && ln f.sqlite hard.sqlite")
            for errors in ["./f.sqlite", "sub/../f.sqlite", "link.sqlite", "hard.sqlite", "f.sqlite-wal"] {
                let run = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights -o f.sqlite --errors \(errors) items.jsonl")
                #expect(run.status == 64, "\(errors): \(run.stderr)")
                #expect(run.stderr.contains("are the same file"), "\(errors): \(run.stderr)")
                #expect(try Self.rows(database) == stored, "\(errors)")
            }
            // JSON Lines, the file there already or not yet made.
            let output = folder.appendingPathComponent("out.jsonl").path
            try "kept\n".write(toFile: output, atomically: true, encoding: .utf8)
            for (out, errors) in [("out.jsonl", "./out.jsonl"), ("new.jsonl", "sub/../new.jsonl")] {
                let run = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights -o \(out) --errors \(errors) items.jsonl")
                #expect(run.status == 64 && run.stderr.contains("are the same file"), "\(out): \(run.stderr)")
            }
            #expect(try String(contentsOfFile: output, encoding: .utf8) == "kept\n")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("new.jsonl").path))
            // The output written as standard error too, by the shell.
            let shared = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights -o out.jsonl items.jsonl 2>>out.jsonl; echo $?")
            #expect(shared.stdout == "64\n")
            #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("kept\n"))
            // Standard output and standard error may share a file: they write in turn.
            let together = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights items.jsonl > both.log 2>&1; echo $?")
            #expect(together.stdout == "1\n")
        }
    }

    @Test("Standard input as the output is refused as a named input is (64), and the input is left whole")
    func standardInputAsOutput() throws {
        try withTemporaryFolder("stdin-output") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try Self.items.write(toFile: items, atomically: true, encoding: .utf8)
            for option in ["-o", "--errors"] {
                let run = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights \(option) ./items.jsonl < items.jsonl")
                #expect(run.status == 64 && run.stderr.contains("is standard input"), "\(option): \(run.stderr)")
                #expect(try String(contentsOfFile: items, encoding: .utf8) == Self.items)
            }
            // Standard output appended to the input it reads.
            let appended = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" heights items.jsonl >> items.jsonl")
            #expect(appended.status == 64 && appended.stderr.contains("standard output is the input items.jsonl"), "\(appended.stderr)")
            #expect(try String(contentsOfFile: items, encoding: .utf8) == Self.items)
        }
    }

    /// Runs `arguments` with standard output on a pipe whose reader is gone, and on /dev/full.
    static func failedWrites(_ arguments: [String]) throws -> (closed: GalleyExecutable.Output, full: GalleyExecutable.Output) {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        let closed = try GalleyExecutable.run(arguments, input: Data(), stdout: ends[1])
        let full = open("/dev/full", O_WRONLY)
        defer { close(full) }
        return (closed, try GalleyExecutable.run(arguments, input: Data(), stdout: full))
    }

    @Test("Every command whose output cannot be written says so: 141 when the reader has gone, 1 with the reason on a full disk")
    func failedWritesInEveryCommand() throws {
        let commands: [[String]] = [["templates"], ["templates", "--json", "three20.message"], ["fonts"], ["--help"], ["heights", "--help"]]
        for arguments in commands {
            let (closed, full) = try Self.failedWrites(arguments)
            #expect(closed.status == 141, "\(arguments): \(closed.status) \(closed.stderr)")
            #expect(full.status == 1 && full.stderr.contains("No space left on device"), "\(arguments): \(full.status) \(full.stderr)")
            #expect(!(closed.stderr + full.stderr).contains("Fatal error"), "\(arguments)")
        }
    }
}

extension OutputSafetyTests {
    @Test("galley records and measure refuse to append to an input they read, rather than reading what they write")
    func recordsAndMeasureKeepApart() throws {
        try withTemporaryFolder("records-apart") { folder in
            let items = folder.appendingPathComponent("items.jsonl").path
            try Self.items.write(toFile: items, atomically: true, encoding: .utf8)
            for command in ["records", "measure"] {
                let run = try GalleyExecutable.shell("cd '\(folder.path)' && \"$GALLEY\" \(command) items.jsonl >> items.jsonl", timeout: 60)
                #expect(!run.timedOut && run.status == 64, "\(command): \(run.stderr)")
                #expect(run.stderr.contains("standard output is the input items.jsonl"), "\(command): \(run.stderr)")
                #expect(try String(contentsOfFile: items, encoding: .utf8) == Self.items)
            }
        }
    }
}
