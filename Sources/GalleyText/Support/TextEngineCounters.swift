// Counts of the engine's expensive operations, for tests and diagnostics.

import Synchronization

/// How many paragraphs an engine has shaped and how many times it has broken text into lines.
///
/// A layout layer that promises not to measure text twice can prove it by reading these before
/// and after: arranging a measured row must leave both unchanged.
public struct TextEngineCounters: Sendable, Hashable {
    /// Calls that analysed and shaped a paragraph (``TextEngine/shape(_:paragraph:)``).
    public var paragraphsShaped: Int
    /// Calls that broke a shaped paragraph into lines (``ShapedParagraph/measure(width:)`` and
    /// ``ShapedParagraph/layout(width:)``).
    public var lineBreakPasses: Int
}

/// The engine's live counters, shared with the paragraphs it shapes.
final class CounterStore: Sendable {
    let paragraphsShaped = Atomic<Int>(0)
    let lineBreakPasses = Atomic<Int>(0)

    var snapshot: TextEngineCounters {
        TextEngineCounters(
            paragraphsShaped: paragraphsShaped.load(ordering: .relaxed),
            lineBreakPasses: lineBreakPasses.load(ordering: .relaxed))
    }
}
