// The measure pass, on the template: an item's row at a width, or at several.

import GalleyText

/// The two passes of a row's layout, as UIKit's `heightForRowAt` and `layoutSubviews` were:
///
/// - **Measure** (these methods) MUST find everything the row's height and frames depend on:
///   it shapes and breaks every label's text at the width the row offers it, and records each
///   node's size and place. It MAY reuse what the text engine cached (shaped words, whole
///   paragraphs) and what a ``LayoutContext`` holds between rows.
/// - **Arrange** (``RowMeasurement/arranged()``) MUST NOT shape, break or measure text: it adds
///   up the measured offsets, mirrors them for right-to-left rows and snaps them to pixels. A test
///   holds it to that with the text engine's counters.
///
/// A compiled template MAY cache what depends on the template alone (its node tables); it keeps
/// nothing of the rows it measures, so one template serves any number of threads at once.
extension CompiledTemplate {
    /// The row this template makes of `item` at `width`: its height and every node's size,
    /// keeping the text layouts computed on the way.
    ///
    ///     let template = try CompiledTemplate(BuiltInTemplates.message)
    ///     let environment = LayoutEnvironment(textEngine: engine, scale: 2)
    ///     let row = try template.measure(item, width: 375, environment: environment)
    ///     row.height                    // for tableView(_:heightForRowAt:)
    ///     let frames = row.arranged().frames   // for layoutSubviews
    ///
    /// - Parameters:
    ///   - item: The row's data.
    ///   - width: The row's width in points.
    ///   - environment: The text engine, scale, direction and language.
    ///   - context: Working memory reused from row to row by one thread (see
    ///     ``LayoutContext``); the result is the same without it.
    /// - Throws: ``LayoutError`` for a bad width or scale, a field of the wrong type, or text
    ///   the engine cannot measure.
    public func measure(
        _ item: ItemDescriptor, width: Double, environment: LayoutEnvironment, context: LayoutContext? = nil
    ) throws(LayoutError) -> RowMeasurement {
        guard let context else {
            var measurer = try RowMeasurer(item: item, template: self, environment: environment)
            return try measurer.measureRow(width: width)
        }
        return try measure(item, widths: [width], environment: environment, context: context)[0]
    }

    /// The rows this template makes of `item` at each of `widths`, in order: the same
    /// measurements as ``measure(_:width:environment:context:)`` at each width, for less than
    /// that many calls cost (each label is shaped once, and its natural size found once).
    ///
    ///     let heights = try template.measure(item, widths: [320, 375, 414], environment: environment).map(\.height)
    ///
    /// - Throws: as ``measure(_:width:environment:context:)``, for the first width that fails.
    public func measure(
        _ item: ItemDescriptor, widths: [Double], environment: LayoutEnvironment, context: LayoutContext? = nil
    ) throws(LayoutError) -> [RowMeasurement] {
        var measurer = try RowMeasurer(item: item, template: self, environment: environment, memory: context?.arrays)
        defer { if let context { measurer.returnMemory(to: context.arrays) } }
        let rows = try measurer.measureRoots(widths: widths)
        // Made once every width is measured, so that they share the measured children.
        let shared = measurer.sharedData()
        return rows.map { measurer.measurement(of: $0, shared: shared) }
    }

    /// The heights of the rows ``measure(_:widths:environment:context:)`` measures, one per
    /// width, without what arranging them needs: no node's place is kept and no text laid out.
    /// What a job that precomputes row heights wants, for less.
    ///
    ///     let context = LayoutContext()
    ///     let heights = try template.heights(item, widths: [320, 375, 414], environment: environment, context: context)
    ///
    /// - Throws: as ``measure(_:width:environment:context:)``.
    public func heights(
        _ item: ItemDescriptor, widths: [Double], environment: LayoutEnvironment, context: LayoutContext? = nil
    ) throws(LayoutError) -> [Double] {
        var measurer = try RowMeasurer(item: item, template: self, environment: environment, memory: context?.arrays, keepsChildren: false)
        defer { if let context { measurer.returnMemory(to: context.arrays) } }
        return try measurer.measureRoots(widths: widths) { $0.height }
    }
}
