// XML: RSS and Atom items, or any repeated element, each as an object.

import CLibXML2
import GalleyJSON

/// The records of an XML file: RSS items, Atom entries, or the elements `--record` names,
/// streamed through libxml2's push parser (the parser under Foundation's `XMLParser`, driven
/// here a block at a time so that reading stops whenever enough records are ready).
///
/// A record becomes an object: a child element with only text is a string (or a number, see
/// ``TextValues``), one with children an object; an element that occurs more than once, or is
/// named a list (`category` in feeds, `--list`), an array, empty when it is missing. An
/// element's attributes are members `name@attribute` beside it (`link@href`), the record's own
/// `@attribute`. Entities the document declares are not expanded and nothing outside the file
/// is loaded (no external entities, no network).
final class XMLReader: RecordSource {
    private let input: ByteInput
    private let maximumLength: Int
    private var recordName: String?
    private var listNames: Set<String>
    private var parser: xmlParserCtxtPtr?
    private var ready: [InputRecord] = []
    private var finished = false
    private var ordinal = 0
    /// Elements open inside the current record (the record's element first), and its size so far.
    private var stack: [XMLRecord.Element] = []
    private var recordLine = 0
    private var recordSize = 0
    /// Whether the current record nests deeper than ``maximumNesting``, and how many elements
    /// deeper than that are open.
    private var tooDeep = false
    private var skippedDepth = 0
    /// The bytes an element is counted as besides its name, attributes and text.
    private static let elementCost = 64

    /// The most levels of elements in a record: each can become an object and a list in JSON,
    /// which the JSON parser reads back only to its depth limit.
    static let maximumNesting = 64
    /// Set when the file cannot give records (no record name for its root).
    private var stopReason: String?
    private var sawRoot = false
    /// Qualified names by their local name's and prefix's pointers: libxml2 keeps every name
    /// once in its dictionary, so that the same element's name need not be decoded again.
    private var names: [NamePointers: String] = [:]

    private struct NamePointers: Hashable {
        var local: UnsafePointer<xmlChar>?
        var prefix: UnsafePointer<xmlChar>?
    }

    /// Elements feeds repeat, read as lists in every item.
    static let feedListNames: Set<String> = ["category", "link", "author", "contributor", "enclosure"]

    init(_ input: ByteInput, recordName: String?, listNames: Set<String>, maximumLength: Int) {
        self.input = input
        self.recordName = recordName
        self.listNames = listNames
        self.maximumLength = max(maximumLength, 1)
        XMLReader.initialize
    }

    deinit {
        if let parser {
            xmlFreeDoc(parser.pointee.myDoc)
            xmlFreeParserCtxt(parser)
        }
    }

    /// libxml2's global state, set up once before threads use it.
    private static let initialize: Void = xmlInitParser()

