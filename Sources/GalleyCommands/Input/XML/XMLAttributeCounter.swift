// Counting a start tag's attributes in the bytes before libxml2 reads them.

/// Counts the attributes of each start tag in an XML file's bytes, block by block before they
/// are fed to libxml2, so that a tag with too many is refused before libxml2 reads it: libxml2
/// checks each attribute of a tag against every one before it, in time quadratic in their number.
///
/// A tag starts at `<` and a name; its attributes are the `=` signs outside quoted values, until
/// `>` outside them. Where the file is well-formed that is exactly its attributes. Any `<` starts
/// over, in a value too: libxml2 stops reading a tag at a `<` in a value (it is not well-formed),
/// so the count is never below what libxml2 reads; a tag-like text in a comment or CDATA section
/// is counted as a tag, which errs only toward refusing.
struct XMLAttributeCounter {
    private enum State {
        /// Outside start tags.
        case outside
        /// Just after a `<`.
        case opened
        /// In a start tag, outside its values.
        case inTag
        /// In a value, quoted with ``quote``.
        case inValue
    }

    private var state = State.outside
    private var quote: UInt8 = 0
    /// The attributes of the start tag being read so far.
    private var count = 0
    /// The line of the bytes read last (a line feed, a carriage return, or both, end a line, as
    /// libxml2 counts them), and of the tag being read.
    private var line = 1
    private var tagLine = 1
    private var previous: UInt8 = 0

    /// Reads `bytes`, which follow those read before. Returns the offset in `bytes` of the `<`
    /// of the first tag that has more than `limit` attributes (0 when it started in earlier
    /// bytes) and its line, or nil when none has.
    mutating func firstTag(over limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (offset: Int, line: Int)? {
        var tagStart = 0
        for (offset, byte) in bytes.enumerated() {
            defer { previous = byte }
            if byte == UInt8(ascii: "\r") || (byte == UInt8(ascii: "\n") && previous != UInt8(ascii: "\r")) { line += 1 }
            if byte == UInt8(ascii: "<") {
                state = .opened
                tagStart = offset
                tagLine = line
                continue
            }
            switch state {
            case .outside:
                break
            case .opened:
                // `</`, `<!` and `<?` open no start tag.
                let opensTag = byte != UInt8(ascii: "/") && byte != UInt8(ascii: "!") && byte != UInt8(ascii: "?")
                state = opensTag ? .inTag : .outside
                count = 0
            case .inTag:
                switch byte {
                case UInt8(ascii: ">"): state = .outside
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    quote = byte
                    state = .inValue
                case UInt8(ascii: "="):
                    count += 1
                    if count > limit { return (tagStart, tagLine) }
                default: break
                }
            case .inValue:
                if byte == quote { state = .inTag }
            }
        }
        return nil
    }
}
