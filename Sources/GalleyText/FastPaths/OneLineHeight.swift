// The height of text limited to one line, found without shaping it when only its primary face
// can set it.

extension TextEngine {
    /// What ``ShapedParagraph/measureHeight(width:)`` gives `string` in `prepared` styles at
    /// every width, found without shaping it; nil when the text must be shaped to know.
    ///
    /// A line limited to one line has one line's box, at any width, whatever its words (see
    /// ``ShapedParagraph/heightIgnoresWidth``). When the text is plain (each unit one that
    /// ``PlainUnits`` marks plain and the primary face has, as ``PlainParagraphBuilder`` takes
    /// it), every unit is set in the primary face, so that box is the primary face's at the
    /// style's size; the ellipsis's must match it. Such text is also left to right. A batch's
    /// one-line labels (names, subjects, captions) then cost a pass over their units instead of
    /// a paragraph each, or a paragraph-cache lookup.
    package func oneLineHeight(of string: String, prepared: PreparedTextStyle) -> TextHeight? {
        let style = prepared.style
        let paragraph = prepared.paragraph
        // A text that may be over the length limit goes the shaping way, which says so (a plain
        // text's UTF-16 units are at most its UTF-8 bytes).
        guard paragraph.maximumLines == 1, paragraph.direction != .rightToLeft, prepared.isValid, !string.isEmpty,
            string.utf8.count <= limits.maximumTextLength
        else { return nil }
        guard let chain = chain(for: prepared), chain.primaryCoversPrintableASCII else { return nil }
        let primary = chain.primary
        guard Self.isPlain(string, primary: primary) else { return nil }
        let box = primary.metrics.scaled(to: style.size)
        if paragraph.lineBreakMode.isTruncating {
            guard chain.ellipsisFace.metrics.scaled(to: style.size).hasSameLineBox(as: box) else { return nil }
        }
        return LineStacker.onlyLineHeight(metrics: box, style: paragraph)
    }

    /// The fallback chain of `prepared`'s style, from those held for prepared styles when it is
    /// one of them; nil when its font is unknown.
    private func chain(for prepared: PreparedTextStyle) -> FallbackChain? {
        if let held = preparedChains.withLock({ $0.chain(for: prepared) }) { return held }
        let style = prepared.style
        guard let language = try? TextLanguage.resolve(prepared.paragraph.language),
            let chain = try? fonts.fallbackChain(for: style.font, fallbacks: style.fallbacks, language: language.tag)
        else { return nil }
        preparedChains.withLock { $0.hold(chain, for: prepared) }
        return chain
    }

    /// Whether every UTF-16 unit of `string` is plain and in `primary` (which has printable
    /// ASCII), decoded from its UTF-8 in one pass: a string's UTF-16 view goes unit by unit
    /// through a call each.
    private static func isPlain(_ string: String, primary: FontFace) -> Bool {
        string.withUTF8Bytes { bytes in
            PlainUnits.entries.withUnsafeBufferPointer { entries in
                let limit = UInt32(entries.count)
                var index = 0
                while index < bytes.count {
                    // A scalar beyond the Basic Multilingual Plane is past the limit: never plain.
                    let (unit, length) = bytes.scalar(at: index)
                    index += length
                    guard unit < limit, entries[Int(unit)] & PlainUnits.plainBit != 0,
                        unit < 0x7F || primary.covers(unit)
                    else { return false }
                }
                return true
            }
        }
    }
}
