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
    private var listNames: XMLRecord.ListNames
    private var parser: xmlParserCtxtPtr?
    private var ready: [InputRecord] = []
    private var finished = false
    private var ordinal = 0
    /// The current record's events so far, how many of its elements are open (the record's own
    /// first), and its size.
    private var record = XMLRecord.Writer()
    private var depth = 0
    private var recordLine = 0
    private var recordSize = 0
    /// The record's name as bytes, to compare with each element's outside a record.
    private var recordNameBytes: [UInt8]?
    /// Whether the current record nests deeper than ``maximumNesting``, and how many elements
    /// deeper than that are open.
    private var tooDeep = false
    private var skippedDepth = 0
    /// The bytes an element is counted as besides its name, attributes and text.
    private static let elementCost = 64

    /// The most levels of elements in a record: each can become an object and a list in JSON,
    /// which the JSON parser reads back only to its depth limit.
    static let maximumNesting = 64
    /// The most attributes an element may have: libxml2 checks each against all before it.
    static let maximumAttributes = 1_000
    /// The most distinct names (of elements, attributes, prefixes and namespaces) a file may use:
    /// libxml2 keeps them in a table that stops growing, past which each name it reads is found
    /// in time growing with their number.
    static let maximumDistinctNames = 100_000
    /// Counts each start tag's attributes before libxml2 reads it.
    private var attributeCounter = XMLAttributeCounter()
    /// Set when the file cannot give records.
    private var stopReason: String?
    /// Set when it cannot without being told which element is a record: an error of how the
    /// input was given, not of a record.
    private var usageProblem: String?
    private var sawRoot = false

    /// Elements feeds repeat, read as lists in every item.
    static let feedListNames: Set<String> = ["category", "link", "author", "contributor", "enclosure"]

    init(_ input: ByteInput, recordName: String?, listNames: Set<String>, maximumLength: Int) {
        self.input = input
        self.recordName = recordName
        recordNameBytes = recordName.map { Array($0.utf8) }
        self.listNames = XMLRecord.ListNames(listNames)
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
            let read = block.withUnsafeMutableBufferPointer { input.read(into: $0.baseAddress!, count: $0.count) }
            if read == 0 && input.failure != nil {
                // Where reading failed the document is cut short: its failure is said, not libxml2's.
                finished = true
                break
            }
            block.withUnsafeBufferPointer { bytes in
                let tooMany = attributeCounter.firstTag(over: Self.maximumAttributes, in: UnsafeBufferPointer(rebasing: bytes[..<read]))
                guard let tooMany else {
                    bytes.withMemoryRebound(to: CChar.self) { parse($0.baseAddress!, count: read) }
                    return
                }
                // The records before the tag first (libxml2 reads no tag before its end), then
                // the file stops at the tag's line.
                if tooMany.offset > 0 { bytes.withMemoryRebound(to: CChar.self) { parse($0.baseAddress!, count: tooMany.offset) } }
                if !finished { fail(line: tooMany.line, "an element has more than \(Self.maximumAttributes) attributes") }
            }
        }
        if let usageProblem { throw InputUsageError(file: input.name, reason: usageProblem) }
        guard count < ready.count else {
            defer { ready = [] }
            return ready
        }
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
        if usageProblem == nil, stopReason == nil, xmlDictSize(parser.pointee.dict) > Self.maximumDistinctNames {
            stopReason = "the file uses more than \(Self.maximumDistinctNames) distinct names of elements and attributes"
        }
        if usageProblem != nil {
            finished = true
            input.close()
        } else if let stopReason {
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

    /// A name libxml2 hands over: its bytes, and its prefix's.
    private typealias Name = (local: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>?)

    private static func name(_ local: UnsafePointer<xmlChar>?, _ prefix: UnsafePointer<xmlChar>?) -> Name {
        func bytes(_ text: UnsafePointer<xmlChar>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: text, count: Int(xmlStrlen(text))) }
        return (local.map(bytes) ?? UnsafeBufferPointer(start: nil, count: 0), prefix.map(bytes))
    }

    private static func text(of name: Name) -> String {
        let local = String(decoding: name.local, as: UTF8.self)
        return name.prefix.map { String(decoding: $0, as: UTF8.self) + ":" + local } ?? local
    }

    /// The length of `name` written with its prefix.
    private static func length(of name: Name) -> Int { name.local.count + (name.prefix.map { $0.count + 1 } ?? 0) }

    /// Whether `name` (with its prefix) is `bytes`.
    private static func name(_ name: Name, is bytes: [UInt8]) -> Bool {
        guard let prefix = name.prefix else { return name.local.elementsEqual(bytes) }
        return prefix.count + 1 + name.local.count == bytes.count && bytes.starts(with: prefix)
            && bytes[prefix.count] == UInt8(ascii: ":") && bytes[(prefix.count + 1)...].elementsEqual(name.local)
    }

    /// An element starts; `attributes` are libxml2's, five pointers each (local name, prefix,
    /// URI, value start, value end).
    private func startElement(_ name: Name, attributes: UnsafeMutablePointer<UnsafePointer<xmlChar>?>?, count: Int) {
        if !sawRoot {
            sawRoot = true
            if recordName == nil {
                let root = Self.text(of: name)
                switch root {
                case "rss", "rdf:RDF": recordName = "item"
                case "feed": recordName = "entry"
                default:
                    usageProblem = "an XML file that is not an RSS or Atom feed needs --record NAME to say which element is a record (its root is <\(root)>)"
                    if let parser { xmlStopParser(parser) }
                    return
                }
                recordNameBytes = recordName.map { Array($0.utf8) }
                listNames = XMLRecord.ListNames(listNames.names.union(Self.feedListNames))
            }
        }
        if depth == 0 && skippedDepth == 0 {
            guard let recordNameBytes, Self.name(name, is: recordNameBytes) else { return }
            recordLine = parser.map { Int(xmlSAX2GetLineNumber($0)) } ?? 0
            recordSize = 0
        }
        // An element's own keeping counts too, so that empty elements cannot pile up unbounded.
        recordSize += Self.elementCost + Self.length(of: name)
        for index in 0..<count {
            let base = index * 5
            guard let start = attributes?[base + 3], let end = attributes?[base + 4] else { continue }
            recordSize += end - start + Self.length(of: Self.name(attributes?[base], attributes?[base + 1]))
        }
        // Past the nesting limit nothing is kept (libxml2's push parser sets no depth limit of
        // its own): the elements are only counted, so that their ends are matched.
        if depth >= Self.maximumNesting || skippedDepth > 0 {
            tooDeep = true
            skippedDepth += 1
            return
        }
        depth += 1
        guard recordSize <= maximumLength, let attributes else {
            if recordSize <= maximumLength { record.start(name: name.local, prefix: name.prefix, attributeCount: 0) }
            return
        }
        let kept = (0..<count).filter { attributes[$0 * 5 + 3] != nil && attributes[$0 * 5 + 4] != nil }
        record.start(name: name.local, prefix: name.prefix, attributeCount: kept.count)
        for index in kept {
            let base = index * 5
            let attribute = Self.name(attributes[base], attributes[base + 1])
            guard let start = attributes[base + 3], let end = attributes[base + 4] else { continue }
            record.attribute(name: attribute.local, prefix: attribute.prefix, value: UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    private func endElement() {
        if skippedDepth > 0 {
            skippedDepth -= 1
            return
        }
        guard depth > 0 else { return }
        depth -= 1
        if recordSize <= maximumLength { record.end() }
        guard depth == 0 else { return }
        ordinal += 1
        let tape = record.take()
        let content: InputRecord.Content =
            recordSize > maximumLength
            ? .tooLong(recordSize, limit: maximumLength)
            : tooDeep
                ? .invalid("the record's elements nest more than \(Self.maximumNesting) deep")
                : .xml(XMLRecord(tape: tape, listNames: listNames, maximumLength: maximumLength))
        tooDeep = false
        ready.append(InputRecord(file: input.name, number: recordLine, ordinal: ordinal, content: content))
    }

    private func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard depth > 0, skippedDepth == 0 else { return }
        recordSize += bytes.count
        if recordSize <= maximumLength { record.text(bytes) }
    }

    // MARK: - libxml2's handler

    /// Runs `body` with the reader a callback's context points to, without retaining it (the reader
    /// outlives its parser, and a retain and release on every event would cost much of reading).
    private static func withReader(_ context: UnsafeMutableRawPointer?, _ body: (XMLReader) -> Void) {
        Unmanaged<XMLReader>.fromOpaque(context!)._withUnsafeGuaranteedRef(body)
    }

    private static var handler: xmlSAXHandler {
        var handler = xmlSAXHandler()
        handler.initialized = XML_SAX2_MAGIC
        handler.startElementNs = { context, local, prefix, _, _, _, attributeCount, _, attributes in
            XMLReader.withReader(context) { $0.startElement(XMLReader.name(local, prefix), attributes: attributes, count: Int(attributeCount)) }
        }
        handler.endElementNs = { context, _, _, _ in XMLReader.withReader(context) { $0.endElement() } }
        handler.characters = { context, bytes, count in
            guard let bytes, count > 0 else { return }
            XMLReader.withReader(context) { $0.characters(UnsafeBufferPointer(start: bytes, count: Int(count))) }
        }
        handler.cdataBlock = handler.characters
        // Errors are read from the parser after each block: nothing is printed.
        handler.serror = { _, _ in }
        return handler
    }
}
