// The paragraph cache's key: the exact text and every style it was shaped with.

import Glibc

/// What a shaped paragraph depends on: its attributed text and paragraph style.
///
/// The text compares by its exact UTF-8 bytes, not by Swift's canonical equivalence: line starts
/// are code-unit offsets, so "é" and "e\u{301}" are different paragraphs. The hash is computed
/// once, from raw bytes, because a cache lookup uses it twice (shard, then dictionary).
struct ParagraphKey: Hashable, Sendable {
    /// The styles: one for the whole string (no array to build), or styled runs.
    enum Styles: Sendable {
        case single(TextStyle)
        case runs([AttributedText.Run])
    }

    let string: String
    let styles: Styles
    let paragraph: ParagraphStyle
    private let hashCode: Int

    /// The key of attributed text.
    init(text: AttributedText, paragraph: ParagraphStyle) {
        self.init(string: text.string, styles: .runs(text.runs), paragraph: paragraph)
    }

    /// The key of a string in one style: equal, and equally hashed, to the key of the same
    /// string as attributed text with one run.
    init(string: String, style: TextStyle, paragraph: ParagraphStyle) {
        self.init(string: string, styles: .single(style), paragraph: paragraph)
    }

    private init(string: String, styles: Styles, paragraph: ParagraphStyle) {
        self.string = string
        self.styles = styles
        self.paragraph = paragraph
        // Seeded multiply-mixes throughout: SipHash over every style field cost more than the
        // rest of a cached measurement.
        var state = Self.fastHash(of: string)
        func combine(_ style: TextStyle, at start: Int) {
            state = Self.mix(state, Self.bits(start) << 32 ^ Self.bits(style.font.weight) << 1 ^ (style.font.isItalic ? 1 : 0))
            state = Self.mix(state, style.size.bitPattern)
            state = Self.mix(state, style.letterSpacing.bitPattern)
            switch style.font.source {
            case .family(let name): state = Self.mix(state, Self.fastHash(of: name))
            case .file(let path, let index): state = Self.mix(Self.mix(state, Self.fastHash(of: path)), Self.bits(index))
            }
            if !style.features.isEmpty || !style.fallbacks.isEmpty {
                var hasher = Hasher()
                hasher.combine(style.features)
                hasher.combine(style.fallbacks)
                state = Self.mix(state, UInt64(bitPattern: Int64(hasher.finalize())))
            }
        }
        switch styles {
        case .single(let style): combine(style, at: 0)
        case .runs(let runs): for run in runs { combine(run.style, at: run.range.lowerBound) }
        }
        state = Self.mix(state, Self.bits(paragraph.maximumLines) << 8 ^ Self.bits(LineBreakMode.allCases.firstIndex(of: paragraph.lineBreakMode) ?? 0))
        state = Self.mix(state, paragraph.lineHeightMultiple.bitPattern)
        if let language = paragraph.language { state = Self.mix(state, Self.fastHash(of: language)) }
        hashCode = Int(truncatingIfNeeded: state)
    }

    /// Any integer's bits (keys are built before styles are validated: values may be negative).
    @inline(__always)
    private static func bits(_ value: Int) -> UInt64 { UInt64(bitPattern: Int64(value)) }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 29)
    }

    /// A seeded 64-bit hash of the string's bytes, eight at a time: several times faster than
    /// SipHash over a paragraph, and the per-process seed keeps collisions unpredictable.
    private static func fastHash(of string: String) -> UInt64 {
        var state = seed ^ UInt64(string.utf8.count)
        let hashed: Bool = string.utf8.withContiguousStorageIfAvailable { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                state = mix(state, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
            state = mix(state, tail)
            return true
        } ?? false
        if !hashed { for byte in string.utf8 { state = mix(state, UInt64(byte)) } }
        return state
    }

    private static let seed = UInt64.random(in: .min ... .max)

    func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

    /// Whether two strings hold the same UTF-8 bytes (memcmp when both are contiguous).
    private static func bytesEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let fast: Bool? = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in
                left.count == 0 || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        } ?? nil
        return fast ?? lhs.utf8.elementsEqual(rhs.utf8)
    }

    static func == (lhs: ParagraphKey, rhs: ParagraphKey) -> Bool {
        guard lhs.hashCode == rhs.hashCode, bytesEqual(lhs.string, rhs.string), lhs.paragraph == rhs.paragraph else { return false }
        switch (lhs.styles, rhs.styles) {
        case (.single(let left), .single(let right)): return left == right
        case (.runs(let left), .runs(let right)): return left == right
        case (.single(let style), .runs(let runs)), (.runs(let runs), .single(let style)):
            // One run over the whole string is the same paragraph as a single style.
            return runs.count == 1 && runs[0].style == style && runs[0].range.lowerBound == 0
        }
    }
}
