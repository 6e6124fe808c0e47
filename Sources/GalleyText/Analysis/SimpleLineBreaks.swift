// UAX #14 line-break opportunities for the commonest text, found without an ICU iterator.

internal import CGalleyShims

/// ICU's line-break opportunities for text made only of letters, digits, spaces and common
/// punctuation, found by a pair table instead of ICU's rule engine.
///
/// Most paragraphs in Latin, Greek or Cyrillic script hold only characters of the line-break
/// classes AL and NU (letters, digits), SP (the space), and the punctuation classes QU, IS, EX,
/// OP, CP, CL, HY and IN (quotes, ".,:;", "!?", brackets, the hyphen-minus, the ellipsis).
/// Among those classes the rules of UAX #14 reduce to a table of pairs: whether a line may
/// break between two classes when they touch, and when spaces separate them (the "pair table"
/// of UAX #14 §7), plus one state for a word-initial hyphen. ICU's iterator, with its rule
/// engine and break cache, would be the largest single cost of a new paragraph; the table is
/// one lookup a unit. Any other class (slashes, dashes, marks, ideographs, line ends...) and
/// the one context the pairs cannot tell (IS before NU, which rule LB25 decides by what
/// precedes) send the text to ICU. The tests hold the table to ICU's answers on every string
/// of up to five characters drawn from these classes, in every language it is used for, and
/// on longer random strings.
enum SimpleLineBreaks {
    /// The classes handled (``CGalley_SimpleBreakOther`` and the rest, as bytes).
    static let other = UInt8(CGalley_SimpleBreakOther)
    static let space = UInt8(CGalley_SimpleBreakSpace)
    static let alphabetic = UInt8(CGalley_SimpleBreakAlphabetic)
    private static let classCount = Int(CGalley_SimpleBreakSpace) + 1
    /// Not a class of its own: a hyphen at the start of the text or after spaces, which stays
    /// with a letter after it ("-a", as ICU's rules have it; UAX #14 adopted this as LB20a),
    /// except after an opening bracket and spaces, which ICU's LB14 takes first.
    private static let wordInitialHyphen = UInt8(classCount)

    /// Whether ICU's line rules for `locale` are the root rules on the text handled here: the
    /// root locale, and languages whose tailorings (if any) leave these classes alone. ICU
    /// keywords (`@lb=strict`, say) always go to ICU, and so does everything with an ICU other
    /// than the one the table was checked against.
    static func applies(toLocale locale: String) -> Bool {
        guard CGalley_icuMajorVersion() == verifiedICUVersion else { return false }
        if locale.isEmpty { return true }
        var language = Substring(locale)
        if let end = locale.firstIndex(where: { $0 == "_" || $0 == "-" || $0 == "@" }) {
            if locale[end...].contains("@") { return false }
            language = locale[..<end]
        }
        return verifiedLanguages.contains(String(language))
    }

    /// The ICU whose rules the table reproduces: ICU 72 (Unicode 15.0), Debian 12's. Later ICUs
    /// follow Unicode versions that changed the rules around quotation marks (15.1), hyphens
    /// and numbers (16.0); the tests, which hold the table to the ICU they run with, say when
    /// it needs updating.
    static let verifiedICUVersion: Int32 = 72

    /// Languages the tests check against ICU's own iterator for that language.
    static let verifiedLanguages: Set<String> = [
        "en", "de", "fr", "es", "it", "pt", "nl", "ru", "uk", "el", "pl", "cs", "tr", "sv", "fi", "da", "nb",
    ]

    /// Marks every line-break opportunity ICU finds in `text` (the end included) with
    /// ``TextAnalysis/Boundary/lineBreak``, when the text is made only of the classes handled;
    /// returns false, and leaves `boundaries` as it was, otherwise. None of these opportunities
    /// is mandatory: the classes include no line ends.
    static func mark(_ text: UnsafeBufferPointer<UInt16>, into boundaries: UnsafeMutableBufferPointer<TextAnalysis.Boundary>) -> Bool {
        guard !text.isEmpty else { return true }
        return commonClasses.withUnsafeBufferPointer { commonClasses in
            withSteps { steps in
                func classOf(_ unit: UInt16) -> UInt8 {
                    Int(unit) < commonClasses.count ? commonClasses[Int(unit)] : rareClass(unit)
                }
                var walk = Walk()
                var index = 0
                while index < text.count {
                    guard let breaks = walk.breaksBefore(classOf(text[index]), steps: steps) else {
                        for earlier in 0..<index { boundaries[earlier].remove(.lineBreak) }
                        return false
                    }
                    if breaks { boundaries[index].insert(.lineBreak) }
                    index += 1
                    // Letters after a letter, most units, in a loop of their own: no break
                    // between them and the class stays AL (LB28), which the table says too.
                    if walk.followsLetter {
                        while index < text.count && classOf(text[index]) == alphabetic { index += 1 }
                    }
                }
                boundaries[text.count].insert(.lineBreak)
                return true
            }
        }
    }

    /// The pair table's state along a text, fed one unit's class at a time.
    struct Walk {
        /// The class of the last unit that is not a space; Other before the first.
        private var previous = SimpleLineBreaks.other
        private var afterSpaces = false

        /// Whether a line may break before the next unit, of class `lineBreakClass` (never
        /// before a space), or nil when the table does not handle the text. `steps` is the
        /// table (see ``SimpleLineBreaks/withSteps(_:)``).
        @inline(__always)
        mutating func breaksBefore(_ lineBreakClass: UInt8, steps: UnsafeBufferPointer<UInt8>) -> Bool? {
            if lineBreakClass == SimpleLineBreaks.space {
                afterSpaces = true
                return false
            }
            let step = steps[(Int(previous) * classCount + Int(lineBreakClass)) * 2 + (afterSpaces ? 1 : 0)]
            if step == declines { return nil }
            previous = step >> 1
            afterSpaces = false
            return step & breaksBeforeBit != 0
        }

