// The character-level style of a run of text: font, size, tracking, features.

/// How a run of text is drawn: its font, size, letter spacing and OpenType features.
///
///     let name = TextStyle(font: .family("Noto Sans", weight: 700), size: 15)
///     let stamp = TextStyle(font: .family("Noto Sans"), size: 12, features: [FontFeature("tnum")])
public struct TextStyle: Sendable, Hashable {
    /// The requested font; characters it lacks fall back (see ``fallbacks``).
    public var font: FontDescriptor
    /// Size in points (1 pt = 1 px at scale 1).
    public var size: Double
    /// Extra space after every grapheme cluster, in points (tracking). Optional ligatures are
    /// turned off when it is not zero, as CSS does.
    public var letterSpacing: Double
    /// OpenType features on top of HarfBuzz's defaults (kerning and ligatures are on by default).
    public var features: [FontFeature]
    /// Fonts tried, in order, before the collection's own fallback order.
    public var fallbacks: [FontDescriptor]

    /// A style from its parts.
    public init(
        font: FontDescriptor, size: Double, letterSpacing: Double = 0, features: [FontFeature] = [],
        fallbacks: [FontDescriptor] = []
    ) {
        self.font = font
        self.size = size
        self.letterSpacing = letterSpacing
        self.features = features
        self.fallbacks = fallbacks
    }

    /// Whether the style can be measured: a weight of 1 to 1000, at most ``mostFallbacks``
    /// fallbacks, a size in ``ValueRanges/fontSize`` and letter spacing in ``ValueRanges/letterSpacing``.
    public var isValid: Bool { problem == nil }

    /// The features text in this style is shaped with: ``features``, and optional ligatures
    /// off when letters are spaced.
    var shapingFeatures: [FontFeature] {
        guard letterSpacing != 0 else { return features }
        return features + ["liga", "clig", "dlig"].map { FontFeature(tag: $0, value: 0) }
    }

    /// The most fonts a style may list as its own fallbacks (the bundled order follows them).
    public static let mostFallbacks = 32

    /// Why the style cannot be measured, or nil when it can.
    public var problem: String? {
        if !(1...1000).contains(font.weight) { return "weight must be 1...1000, not \(font.weight)" }
        if fallbacks.count > Self.mostFallbacks { return "at most \(Self.mostFallbacks) fallback fonts, not \(fallbacks.count)" }
        if !ValueRanges.fontSize.contains(size) { return "size \(ValueRanges.problem(size, outside: ValueRanges.fontSize))" }
        if !ValueRanges.letterSpacing.contains(letterSpacing) {
            return "letterSpacing \(ValueRanges.problem(letterSpacing, outside: ValueRanges.letterSpacing))"
        }
        return nil
    }
}

/// An OpenType feature setting, such as `tnum` (tabular figures) or `liga=0` (no ligatures).
public struct FontFeature: Sendable, Hashable, CustomStringConvertible {
    /// The four-letter tag.
    public var tag: String
    /// 1 turns the feature on, 0 off; larger values pick alternates.
    public var value: UInt32

    /// A feature from CSS-like syntax: `"tnum"`, `"liga=0"`, `"-liga"`, `"+kern"`, `"salt=2"`.
    public init(_ setting: String) {
        var text = Substring(setting)
        var value: UInt32 = 1
        if text.hasPrefix("-") {
            value = 0
            text = text.dropFirst()
        } else if text.hasPrefix("+") {
            text = text.dropFirst()
        }
        if let equals = text.firstIndex(of: "=") {
            value = UInt32(text[text.index(after: equals)...]) ?? value
            text = text[..<equals]
        }
        self.init(tag: String(text), value: value)
    }

    /// A feature from its tag and value.
    public init(tag: String, value: UInt32 = 1) {
        self.tag = tag
        self.value = value
    }

    /// The tag packed as OpenType stores it (four ASCII bytes, space-padded).
    var packedTag: UInt32 {
        var bytes = Array(tag.utf8.prefix(4))
        while bytes.count < 4 { bytes.append(0x20) }
        return bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// How the value reads in messages.
    public var description: String { value == 1 ? tag : "\(tag)=\(value)" }
}
