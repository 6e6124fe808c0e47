// One arranged row drawn where a table would show it: images, labels, separator, and for
// debugging its frames and line boxes.

import GalleyLayout
import GalleyText

/// Draws a ``RowArrangement`` with only what arranging found: frames and text layouts.
struct RowPainter {
    var scale: Double
    var drawsSeparators: Bool
    var showsFrames: Bool
    /// Where images come from; none: every image is a placeholder.
    var images: ImageLoader?

    /// Draws `row` with its top-left corner at (`x`, `y`).
    func draw(_ row: RowArrangement, x: Double, y: Double, on canvas: Canvas) throws(RenderError) {
        let pixel = 1 / scale
        for node in row.nodes where !node.isCollapsed {
            if node.type == "image" {
                let frame = node.frame.offsetBy(x: x, y: y)
                if let source = node.imageSource, let image = images?.image(for: source, itemID: row.itemID) {
                    canvas.draw(image, in: frame)
                } else {
                    canvas.fill(frame, with: .placeholder)
                }
            }
            if let accessory = node.accessory { AccessoryPainter.draw(accessory, in: node.frame.offsetBy(x: x, y: y), on: canvas) }
        }
        // Labels in template order, named or not.
        for node in row.nodes {
            guard let label = node.label, label.frame != .zero else { continue }
            guard let layout = label.layout else { throw .missingTextLayout(itemID: row.itemID, label: node.name ?? "a label without a name") }
            let color = label.color.flatMap(RenderColor.init(hex:)) ?? .black
            let runs = label.colorRuns.map { (range: $0.range, color: $0.color.flatMap(RenderColor.init(hex:)) ?? color) }
            canvas.draw(layout, x: x + label.frame.x, y: y + label.frame.y, color: color, colorRuns: runs)
        }
        if drawsSeparators {
            canvas.fill(LayoutRect(x: x, y: y + row.height - pixel, width: row.width, height: pixel), with: .separator)
        }
        guard showsFrames else { return }
        for node in row.nodes where !node.isCollapsed {
            canvas.outline(node.frame.offsetBy(x: x, y: y), with: .frameOutline, lineWidth: pixel)
        }
        for node in row.nodes {
            guard let label = node.label, let layout = label.layout else { continue }
            for line in layout.lines {
                let box = LayoutRect(x: label.frame.x + line.x, y: label.frame.y + line.top, width: line.width, height: line.height)
                canvas.outline(box.offsetBy(x: x, y: y), with: .lineOutline, lineWidth: pixel)
            }
        }
    }
}

extension LayoutRect {
    func offsetBy(x: Double, y: Double) -> LayoutRect { LayoutRect(x: self.x + x, y: self.y + y, width: width, height: height) }
}
