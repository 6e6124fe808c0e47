// The paragraph cache's key: the exact text and every style it was shaped with.

import Glibc

/// What a shaped paragraph depends on: its attributed text and paragraph style.
///
/// The text compares by its exact UTF-8 bytes, not by Swift's canonical equivalence: line starts
/// are code-unit offsets, so "é" and "e\u{301}" are different paragraphs. The hash is computed
/// once, from raw bytes, because a cache lookup uses it twice (shard, then dictionary).
struct ParagraphKey: Hashable, Sendable {
    let text: AttributedText
    let paragraph: ParagraphStyle
    private let hashCode: Int

    init(text: AttributedText, paragraph: ParagraphStyle) {
        self.text = text
        self.paragraph = paragraph
        var hasher = Hasher()
        hasher.combine(Self.fastHash(of: text.string))
        for run in text.runs {
            hasher.combine(run.range.lowerBound)
            hasher.combine(run.style.size)
            hasher.combine(run.style.font.weight)
            hasher.combine(run.style.font.isItalic)
            hasher.combine(run.style.letterSpacing)
            switch run.style.font.source {
            case .family(let name): Self.combineBytes(of: name, into: &hasher)
            case .file(let path, let index):
                Self.combineBytes(of: path, into: &hasher)
                hasher.combine(index)
            }
        }
        hasher.combine(paragraph.maximumLines)
        hasher.combine(paragraph.lineBreakMode)
        hasher.combine(paragraph.lineHeightMultiple)
        if let language = paragraph.language { Self.combineBytes(of: language, into: &hasher) }
        hashCode = hasher.finalize()
    }

    /// A seeded 64-bit hash of the string's bytes, eight at a time: several times faster than
    /// SipHash over a paragraph, and the per-process seed keeps collisions unpredictable.
    private static func fastHash(of string: String) -> Int {
        let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
        func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
            let mixed = (state ^ word) &* multiplier
            return mixed ^ (mixed >> 29)
        }
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
        return Int(truncatingIfNeeded: state)
    }

    private static let seed = UInt64.random(in: .min ... .max)

    private static func combineBytes(of string: String, into hasher: inout Hasher) {
        let hashed: Bool = string.utf8.withContiguousStorageIfAvailable { bytes in
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
            return true
        } ?? false
        if !hashed { for byte in string.utf8 { hasher.combine(byte) } }
        hasher.combine(string.utf8.count)
    }

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
        lhs.hashCode == rhs.hashCode && bytesEqual(lhs.text.string, rhs.text.string)
            && lhs.text.runs == rhs.text.runs && lhs.paragraph == rhs.paragraph
    }
}
