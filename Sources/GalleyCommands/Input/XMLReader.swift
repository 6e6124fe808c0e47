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
    private var stack: [Element] = []
    private var recordLine = 0
    private var recordSize = 0
    /// Set when the file cannot give records (no record name for its root).
    private var stopReason: String?
    private var sawRoot = false

    /// An element being read.
    private struct Element {
        var name: String
        var attributes: [(String, String)]
        var children: [Element] = []
        var text: [UInt8] = []
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
        recordSize += name.utf8.count + attributes.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        stack.append(Element(name: name, attributes: recordSize > maximumLength ? [] : attributes))
    }

    private func endElement() {
        guard let element = stack.popLast() else { return }
        if stack.isEmpty {
            ordinal += 1
            let content: InputRecord.Content = recordSize > maximumLength ? .tooLong(recordSize, limit: maximumLength) : .object(object(for: element, isRecord: true))
            ready.append(InputRecord(file: input.name, number: recordLine, ordinal: ordinal, content: content))
        } else if recordSize <= maximumLength {
            stack[stack.count - 1].children.append(element)
        }
    }

    private func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !stack.isEmpty else { return }
        recordSize += bytes.count
        if recordSize <= maximumLength { stack[stack.count - 1].text.append(contentsOf: bytes) }
    }

    // MARK: - Elements to JSON

    private func object(for element: Element, isRecord: Bool) -> JSONObject {
        var object = JSONObject()
        for (name, value) in element.attributes { object["@" + name] = .string(value) }
        var order: [String] = []
        var groups: [String: [Element]] = [:]
        for child in element.children {
            if groups[child.name] == nil { order.append(child.name) }
            groups[child.name, default: []].append(child)
        }
        for name in order {
            let group = groups[name]!
            let isList = group.count > 1 || listNames.contains(name)
            object[name] = isList ? .array(group.map(value(of:))) : value(of: group[0])
            var attributeNames: [String] = []
            for child in group { for (attribute, _) in child.attributes where !attributeNames.contains(attribute) { attributeNames.append(attribute) } }
            for attribute in attributeNames {
                let values = group.map { child in child.attributes.first { $0.0 == attribute }.map { JSONValue.string($0.1) } ?? .null }
                object[name + "@" + attribute] = isList ? .array(values) : values[0]
            }
        }
        if isRecord {
            for name in listNames.sorted() where groups[name] == nil { object[name] = .array([]) }
        } else if !element.children.isEmpty, case let text = Self.trimmed(element.text), !text.isEmpty {
            object["#text"] = .string(text)
        }
        return object
    }

    private func value(of element: Element) -> JSONValue {
        if element.children.isEmpty { return TextValues.value(Self.trimmed(element.text)) }
        return .object(object(for: element, isRecord: false))
    }

    private static func trimmed(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - libxml2's handler

    private static func reader(_ context: UnsafeMutableRawPointer?) -> XMLReader {
        Unmanaged<XMLReader>.fromOpaque(context!).takeUnretainedValue()
    }

    private static func qualifiedName(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> String {
        let name = local.map { String(cString: $0) } ?? ""
        guard let prefix else { return name }
        return String(cString: prefix) + ":" + name
    }

    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, local, prefix, _, _, _, attributeCount, _, attributes in
            var pairs: [(String, String)] = []
            if let attributes {
                // Five pointers an attribute: its local name, prefix, URI, and its value's start and end.
                for index in 0..<Int(attributeCount) {
                    let base = index * 5
                    guard let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
                    let value = String(decoding: UnsafeBufferPointer(start: start, count: end - start), as: UTF8.self)
                    pairs.append((XMLReader.qualifiedName(attributes[base], attributes[base + 1]), value))
                }
            }
            XMLReader.reader(context).startElement(XMLReader.qualifiedName(local, prefix), attributes: pairs)
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
