// The two-pass API: measure a row (its height for a width), then arrange it (its frames).

import GalleyText

/// Measures the row `template` makes of `item` at `width`: its height and every node's size,
/// keeping the text layouts computed on the way.
///
///     let template = try CompiledTemplate(BuiltInTemplates.message)
///     let environment = LayoutEnvironment(textEngine: engine, scale: 2)
///     let measurement = try measure(item, template: template, width: 375, environment: environment)
///     measurement.height                   // for tableView(_:heightForRowAt:)
///     let frames = arrange(measurement).frames  // for layoutSubviews
///
/// Safe to call from any thread, and from many at once.
///
/// - Throws: ``LayoutError`` for a bad width or scale, a field of the wrong type, or text the
///   engine cannot measure.
public func measure(
    _ item: Item, template: CompiledTemplate, width: Double, environment: LayoutEnvironment
) throws(LayoutError) -> RowMeasurement {
    var measurer = try RowMeasurer(item: item, template: template, environment: environment)
    return try measurer.measureRow(width: width)
}

/// Measures the row `template` makes of `item` at each of `widths`, in order: the same
/// measurements as ``measure(_:template:width:environment:)`` for each width, for less than the
/// cost of that many calls (each label is shaped once, and its natural size found once).
///
///     let heights = try measure(item, template: template, widths: [320, 375, 414], environment: environment)
///         .map(\.height)
///
/// - Throws: ``LayoutError`` as ``measure(_:template:width:environment:)`` does, for the first
///   width that fails.
public func measure(
    _ item: Item, template: CompiledTemplate, widths: [Double], environment: LayoutEnvironment
) throws(LayoutError) -> [RowMeasurement] {
    try measure(item, template: template, widths: widths, environment: environment, memory: nil)
}

/// ``measure(_:template:widths:environment:)`` reusing `memory`, the working memory of the rows
/// measured before: a thread measuring many rows in turn (a batch job) allocates and frees the
/// measure pass's arrays once instead of for every row. The measurements are the same, and stay
/// valid after later rows; one array is reused only once the previous row's measurements are gone.
///
///     let memory = MeasuringMemory()
///     for item in items {
///         let frames = try measure(item, template: template, widths: widths, environment: environment, memory: memory)
///             .map { arrange($0).frames }
///     }
///
/// For the heights alone, ``heights(_:template:widths:environment:memory:)`` costs less.
///
/// - Throws: as ``measure(_:template:widths:environment:)``.
public func measure(
    _ item: Item, template: CompiledTemplate, widths: [Double], environment: LayoutEnvironment, memory: MeasuringMemory?
) throws(LayoutError) -> [RowMeasurement] {
    var measurer = try RowMeasurer(item: item, template: template, environment: environment, memory: memory?.arrays)
    defer { if let memory { measurer.returnMemory(to: memory.arrays) } }
    let rows = try measurer.measureRoots(widths: widths)
    // Made once every width is measured, so that they share the measured children.
    let shared = measurer.sharedData()
    return rows.map { measurer.measurement(of: $0, shared: shared) }
}

/// The heights of the rows ``measure(_:template:widths:environment:memory:)`` measures, one per
/// width, without what arranging them needs: every node's place is left out, and no text is
/// laid out. What a job that precomputes row heights wants, for less.
///
///     let memory = MeasuringMemory()
///     let heights = try heights(item, template: template, widths: [320, 375, 414], environment: environment, memory: memory)
///
/// - Throws: as ``measure(_:template:widths:environment:)``.
public func heights(
    _ item: Item, template: CompiledTemplate, widths: [Double], environment: LayoutEnvironment, memory: MeasuringMemory? = nil
) throws(LayoutError) -> [Double] {
    var measurer = try RowMeasurer(
        item: item, template: template, environment: environment, memory: memory?.arrays, keepsChildren: false)
    defer { if let memory { measurer.returnMemory(to: memory.arrays) } }
    return try measurer.measureRoots(widths: widths) { $0.height }
}

/// The frames of a measured row, for every named node, and each label's text layout.
///
/// Arranging never shapes or wraps text: it adds up the offsets the measure pass found,
/// mirrors them for right-to-left rows, and snaps them to device pixels.
public func arrange(_ measurement: RowMeasurement) -> RowArrangement {
    RowArranger(measurement: measurement).arrange()
}

extension CompiledTemplate {
    /// Measures `item` at `width`; see ``measure(_:template:width:environment:)``.
    public func measure(_ item: Item, width: Double, environment: LayoutEnvironment) throws(LayoutError) -> RowMeasurement {
        try GalleyLayout.measure(item, template: self, width: width, environment: environment)
    }

    /// Measures `item` at each of `widths`; see ``measure(_:template:widths:environment:)``.
    public func measure(_ item: Item, widths: [Double], environment: LayoutEnvironment) throws(LayoutError) -> [RowMeasurement] {
        try GalleyLayout.measure(item, template: self, widths: widths, environment: environment)
    }
}

extension RowMeasurement {
    /// Frames for every named node; see ``arrange(_:)``.
    public func arranged() -> RowArrangement { arrange(self) }
}

/// Working memory for measuring rows one after another, reused from row to row (see
/// ``measure(_:template:widths:environment:memory:)``).
///
/// Not for two threads at once: give each thread its own. It holds no row's results, only room.
public final class MeasuringMemory {
    let arrays = RowMeasurer.Arrays()

    public init() {}
}
