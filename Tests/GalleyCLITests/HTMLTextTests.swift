// HTML fields reduced to text in-process: rewritten without attributes, a field gives the text
// libxml2 gives the field as it is, and a tag with a million attributes takes linear time.

import CLibXML2
import Testing

@testable import GalleyCommands

@Suite("HTML text")
struct HTMLTextTests {
    /// A fixed pseudo-random sequence, so that every run reads the same fragments.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// HTML fragments with ordinary numbers of attributes, and with what libxml2's reading of
    /// markup stumbles on: values quoted either way or not at all (with `>`, `<`, quotes and
    /// entities in them), valueless and bogus attributes, names past 100 bytes, tags broken
    /// off, comments closed every way, processing instructions, document types (at the start
    /// and misplaced), scripts and styles (with tag-like text, end tags of other names, and what
    /// closes them before their text), entities, NULs, byte order marks, nested blocks.
    private struct Fragments {
        var random: Generator

        private static let names = [
            "p", "div", "b", "i", "a", "span", "li", "ul", "ol", "br", "img", "table", "tr", "td", "h1", "pre", "title", "meta", "hr",
            "em", "P", "DIV", "Br", "x-y", "zz.q", "a1", "head", "body", "html", "noscript", "textarea", "form",
            String(repeating: "n", count: 100) + "b", String(repeating: "q", count: 99),
        ]
        private static let attributeNames = [
            "href", "class", "id", "data-x", "a:b", "_u", ".d", "HREF", "on-click", "x", String(repeating: "k", count: 100) + "z9", "http-equiv",
            "content", "charset",
        ]
        private static let words = [
            "one", "two", "Grüße", "😀", "&amp;", "&nbsp;", "&#233;", "&#x41;", "&bogus;", "& ", "&amp", "a < b", "<1", "<_x", "<:y", "<!x",
            "x > y", "&#", "&lt;p&gt;", "5<6", "\"q\"", "'s'", "=", "/", "-->", "]]>",
        ]
        private static let blanks = [" ", "\n", "\t", "\r\n", "  ", ""]

        mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
        mutating func chance(_ percent: Int) -> Bool { Int(random.next() % 100) < percent }

