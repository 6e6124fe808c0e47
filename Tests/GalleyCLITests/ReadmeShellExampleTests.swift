// The README's shell examples, run as written: each command succeeds, and the lines a block
// shows after its command are the first lines the command writes.

import Foundation
import Testing

@Suite("README shell examples")
struct ReadmeShellExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// One shell block of the README: its commands (continuation lines joined) and the output
    /// lines it shows (those that start with `{`).
    struct Block {
        var commands: [String] = []
        var shown: [String] = []
    }

    /// The README's shell blocks that run `galley`, but for the two commands of its first screen
    /// (which install and run everything, tests included) and build commands.
    static func blocks() throws -> [Block] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        return readme.components(separatedBy: "```sh\n").dropFirst().compactMap { text in
            var block = Block()
            var pending = ""
            for line in text.components(separatedBy: "```")[0].split(separator: "\n").map(String.init) {
                if pending.isEmpty && line.hasPrefix("{") {
                    block.shown.append(line)
                } else if line.hasSuffix("\\") {
                    pending += line.dropLast() + " "
                } else {
                    block.commands.append(pending + line)
                    pending = ""
                }
            }
            block.commands.removeAll { $0.hasPrefix("swift build") || $0.hasPrefix("bash scripts/") }
            return block.commands.contains { $0.contains("galley ") } ? block : nil
        }
    }

    @Test("Every shell example runs in a fresh folder beside the examples, and prints what the README shows")
    func shellExamples() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count >= 3)
        for block in blocks {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-readme-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createSymbolicLink(
                at: folder.appendingPathComponent("Examples"), withDestinationURL: Self.root.appendingPathComponent("Examples"))
            // `galley` and `.build/release/galley` stand for the executable the tests built.
            let script = block.commands.map { command in
                command.replacingOccurrences(of: ".build/release/galley", with: "galley")
                    .replacingOccurrences(of: "galley ", with: "\"$GALLEY\" ")
            }
            let output = try GalleyExecutable.shell("set -e\ncd '\(folder.path)'\n" + script.joined(separator: "\n"))
            #expect(output.status == 0, "\(block.commands): \(output.stderr)")
            let lines = output.stdout.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(block.shown.count)) == block.shown, "\(block.commands)")
            if block.shown.isEmpty { #expect(!lines.isEmpty, "\(block.commands) printed nothing") }
        }
    }
}
