// The ranges of sizes, lengths and scales that measuring accepts, and of what it returns.

/// The values measuring accepts, and the largest length it returns.
///
/// Each range covers what a display can use, with room to spare, and stays far from where
/// arithmetic on it could overflow to infinity or round to nothing: a font size of `1e308` or a
/// scale of `1e-300` is an error naming the value, not a `null` height. A range's `contains`
/// is false for NaN and the infinities. (Constants inlined where they are checked: rows check
/// some for every width they are measured at.)
public enum ValueRanges {
    /// Font sizes, in points: above zero, up to 10,000.
    @inlinable public static var fontSize: ClosedRange<Double> { Double.leastNormalMagnitude...10_000 }
    /// Letter spacing, in points, either way.
    @inlinable public static var letterSpacing: ClosedRange<Double> { -10_000...10_000 }
    /// Line height multiples (0 leaves lines their natural height).
    @inlinable public static var lineHeightMultiple: ClosedRange<Double> { 0...100 }
    /// Widths offered, line heights, spacings, insets and other lengths, in points: up to a
    /// million (the text engine also takes an infinite width, for no wrapping).
    @inlinable public static var length: ClosedRange<Double> { 0...1_000_000 }
    /// Device pixels per point that heights round up to and frames snap to.
    @inlinable public static var scale: ClosedRange<Double> { 0.5...8 }
    /// A stylesheet's content-size multiplier (Dynamic Type's sizes span about 0.8 to 3.1).
    @inlinable public static var contentSizeMultiplier: ClosedRange<Double> { 0.1...10 }
    /// Width-to-height ratios of size rules.
    @inlinable public static var aspectRatio: ClosedRange<Double> { 0.001...1000 }
    /// How much of the room left over (or missing) a flexible node takes, against its siblings.
    @inlinable public static var flexFactor: ClosedRange<Double> { 0...1_000_000 }
    /// The longest length a result may have, in points: a row or text taller than this (a
    /// million lines of a million points) is an error for that row, not a number.
    @inlinable public static var largestResult: Double { 1e9 }

    /// "must be a number in 0...100, not 1e+308": the problem with `value` outside `range`.
    public static func problem(_ value: Double, outside range: ClosedRange<Double>) -> String {
        let lower = range.lowerBound == Double.leastNormalMagnitude ? "> 0" : "≥ \(format(range.lowerBound))"
        return "must be a number \(lower) and ≤ \(format(range.upperBound)), not \(value)"
    }

    private static func format(_ bound: Double) -> String {
        bound == bound.rounded() && abs(bound) < 1e15 ? String(Int(bound)) : String(bound)
    }
}
