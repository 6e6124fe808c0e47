// XML records in-process: objects as a plain reading of the elements says, in time linear in
// their attributes and children, and libxml2's own costs bounded.

import Foundation
import GalleyJSON
import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("XML reader")
struct XMLReaderTests {
    /// An element as a test writes it: attributes in order, then text, children, more text.
    private struct Element {
        var name: String
        var attributes: [(String, String)] = []
        var text = ""
        var children: [Element] = []
        var tail = ""

        var xml: String {
            let attributes = self.attributes.map { " \($0.0)=\"\(Self.escaped($0.1))\"" }.joined()
            return "<\(name)\(attributes)>\(Self.escaped(text))\(children.map(\.xml).joined())\(Self.escaped(tail))</\(name)>"
        }

        static func escaped(_ text: String) -> String {
            text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: "\"", with: "&quot;")
        }
    }

    /// A fixed pseudo-random sequence, so that every run reads the same records.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// The records of `xml` (a file's text) as the readers give them: objects, or errors.
    private static func records(
        _ xml: String, listNames: Set<String> = [], file: String = "records", maximumLength: Int = InputOptions.defaultMaximumRecordLength
    ) throws -> [Result<JSONObject, RecordError>] {
        try numberedRecords(xml, listNames: listNames, file: file, maximumLength: maximumLength).map(\.record)
    }

    /// ``records(_:listNames:file:)`` with the line each starts on.
    private static func numberedRecords(
        _ xml: String, listNames: Set<String> = [], file: String = "records", maximumLength: Int = InputOptions.defaultMaximumRecordLength
    ) throws -> [(
        line: Int, record: Result<JSONObject, RecordError>
    )] {
        try withTemporaryFolder(file) { folder in
            let path = folder.appendingPathComponent("\(file).xml").path
            try Data(xml.utf8).write(to: URL(fileURLWithPath: path))
            let options = InputOptions(format: .xml, maximumRecordLength: maximumLength, recordName: "item", listNames: listNames)
            let source = InputFiles(paths: [path], options: options)
            var records: [(line: Int, record: Result<JSONObject, RecordError>)] = []
            while case let chunk = try source.next(100), !chunk.isEmpty {
                records += chunk.map { record in (record.number, Result { () throws(RecordError) in try record.object() }) }
            }
            return records
        }
    }

    private static func json(_ object: JSONObject) -> String {
        var bytes: [UInt8] = []
        JSONWriter.write(.object(object), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    // MARK: - What records read as

    /// The object the reader's documentation describes for `element`, worked out plainly: the
    /// record's attributes `@name`; each child name in the order it first occurs, its value (a
    /// list when repeated or listed), then each attribute of its elements beside it as
    /// `name@attribute`, in the order first met, null for an element without it; missing lists
    /// empty in a record; an inner element's own text as `#text` beside its children.
    private static func expected(_ element: Element, isRecord: Bool, listNames: Set<String>) -> JSONObject {
        var members: [(String, JSONValue)] = []
        func set(_ name: String, _ value: JSONValue) {
            if let place = members.firstIndex(where: { $0.0 == name }) { members[place].1 = value } else { members.append((name, value)) }
        }
        func trimmed(_ text: String) -> String { text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\r\n")) }
        func value(_ child: Element) -> JSONValue {
            child.children.isEmpty
                ? TextValues.value(trimmed(child.text + child.tail)) : .object(expected(child, isRecord: false, listNames: listNames))
        }
        // XML reads each line break and tab in an attribute value as a space.
        func normalized(_ value: String) -> JSONValue { .string(String(value.map { $0 == "\n" || $0 == "\t" || $0 == "\r" ? " " : $0 })) }
        for (name, value) in element.attributes { set("@" + name, normalized(value)) }
        var names: [String] = []
        for child in element.children where !names.contains(child.name) { names.append(child.name) }
        for name in names {
            let group = element.children.filter { $0.name == name }
            let isList = group.count > 1 || listNames.contains(name)
            set(name, isList ? .array(group.map(value)) : value(group[0]))
            var attributeNames: [String] = []
            for child in group { for (attribute, _) in child.attributes where !attributeNames.contains(attribute) { attributeNames.append(attribute) } }
            for attribute in attributeNames {
                let values = group.map { child in child.attributes.first { $0.0 == attribute }.map { normalized($0.1) } ?? .null }
                set(name + "@" + attribute, isList ? .array(values) : values[0])
            }
        }
        if isRecord {
            for name in listNames.sorted() where !members.contains(where: { $0.0 == name }) { set(name, .array([])) }
        } else if !element.children.isEmpty, case let text = trimmed(element.text + element.tail), !text.isEmpty {
            set("#text", .string(text))
        }
        return JSONObject(members)
    }

    private static func randomElement(_ name: String, depth: Int, using generator: inout Generator) -> Element {
        let words = ["", " ", "plain", " two words ", "1.5", "007", "a & b", "<tag>", "\n spaced\t"]
        var element = Element(name: name)
        // A few attributes from a small pool, in any order (so that elements of one name have
        // some, all or none of the same), or many.
        let pool = (Int.random(in: 0..<8, using: &generator) == 0 ? 40 : 5)
        // (Attribute values without '&': libxml2 hands `&amp;` over as `&#38;`, a matter of its own.)
        element.attributes = (0..<pool).shuffled(using: &generator).prefix(Int.random(in: 0...pool, using: &generator))
            .map { ("a\($0)", words.randomElement(using: &generator)!.replacingOccurrences(of: "&", with: "+")) }
        element.text = words.randomElement(using: &generator)!
        if depth < 2 && Bool.random(using: &generator) {
            // Up to 24 children from up to 20 names: some repeated, sometimes more than 16 names.
            let names = (0..<Int.random(in: 1...20, using: &generator)).map { "c\($0)" }
            element.children = (0..<Int.random(in: 0...24, using: &generator)).map { _ in
                randomElement(names.randomElement(using: &generator)!, depth: depth + 1, using: &generator)
            }
            element.tail = words.randomElement(using: &generator)!
        }
        return element
    }

    @Test("Records read as a plain reading of their elements says: members, lists, attributes beside them and their order")
    func recordsAsDescribed() throws {
        var generator = Generator(state: 11)
        let listNames: Set<String> = ["c1", "c7", "missing"]
        var items: [Element] = []
        for _ in 0..<150 {
            var item = Self.randomElement("item", depth: 0, using: &generator)
            if item.children.isEmpty { item.children = [Self.randomElement("c1", depth: 1, using: &generator)] }
            items.append(item)
        }
        let records = try Self.records("<r>" + items.map(\.xml).joined(separator: "\n") + "</r>", listNames: listNames)
        #expect(records.count == items.count)
        for (item, record) in zip(items, records) {
            let object = try record.get()
            #expect(Self.json(object) == Self.json(Self.expected(item, isRecord: true, listNames: listNames)), "\(item.xml)")
        }
    }

    // MARK: - Bounded work

    @Test("Repeated elements with many attributes read in time linear in their attributes", .timeLimit(.minutes(1)))
    func manyAttributes() throws {
        // 400 <c> elements of the most attributes an element may have, each value found among
        // the names met so far by hashing, not by a search through an element's attributes.
        let limit = XMLReader.maximumAttributes
        let child = "<c " + (0..<limit).map { "a\($0)=\"\($0)\"" }.joined(separator: " ") + "/>"
        let records = try Self.records("<r><item>" + String(repeating: child, count: 400) + "</item></r>")
        let object = try #require(try records.first?.get())
        #expect(object.count == 1 + limit)
        #expect(object["c"] == .array(Array(repeating: .string(""), count: 400)))
        #expect(object["c@a0"] == .array(Array(repeating: .string("0"), count: 400)))
        #expect(object["c@a\(limit - 1)"] == .array(Array(repeating: .string("\(limit - 1)"), count: 400)))
        #expect(Array(object.keys.prefix(3)) == ["c", "c@a0", "c@a1"])
    }

    @Test("Attributes spread over elements of one name expand to at most the record length limit: past it the record is an error, the others read")
    func attributesExpansion() throws {
        // Each of n <c> elements has an attribute of its own: every one gets all n attributes, n²
        // values, from a record the reader counts as about 80n bytes.
        func record(_ count: Int) -> String { "<item>" + (0..<count).map { "<c a\($0)=\"\($0)\"/>" }.joined() + "</item>" }
        let limit = 1 << 20
        // Within the limit (a quarter of its bytes in values): read, nulls where a <c> has no such attribute.
        let fine = try Self.records("<r>\(record(500))</r>", maximumLength: limit)
        let object = try #require(try fine.first?.get())
        #expect(object.count == 501)
        #expect(object["c@a7"] == .array((0..<500).map { $0 == 7 ? .string("7") : .null }))
        // Past it, the record is an error, found before its values are made; the others read.
        let records = try Self.records("<r><item><t>one</t></item>\(record(10_000))<item><t>three</t></item></r>", maximumLength: limit)
        #expect(records.count == 3)
        #expect((try? records[0].get())?["t"] == .string("one") && (try? records[2].get())?["t"] == .string("three"))
        guard case .failure(let error) = records[1] else {
            Issue.record("no error")
            return
        }
        #expect(error.description.contains("the attributes of its <c> elements expand past the record length limit of \(limit) bytes"), "\(error)")
    }

    @Test("An element with more attributes than the limit stops its file at its line, after the records before it")
    func tooManyAttributes() throws {
        let limit = XMLReader.maximumAttributes
        func element(_ count: Int, value: String = "v") -> String {
            "<c " + (0..<count).map { "a\($0)='\(value)'" }.joined(separator: "\n") + ">x</c>"
        }
        // At the limit: read. Values with '>' and '=' in them, and long enough for the tag to
        // span several of the reader's 64 KiB blocks: counted as libxml2 reads them.
        let long = String(repeating: "=>", count: 100)
        let fine = try Self.records("<r>\n<item>\(element(limit, value: long))</item>\n</r>")
        #expect(fine.count == 1)
        #expect((try? fine[0].get())?["c@a\(limit - 1)"] == .string(long))
        for value in ["v", long] {
            let records = try Self.numberedRecords("<r>\n<item><t>one</t></item>\n<item><t>two</t>\n\(element(limit + 1, value: value))</item>\n<item/></r>")
            #expect(records.count == 2)
            #expect((try? records[0].record.get())?["t"] == .string("one"))
            #expect(records.last?.line == 4)
            guard case .failure(let error) = records.last?.record else {
                Issue.record("no error")
                continue
            }
            #expect(error.description.hasSuffix("records.xml: an element has more than \(limit) attributes"), "\(error)")
        }
        // Attribute-like text in a comment counts as a tag (errs toward refusing); in text and
        // end tags nothing counts.
        let equals = String(repeating: "=", count: 2 * limit)
        #expect(try Self.records("<r><item><t>\(equals)</t></item></r>").count == 1)
        #expect((try? Self.records("<r><item><t>\(equals)</t></item></r>")[0].get())?["t"] == .string(equals))
        let comment = try Self.records("<r><item/><!-- <c \(equals)> --><item/></r>")
        #expect(comment.count == 2)
    }

    @Test("A file with more distinct names than the limit stops with an error, after the records before them")
    func tooManyNames() throws {
        // libxml2 finds each name in a table that stops growing: past the limit every name
        // would cost more. The file stops within one of the reader's blocks past the limit.
        let limit = XMLReader.maximumDistinctNames
        let names = (0..<(limit + 20_000)).map { "<n\($0)/>" }.joined()
        let records = try Self.records("<r><item><t>one</t></item>\n<item>\(names)</item><item><t>three</t></item></r>")
        #expect(records.count == 2)
        #expect((try? records[0].get())?["t"] == .string("one"))
        guard case .failure(let error) = records.last else {
            Issue.record("no error")
            return
        }
        #expect(error.description.contains("more than \(limit) distinct names"), "\(error)")
    }

    @Test("Attributes are counted the same whatever blocks the bytes come in")
    func counterAcrossBlocks() {
        // Values with '>' and '=' in them, a declaration, a comment with a tag-like text (3, 2,
        // 2 and 3 attributes counted), end tags; cut in two at every offset.
        let text = Array(#"<?xml v="1"?><r a="1" b='>=' c="=>"><!-- <x y=1 z=2> --><i p="1" q="2" r="3"/></r>"#.utf8)
        func firstOver(_ limit: Int, _ blocks: [ArraySlice<UInt8>]) -> Int? {
            var counter = XMLAttributeCounter()
            var offset = 0
            for block in blocks {
                if let found = Array(block).withUnsafeBufferPointer({ counter.firstTag(over: limit, in: $0) }) { return offset + found.offset }
                offset += block.count
            }
            return nil
        }
        #expect(firstOver(3, [text[...]]) == nil)
        for limit in [1, 2] {
            // The `<r` tag passes the limit at its second or third '='; read whole, its `<` is found.
            let tag = 13
            #expect(text[tag...].starts(with: Array("<r ".utf8)))
            let passed = (1...text.count).first { firstOver(limit, [text[..<$0]]) != nil }! - 1
            #expect(firstOver(limit, [text[...]]) == tag)
            for cut in 0...text.count {
                // Past the limit in the second block, for a tag begun in the first: that block's start.
                let expected = cut > passed || cut <= tag ? tag : cut
                #expect(firstOver(limit, [text[..<cut], text[cut...]]) == expected, "limit \(limit), cut \(cut)")
            }
        }
    }
}
