// A cell's accessories drawn as paths in their frames, in UIKit's shapes and colours.

import GalleyLayout
import GalleyText

/// Draws UIKit's accessories: the chevron, the checkmark, the info button, or both of the last
/// and the first, centred in the frame arranging gave the accessory.
enum AccessoryPainter {
    /// UIKit's chevron grey (#C7C7CC) and tint blue (#007AFF).
    static let chevron = RenderColor(hex: "#C7C7CC")!
    static let tint = RenderColor(hex: "#007AFF")!

    static func draw(_ kind: Node.Accessory.Kind, in frame: LayoutRect, on canvas: Canvas) {
        let center = LayoutPoint(x: frame.x + frame.width / 2, y: frame.y + frame.height / 2)
        switch kind {
        case .none: break
        case .disclosureIndicator: drawChevron(at: center, on: canvas)
        case .checkmark:
            canvas.stroke(
                [
                    LayoutPoint(x: center.x - 6, y: center.y), LayoutPoint(x: center.x - 2, y: center.y + 4.5),
                    LayoutPoint(x: center.x + 6.5, y: center.y - 5),
                ], with: tint, lineWidth: 2)
        case .detailButton: drawInfo(at: center, on: canvas)
        case .detailDisclosureButton:
            // The info button, then the chevron at the frame's trailing end.
            drawInfo(at: LayoutPoint(x: frame.x + 11, y: center.y), on: canvas)
            drawChevron(at: LayoutPoint(x: frame.maxX - 9, y: center.y), on: canvas)
        }
    }

    private static func drawChevron(at center: LayoutPoint, on canvas: Canvas) {
        canvas.stroke(
            [
                LayoutPoint(x: center.x - 2.5, y: center.y - 6), LayoutPoint(x: center.x + 3, y: center.y),
                LayoutPoint(x: center.x - 2.5, y: center.y + 6),
            ], with: chevron, lineWidth: 2)
    }

    /// A circled "i", drawn as a dot over a bar: no text, so nothing is shaped.
    private static func drawInfo(at center: LayoutPoint, on canvas: Canvas) {
        canvas.circle(center: center, radius: 10, with: tint, lineWidth: 1)
        canvas.circle(center: LayoutPoint(x: center.x, y: center.y - 5), radius: 1.25, with: tint, lineWidth: nil)
        canvas.stroke([LayoutPoint(x: center.x, y: center.y - 1.5), LayoutPoint(x: center.x, y: center.y + 5.5)], with: tint, lineWidth: 2)
    }
}