    func next(_ count: Int) throws -> [InputRecord] {
        var block = [UInt8](repeating: 0, count: 1 << 16)
        while ready.count < count && !finished {
            let read = try block.withUnsafeMutableBufferPointer { try input.read(into: $0.baseAddress!, count: $0.count) }
            block.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { parse($0.baseAddress!, count: read) }
            }
        }
        let count = min(count, ready.count)
        defer { ready.removeFirst(count) }
        return Array(ready[..<count])
    }

    /// Feeds `count` bytes to the parser (the end of the input when 0).
    private func parse(_ bytes: UnsafePointer<CChar>, count: Int) {
        if parser == nil {
            var handler = Self.handler
            parser = xmlCreatePushParserCtxt(&handler, Unmanaged.passUnretained(self).toOpaque(), nil, 0, nil)
            guard let parser else {
                fail(line: 0, "libxml2 could not make a parser")
                return
            }
            xmlCtxtUseOptions(parser, Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOCDATA.rawValue | XML_PARSE_COMPACT.rawValue))
        }
        guard let parser else { return }
        let status = xmlParseChunk(parser, count == 0 ? nil : bytes, Int32(count), count == 0 ? 1 : 0)
        if let stopReason {
            fail(line: Int(xmlSAX2GetLineNumber(parser)), stopReason)
        } else if status != 0 || parser.pointee.wellFormed == 0 {
            let error = xmlCtxtGetLastError(parser)
            let message = error?.pointee.message.map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "not well-formed"
            fail(line: Int(error?.pointee.line ?? 0), "XML error: \(message)")
        } else if count == 0 {
            finished = true
            input.close()
        }
    }

    /// Ends the file with a record that says why.
    private func fail(line: Int, _ reason: String) {
        ordinal += 1
        ready.append(InputRecord(file: input.name, number: line, ordinal: ordinal, content: .invalid("\(input.name): \(reason)")))
        finished = true
        if let parser { xmlStopParser(parser) }
        input.close()
    }

    // MARK: - The parser's events

    private func startElement(_ name: String, attributes: [(String, String)]) {
        if !sawRoot {
            sawRoot = true
            if recordName == nil {
                switch name {
                case "rss", "rdf:RDF": recordName = "item"
                case "feed": recordName = "entry"
                default:
                    stopReason = "an XML file needs --record NAME to say which element is a record (its root is <\(name)>)"
                    if let parser { xmlStopParser(parser) }
                    return
                }
                listNames.formUnion(Self.feedListNames)
            }
        }
        if stack.isEmpty {
            guard name == recordName else { return }
            recordLine = parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0
            recordSize = 0
        }
        // An element's own keeping counts too, so that empty elements cannot pile up unbounded.
        recordSize += Self.elementCost + name.utf8.count + attributes.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        // Past the nesting limit nothing is kept (libxml2's push parser sets no depth limit of
        // its own): the elements are only counted, so that their ends are matched.
        if stack.count >= Self.maximumNesting || skippedDepth > 0 {
            tooDeep = true
            skippedDepth += 1
            return
        }
        stack.append(XMLRecord.Element(name: name, attributes: recordSize > maximumLength ? [] : attributes))
    }

    private func endElement() {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            ordinal += 1
            let content: InputRecord.Content =
                recordSize > maximumLength ? .tooLong(recordSize, limit: maximumLength)
                : tooDeep ? .invalid("the record's elements nest more than \(Self.maximumNesting) deep")
                : .xml(XMLRecord(element: element, listNames: listNames))
            tooDeep = false
            ready.append(InputRecord(file: input.name, number: recordLine, ordinal: ordinal, content: content))
        } else if recordSize <= maximumLength {
            stack[stack.count - 1].children.append(element)
        }
    }

    private func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !stack.isEmpty, skippedDepth == 0 else { return }
        recordSize += bytes.count
        if recordSize <= maximumLength { stack[stack.count - 1].text.append(contentsOf: bytes) }
    }

    // MARK: - libxml2's handler

    private static func reader(_ context: UnsafeMutableRawPointer?) -> XMLReader {
        Unmanaged<XMLReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private func qualifiedName(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> String {
        let key = NamePointers(local: local, prefix: prefix)
        if let name = names[key] { return name }
        var name = local.map { String(cString: $0) } ?? ""
        if let prefix { name = String(cString: prefix) + ":" + name }
        if names.count < 65_536 { names[key] = name }
        return name
    }

    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, local, prefix, _, _, _, attributeCount, _, attributes in
            let reader = XMLReader.reader(context)
            var pairs: [(String, String)] = []
            if let attributes, attributeCount > 0 {
                // Five pointers an attribute: its local name, prefix, URI, and its value's start and end.
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
                    let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    pairs.append((reader.qualifiedName(attributes[base], attributes[base + 1]), value))
                }
            }
            reader.startElement(reader.qualifiedName(local, prefix), attributes: pairs)
        }
        handler.endElementNs = { context, _, _, _ in XMLReader.reader(context).endElement() }
        handler.characters = { context, bytes, count in
            guard let bytes, count > 0 else { return }
            XMLReader.reader(context).characters(UnsafeBufferPointer(start: bytes, count: Int(count)))
        }
        handler.cdataBlock = handler.characters
        // Errors are read from the parser after each block: nothing is printed.
        handler.serror = { _, _ in }
        return handler
    }
}

/// A record as read from XML, made into an object on the worker that lays it out (building the
/// object took as long as parsing the XML, and the reader runs alone).
struct XMLRecord: Sendable {
    /// An element: its name, attributes, child elements and text.
    struct Element: Sendable {
        var name: String
        var attributes: [(String, String)]
        var children: [Element] = []
        var text: [UInt8] = []
    }

    var element: Element
    /// Elements read as lists whether they occur zero, one or many times.
    var listNames: Set<String>

    /// The record as an object.
    func object() -> JSONObject { object(for: element, isRecord: true) }

    fileprivate func object(for element: Element, isRecord: Bool) -> JSONObject {
        var object = JSONObject(minimumCapacity: element.children.count + element.attributes.count)
        for (name, value) in element.attributes { object["@" + name] = .string(value) }
        // Children grouped by name, in the order each name first occurs.
        var order: [String] = []
        var groups: [String: [Int]] = [:]
        for (index, child) in element.children.enumerated() {
            if groups[child.name] == nil { order.append(child.name) }
            groups[child.name, default: []].append(index)
        }
        for name in order {
            let group = groups[name]!
            let first = group[0]
            let isList = group.count > 1 || listNames.contains(name)
            object[name] = isList ? .array(group.map { value(of: element.children[$0]) }) : value(of: element.children[first])
            guard group.contains(where: { !element.children[$0].attributes.isEmpty }) else { continue }
            var attributeNames: [String] = [], seen: Set<String> = []
            for index in group {
                for (attribute, _) in element.children[index].attributes where seen.insert(attribute).inserted { attributeNames.append(attribute) }
            }
            for attribute in attributeNames {
                let values = group.map { index in
                    element.children[index].attributes.first { $0.0 == attribute }.map { JSONValue.string($0.1) } ?? .null
                }
                object[name + "@" + attribute] = isList ? .array(values) : values[0]
            }
        }
        if isRecord {
            for name in listNames.sorted() where object[name] == nil { object[name] = .array([]) }
        } else if !element.children.isEmpty, case let text = Self.trimmed(element.text), !text.isEmpty {
            object["#text"] = .string(text)
        }
        return object
    }

    fileprivate func value(of element: Element) -> JSONValue {
        if element.children.isEmpty { return TextValues.value(Self.trimmed(element.text)) }
        return .object(object(for: element, isRecord: false))
    }

    /// The text without the white space XML allows around it (spaces, tabs, line breaks).
    private static func trimmed(_ bytes: [UInt8]) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
