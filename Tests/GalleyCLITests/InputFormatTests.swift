// Every input format end to end: the same items as JSON Lines, a JSON array, CSV, TSV, XML and
// property lists give the same bytes; each format's own cases (quotes, line breaks in fields, byte
// order marks, lists of zero, one or many, nesting, errors with their places).

import Foundation
import GalleyTestSupport
import Testing

@Suite("Input formats")
struct InputFormatTests {
    static let examples = PackagePaths.examples

    /// Items with what each format must quote or escape: commas, quotes, line breaks, `<` and
    /// `&`, non-Latin text, an integer id.
    static var items: [[String: Any]] {
        [
            [
                "id": 1, "kind": "message", "title": "Joe, \"the\" editor", "caption": "Re: rows",
                "text": "A first line\nand a second, longer one that wraps at 320 points for sure", "timestamp": "9:41",
            ],
            ["id": "m2", "kind": "message", "title": "Zoë <zoe@example.com>", "caption": "R&D", "text": "Короткий текст", "timestamp": "10:02"],
            ["id": 3, "kind": "message", "title": "مرحبا", "caption": "Fwd", "text": "日本語のテキストは単語の間に空白がありません。", "timestamp": "Yesterday"],
        ]
    }
    static let names = ["id", "kind", "title", "caption", "text", "timestamp"]

