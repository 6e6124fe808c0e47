// The paragraph cache's key: the exact text and every style it was shaped with.

import Glibc

/// What a shaped paragraph depends on: its attributed text and paragraph style.
///
/// The text compares by its exact UTF-8 bytes, not by Swift's canonical equivalence: line starts
/// are code-unit offsets, so "é" and "e\u{301}" are different paragraphs. The hash is computed
/// once, from raw bytes, and the cache uses it as it is (see ``PrecomputedHashKey``). A class,
/// so that the cache handles each key by one reference rather than copying its strings and styles.
final class ParagraphKey: PrecomputedHashKey {
    /// The styles: one for the whole string (no array to build), or styled runs.
    enum Styles: Sendable {
        case single(TextStyle)
        case runs([AttributedText.Run])
    }

    let string: String
    let styles: Styles
    let paragraph: ParagraphStyle
    /// The prepared styles the key was made with, which a lookup with the same ones compares by
    /// identity; nil when it was made from the styles themselves.
    private let prepared: PreparedTextStyle?
    private let hashCode: Int

    var precomputedHash: Int { hashCode }

    /// The key of `string` in `styles`, whose ``hash(string:styles:paragraph:)`` is `hash` (the
    /// lookup that missed has just computed it). A string in one style is equal, and equally
    /// hashed, to the same string as attributed text with one run.
    init(string: String, styles: Styles, paragraph: ParagraphStyle, hash: Int) {
        self.string = string
        self.styles = styles
        self.paragraph = paragraph
        prepared = nil
        hashCode = hash
    }

    /// The key of `string` in `prepared`'s styles, whose ``hash(string:resuming:)`` from them is `hash`:
    /// equal, and equally hashed, to the key made from the styles themselves.
    init(string: String, prepared: PreparedTextStyle, hash: Int) {
        self.string = string
        styles = .single(prepared.style)
        paragraph = prepared.paragraph
        self.prepared = prepared
        hashCode = hash
    }

    /// ``matches(string:styles:paragraph:)`` for the styles `prepared` holds: compared by identity
    /// when this key was made with the same prepared styles.
    func matches(string: String, prepared: PreparedTextStyle) -> Bool {
        if self.prepared === prepared { return Self.bytesEqual(self.string, string) }
        return matches(string: string, styles: .single(prepared.style), paragraph: prepared.paragraph)
    }

    /// Whether this key equals the one `init(string:styles:paragraph:hash:)` would build, without
    /// building it just to look a paragraph up.
    func matches(string: String, styles: Styles, paragraph: ParagraphStyle) -> Bool {
        guard Self.bytesEqual(self.string, string), self.paragraph == paragraph else { return false }
        switch (self.styles, styles) {
        case (.single(let left), .single(let right)): return left == right
        case (.runs(let left), .runs(let right)): return left == right
        case (.single(let style), .runs(let runs)), (.runs(let runs), .single(let style)):
            // One run over the whole string is the same paragraph as a single style.
            return runs.count == 1 && runs[0].style == style && runs[0].range.lowerBound == 0
        }
    }

    /// The hash of the key of `string` in `styles` under `paragraph`.
    static func hash(string: String, styles: Styles, paragraph: ParagraphStyle) -> Int {
        hash(string: string, resuming: stateBeforeText(styles: styles, paragraph: paragraph))
    }

    /// The hash of a key's string, resumed from the hash state of its styles (the styles come
    /// first, so that styles used again and again are hashed once: see ``PreparedTextStyle``).
    static func hash(string: String, resuming state: UInt64) -> Int {
        var hasher = KeyHasher(resuming: state)
        hasher.combine(bytesOf: string)
        return hasher.finalized
    }

    /// The hash state of a key's styles, before its string.
    static func stateBeforeText(styles: Styles, paragraph: ParagraphStyle) -> UInt64 {
        var hasher = KeyHasher()
        switch styles {
        case .single(let style): combine(style, at: 0, into: &hasher)
        case .runs(let runs): for run in runs { combine(run.style, at: run.range.lowerBound, into: &hasher) }
        }
        hasher.combine(paragraph.maximumLines << 8 ^ (LineBreakMode.allCases.firstIndex(of: paragraph.lineBreakMode) ?? 0))
        hasher.combine(paragraph.lineHeightMultiple.bitPattern)
        if let language = paragraph.language { hasher.combine(bytesOf: language) }
        return hasher.state
    }

    private static func combine(_ style: TextStyle, at start: Int, into hasher: inout KeyHasher) {
        hasher.combine(start << 32 ^ style.font.weight << 1 ^ (style.font.isItalic ? 1 : 0))
        hasher.combine(style.size.bitPattern)
        hasher.combine(style.letterSpacing.bitPattern)
        switch style.font.source {
        case .family(let name): hasher.combine(bytesOf: name)
        case .file(let path, let index):
            hasher.combine(bytesOf: path)
            hasher.combine(index)
        }
        if !style.features.isEmpty || !style.fallbacks.isEmpty {
            // Rare, and lists: Swift's own hasher.
            var listHasher = Hasher()
            listHasher.combine(style.features)
            listHasher.combine(style.fallbacks)
            hasher.combine(listHasher.finalize())
        }
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

    /// Whether two strings hold the same UTF-8 bytes (memcmp when both are contiguous, and not
    /// even that when both are the same storage: an app measuring the strings it keeps asks with
    /// the very string the key holds, whose bytes then need not be read again).
    private static func bytesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let fast: Bool? =
            lhs.utf8.withContiguousStorageIfAvailable { left in
                rhs.utf8.withContiguousStorageIfAvailable { right in
                    left.count == 0 || left.baseAddress == right.baseAddress
                        || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
                }
            } ?? nil
        return fast ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    static func == (lhs: ParagraphKey, rhs: ParagraphKey) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.matches(string: rhs.string, styles: rhs.styles, paragraph: rhs.paragraph)
    }
}
