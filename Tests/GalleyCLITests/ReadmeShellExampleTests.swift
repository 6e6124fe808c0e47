// The README's shell examples, run as written: each command succeeds, and the lines a block
// shows after its command are the first lines the command writes.

import CCairo
import Foundation
import GalleyTestSupport
import Testing

@Suite("README shell examples")
struct ReadmeShellExampleTests {
    static let root = PackagePaths.root

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

    /// A PNG file's size and pixels, as cairo reads them; nil when it is not one.
    static func pixels(ofPNG path: String) -> [UInt32]? {
        guard let surface = cairo_image_surface_create_from_png(path) else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface) else { return nil }
        let (width, height) = (Int(cairo_image_surface_get_width(surface)), Int(cairo_image_surface_get_height(surface)))
        let stride = Int(cairo_image_surface_get_stride(surface))
        var pixels = [UInt32(width), UInt32(height)]
        for row in 0..<height {
            for column in 0..<width { pixels.append(UnsafeRawPointer(data).load(fromByteOffset: row * stride + column * 4, as: UInt32.self)) }
        }
        return pixels
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
            // A drawing is the picture the README shows beside it (Docs/), pixel for pixel (the
            // files' bytes depend on the PNG compressor too).
            let drawings = block.commands.filter { $0.contains("galley render") }.compactMap { command in
                command.components(separatedBy: " -o ").dropFirst().first?.split(separator: " ").first.map(String.init)
            }
            for drawing in drawings {
                let made = try #require(Self.pixels(ofPNG: folder.appendingPathComponent(drawing).path), "\(drawing) is not a PNG")
                let shown = try #require(Self.pixels(ofPNG: Self.root.appendingPathComponent("Docs").appendingPathComponent(drawing).path))
                #expect(made == shown, "\(drawing) differs from Docs/\(drawing): run the README's command with -o Docs/\(drawing)")
            }
            if block.shown.isEmpty && drawings.isEmpty { #expect(!lines.isEmpty, "\(block.commands) printed nothing") }
        }
    }
}
