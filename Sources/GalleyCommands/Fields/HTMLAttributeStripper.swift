// An HTML field rewritten without attributes, for libxml2 to read in time linear in its length.

import CLibXML2

/// An HTML field rewritten so that no tag keeps its attributes, read as libxml2's HTML parser
/// (2.9) reads it: start tags, end tags, comments, processing instructions, document types and
/// the raw text of scripts and styles each end where libxml2 ends them, with its error recovery
/// (a `>` in a quoted value, unquoted values, bogus text skipped to the next blank, names of at
/// most 100 bytes, a NUL that ends the document). Each becomes its bare form: `<a href="x" b>`
/// is `<a>`, `<br/>` stays `<br/>`, a comment is `<!---->`, a processing instruction `<?pi>`,
/// a document type `<!DOCTYPE>`, and a script or style loses its text. Text is copied as it
/// is, so that libxml2 reads the same elements, in the same order, around the same text: the
/// same text a reader sees, and no attribute anywhere, however the field was read.
///
/// One reading differs: a script or style ends only at its own end tag, as in a browser, where
/// libxml2 also ends it at the end tag of an element that encloses it.
struct HTMLAttributeStripper {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    private var output: [UInt8] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        output.reserveCapacity(bytes.count)
    }

    /// `bytes` without attributes.
    static func stripped(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var stripper = HTMLAttributeStripper(bytes: bytes)
        stripper.readPrologue()
        stripper.readContent()
        return stripper.output
    }

    // MARK: - The document

    /// Blanks, comments and processing instructions before the content, with at most one document
    /// type among them; libxml2 reads no end tag or text there.
    private mutating func readPrologue() {
        // libxml2 skips a byte order mark, again when the bytes after it are one.
        for _ in 0..<2 where starts(with: [0xEF, 0xBB, 0xBF]) { copy(3) }
        var declared = false
        while position < bytes.count {
            if byte().isHTMLBlank {
                copy(1)
            } else if starts(with: "<!--") {
                readComment()
            } else if starts(with: "<?") {
                readProcessingInstruction()
            } else if !declared && startsDocumentType() {
                readDocumentType()
                declared = true
            } else {
                return
            }
        }
    }

    /// The content: each turn of the loop reads what libxml2 reads in one turn of its own.
    private mutating func readContent() {
        while position < bytes.count {
            if starts(with: "</") {
                readEndTag()
            } else if startsDocumentType() {
                // A document type in the content is read, then what follows it without looking
                // for an end tag: libxml2 reads `</` there as text.
                readDocumentType()
                readItem()
            } else {
                readItem()
            }
        }
    }

    /// A comment, a processing instruction, a start tag (and a script's or style's text), `<`
    /// as text, text, or a NUL, which ends the document.
    private mutating func readItem() {
        guard position < bytes.count else { return }
        let first = byte()
        if starts(with: "<!--") {
            readComment()
        } else if starts(with: "<?") {
            readProcessingInstruction()
        } else if first == UInt8(ascii: "<") && byte(1).isASCIILetter {
            if let raw = readStartTag() { readRawText(of: raw) }
        } else if first == UInt8(ascii: "<") {
            copy(1)
        } else if first == 0 {
            position = bytes.count
        } else {
            // Text and references: libxml2 reads them alike, here and in the copy.
            let start = position
            while position < bytes.count && bytes[position] != UInt8(ascii: "<") { position += 1 }
            output.append(contentsOf: bytes[start..<position])
        }
    }

    // MARK: - Tags

    /// The elements whose content libxml2 reads as raw text, up to an end tag.
    private enum RawElement {
        case script, style

        /// Whether a start tag named `name` (as libxml2 reads it ahead, in lowercase) closes the
        /// element before libxml2 reads its text.
        func isClosed(by name: [UInt8]) -> Bool {
            switch self {
            case .script: name == Array("noscript".utf8)
            case .style: name == Array("body".utf8) || name == Array("frameset".utf8)
            }
        }
    }

    /// A start tag at `<` and a letter, as `<name>`, `<name/>`, or `<name` where a NUL or the
    /// end stops it (and the document). The element whose text is raw, if it is one.
    private mutating func readStartTag() -> RawElement? {
        position += 1
        let name = readName()
        skipBlanks()
        while !endsTag() {
            if byte().isHTMLNameStart {
                _ = readName()
                skipBlanks()
                if byte() == UInt8(ascii: "=") {
                    position += 1
                    skipBlanks()
                    skipValue()
                }
            } else {
                // Bogus text, skipped to the next blank or the tag's end.
                while !endsTag() && !byte().isHTMLBlank { position += 1 }
            }
            skipBlanks()
        }
        output.append(UInt8(ascii: "<"))
        output.append(contentsOf: bytes[name])
        if byte() == UInt8(ascii: ">") {
            output.append(UInt8(ascii: ">"))
            position += 1
            switch lowercased(name) {
            case Array("script".utf8): return .script
            case Array("style".utf8): return .style
            default: return nil
            }
        }
        if byte() == UInt8(ascii: "/") {
            output.append(contentsOf: "/>".utf8)
            position += 2
        } else {
            position = bytes.count
        }
        return nil
    }

    /// Whether a start tag ends here: at `>`, `/>`, a NUL or the end.
    private func endsTag() -> Bool {
        let next = byte()
        return next == 0 || next == UInt8(ascii: ">") || (next == UInt8(ascii: "/") && byte(1) == UInt8(ascii: ">"))
    }

    /// An attribute's value: quoted, to its quote or a NUL; unquoted, to a blank, `>` or a NUL.
    private mutating func skipValue() {
        let quote = byte()
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            position += 1
            while position < bytes.count && bytes[position] != 0 && bytes[position] != quote { position += 1 }
            if byte() == quote { position += 1 }
        } else {
            while position < bytes.count && bytes[position] != 0 && bytes[position] != UInt8(ascii: ">") && !bytes[position].isHTMLBlank { position += 1 }
        }
    }

    /// An end tag at `</`, as `</name>`; its name, or nil where none follows (libxml2 then
    /// drops the `</`, which is copied to be dropped alike).
    @discardableResult
    private mutating func readEndTag() -> [UInt8]? {
        position += 2
        guard byte().isHTMLNameStart else {
            output.append(contentsOf: "</".utf8)
            return nil
        }
        let name = readName()
        // libxml2 skips whatever follows the name up to `>`, quotes and all.
        while byte() != 0 && byte() != UInt8(ascii: ">") { position += 1 }
        if byte() == UInt8(ascii: ">") { position += 1 }
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: bytes[name])
        output.append(UInt8(ascii: ">"))
        return lowercased(name)
    }

    /// The raw text of a script or style, left out, and the end tag that ends it.
    private mutating func readRawText(of element: RawElement) {
        let name = Array((element == .script ? "script" : "style").utf8)
        while position < bytes.count && byte() != 0 {
            if starts(with: "</") {
                // libxml2 reads every end tag in raw text; another element's is left out.
                let start = output.count
                if readEndTag() == name { return }
                output.removeSubrange(start...)
                continue
            }
            if byte() == UInt8(ascii: "<") && (byte(1).isASCIILetter || byte(1) == UInt8(ascii: "_") || byte(1) == UInt8(ascii: ":")) {
                if element.isClosed(by: nameAhead()) { return }
            }
            // The text up to `</` and a letter, or the end.
            repeat {
                position += 1
            } while position < bytes.count
                && !(bytes[position] == UInt8(ascii: "<") && byte(1) == UInt8(ascii: "/") && byte(2).isASCIILetter)
        }
        position = bytes.count
    }

    /// A tag's or an attribute's name: at most 100 name bytes.
    private mutating func readName() -> Range<Int> {
        let start = position
        while position < bytes.count && position - start < 100 && bytes[position].isHTMLNameByte { position += 1 }
        return start..<position
    }

    /// The name libxml2 reads ahead after `<`, in lowercase, to see whether the tag closes the
    /// element it is in: letters, digits, `_`, `:` and `-`, at most 100.
    private func nameAhead() -> [UInt8] {
        var name: [UInt8] = []
        var offset = 1
        while name.count < 100 {
            let next = byte(offset)
            guard next.isHTMLNameByte && next != UInt8(ascii: ".") else { break }
            name.append(next.isASCIILetter ? next | 0x20 : next)
            offset += 1
        }
        return name
    }

    // MARK: - Comments, processing instructions, document types

    /// A comment at `<!--`, as `<!---->`: it ends at `-->` or `--!>` after its first two
    /// characters (libxml2 reads those before it looks), or at the end.
    private mutating func readComment() {
        var scan = position + 4
        guard scan + 1 < bytes.count else {
            position = bytes.count
            return
        }
        var beforePrevious = bytes[scan]
        var previous = bytes[scan + 1]
        scan += 2
        while scan < bytes.count {
            let current = bytes[scan]
            let closes = beforePrevious == UInt8(ascii: "-") && previous == UInt8(ascii: "-")
            if closes && current == UInt8(ascii: ">") {
                position = scan + 1
                output.append(contentsOf: "<!---->".utf8)
                return
            }
            if closes && current == UInt8(ascii: "!") && scan + 1 < bytes.count && bytes[scan + 1] == UInt8(ascii: ">") {
                position = scan + 2
                output.append(contentsOf: "<!---->".utf8)
                return
            }
            beforePrevious = previous
            previous = current
            scan += 1
        }
        position = bytes.count
    }

    /// A processing instruction at `<?`, as `<?pi>`: it ends at the first `>`, or the end.
    /// Without a target libxml2 reads only the `<?` (which is copied) and what follows as content.
    private mutating func readProcessingInstruction() {
        position += 2
        guard readXMLName() != nil else {
            output.append(contentsOf: "<?".utf8)
            return
        }
        while position < bytes.count && bytes[position] != UInt8(ascii: ">") { position += 1 }
        guard position < bytes.count else { return }
        position += 1
        output.append(contentsOf: "<?pi>".utf8)
    }

    /// Whether a document type starts here: `<!DOCTYPE`, in any case.
    private func startsDocumentType() -> Bool {
        guard starts(with: "<!") else { return false }
        return "DOCTYPE".utf8.enumerated().allSatisfy { byte($0.offset + 2) & 0xDF == $0.element }
    }

    /// A document type at `<!DOCTYPE`, as `<!DOCTYPE>`: a name, then `SYSTEM` or `PUBLIC` and
    /// their quoted literals (where a `>` does not end it), then anything up to `>`.
    private mutating func readDocumentType() {
        position += 9
        skipBlanks()
        _ = readXMLName()
        skipBlanks()
        if startsInUppercase("SYSTEM") {
            position += 6
            skipBlanks()
            readLiteral()
        } else if startsInUppercase("PUBLIC") {
            position += 6
            skipBlanks()
            if readLiteral() {
                skipBlanks()
                readLiteral()
            }
        }
        skipBlanks()
        while byte() != 0 && byte() != UInt8(ascii: ">") { position += 1 }
        if byte() == UInt8(ascii: ">") { position += 1 }
        output.append(contentsOf: "<!DOCTYPE>".utf8)
    }

    /// Reads a quoted literal, to its quote or a NUL; whether one started here and was closed.
    @discardableResult
    private mutating func readLiteral() -> Bool {
        let quote = byte()
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { return false }
        position += 1
        while byte() != 0 && byte() != quote { position += 1 }
        guard byte() == quote else { return false }
        position += 1
        return true
    }

    /// A name as libxml2 reads a processing instruction's target or a document type's: a
    /// letter, `_` or `:`, then letters, digits, `.-_:`, combining characters and extenders (as
    /// XML 1.0 classes them, with libxml2's own tables); nil where none starts here, or (as
    /// libxml2's reading of ASCII names does) where an ASCII one runs to the end.
    private mutating func readXMLName() -> Range<Int>? {
        let start = position
        let first = byte()
        if first != 0 && first < 0x80 {
            guard first.isASCIILetter || first == UInt8(ascii: "_") || first == UInt8(ascii: ":") else { return nil }
            var end = start + 1
            while end < bytes.count && bytes[end].isHTMLNameByte { end += 1 }
            guard end < bytes.count else { return nil }
            if bytes[end] != 0 && bytes[end] < 0x80 {
                position = end
                return start..<end
            }
        }
        var end = start
        while let (character, length) = character(at: end) {
            let isLetter = xmlIsBaseChar(character) != 0 || xmlIsIdeographic(character) != 0
            let isStart = isLetter || character == UInt32(UInt8(ascii: "_")) || character == UInt32(UInt8(ascii: ":"))
            let isPart =
                isStart || xmlIsDigit(character) != 0 || xmlIsCombining(character) != 0 || xmlIsExtender(character) != 0
                || character == UInt32(UInt8(ascii: ".")) || character == UInt32(UInt8(ascii: "-"))
            guard end == start ? isStart : isPart else { break }
            end += length
        }
        guard end > start else { return nil }
        position = end
        return start..<end
    }

    /// The character whose UTF-8 starts at `offset` and its length; nil at a NUL or the end.
    private func character(at offset: Int) -> (UInt32, Int)? {
        guard offset < bytes.count, bytes[offset] != 0 else { return nil }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard offset + length <= bytes.count else { return nil }
        var value = length == 1 ? UInt32(lead) : UInt32(lead) & (0x7F >> length)
        for next in bytes[(offset + 1)..<(offset + length)] { value = value << 6 | UInt32(next & 0x3F) }
        return (value, length)
    }

    // MARK: - Bytes

    /// The byte `offset` bytes on, or 0 past the end, as libxml2 sees the end of its input.
    private func byte(_ offset: Int = 0) -> UInt8 {
        position + offset < bytes.count ? bytes[position + offset] : 0
    }

    private func starts(with prefix: some Sequence<UInt8>) -> Bool {
        prefix.enumerated().allSatisfy { position + $0.offset < bytes.count && bytes[position + $0.offset] == $0.element }
    }

    private func starts(with prefix: String) -> Bool { starts(with: prefix.utf8) }

    private func startsInUppercase(_ word: String) -> Bool {
        word.utf8.enumerated().allSatisfy { byte($0.offset) & 0xDF == $0.element && byte($0.offset).isASCIILetter }
    }

    private mutating func skipBlanks() {
        while position < bytes.count && bytes[position].isHTMLBlank { position += 1 }
    }

    private mutating func copy(_ count: Int) {
        output.append(contentsOf: bytes[position..<(position + count)])
        position += count
    }

    private func lowercased(_ range: Range<Int>) -> [UInt8] {
        bytes[range].map { $0.isASCIILetter ? $0 | 0x20 : $0 }
    }
}