        /// Whether the last unit was a letter: letters after it break nowhere and leave the
        /// walk as it is, so they need not be fed.
        var followsLetter: Bool { previous == SimpleLineBreaks.alphabetic && !afterSpaces }
    }

    /// Calls `body` with the pair table that ``Walk`` steps through.
    @inline(__always)
    static func withSteps<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        steps.withUnsafeBufferPointer(body)
    }

    /// Whether `unit`'s line-break class is AL (letters): what a safe place to cut text needs on
    /// both sides (see ``VisiblePrefix``).
    static func isAlphabetic(_ unit: UInt16) -> Bool {
        (Int(unit) < commonClasses.count ? commonClasses[Int(unit)] : rareClass(unit)) == alphabetic
    }

    private static func rareClass(_ unit: UInt16) -> UInt8 {
        // A surrogate is half a supplementary character: none of those is handled.
        unit & 0xF800 == 0xD800 ? other : UInt8(CGalley_simpleLineBreakClass(UInt32(unit)))
    }

    /// The classes of the units below U+2070 (Latin, Greek, Cyrillic and the rest of the
    /// alphabets, and general punctuation: the quotes, dashes and ellipsis), read from ICU once;
    /// a call into ICU per unit would be much of the cost of text in those scripts.
    static let commonClasses: [UInt8] = (0..<0x2070).map { UInt8(CGalley_simpleLineBreakClass(UInt32($0))) }

    /// Per (class before, class after, spaces between), one byte: whether a line may break
    /// before the second (bit 0) and the class before the next unit (the rest), or ``declines``.
    /// Other as the class before stands for the start of the text.
    private static let steps: [UInt8] = (0...classCount).flatMap { before in
        (0..<classCount).flatMap { after in
            [false, true].map { afterSpaces in step(from: before, to: after, afterSpaces: afterSpaces) }
        }
    }

    private static let breaksBeforeBit: UInt8 = 1
    private static let declines: UInt8 = 0xFF

    private static func step(from before: Int, to after: Int, afterSpaces: Bool) -> UInt8 {
        // A class not handled, or an infix separator before a digit (LB25 decides by what precedes).
        if after == CGalley_SimpleBreakOther || after == CGalley_SimpleBreakSpace
            || (before == CGalley_SimpleBreakInfix && after == CGalley_SimpleBreakNumeric && !afterSpaces)
        {
            return declines
        }
        let isWordInitialHyphen =
            after == CGalley_SimpleBreakHyphen
            && (before == CGalley_SimpleBreakOther || (afterSpaces && before != CGalley_SimpleBreakOpen))
        let next = isWordInitialHyphen ? wordInitialHyphen : UInt8(after)
        return next << 1 | (mayBreak(between: before, and: after, afterSpaces: afterSpaces) ? breaksBeforeBit : 0)
    }

    /// The rules of UAX #14 that concern the classes handled, in their order.
    private static func mayBreak(between before: Int, and after: Int, afterSpaces: Bool) -> Bool {
        switch after {
        // LB13: no break before ']', ')', '!', '?', ',', '.', ':' or ';', even after spaces.
        case CGalley_SimpleBreakClose, CGalley_SimpleBreakCloseParenthesis, CGalley_SimpleBreakExclamation,
            CGalley_SimpleBreakInfix:
            return false
        default: break
        }
        // LB2 and LB18: never at the start of the text; after leading spaces, as after any.
        if before == CGalley_SimpleBreakOther { return afterSpaces }
        // LB14: no break after an opening bracket, even after spaces.
        if before == CGalley_SimpleBreakOpen { return false }
        if afterSpaces {
            // LB15: a quotation mark and spaces stay with an opening bracket; LB18: otherwise
            // spaces end a word.
            return !(before == CGalley_SimpleBreakQuotation && after == CGalley_SimpleBreakOpen)
        }
        // LB19: quotation marks stay with both neighbours.
        if before == CGalley_SimpleBreakQuotation || after == CGalley_SimpleBreakQuotation { return false }
        // LB21, LB22: no break before a hyphen or an ellipsis.
        if after == CGalley_SimpleBreakHyphen || after == CGalley_SimpleBreakInseparable { return false }
        // LB25: a hyphen stays with a digit after it ("-5").
        if before == CGalley_SimpleBreakHyphen && after == CGalley_SimpleBreakNumeric { return false }
        if before == Int(wordInitialHyphen) {
            return after != CGalley_SimpleBreakAlphabetic
                && mayBreak(between: CGalley_SimpleBreakHyphen, and: after, afterSpaces: false)
        }
        let word: Set<Int> = [CGalley_SimpleBreakAlphabetic, CGalley_SimpleBreakNumeric]
        // LB23, LB25, LB28: letters and digits run together.
        if word.contains(before) && word.contains(after) { return false }
        // LB29: an infix separator stays with a letter after it ("e.g").
        if before == CGalley_SimpleBreakInfix && after == CGalley_SimpleBreakAlphabetic { return false }
        // LB30: letters and digits stay with a bracket after them, and a parenthesis with them after it.
        if word.contains(before) && after == CGalley_SimpleBreakOpen { return false }
        if before == CGalley_SimpleBreakCloseParenthesis && word.contains(after) { return false }
        // LB31: everywhere else.
        return true
    }
}
