// An installed copy of `galley` works from any folder, with the fonts installed beside it.

import Foundation
import GalleyTestSupport
import Testing

@Suite("Installing")
struct InstallTests {
    static let root = PackagePaths.root

    @Test("scripts/install.sh puts the binary and fonts under a prefix; the copy runs from an empty folder on the installed fonts")
    func installedCopy() throws {
        try withTemporaryFolder("install") { folder in
            let prefix = folder.appendingPathComponent("prefix").path
            let empty = folder.appendingPathComponent("empty").path
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
            let install = try GalleyExecutable.shell("bash '\(Self.root.path)/scripts/install.sh' --prefix '\(prefix)' --binary \"$GALLEY\"")
            #expect(install.status == 0, "\(install.stderr)")
            let fonts = try GalleyExecutable.shell("cd '\(empty)' && env -u GALLEY_FONTS '\(prefix)/bin/galley' fonts")
            #expect(fonts.status == 0, "\(fonts.stderr)")
            let files = fonts.stdout.split(separator: "\n").map { $0.split(separator: "\t")[3] }
            #expect(!files.isEmpty && files.allSatisfy { $0.hasPrefix("\(prefix)/share/galley/Fonts/") }, "\(files.prefix(3))")
            let heights = try GalleyExecutable.shell(
                "cd '\(empty)' && '\(prefix)/bin/galley' heights --template uikit.subtitle --quiet", input: #"{"id": 1, "text": "Hello"}"#)
            #expect(heights.status == 0 && heights.stdout.hasPrefix(#"{"id":1,"width":320,"height":"#), "\(heights.stderr)")
            // Fonts named elsewhere that are not there: the message says where it looked and what to set.
            let missing = try GalleyExecutable.shell("cd '\(empty)' && GALLEY_FONTS='\(empty)' '\(prefix)/bin/galley' fonts")
            #expect(missing.status == 64 && missing.stderr.contains("GALLEY_FONTS=\(empty) has no manifest.json"), "\(missing.stderr)")
        }
    }

    @Test("galley templates lists each template's fields; one prints as JSON that loads back as a templates file")
    func templatesCommand() throws {
        let list = try GalleyExecutable.run(["templates"])
        #expect(list.status == 0 && list.stdout.contains("uikit.subtitle  (built-in)\n    fields: "))
        let one = try GalleyExecutable.run(["templates", "message", "--json"])
        #expect(one.status == 0)
        try withTemporaryFolder("template") { folder in
            // A template naming fields every way a template can: a label, a format's placeholders,
            // an image's source and size, a condition, an accessory.
            let written = folder.appendingPathComponent("fields.json")
            try #"""
            {"card": {"root": {"type": "vstack", "children": [
              {"type": "label", "name": "a", "field": "title", "style": "font"},
              {"type": "label", "name": "b", "format": "{author.name} · {length|duration}", "style": "font"},
              {"type": "image", "name": "c", "source": "photo.url", "widthField": "photo.w", "heightField": "photo.h"},
              {"type": "conditional", "field": "isNew", "test": "isTrue", "child": {"type": "label", "name": "d", "field": "badge", "style": "font"}},
              {"type": "accessory", "name": "e", "accessory": "none", "field": "accessory"}]}}}
            """#.write(to: written, atomically: true, encoding: .utf8)
            let fields = try GalleyExecutable.run(["templates", "--templates", written.path, "card"])
            #expect(
                fields.stdout == "card  (\(written.path))\n    fields: title, author.name, length, photo.url, photo.w, photo.h, isNew, badge, accessory\n",
                "\(fields.stdout) \(fields.stderr)")
            let file = folder.appendingPathComponent("mine.json")
            try Data(("{\"mine\": " + one.stdout + "}").utf8).write(to: file)
            // The printed template, loaded as a file, lays out as the built-in does.
            let item = #"{"id": 1, "title": "Ada", "text": "See you at noon", "timestamp": "9:41"}"#
            let builtIn = try GalleyExecutable.run(["layout", "--template", "message", "--quiet"], input: item)
            let loaded = try GalleyExecutable.run(["layout", "--templates", file.path, "--template", "mine", "--quiet"], input: item)
            #expect(builtIn.status == 0 && loaded.stdout == builtIn.stdout, "\(loaded.stderr)")
        }
        let unknown = try GalleyExecutable.run(["templates", "nope"])
        #expect(unknown.status == 64 && unknown.stderr.contains("no template 'nope'"))
    }
}
