// `galley render` end to end: a sheet as tall as the rows `galley heights` measures, the wide
// of its widths, in each format; bad items reported and the rest drawn.

import Foundation
import GalleyTestSupport
import Testing

@Suite("galley render")
struct RenderCommandTests {
    /// A PNG's width and height in pixels, from its header.
    static func pixelSize(ofPNG data: Data) -> (width: Int, height: Int) {
        let bytes = [UInt8](data)
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (bigEndian(16), bigEndian(20))
    }

    @Test("A PNG as wide as the widths and the gutter between, as tall as the tallest width's rows heights measures")
    func sheetSize() throws {
        try withTemporaryFolder("render") { folder in
            let sheet = folder.appendingPathComponent("sheet.png").path
            let rendered = try GalleyCommand.run(["render", "--width", "320,375", "--scale", "2", "-o", sheet], input: RowCommandTests.items)
            #expect(rendered.status == 1)
            #expect(rendered.errorLines.map { "\($0["id"]!)" } == ["bad", "<null>", "img"])
            let measured = try GalleyCommand.run(["heights", "--width", "320,375", "--scale", "2"], input: RowCommandTests.items)
            var columnHeights: [Int: Double] = [:]
            for line in measured.lines { columnHeights[line["width"] as! Int, default: 0] += line["height"] as! Double }
            let size = Self.pixelSize(ofPNG: try Data(contentsOf: URL(fileURLWithPath: sheet)))
            #expect(size.width == (320 + 16 + 375) * 2)
            #expect(size.height == Int((columnHeights.values.max()! * 2).rounded(.up)))
        }
    }

