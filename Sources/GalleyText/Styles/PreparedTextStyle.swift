// A text style and a paragraph style that many strings are shaped in, prepared once.

/// A text style and a paragraph style that many strings will be shaped in (a template label's),
/// prepared once: their part of the paragraph cache's key is hashed ahead, and a lookup with
/// the same prepared styles compares them by identity instead of field by field.
///
/// Unprepared, a lookup of a label's text in the paragraph cache hashes and compares its font,
/// sizes, features and paragraph settings on every row; prepared, it hashes and compares the
/// string alone.
package final class PreparedTextStyle: Sendable {
    package let style: TextStyle
    package let paragraph: ParagraphStyle
    /// The paragraph key's hash state after the styles (see ``ParagraphKey/hash(string:resuming:)``).
    let stateBeforeText: UInt64
    /// Whether text can be shaped in the styles: a valid text style, a valid paragraph style and language.
    let isValid: Bool

    package init(style: TextStyle, paragraph: ParagraphStyle) {
        self.style = style
        self.paragraph = paragraph
        stateBeforeText = ParagraphKey.stateBeforeText(styles: .single(style), paragraph: paragraph)
        isValid = style.isValid && paragraph.problem == nil && (try? TextLanguage.resolve(paragraph.language)) != nil
    }
}
