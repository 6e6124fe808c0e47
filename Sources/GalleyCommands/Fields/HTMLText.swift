// HTML in a text field (an RSS description) reduced to the text a reader sees.

import CLibXML2

/// The text of an HTML fragment, as parsed by libxml2's HTML parser (which decodes every named
/// and numeric entity and mends broken markup as browsers do): white space collapsed, a line
/// break for `<br>` and between blocks (paragraphs, list items, headings, table rows), and
/// nothing of scripts, styles or comments. Nothing is loaded from the network.
///
/// libxml2 reads a start tag in time quadratic in its attributes, so a fragment in which a tag
/// may have more than ``attributeLimit`` of them is first rewritten without attributes (which
/// the text does not use), by ``HTMLAttributeStripper``.
enum HTMLText {
    /// The most attributes a tag may have for a fragment to go to libxml2 as it is: up to this
    /// many, libxml2 reads a tag's bytes about as fast as text's; past it, its time per byte
    /// grows with the tag's attributes.
    static let attributeLimit = 100

    /// The text of `html`; text without markup comes back with its entities decoded.
    static func text(of html: String) -> String {
        guard html.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return collapsed(html) }
        var html = html
        return html.withUTF8 { bytes in
            guard HTMLAttributeBound.exceeds(attributeLimit, in: bytes) else { return parsedText(of: bytes) }
            return HTMLAttributeStripper.stripped(bytes).withUnsafeBufferPointer { parsedText(of: $0) }
        }
    }

    /// The text of `bytes` as libxml2 parses them, whatever their attributes.
    static func parsedText(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        _ = initialize
        let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        guard bytes.count < Int(Int32.max), let base = bytes.baseAddress,
            let document = base.withMemoryRebound(to: CChar.self, capacity: bytes.count, { htmlReadMemory($0, Int32(bytes.count), nil, "UTF-8", options) })
        else { return collapsed(String(decoding: bytes, as: UTF8.self)) }
        defer { xmlFreeDoc(document) }
        var text = TextCollector()
        var node = document.pointee.children
        while let current = node {
            text.collect(current)
            node = current.pointee.next
        }
        return text.finish()
    }

    /// libxml2's global state, set up once before threads use it.
    private static let initialize: Void = xmlInitParser()

    /// Block elements: each starts on a line of its own.
    private static let blocks: Set<String> = [
        "p", "div", "li", "ul", "ol", "dl", "dt", "dd", "h1", "h2", "h3", "h4", "h5", "h6", "tr", "table",
        "blockquote", "pre", "section", "article", "header", "footer", "figure", "figcaption", "hr", "address",
    ]
    /// Elements whose content is not text a reader sees.
    private static let hidden: Set<String> = ["script", "style", "head", "title", "template", "noscript"]

    /// Gathers text, collapsing white space and placing line breaks.
    private struct TextCollector {
        var lines: [String] = []
        var line = ""
        /// Whether a space is owed before the next word.
        var space = false
        /// Nesting depth of text guards against hostile nesting (libxml2 caps it too).
        var depth = 0

        mutating func collect(_ node: xmlNodePtr) {
            switch node.pointee.type {
            case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                if let content = node.pointee.content { add(String(cString: content)) }
            case XML_ELEMENT_NODE:
                let name = node.pointee.name.map { String(cString: $0).lowercased() } ?? ""
                if HTMLText.hidden.contains(name) || depth > 256 { return }
                if name == "br" {
                    breakLine()
                    return
                }
                let isBlock = HTMLText.blocks.contains(name)
                if isBlock { breakLine() }
                depth += 1
                var child = node.pointee.children
                while let current = child {
                    collect(current)
                    child = current.pointee.next
                }
                depth -= 1
                if isBlock { breakLine() }
            default:
                break
            }
        }

        mutating func add(_ text: String) {
            for scalar in text.unicodeScalars {
                if scalar.properties.isWhitespace && scalar != "\u{00A0}" {
                    space = !line.isEmpty
                } else {
                    if space { line.append(" ") }
                    space = false
                    line.unicodeScalars.append(scalar)
                }
            }
        }

        mutating func breakLine() {
            if !line.isEmpty { lines.append(line) }
            line = ""
            space = false
        }

        mutating func finish() -> String {
            breakLine()
            return lines.joined(separator: "\n")
        }
    }

    /// `text` with runs of white space as one space, trimmed.
    private static func collapsed(_ text: String) -> String {
        var collector = TextCollector()
        collector.add(text)
        return collector.finish()
    }
}
