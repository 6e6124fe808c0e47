// What plain text's builder needs to know of a UTF-16 unit, read from one table.

internal import CHarfBuzz

/// Per UTF-16 unit below U+2070: its line-break class, its script, and whether it can be part of
/// plain text (see ``PlainParagraphBuilder``). One entry a unit, so that the builder's pass over
/// a text reads one table where the analysis reads four.
enum PlainUnits {
    /// The units the table covers: the alphabets of Europe, the Middle East and India, and general
    /// punctuation (see ``TextAnalysis/commonScriptLimit``). Any other unit is not plain.
    static let limit = Int(TextAnalysis.commonScriptLimit)

    /// Per unit below ``limit``: the class in bits 0 to 3, ``plainBit``, ``ownScriptBit``, and the
    /// script's index in ``scripts`` in bits 8 to 15.
    static let entries: [UInt16] = (0..<limit).map { index in
        let unit = UInt16(index)
        let lineBreakClass = SimpleLineBreaks.commonClasses[index]
        let scriptIndex = TextAnalysis.commonScripts.units[index]
        let script = TextAnalysis.commonScripts.scripts[Int(scriptIndex)]
        let isPlain =
            lineBreakClass != SimpleLineBreaks.other && TextAnalysis.isAlwaysClusterStart(unit)
            && !TextAnalysis.isPossiblyRightToLeft(unit) && !CharacterClass.isLineSeparator(UInt32(unit))
            && !CharacterClass.isDefaultIgnorable(UInt32(unit))
        let neutral = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
        return UInt16(lineBreakClass) | (isPlain ? plainBit : 0) | (neutral.contains(script) ? 0 : ownScriptBit)
            | UInt16(scriptIndex) << 8
    }

    /// The scripts that entries index (``TextAnalysis/commonScripts``).
    static var scripts: [UInt32] { TextAnalysis.commonScripts.scripts }

    /// The unit starts a grapheme of its own, cannot make text right-to-left, separates no lines,
    /// is not default ignorable, and ``SimpleLineBreaks`` handles its class.
    static let plainBit: UInt16 = 1 << 4
    /// The unit's script is not Common, Inherited or Unknown: it sets the script of the neutral
    /// units after it (see ``TextAnalysis``'s script resolution).
    static let ownScriptBit: UInt16 = 1 << 5
    static let classMask: UInt16 = 0xF
    /// The bits that tell a plain letter (class AL) with a script of its own, and which script.
    static let letterMask: UInt16 = plainBit | ownScriptBit | 0xFF00 | classMask

    @inline(__always)
    static func lineBreakClass(_ entry: UInt16) -> UInt8 { UInt8(entry & classMask) }

    @inline(__always)
    static func scriptIndex(_ entry: UInt16) -> Int { Int(entry >> 8) }

    /// The script of `unit`, a plain unit with a script of its own.
    static func script(of unit: UInt16) -> UInt32 { scripts[scriptIndex(entries[Int(unit)])] }
}
