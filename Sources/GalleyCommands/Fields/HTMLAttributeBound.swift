// Whether any start tag of an HTML field may have more attributes than a limit, found before
// libxml2 reads the field.

/// A bound, from above, on the attributes libxml2's HTML parser reads in one start tag of a field,
/// found in one pass over the field: libxml2 checks each attribute of a tag against every one
/// before it and adds it to the end of the tag's list, in time quadratic in their number.
///
/// Where libxml2 reads a start tag depends on all that comes before it (comments, scripts, what
/// its error recovery skips), but how it reads one, once begun at `<` and a letter, does not. So
/// the bound reads a tag from every `<` and letter, each as libxml2 would read it from there
/// (values quoted or not, names of at most 100 bytes, bogus text skipped to the next blank), and
/// counts its names, duplicates too. Readings in the same state at the same byte go on alike, so
/// they are kept as one, with the most names any of them counted: the pass is linear in the
/// field's length, and no tag libxml2 reads has more attributes than the largest count.
enum HTMLAttributeBound {
    /// Where a reading is in a tag, after the byte it read last.
    private enum State: Int, CaseIterable {
        /// After the `<`: the next byte is the name's first.
        case opened
        /// In the tag's name.
        case tagName
        /// Between attributes, after blanks.
        case between
        /// In an attribute's name.
        case attributeName
        /// After an attribute's name and blanks: `=` or the next attribute.
        case afterName
        /// After `=` and blanks, before the value.
        case afterEquals
        /// In a value quoted with `"`.
        case doubleQuoted
        /// In a value quoted with `'`.
        case singleQuoted
        /// In an unquoted value, which ends at a blank or `>`.
        case unquoted
        /// In text that is no name, skipped to the next blank or the tag's end.
        case bogus
    }

    /// libxml2 reads at most this many bytes as one name; the bytes after start another.
    private static let longestName = 100

    /// Whether some start tag in `bytes` may have more than `limit` attributes.
    static func exceeds(_ limit: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // The most names counted by the readings in each state, -1 where none is.
        var counts = [Int](repeating: -1, count: State.allCases.count)
        var next = counts
        var reading = false
        // The offset of the byte in its run of name bytes (-1 for a byte that is none): libxml2
        // splits a run into names at every 100 bytes from its start.
        var runOffset = -1
        for index in bytes.indices {
            let byte = bytes[index]
            let following: UInt8 = index + 1 < bytes.count ? bytes[index + 1] : 0
            runOffset = byte.isHTMLNameByte ? runOffset + 1 : -1
            if reading {
                reading = false
                for state in State.allCases where counts[state.rawValue] >= 0 {
                    guard let (after, added) = step(state, byte, following, runOffset) else { continue }
                    let count = counts[state.rawValue] + added
                    if count > limit { return true }
                    next[after.rawValue] = max(next[after.rawValue], count)
                    reading = true
                }
                swap(&counts, &next)
                for state in next.indices { next[state] = -1 }
            }
            if byte == UInt8(ascii: "<") && following.isASCIILetter {
                counts[State.opened.rawValue] = max(counts[State.opened.rawValue], 0)
                reading = true
            }
        }
        return false
    }

    /// The state after `byte` read in `state`, and the names it starts; nil where the tag ends.
    private static func step(_ state: State, _ byte: UInt8, _ following: UInt8, _ runOffset: Int) -> (State, Int)? {
        switch state {
        case .opened:
            return (.tagName, 0)
        case .tagName:
            return byte.isHTMLNameByte && runOffset % longestName != 0 ? (.tagName, 0) : between(byte, following)
        case .between:
            return between(byte, following)
        case .attributeName:
            return byte.isHTMLNameByte && runOffset % longestName != 0 ? (.attributeName, 0) : afterName(byte, following)
        case .afterName:
            return afterName(byte, following)
        case .afterEquals:
            if byte.isHTMLBlank { return (.afterEquals, 0) }
            if byte == UInt8(ascii: "\"") { return (.doubleQuoted, 0) }
            if byte == UInt8(ascii: "'") { return (.singleQuoted, 0) }
            return unquoted(byte, following)
        case .doubleQuoted, .singleQuoted:
            // A value ends at its quote; a NUL ends it, and the tag.
            if byte == 0 { return nil }
            let quote = state == .doubleQuoted ? UInt8(ascii: "\"") : UInt8(ascii: "'")
            return byte == quote ? (.between, 0) : (state, 0)
        case .unquoted:
            return unquoted(byte, following)
        case .bogus:
            let ends = byte == 0 || byte.isHTMLBlank || byte == UInt8(ascii: ">") || (byte == UInt8(ascii: "/") && following == UInt8(ascii: ">"))
            return ends ? between(byte, following) : (.bogus, 0)
        }
    }

    /// Between attributes: blanks are skipped, `>`, `/>` or a NUL end the tag, a name starts an
    /// attribute and anything else is bogus.
    private static func between(_ byte: UInt8, _ following: UInt8) -> (State, Int)? {
        if byte == 0 || byte == UInt8(ascii: ">") || (byte == UInt8(ascii: "/") && following == UInt8(ascii: ">")) { return nil }
        if byte.isHTMLBlank { return (.between, 0) }
        return byte.isHTMLNameStart ? (.attributeName, 1) : (.bogus, 0)
    }

    /// After a name: blanks are skipped and `=` starts the value; anything else is read as
    /// between attributes.
    private static func afterName(_ byte: UInt8, _ following: UInt8) -> (State, Int)? {
        if byte.isHTMLBlank { return (.afterName, 0) }
        if byte == UInt8(ascii: "=") { return (.afterEquals, 0) }
        return between(byte, following)
    }

    /// An unquoted value runs to a blank, `>` or a NUL, which are then read as between attributes.
    private static func unquoted(_ byte: UInt8, _ following: UInt8) -> (State, Int)? {
        byte == 0 || byte.isHTMLBlank || byte == UInt8(ascii: ">") ? between(byte, following) : (.unquoted, 0)
    }
}
