// How the command line is read, in process: a mistyped option is reported as one.

import ArgumentParser
import Testing

@testable import GalleyCommands

@Suite("The command line")
struct CommandLineTests {
    @Test("A mistyped option is reported as unknown, with the option meant, whether its value follows or is joined to it")
    func mistypedOption() throws {
        for arguments in [["--widht", "320", "items.json"], ["--widht=320", "items.json"], ["--width", "320", "--scael", "2", "missing.json"]] {
            for command in ["heights", "layout", "render"] {
                let error = #expect(throws: (any Error).self) { try Galley.parseAsRoot([command] + arguments) }
                let message = error.map { Galley.message(for: $0) } ?? ""
                #expect(message.hasPrefix("Unknown option '--"), "\(command) \(arguments): \(message)")
                #expect(message.contains("Did you mean '--width'?") || message.contains("Did you mean '--scale'?"), "\(command) \(arguments): \(message)")
            }
        }
    }

    @Test("Files are checked before any work, once the command line has been read")
    func filesCheckedAfterParsing() throws {
        var command = try Galley.parseAsRoot(["heights", "--width", "320", "/nonexistent/items.json"])
        #expect(throws: ExitCode(64)) { try command.run() }
    }
}