    static func jsonLines() throws -> String {
        try items.map { String(decoding: try JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys]), as: UTF8.self) }
            .joined(separator: "\n") + "\n"
    }

    static func csv(separator: String = ",") -> String {
        func quoted(_ value: Any) -> String {
            let text = "\(value)"
            guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\t" }) else { return text }
            return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return ([names.joined(separator: separator)] + items.map { item in names.map { quoted(item[$0]!) }.joined(separator: separator) })
            .joined(separator: "\r\n") + "\r\n"
    }

    static func xml() -> String {
        func escaped(_ value: Any) -> String {
            "\(value)".replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        }
        let records = items.map { item in
            "  <item>\n" + names.map { "    <\($0)>\(escaped(item[$0]!))</\($0)>\n" }.joined() + "  </item>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<items>\n" + records.joined() + "</items>\n"
    }

    static func heights(_ arguments: [String], input: String = "") throws -> GalleyExecutable.Output {
        try GalleyCommand.run(["heights", "--width", "320,768", "--scale", "3"] + arguments, input: input)
    }

    @Test("The same items as JSON Lines, a JSON array, CSV, TSV, XML and property lists (XML and binary) give the same bytes")
    func sameItemsSameBytes() throws {
        let reference = try Self.heights([], input: Self.jsonLines())
        #expect(reference.status == 0 && reference.lines.count == 6, "\(reference.stderr)")
        try withTemporaryFolder("formats") { folder in
            var files: [(String, [String])] = []
            func write(_ name: String, _ data: Data, _ arguments: [String] = []) throws {
                try data.write(to: folder.appendingPathComponent(name))
                files.append((folder.appendingPathComponent(name).path, arguments))
            }
            let array = try JSONSerialization.data(withJSONObject: Self.items, options: [.prettyPrinted, .sortedKeys])
            try write("items.json", array)
            try write("items.csv", Data(Self.csv().utf8))
            try write("bom.csv", Data([0xEF, 0xBB, 0xBF] + Array(Self.csv().utf8)))
            try write("items.tsv", Data(Self.csv(separator: "\t").utf8))
            try write("items.xml", Data(Self.xml().utf8), ["--record", "item"])
            for (name, format) in [("items.plist", PropertyListSerialization.PropertyListFormat.xml), ("binary.plist", .binary)] {
                try write(name, try PropertyListSerialization.data(fromPropertyList: ["Items": Self.items], format: format, options: 0))
            }
            // No extension: the first bytes tell.
            try write("array", array)
            try write("table", Data(Self.csv().utf8))
            try write("feed", Data(Self.xml().utf8), ["--record", "item"])
            for (path, arguments) in files {
                let output = try Self.heights(arguments + [path])
                #expect(output.status == 0, "\(path): \(output.stderr)")
                // Property lists carry depth, path and childCount besides: fields no template reads.
                #expect(output.stdout == reference.stdout, "\(path)")
            }
            // Standard input too, and --input-format over the extension.
            #expect(try Self.heights([], input: Self.csv()).stdout == reference.stdout)
            #expect(try Self.heights(["-", "--record", "item"], input: Self.xml()).stdout == reference.stdout)
            let renamed = folder.appendingPathComponent("data.txt")
            try Data(Self.csv().utf8).write(to: renamed)
            #expect(try Self.heights(["--input-format", "csv", renamed.path]).stdout == reference.stdout)
            // Several files in one run, in order.
            let both = try Self.heights([files[0].0, "-", files[1].0], input: Self.jsonLines())
            #expect(both.stdout == String(repeating: reference.stdout, count: 3))
        }
    }

    @Test("CSV: quotes, doubled quotes, line breaks inside quotes, CRLF, blank lines, dotted names nest, numbers read as written")
    func csvRecords() throws {
        let csv =
            "\u{FEFF}id,text,author.name,author.age,price,code\r\n"
            + "a,\"one, \"\"two\"\"\nthree\",Ann,41,1.50,007\r\n"
            + "e,big,,,92E+233720368547758071,1e999\r\n"
            + "\r\n"
            + "b,plain,,,-2e3,\r\n"
            + "c,too,few\n"
            + "d,\"unclosed\n"
        let output = try GalleyCommand.run(["records"], input: csv)
        #expect(output.status == 1)
        let lines = output.stdout.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"id":"a","text":"one, \"two\"\nthree","author":{"age":41,"name":"Ann"},"price":1.50,"code":"007"}"#,
                // Past a double's range: text, as the JSON parser would refuse it as a number (found by FuzzInputs).
                #"{"id":"e","text":"big","price":"92E+233720368547758071","code":"1e999"}"#,
                #"{"id":"b","text":"plain","price":-2e3}"#,
                #"{"id":null,"line":7,"error":"the record has 3 fields, the header 6"}"#,
                #"{"id":null,"line":8,"error":"the quoted field that opens on line 8 runs to the end of the file; reading goes on at line 9"}"#,
            ])
    }

    @Test("CSV: a header without a name or with one twice is an error naming the file; other files go on")
    func csvHeaders() throws {
        try withTemporaryFolder("headers") { folder in
            let empty = folder.appendingPathComponent("empty.csv")
            let twice = folder.appendingPathComponent("twice.csv")
            try "id,,text\n1,2,3\n".write(to: empty, atomically: true, encoding: .utf8)
            try "id,text,text\n1,2,3\n".write(to: twice, atomically: true, encoding: .utf8)
            let output = try GalleyCommand.run(["records", empty.path, "-", twice.path], input: "id,text\n7,x\n")
            #expect(output.status == 1)
            let lines = output.lines
            #expect(lines.count == 3)
            #expect((lines[0]["error"] as? String) == "\(empty.path): column 2 of the header row has no name")
            #expect(lines[1]["id"] as? Int == 7)
            #expect((lines[2]["error"] as? String) == "\(twice.path): the header row names 'text' twice")
        }
    }

    @Test("Nesting is bounded where the input makes it: dotted CSV names and XML records (found by FuzzInputs)")
    func nestingBounds() throws {
        let deepName = Array(repeating: "a", count: 33).joined(separator: ".")
        let csv = try GalleyCommand.run(["records", "--input-format", "csv"], input: "id,\(deepName)\n1,2\n")
        #expect(csv.status == 1 && (csv.lines.first?["error"] as? String)?.contains("nests more than 32 levels deep") == true)
        let fine = try GalleyCommand.run(["records", "--input-format", "csv"], input: "id,\(deepName.dropLast(2))\n1,2\n")
        #expect(fine.status == 0)
        let deep = String(repeating: "<e>", count: 70) + "x" + String(repeating: "</e>", count: 70)
        let xml = try GalleyCommand.run(["records", "--record", "item"], input: "<r><item>\(deep)</item><item><t>ok</t></item></r>")
        #expect(xml.status == 1)
        #expect((xml.lines.first?["error"] as? String)?.contains("nest more than 64 deep") == true)
        #expect(xml.lines.last?["t"] as? String == "ok")
    }

    @Test("JSON arrays: elements across lines and refills, brackets inside strings, each error at its element's line")
    func jsonArrays() throws {
        // Over two of the reader's 1 MB reads, with strings that hold brackets, commas and escaped quotes.
        var elements: [String] = []
        for index in 0..<6_000 {
            elements.append(#"{"id": \#(index),\#n "text": "a ] , [ } { \" \\ \#(String(repeating: "x", count: index % 300))"}"#)
        }
        let text = "\u{FEFF}[\n" + elements.joined(separator: ",\n") + "\n]\n"
        let output = try GalleyCommand.run(["records", "--input-format", "json"], input: text)
        #expect(output.status == 0)
        let lines = output.lines
        #expect(lines.count == 6_000)
        #expect(lines.enumerated().allSatisfy { $1["id"] as? Int == $0 })
        #expect((lines[5_999]["text"] as? String)?.hasPrefix(#"a ] , [ } { " \ "#) == true)

        let broken = try GalleyCommand.run(["records"], input: "[\n{\"id\": 1},\n 5,\n {\"id\": 2,}\n, {\"id\": 3}")
        #expect(broken.status == 1)
        let results = broken.lines
        #expect(results.map { $0["line"] as? Int } == [nil, 3, 4, nil, 5])
        #expect((results[1]["error"] as? String) == "expected a JSON object, got a number")
        #expect((results[2]["error"] as? String)?.hasPrefix("invalid JSON at") == true)
        #expect(results[3]["id"] as? Int == 3)
        #expect((results[4]["error"] as? String) == "<stdin>: the array is not closed with ']'")
    }

    @Test("XML: records named by --record, lists of zero, one or many, attributes beside their element, nesting")
    func xmlRecords() throws {
        let xml = """
            <?xml version="1.0"?>
            <response count="3">
              <book isbn="1"><title>The Stranger</title><tag>novel</tag><tag>french</tag><author><name>Albert Camus</name></author></book>
              <book isbn="2"><title lang="en">Pinball, 1973</title><tag>novel</tag></book>
              <book isbn="3"><title>Untitled &amp; &lt;new&gt;</title><note>x</note><note>y</note></book>
            </response>
            """
        let output = try GalleyCommand.run(["records", "--record", "book", "--list", "tag"], input: xml)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout.split(separator: "\n").map(String.init) == [
                #"{"@isbn":"1","title":"The Stranger","tag":["novel","french"],"author":{"name":"Albert Camus"},"id":1}"#,
                #"{"@isbn":"2","title":"Pinball, 1973","title@lang":"en","tag":["novel"],"id":2}"#,
                #"{"@isbn":"3","title":"Untitled & <new>","note":["x","y"],"tag":[],"id":3}"#,
            ])
    }

    @Test("XML: the books lists with zero, one and many books give as many records")
    func booksLists() throws {
        for (file, titles) in [("books-none.xml", [String]()), ("books-one.xml", ["The Stranger"]), ("books-many.xml", ["The Stranger", "Pinball 1973"])] {
            let output = try GalleyCommand.run(["records", "--record", "book", Self.examples.appendingPathComponent(file).path])
            #expect(output.status == 0)
            #expect(output.lines.map { $0["title"] as? String } == titles, "\(file)")
        }
    }

    @Test("RSS: the feed's items, categories as a list, HTML descriptions reduced to text with entities decoded")
    func rssFeed() throws {
        let feed = Self.examples.appendingPathComponent("three20-blog-feed.rss").path
        let output = try GalleyCommand.run(["records", "--strip-html", "description", feed])
        #expect(output.status == 0)
        let lines = output.lines
        // As many records as the feed has items, counted on its text.
        let source = try String(contentsOfFile: feed, encoding: .utf8)
        #expect(lines.count == source.components(separatedBy: "<item>").count - 1)
        #expect(lines.allSatisfy { $0["category"] is [Any] && $0["title"] is String && $0["link"] is [Any] })
        for line in lines {
            let description = try #require(line["description"] as? String)
            #expect(!description.contains("<p>") && !description.contains("&#") && !description.contains("&nbsp;"))
        }
        // The first description's first paragraph, as the feed's HTML encodes it (&#8217; a right quote).
        #expect((lines[0]["description"] as? String)?.hasPrefix("I’ve been sitting on this topic for a little while now") == true)
    }

    @Test("HTML reduction: blocks and <br> break lines, white space collapses, scripts vanish, entities decode")
    func htmlReduction() throws {
        let html = #"<p>One&nbsp;&amp;   two</p><script>var x = 1;</script><ul><li>a&#233;</li><li>b<br>c</li></ul>plain &lt;tag&gt; &hellip;"#
        let item = try JSONSerialization.data(withJSONObject: ["id": 1, "html": html, "other": "<b>kept</b>"])
        let output = try GalleyCommand.run(["records", "--strip-html", "html"], input: String(decoding: item, as: UTF8.self))
        #expect(output.lines.first?["html"] as? String == "One\u{00A0}& two\naé\nb\nc\nplain <tag> …")
        #expect(output.lines.first?["other"] as? String == "<b>kept</b>")
    }

    @Test("Property lists: nested rows flattened depth first with depth, path and child count")
    func propertyLists() throws {
        let output = try GalleyCommand.run(["records", Self.examples.appendingPathComponent("drilldown-Data.plist").path])
        #expect(output.status == 0)
        let lines = output.lines
        // Counted on the file's text: one record per Title.
        let source = try String(contentsOf: Self.examples.appendingPathComponent("drilldown-Data.plist"), encoding: .utf8)
        #expect(lines.count == source.components(separatedBy: "<key>Title</key>").count - 1)
        #expect(
            lines.prefix(4).map { "\($0["Title"]!) \($0["depth"]!) \($0["path"]!) \($0["childCount"]!)" } == [
                "Item 1 0 1 1", "Screen A 1 1.1 0", "Item 2 0 2 1", "Screen B 1 2.1 1",
            ])
        #expect(lines.map { $0["id"] as? Int } == Array(1...lines.count))
        // A child's path extends its parent's, one level deeper.
        for (parent, child) in zip(lines, lines.dropFirst()) where (parent["childCount"] as? Int ?? 0) > 0 {
            #expect("\(child["path"]!)".hasPrefix("\(parent["path"]!).") && child["depth"] as? Int == (parent["depth"] as? Int ?? 0) + 1)
        }
    }

    @Test("Binary property lists read as Foundation reads the same list written as XML: every type, UTF-16 text, nesting, children")
    func binaryPropertyLists() throws {
        try withTemporaryFolder("bplist") { folder in
            // Python's writer, not Foundation's: it shares repeated objects, as Apple's does.
            let made = try GalleyExecutable.shell(
                """
                cd '\(folder.path)' && python3 -c "import plistlib, datetime
                rows = [
                  {'id': 1, 'title': 'Grüße 😀 עברית', 'when': datetime.datetime(2020, 1, 2, 3, 4, 5), 'blob': b'\\x00\\x01\\xff', 'on': True, 'off': False,
                   'ratio': 0.1, 'neg': -5, 'big': 2**40, 'min': -2**63, 'max': 2**63 - 1, 'nested': {'z': 1, 'a': [1, 'two', 3.5, {'k': 'v'}]},
                   'empty': [], 'emptyDict': {}, 'children': [{'title': 'child', 'leaf': [{'title': 'grandchild'}]}], 'small': 255, 'short': 65535},
                  {'id': 2, 'title': 'x' * 20, 'nested': {'b': {'c': {'d': [[], [[1]]]}}}},
                  'not a dictionary',
                  {'id': 3, 'kind': 'text', 'title': 't', 'other': [{'a': 1}, {'b': 2}], 'children': [{'c': 3}]},
                ]
                for name, kind in (('binary.plist', plistlib.FMT_BINARY), ('xml.plist', plistlib.FMT_XML)):
                    open(name, 'wb').write(plistlib.dumps({'Rows': rows}, fmt=kind))"
                """)
            #expect(made.status == 0, "\(made.stderr)")
            let binary = try GalleyCommand.run(["records", "--record", "Rows", folder.appendingPathComponent("binary.plist").path])
            let xml = try GalleyCommand.run(["records", "--record", "Rows", folder.appendingPathComponent("xml.plist").path])
            #expect(binary.status == 1 && binary.lines.count == 9)
            #expect(binary.stdout == xml.stdout.replacingOccurrences(of: "xml.plist", with: "binary.plist"))
            let first = binary.stdout.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.contains(#""title":"Grüße 😀 עברית""#) && first.contains(#""when":"2020-01-02T03:04:05Z""#), "\(first)")
            #expect(first.contains(#""min":-9223372036854775808"#) && first.contains(#""blob":"AAH/""#))
            // Children in the order of their keys: "children" before "other".
            #expect(binary.lines.suffix(4).map { $0["path"] as? String } == ["4", "4.1", "4.2", "4.3"])
            #expect(binary.lines.suffix(3).map { ($0["c"] ?? $0["a"] ?? $0["b"]) as? Int } == [3, 1, 2])
        }
    }

    @Test("A dictionary that repeats a key keeps its last, in a binary list as Foundation keeps it in the same list as XML: values and lists of children")
    func repeatedPropertyListKeys() throws {
        try withTemporaryFolder("repeated-keys") { folder in
            // {"Rows": [{"t": "a", "t": "b", "k": [{"c": 1}], "k": [{"c": 2}]}, {"t": "x", "k": [{"c": 3}], "k": "text"}]},
            // by hand: no writer repeats a key.
            let made = try GalleyExecutable.shell(
                """
                cd '\(folder.path)' && python3 -c "
                objects = [b'\\xd1\\x01\\x02', b'\\x54Rows', b'\\xa2\\x03\\x0f', b'\\xd4\\x04\\x04\\x05\\x05\\x06\\x07\\x08\\x09', b'\\x51t', b'\\x51k',
                           b'\\x51a', b'\\x51b', b'\\xa1\\x0a', b'\\xa1\\x0b', b'\\xd1\\x0c\\x0d', b'\\xd1\\x0c\\x0e', b'\\x51c', b'\\x10\\x01', b'\\x10\\x02',
                           b'\\xd3\\x04\\x05\\x05\\x10\\x11\\x12', b'\\x51x', b'\\xa1\\x13', b'\\x54text', b'\\xd1\\x0c\\x14', b'\\x10\\x03']
                body, offsets = b'bplist00', []
                for item in objects:
                    offsets.append(len(body)); body += item
                table = len(body)
                body += bytes(offsets) + bytes(6) + bytes([1, 1]) + len(objects).to_bytes(8, 'big') + bytes(8) + table.to_bytes(8, 'big')
                open('binary.plist', 'wb').write(body)
                open('xml.plist', 'w').write('<?xml version=\\"1.0\\" encoding=\\"UTF-8\\"?><plist version=\\"1.0\\"><dict><key>Rows</key><array><dict>'
                  '<key>t</key><string>a</string><key>t</key><string>b</string>'
                  '<key>k</key><array><dict><key>c</key><integer>1</integer></dict></array>'
                  '<key>k</key><array><dict><key>c</key><integer>2</integer></dict></array></dict>'
                  '<dict><key>t</key><string>x</string><key>k</key><array><dict><key>c</key><integer>3</integer></dict></array>'
                  '<key>k</key><string>text</string></dict></array></dict></plist>')"
                """)
            #expect(made.status == 0, "\(made.stderr)")
            let binary = try GalleyCommand.run(["records", "--record", "Rows", folder.appendingPathComponent("binary.plist").path])
            let xml = try GalleyCommand.run(["records", "--record", "Rows", folder.appendingPathComponent("xml.plist").path])
            #expect(binary.status == 0 && xml.status == 0, "\(binary.stderr) \(xml.stderr)")
            #expect(binary.stdout == xml.stdout)
            #expect(binary.lines.map { ($0["t"] ?? $0["c"]).map { "\($0)" } } == ["b", "2", "x"])
            #expect(binary.lines.map { $0["k"] as? String } == [nil, nil, "text"])
        }
    }

    @Test("A malformed binary property list is an error naming the file, whatever byte is wrong; nothing crashes")
    func malformedBinaryPropertyLists() throws {
        try withTemporaryFolder("bad-bplist") { folder in
            let good = try PropertyListSerialization.data(fromPropertyList: ["Items": Self.items], format: .binary, options: 0)
            let path = folder.appendingPathComponent("bad.plist").path
            // Every byte of the trailer and a spread of the objects, set to 0xFF; then cut short.
            var cases = (good.count - 32..<good.count).map { index in
                var bytes = [UInt8](good)
                bytes[index] = 0xFF
                return bytes
            }
            cases += stride(from: 8, to: good.count - 32, by: max(1, (good.count - 40) / 40)).map { index in
                var bytes = [UInt8](good)
                bytes[index] = 0xFF
                return bytes
            }
            cases += [Array(good.prefix(good.count / 2)), Array(good.prefix(40)), Array("bplist00".utf8)]
            // Made by hand: [{"t": "\u{D83D}A"}], a lone surrogate in UTF-16 text, read as U+FFFD.
            let surrogate: [UInt8] =
                Array("bplist00".utf8) + [0xA1, 1, 0xD1, 2, 3, 0x51, 0x74, 0x62, 0xD8, 0x3D, 0x00, 0x41]
                + [8, 10, 13, 15] + [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 4] + [UInt8](repeating: 0, count: 8) + [0, 0, 0, 0, 0, 0, 0, 20]
            try Data(surrogate).write(to: URL(fileURLWithPath: path))
            let read = try GalleyCommand.run(["records", path])
            #expect(read.status == 0 && read.stdout.hasPrefix(#"{"t":"\#u{FFFD}A","depth":0"#), "\(read.stdout) \(read.stderr)")
            for bytes in cases {
                try Data(bytes).write(to: URL(fileURLWithPath: path))
                let run = try GalleyExecutable.run(["records", path], timeout: 60)
                #expect(!run.timedOut && (run.status == 0 || run.status == 1), "\(run.stderr)")
                for line in run.lines where line["error"] != nil {
                    #expect(line["file"] as? String == path)
                }
            }
        }
    }

    @Test("Mapping: fields from other names and nested paths, swaps read the input as it came; kind not needed with --template")
    func mapping() throws {
        let item = #"{"id": 1, "headline": "A title", "author": {"name": "Ann"}, "a": "x", "b": "y"}"#
        let output = try GalleyCommand.run(["records", "--map", "title=headline,subtitle=author.name", "--map", "a=b,b=a"], input: item)
        #expect(output.stdout == #"{"id":1,"headline":"A title","author":{"name":"Ann"},"a":"y","b":"x","title":"A title","subtitle":"Ann"}"# + "\n")
        // The same text under the template's name or mapped to it measures the same.
        let direct = try GalleyCommand.run(["heights", "--template", "uikit.subtitle"], input: #"{"id": 1, "text": "Hello", "detail": "Ann"}"#)
        let mapped = try GalleyCommand.run(
            ["heights", "--template", "uikit.subtitle", "--map", "text=headline,detail=author.name"],
            input: #"{"id": 1, "headline": "Hello", "author": {"name": "Ann"}}"#)
        #expect(direct.status == 0 && mapped.stdout == direct.stdout)
        let bad = try GalleyCommand.run(["heights", "--map", "title"], input: "")
        #expect(bad.status == 64 && bad.stderr.contains("--map takes field=path pairs"))
    }

    @Test("XML is read without expanding entities or loading anything outside the file")
    func xmlEntities() throws {
        try withTemporaryFolder("entities") { folder in
            let secret = folder.appendingPathComponent("secret.txt")
            try "SECRET".write(to: secret, atomically: true, encoding: .utf8)
            let external = """
                <?xml version="1.0"?>
                <!DOCTYPE r [<!ENTITY x SYSTEM "file://\(secret.path)">]>
                <r><item><text>a &x; b</text></item></r>
                """
            let output = try GalleyCommand.run(["records", "--record", "item"], input: external)
            #expect(!output.stdout.contains("SECRET"))
            // A billion laughs ends at once, without the billion.
            var laughs = "<?xml version=\"1.0\"?>\n<!DOCTYPE r [<!ENTITY l0 \"ha\">"
            for level in 1...9 { laughs += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
            laughs += "]>\n<r><item><text>&l9;</text></item></r>"
            let bomb = try GalleyExecutable.run(["records", "--record", "item"], input: laughs, timeout: 20)
            #expect(!bomb.timedOut && bomb.stdout.utf8.count < 10_000)
        }
    }

    @Test("XML errors: a malformed file gives its records before the error and the error's line; an unknown root asks for --record")
    func xmlErrors() throws {
        let output = try GalleyCommand.run(["records", "--record", "item"], input: "<r>\n<item><a>1</a></item>\n<item><a>2</b></item>\n</r>\n")
        #expect(output.status == 1)
        let lines = output.lines
        #expect(lines.count == 2 && lines[0]["a"] as? Int == 1)
        #expect(lines[1]["line"] as? Int == 3 && (lines[1]["error"] as? String)?.contains("XML error") == true)
        // Not a feed, and no --record: a usage error, before any work when the file is named.
        let unknown = try GalleyCommand.run(["records"], input: "<response><book/></response>")
        #expect(unknown.status == 64 && unknown.stdout.isEmpty, "\(unknown.stdout)")
        #expect(unknown.stderr.contains("cannot read <stdin>: an XML file that is not an RSS or Atom feed needs --record NAME"), "\(unknown.stderr)")
        try withTemporaryFolder("xml-record") { folder in
            let items = folder.appendingPathComponent("items.jsonl")
            let books = folder.appendingPathComponent("books.xml")
            try #"{"id": 1, "kind": "text", "text": "a"}"#.write(to: items, atomically: true, encoding: .utf8)
            try "<books><book><title>A</title></book></books>".write(to: books, atomically: true, encoding: .utf8)
            let named = try GalleyCommand.run(["heights", items.path, books.path])
            #expect(named.status == 64 && named.stdout.isEmpty, "\(named.stdout)")
            #expect(
                named.stderr
                    == "Error: cannot read \(books.path): an XML file that is not an RSS or Atom feed needs --record NAME to say which element is a record (its root is <books>)\n"
            )
        }
    }

    @Test("An unreadable input stops the run before any work, with one plain line and status 64")
    func unreadableInput() throws {
        let output = try GalleyCommand.run(["heights", "--template", "uikit.subtitle", "/nonexistent/items.csv"])
        #expect(output.status == 64)
        #expect(output.stderr == "Error: cannot read /nonexistent/items.csv: No such file or directory\n")
        #expect(output.stdout.isEmpty)
    }
}
