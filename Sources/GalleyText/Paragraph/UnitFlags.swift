// Per-grapheme facts the line breaker needs.

/// Flags of one break unit (a grapheme cluster) of a shaped paragraph.
struct UnitFlags: OptionSet, Sendable {
    let rawValue: UInt8
    /// Whitespace that hangs at the end of a line (its width does not count there).
    static let whitespace = UnitFlags(rawValue: 1)
    /// A line may break before this unit.
    static let breakBefore = UnitFlags(rawValue: 2)
    /// A line must break before this unit.
    static let mandatoryBreakBefore = UnitFlags(rawValue: 4)
    /// A line or paragraph separator (LF, CR, CRLF, NEL, VT, FF, U+2028, U+2029): no glyphs.
    static let lineSeparator = UnitFlags(rawValue: 8)
    /// A shaped segment (word or space) starts here: a line edge here cuts no word.
    static let segmentStart = UnitFlags(rawValue: 16)
}

enum CharacterClass {
    /// Characters that force a line break and draw nothing.
    @inline(__always)
    static func isLineSeparator(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Spaces that hang at a line's end: Unicode White_Space, except no-break spaces.
    @inline(__always)
    static func isHangingWhitespace(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x09, 0x20, 0x1680, 0x2000...0x2006, 0x2008...0x200A, 0x205F, 0x3000: true
        default: isLineSeparator(scalar)
        }
    }

    /// Characters that never decide which font a cluster uses (joiners, selectors, tags).
    @inline(__always)
    static func isDefaultIgnorable(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x00AD, 0x034F, 0x061C, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x180B...0x180F, 0x200B...0x200F,
            0x202A...0x202E, 0x2060...0x206F, 0x3164, 0xFE00...0xFE0F, 0xFEFF, 0xFFA0, 0xFFF0...0xFFF8,
            0x1BCA0...0x1BCA3, 0x1D173...0x1D17A, 0xE0000...0xE0FFF:
            true
        default: false
        }
    }
}
