// The README's shell example of `galley heights` on the RSS feed, run as written: the lines it
// shows are the first lines the command writes.

import Foundation
import Testing

@Suite("README shell example")
struct ReadmeShellExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test("The RSS example's command gives the lines the README shows")
    func rssExample() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        // The block that starts with `galley heights --templates Examples/templates.json --template post`.
        let block = try #require(
            readme.components(separatedBy: "```sh\n").dropFirst()
                .map { $0.components(separatedBy: "```")[0] }
                .first { $0.hasPrefix("galley heights --templates Examples/templates.json --template post") })
        let lines = block.split(separator: "\n").map(String.init)
        let command = lines.prefix { $0.hasSuffix("\\") } + [lines[lines.prefix { $0.hasSuffix("\\") }.count]]
        let shown = lines.dropFirst(command.count)
        let words = command.map { $0.replacingOccurrences(of: "\\", with: "") }.joined(separator: " ")
            .split(separator: " ").map(String.init).dropFirst()  // "galley"
        #expect(!shown.isEmpty)
        let output = try GalleyExecutable.run(words.map { $0.hasPrefix("Examples/") ? Self.root.appendingPathComponent($0).path : $0 })
        #expect(output.status == 0, "\(output.stderr)")
        #expect(Array(output.stdout.split(separator: "\n").prefix(shown.count).map(String.init)) == Array(shown))
    }
}
