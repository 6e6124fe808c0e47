// Scratch space for the measure pass, one per thread.

/// Working memory the measure pass reuses from row to row: a thread measuring rows one after
/// another (a batch job, a list filling its height cache) hands the same context to every call,
/// and the pass's arrays are allocated once instead of for every row.
///
///     let context = LayoutContext()
///     for item in items {
///         let heights = try template.heights(item, widths: widths, environment: environment, context: context)
///     }
///
/// One per thread: a context is not `Sendable`, and two threads must not measure with one at
/// once. It holds room, never results: measurements stay valid after later rows, and the
/// results with a context are the same as without.
public final class LayoutContext {
    let arrays = RowMeasurer.Arrays()

    /// An empty context; it grows to the largest rows measured with it.
    public init() {}
}