    @Test("SVG and PDF by the output's extension; --frames draws more")
    func formats() throws {
        try withTemporaryFolder("render") { folder in
            func render(_ name: String, _ extra: [String] = []) throws -> Data {
                let path = folder.appendingPathComponent(name).path
                let output = try GalleyCommand.run(
                    ["render", "--template", "subtitle", "--width", "320", "--scale", "2", "-o", path] + extra,
                    input: #"{"id": 1, "text": "Rows", "subtitle": "drawn"}"#)
                #expect(output.status == 0, "\(output.stderr)")
                return try Data(contentsOf: URL(fileURLWithPath: path))
            }
            let svg = try render("sheet.svg")
            let pdf = try render("sheet.pdf")
            #expect(String(decoding: svg.prefix(5), as: UTF8.self) == "<?xml" && String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
            let plain = try render("plain.png")
            let framed = try render("frames.png", ["--frames"])
            #expect(plain != framed && Self.pixelSize(ofPNG: plain) == Self.pixelSize(ofPNG: framed))
        }
    }

    @Test(
        "Errors: an output that is not PNG, SVG or PDF and an image folder that is not one (usage); more items than --max-items, or none drawable (no drawing)")
    func usageErrors() throws {
        try withTemporaryFolder("render") { folder in
            let jpeg = try GalleyCommand.run(["render", "-o", folder.appendingPathComponent("sheet.jpg").path], input: "")
            #expect(jpeg.status == 64 && jpeg.stderr.contains("--output must name a .png, .svg or .pdf file"))
            let many = (1...3).map { #"{"id": \#($0), "kind": "text", "text": "Row"}"# }.joined(separator: "\n")
            let capped = try GalleyCommand.run(["render", "--max-items", "2", "-o", folder.appendingPathComponent("sheet.png").path], input: many)
            #expect(capped.status == 1 && capped.stderr.contains("more than --max-items 2 items") && capped.stderr.contains("no drawing written"))
            // Every item bad: each reported, and said that nothing was drawn.
            let stale = folder.appendingPathComponent("stale.png")
            try Data("old".utf8).write(to: stale)
            let allBad = try GalleyCommand.run(["render", "-o", stale.path], input: #"{"id": 1, "kind": "nothing-like-it"}"#)
            #expect(allBad.status == 1 && allBad.errorLines.count == 1 && allBad.stderr.contains("no item could be drawn; no drawing written"))
            let noFolder = try GalleyCommand.run(
                ["render", "--images", folder.appendingPathComponent("missing").path, "-o", folder.appendingPathComponent("sheet.png").path],
                input: many)
            #expect(noFolder.status == 64 && noFolder.stderr.contains("--images") && noFolder.stderr.contains("no such folder"))
        }
    }

    @Test("Images --images cannot give, and fields most items lack, are warned of on standard error; the sheet is still drawn")
    func warnings() throws {
        try withTemporaryFolder("render") { folder in
            let images = folder.appendingPathComponent("images")
            try FileManager.default.createDirectory(at: images, withIntermediateDirectories: true)
            let items = (1...12).map { #"{"id": \#($0), "kind": "message", "text": "Row \#($0)", "imageURL": "missing-\#($0)\u001b[2J.png"}"# }
            let sheet = folder.appendingPathComponent("sheet.png").path
            let output = try GalleyCommand.run(
                ["render", "--width", "320,375", "--images", images.path, "-o", sheet], input: items.joined(separator: "\n"))
            #expect(output.status == 0, "\(output.stderr)")
            let warnings = output.stderr.split(separator: "\n").map(String.init)
            // The input's names quoted as JSON: an escape sequence in one reaches no terminal.
            #expect(warnings.contains(#"galley render: warning: item "1", image "missing-1\u001b[2J.png": no such file in the folder; drawn as a grey box"#))
            #expect(!output.stderr.contains("\u{1B}"))
            #expect(warnings.filter { $0.contains("no such file in the folder") }.count == 10)
            #expect(warnings.contains("galley render: warning: 2 more images drawn as grey boxes"))
            #expect(warnings.contains { $0.hasPrefix("galley render: warning: field 'title' of template 'message' is missing in 100% of its 12 items") })
            #expect(FileManager.default.fileExists(atPath: sheet))
        }
    }

    @Test("Standard error that cannot be written (a full disk) loses the messages, not the run")
    func unwritableStandardError() throws {
        try withTemporaryFolder("render") { folder in
            let items = #"{"id": "bad", "kind": "nothing-like-it"}"# + "\n" + #"{"id": "good", "kind": "text", "text": "Row"}"#
            let sheet = folder.appendingPathComponent("sheet.png").path
            let rendered = try GalleyExecutable.shell("\"$GALLEY\" render -o '\(sheet)' 2>/dev/full; echo $?", input: items)
            #expect(rendered.stdout == "1\n", "\(rendered.stdout)")
            #expect(FileManager.default.fileExists(atPath: sheet))
            let heights = try GalleyExecutable.shell("\"$GALLEY\" heights --width 320 2>/dev/full; echo $?", input: items)
            #expect(heights.stdout.hasSuffix("\n1\n") && heights.stdout.contains(#""id":"good""#), "\(heights.stdout)")
        }
    }

    @Test("A PNG to standard output: a reader that goes away ends the run with 141, quietly; a full disk is an error naming the file")
    func closedAndFullOutputs() throws {
        let items = (1...40).map {
            #"{"id": \#($0), "kind": "message", "title": "Row \#($0)", "text": "A body long enough to wrap onto a second line of the row"}"#
        }
        .joined(separator: "\n")
        let run = try GalleyExecutable.shell(
            "{ \"$GALLEY\" render --width 320,375 --scale 2; echo $? > \"${TMPDIR:-/tmp}/galley-render-$$\"; } | head -c 10 > /dev/null; cat \"${TMPDIR:-/tmp}/galley-render-$$\"; rm -f \"${TMPDIR:-/tmp}/galley-render-$$\"",
            input: items)
        #expect(run.stdout == "141\n" && !run.stderr.contains("Fatal"), "\(run.stdout) \(run.stderr)")
        try withTemporaryFolder("render") { folder in
            let full = folder.appendingPathComponent("full.png").path
            try FileManager.default.createSymbolicLink(atPath: full, withDestinationPath: "/dev/full")
            let run = try GalleyCommand.run(["render", "-o", full], input: items)
            #expect(run.status == 1 && run.stderr.contains("cannot write \(full): No space left on device"), "\(run.stderr)")
        }
    }

    @Test("A sheet that grows too large stops at the item that makes it so, with drawing's error: no later item is read")
    func stopsAtTheItemPastTheSize() throws {
        // Each item a hundred lines, 2,020 points: two fit in 32,767 pixels at scale 8 (and in
        // 64 Mi pixels, 200 points wide), three do not.
        let tall = (1...100).map { "line \($0)" }.joined(separator: "\\n")
        var items = (1...10).map { #"{"id": \#($0), "kind": "text", "text": "\#(tall)"}"# }
        items.append(#"{"id": "bad", "kind": "nothing-like-it"}"#)
        try withTemporaryFolder("render") { folder in
            let sheet = folder.appendingPathComponent("sheet.png").path
            let run = try GalleyCommand.run(["render", "--width", "200", "--scale", "8", "-o", sheet], input: items.joined(separator: "\n"))
            #expect(run.status == 1)
            #expect(run.stderr.contains("a drawing of 200.0 × 6060.0 points at scale 8.0 is larger than 32767 pixels"), "\(run.stderr)")
            #expect(run.stderr.contains("no drawing written") && run.errorLines.isEmpty && !FileManager.default.fileExists(atPath: sheet))
            // In SVG, in points, all ten fit; the bad item is reported.
            let svg = try GalleyCommand.run(
                ["render", "--width", "200", "--scale", "8", "-o", folder.appendingPathComponent("sheet.svg").path], input: items.joined(separator: "\n"))
            #expect(svg.status == 1 && svg.errorLines.count == 1 && !svg.stderr.contains("no drawing written"), "\(svg.stderr)")
        }
    }

    @Test("--max-glyphs bounds the glyphs a sheet draws: a sheet past it stops at the item that takes it there; one at it is drawn")
    func maxGlyphs() throws {
        // "abcdeABCDE": ten glyphs an item.
        var items = (1...5).map { #"{"id": \#($0), "kind": "text", "text": "abcdeABCDE"}"# }
        items.append(#"{"id": "bad", "kind": "nothing-like-it"}"#)
        try withTemporaryFolder("render") { folder in
            let sheet = folder.appendingPathComponent("sheet.svg").path
            let past = try GalleyCommand.run(["render", "--width", "320", "--max-glyphs", "25", "-o", sheet], input: items.joined(separator: "\n"))
            #expect(past.status == 1 && past.errorLines.isEmpty, "\(past.stderr)")
            #expect(past.stderr.contains("galley render: a drawing of more than 25 glyphs (--max-glyphs); no drawing written"), "\(past.stderr)")
            let at = try GalleyCommand.run(
                ["render", "--width", "320", "--max-glyphs", "50", "-o", sheet], input: items.prefix(5).joined(separator: "\n"))
            #expect(at.status == 0 && FileManager.default.fileExists(atPath: sheet), "\(at.stderr)")
            let zero = try GalleyCommand.run(["render", "--max-glyphs", "0", "-o", sheet], input: items[0])
            #expect(zero.status == 64 && zero.stderr.contains("--max-glyphs must be more than 0"))
        }
    }
}
