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
    guard width.isFinite && width >= 0 else { throw .invalidGeometry("width must be a finite number ≥ 0, not \(width)") }
    guard environment.scale.isFinite && environment.scale > 0 else {
        throw .invalidGeometry("scale must be a finite number > 0, not \(environment.scale)")
    }
    var measurer = RowMeasurer(item: item, template: template, environment: environment)
    var root = try measurer.measure(template.root, width: width, height: nil)
    let exactHeight = max(root.isCollapsed ? 0 : root.size.height, template.minimumHeight)
    if !root.isCollapsed && root.size.height < template.minimumHeight {
        // A minimum height centres the content vertically, as a table cell's content view does.
        root.origin.y = (template.minimumHeight - root.size.height) / 2
    }
    let isRightToLeft = switch environment.direction {
    case .leftToRight: false
    case .rightToLeft: true
    case .auto: measurer.firstTextIsRightToLeft ?? false
    }
    return RowMeasurement(
        itemID: item.id, width: width, height: Size.roundUp(exactHeight, scale: environment.scale), exactHeight: exactHeight,
        scale: environment.scale, isRightToLeft: isRightToLeft, root: root, names: template.names)
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
}

extension RowMeasurement {
    /// Frames for every named node; see ``arrange(_:)``.
    public func arranged() -> RowArrangement { arrange(self) }
}