        mutating func value() -> String {
            pick([#""v > w 'x' <p> / = &amp; &#65;""#, #"'s "q" > < /'"#, "un/quoted", "a=b&amp;c", #""""#, "x/", "\"multi\nline\""])
        }

        mutating func attribute() -> String {
            switch random.next() % 10 {
            case 0: return pick(["\"bogus\"", "'b'", "=z", "/", "<", "1abc", "-x", "</b>", "&amp;", "?"])
            case 1: return pick(Self.attributeNames)
            default:
                let around = chance(20) ? pick([" ", "\n "]) : ""
                return pick(Self.attributeNames) + around + "=" + around + value()
            }
        }

        mutating func startTag(_ name: String) -> String {
            var tag = "<" + name
            for _ in 0..<(random.next() % 6) { tag += (chance(85) ? pick([" ", "\n", "  ", "\t"]) : "") + attribute() }
            tag += chance(10) ? pick([" /", "/", " "]) : ""
            return tag + (chance(10) ? "/>" : ">")
        }

        mutating func endTag(_ name: String) -> String {
            switch random.next() % 12 {
            case 0: return "</" + name + " junk=\"a>\">"
            case 1: return "</" + name.uppercased() + " >"
            case 2: return pick(["</ b>", "</1>", "</>", "</_x>", "</-a>", "</"])
            default: return "</" + name + ">"
            }
        }

        /// A script or style. End tags in their text name no element the fragments open, since
        /// libxml2 (not a browser, nor the rewrite) also ends them at an enclosing element's.
        mutating func raw() -> String {
            pick([
                #"<script>var a = "<p x=1>"; if (a<b && c>d) {} </zz> '</ x' </1></script>"#,
                "<style>p > a { color: red } /* <b> */</style>",
                #"<script type="text/javascript"><noscript>nos</noscript>after"#,
                "<style media='x'><body>in body",
                "<SCRIPT>x</Script >",
                "<script/>visible",
                #"<script></zz x="</script>">hidden</script >shown"#,
                "<style><frameset>f</style>",
                #"<script>a</zz><b x="</script>">c</script>"#,
                "<script>a</ script>b</script>",
            ])
        }

        mutating func other() -> String {
            switch random.next() % 16 {
            case 0:
                return pick(["<!-- c -->", "<!---->", "<!-- <p a=1 b=2> -->", "<!-- a -- b -->", "<!-- x --!>", "<!-->x-->", "<!--->y-->", "<!-- é -->"])
            case 1: return pick([#"<?xml version="1.0"?>"#, "<?php echo 1 ?>", "<? x>", "<?>", "<?x y>z>", "<?_a <b c=d>>", "<?1>", "<?é x>", "<?😀>"])
            case 2:
                return pick([
                    "<!DOCTYPE html>", #"<!doctype HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">"#,
                    #"<!DOCTYPE x SYSTEM "a>b">"#, "<!DOCTYPE>", "<!DOCTYPE q junk>more>", "<!DOCTYPE htmlSYSTEM 'a>b'>",
                ])
            case 3: return "\u{0}"
            case 4: return pick(["\u{FEFF}", "<![CDATA[ x ]]>", "<!x y>", "<>", "< p>", "<a", "<p x=\"unclosed"])
            default: return pick(Self.words)
            }
        }

        mutating func element(depth: Int) -> String {
            let name = pick(Self.names)
            var result = startTag(name)
            for _ in 0..<(random.next() % 4) { result += pick(Self.blanks) + item(depth: depth + 1) }
            return result + (chance(80) ? endTag(name) : "")
        }

        mutating func item(depth: Int) -> String {
            switch random.next() % 10 {
            case 0, 1, 2: return depth < 4 ? element(depth: depth) : pick(Self.words)
            case 3: return raw()
            case 4, 5: return other()
            default: return pick(Self.words) + pick(Self.blanks) + pick(Self.words)
            }
        }

        mutating func fragment() -> String {
            var result = ""
            if chance(20) {
                result += pick(["", " ", "\u{FEFF}", "\u{FEFF}\u{FEFF}"])
                result += pick(["<!DOCTYPE html>", "<!-- pre -->", "<?xml?>", "\n", "<? x><!DOCTYPE y>"])
            }
            for _ in 0...(random.next() % 8) { result += item(depth: 0) + pick(Self.blanks) }
            return result
        }
    }

    /// The text of `html` as libxml2 parses it, as it is.
    private static func parsedText(_ html: [UInt8]) -> String {
        html.withUnsafeBufferPointer { HTMLText.parsedText(of: $0) }
    }

    /// `html` rewritten without attributes.
    private static func stripped(_ html: [UInt8]) -> [UInt8] {
        html.withUnsafeBufferPointer { HTMLAttributeStripper.stripped($0) }
    }

    /// Whether the bound says some tag of `html` may have more than `limit` attributes.
    private static func exceeds(_ limit: Int, _ html: [UInt8]) -> Bool {
        html.withUnsafeBufferPointer { HTMLAttributeBound.exceeds(limit, in: $0) }
    }

    /// The most attributes on one element of the tree libxml2 builds from `html`.
    private static func mostAttributes(_ html: [UInt8]) -> Int {
        let options = Int32(HTML_PARSE_NOERROR.rawValue | HTML_PARSE_NOWARNING.rawValue | HTML_PARSE_NONET.rawValue)
        let parsed = html.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { htmlReadMemory($0, Int32(bytes.count), nil, "UTF-8", options) }
        }
        guard let document = parsed else { return 0 }
        defer { xmlFreeDoc(document) }
        var most = 0
        var pending = [document.pointee.children]
        while let next = pending.popLast() {
            guard let node = next else { continue }
            if node.pointee.type == XML_ELEMENT_NODE {
                var count = 0
                var attribute = node.pointee.properties
                while let current = attribute {
                    count += 1
                    attribute = current.pointee.next
                }
                most = max(most, count)
            }
            pending += [node.pointee.next, node.pointee.children]
        }
        return most
    }

    @Test("Rewritten without attributes, a fragment gives the text libxml2 gives it as it is")
    func strippedReadsAlike() {
        var fragments = Fragments(random: Generator(state: 34))
        var rewritten = 0
        for _ in 0..<3000 {
            let html = Array(fragments.fragment().utf8)
            let stripped = Self.stripped(html)
            if stripped != html { rewritten += 1 }
            let text = Self.parsedText(html)
            let strippedText = Self.parsedText(stripped)
            #expect(strippedText == text, "\(String(decoding: html, as: UTF8.self).debugDescription)")
            // No attribute is left, in libxml2's reading or the bound's.
            #expect(Self.mostAttributes(stripped) == 0)
            #expect(!Self.exceeds(0, stripped))
        }
        #expect(rewritten > 2000)
    }

    @Test("No element libxml2 reads has more attributes than the bound counts")
    func boundHolds() {
        var fragments = Fragments(random: Generator(state: 35))
        var most = 0
        for _ in 0..<3000 {
            let html = Array(fragments.fragment().utf8)
            let attributes = Self.mostAttributes(html)
            most = max(most, attributes)
            let counted = attributes == 0 || Self.exceeds(attributes - 1, html)
            #expect(counted, "\(attributes) attributes in \(String(decoding: html, as: UTF8.self).debugDescription)")
        }
        #expect(most >= 5)
        // Names are counted as libxml2 splits them, every 100 bytes; a tag's own name's bytes
        // past 100 are an attribute. Text, end tags and `<` without a letter start no tag.
        let long = String(repeating: "b", count: 100) + String(repeating: "c", count: 100) + String(repeating: "d", count: 50)
        for (html, attributes) in [("<p \(long)>", 3), ("<\(long)>", 2)] {
            #expect(Self.mostAttributes(Array(html.utf8)) == attributes)
            #expect(Self.exceeds(attributes - 1, Array(html.utf8)) && !Self.exceeds(attributes, Array(html.utf8)))
        }
        #expect(!Self.exceeds(0, Array("a b c < d e </f g h> i=1 j".utf8)))
        // A tag's attributes run past '>' in quotes, and up to the end where it is not closed.
        #expect(Self.exceeds(2, Array(#"x<y a="q>" b c"#.utf8)) && !Self.exceeds(3, Array(#"x<y a="q>" b c"#.utf8)))
    }

    @Test("A fragment whose tags may have more attributes than the limit is read without them, to the same text")
    func limit() {
        let limit = HTMLText.attributeLimit
        for count in [limit, limit + 1] {
            let html = "<p>before <a " + (0..<count).map { "a\($0)=\"v>\($0)\"" }.joined(separator: " ") + ">link</a> after</p><p>next</p>"
            #expect(Self.exceeds(limit, Array(html.utf8)) == (count > limit))
            #expect(HTMLText.text(of: html) == "before link after\nnext")
            #expect(Self.parsedText(Array(html.utf8)) == "before link after\nnext")
        }
    }

    /// How a tag's attributes are written.
    enum AttributeShape: String, CaseIterable, CustomStringConvertible {
        case distinctNames, oneName, oneNameUnquoted, distinctNamesQuotedWithGreaterThan, distinctNamesSingleQuotedWithoutBlanks
        case distinctNamesUnquotedWithSlash

        var description: String { rawValue }

        func attribute(_ index: Int) -> String {
            switch self {
            case .distinctNames: " a\(index)"
            case .oneName: " b"
            case .oneNameUnquoted: " x=1"
            case .distinctNamesQuotedWithGreaterThan: " a\(index)=\"v>\""
            case .distinctNamesSingleQuotedWithoutBlanks: "a\(index)='>'"
            case .distinctNamesUnquotedWithSlash: " a\(index)=x/"
            }
        }
    }

    @Test("A tag with a million attributes reduces in linear time", .timeLimit(.minutes(1)), arguments: AttributeShape.allCases)
    func millionAttributes(shape: AttributeShape) {
        // libxml2 compares each attribute's name with every one before it: a million distinct
        // names take it hours. Repeated names are compared with one, and are here for the text.
        let count = 1_000_000
        var html = "<div>before <a x=\"1>2\""
        html.reserveCapacity(14 * count)
        for index in 0..<count { html += shape.attribute(index) }
        html += ">link</a> after</div><!-- <b c d> --><p>end</p>"
        #expect(HTMLText.text(of: html) == "before link after\nend")
    }
}
