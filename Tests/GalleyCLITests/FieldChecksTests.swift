// Fields that do not match and templates that cannot work: reported, not silently measured.

import Foundation
import GalleyTestSupport
import Testing

@Suite("Fields and template checks")
struct FieldChecksTests {
    /// A templates file of one kind reading `title` and `author.name`.
    static let card =
        #"{"card": {"root": {"type": "vstack", "children": [{"type": "label", "name": "t", "field": "title", "style": "tableFont"}, {"type": "label", "name": "a", "field": "author.name", "style": "font"}]}%@}}"#

    static func templates(_ folder: URL, extra: String = "") throws -> String {
        let file = folder.appendingPathComponent("card.json")
        // With a byte order mark, as files saved on Windows have.
        try Data([0xEF, 0xBB, 0xBF] + Array(card.replacingOccurrences(of: "%@", with: extra).utf8)).write(to: file)
        return file.path
    }

    @Test("A template field missing in more than half the items is a warning with its share; --strict fails those rows")
    func missingFields() throws {
        try withTemporaryFolder("missing") { folder in
            let file = try Self.templates(folder)
            // A typo: `usr.name` for `author.name` in three items of four.
            let items = (1...4).map {
                #"{"id": \#($0), "kind": "card", "title": "T\#($0)", \#($0 == 4 ? #""author": {"name": "A"}"# : #""usr": {"name": "A"}"#)}"#
            }
            .joined(separator: "\n")
            let run = try GalleyCommand.run(["heights", "--templates", file], input: items)
            #expect(run.status == 0 && run.lines.count == 4)
            #expect(run.stderr.contains("warning: field 'author.name' of template 'card' is missing in 75% of its 4 items"), "\(run.stderr)")
            #expect(!run.stderr.contains("field 'title'"))
            let strict = try GalleyCommand.run(["heights", "--templates", file, "--strict"], input: items)
            #expect(strict.status == 1 && strict.lines.map { $0["id"] as? Int } == [4])
            #expect(
                strict.errorLines.map { $0["error"] as? String }
                    == Array(repeating: "invalid item: field 'author.name' is missing, and template 'card' reads it (--strict)", count: 3))
            // Mapped, nothing is missing.
            let mapped = try GalleyCommand.run(
                ["heights", "--templates", file, "--map", "author.name=usr.name", "--strict"],
                input: items.replacingOccurrences(of: #""author": {"name": "A"}"#, with: #""usr": {"name": "A"}"#))
            #expect(mapped.status == 0 && !mapped.stderr.contains("warning"), "\(mapped.stderr)")
        }
    }

    @Test("Beside a template: fields to map, fields whose HTML is reduced, fields required")
    func templateOptions() throws {
        try withTemporaryFolder("options") { folder in
            let file = try Self.templates(
                folder, extra: #", "fields": {"title": "headline", "author.name": "by"}, "stripHTML": ["title"], "required": ["title"]"#)
            let items = [#"{"id": 1, "kind": "card", "headline": "<b>Hello</b> &amp; bye", "by": "Ann"}"#, #"{"id": 2, "kind": "card", "by": "Bo"}"#].joined(
                separator: "\n")
            let run = try GalleyCommand.run(["layout", "--templates", file], input: items)
            #expect(run.status == 1)
            #expect(run.errorLines.first?["error"] as? String == "invalid item: field 'title' is missing, and template 'card' requires it")
            // The same as the item written with the template's own names and plain text.
            let plain = try GalleyCommand.run(
                ["layout", "--templates", try Self.templates(folder)],
                input: #"{"id": 1, "kind": "card", "title": "Hello & bye", "author": {"name": "Ann"}}"#)
            #expect(run.stdout == plain.stdout && !plain.stdout.isEmpty)
            // `galley templates` reads the same file: its own members are not template nodes.
            let listed = try GalleyCommand.run(["templates", "--templates", file, "card"])
            #expect(listed.status == 0 && listed.stdout.contains("fields: title, author.name"), "\(listed.stderr)")
        }
    }

    @Test("At load time: unknown styles and metrics list the known ones; colours must parse; font families must exist")
    func loadTimeChecks() throws {
        try withTemporaryFolder("checks") { folder in
            func run(_ template: String) throws -> GalleyExecutable.Output {
                let file = folder.appendingPathComponent("t.json")
                try #"{"k": {"root": \#(template)}}"#.write(to: file, atomically: true, encoding: .utf8)
                return try GalleyCommand.run(["heights", "--templates", file.path], input: #"{"id": 1, "kind": "k", "x": "y"}"#)
            }
            let style = try run(#"{"type": "label", "name": "a", "field": "x", "style": "tableFnot"}"#)
            #expect(
                style.status == 64 && style.stderr.contains("unknown text style 'tableFnot'") && style.stderr.contains("tableFont, tableLinkFont"),
                "\(style.stderr)")
            let metric = try run(#"{"type": "inset", "insets": "cellMargn", "child": {"type": "spacer"}}"#)
            #expect(metric.status == 64 && metric.stderr.contains("unknown metric 'cellMargn'") && metric.stderr.contains("cellMargin"), "\(metric.stderr)")
            let colour = try run(##"{"type": "label", "name": "a", "field": "x", "style": {"family": "Noto Sans", "size": 12, "color": "#12345"}}"##)
            #expect(
                colour.status == 64 && colour.stderr.contains("colour '#12345' is neither #RRGGBB, #RRGGBBAA nor one of the stylesheet's colours: "),
                "\(colour.stderr)")
            let good = try run(##"{"type": "label", "name": "a", "field": "x", "style": {"family": "Noto Sans", "size": 12, "color": "#12345678"}}"##)
            #expect(good.status == 0, "\(good.stderr)")
            let family = try run(#"{"type": "label", "name": "a", "field": "x", "style": {"family": "Helvetica Neue", "size": 12}}"#)
            #expect(
                family.status == 64 && family.stderr.contains("uses the font family 'Helvetica Neue', which no registered font has; families: Noto Sans"),
                "\(family.stderr)")
        }
    }
}
