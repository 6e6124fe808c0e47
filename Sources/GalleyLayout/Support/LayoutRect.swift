// Rectangles and edge insets in row coordinates.

import GalleyText

/// A rectangle in a row's coordinates: x to the right, y down from the row's top.
public struct LayoutRect: Sendable, Hashable, CustomStringConvertible {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// A rectangle from its origin and size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The empty rectangle at the origin, the frame of a collapsed node.
    public static let zero = LayoutRect(x: 0, y: 0, width: 0, height: 0)

    /// The left edge.
    public var minX: Double { x }
    /// The top edge.
    public var minY: Double { y }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }

    /// The rectangle with every edge moved to the nearest device pixel at `scale`, so that
    /// adjacent frames still share their edges after snapping.
    public func snapped(toScale scale: Double) -> LayoutRect {
        func snap(_ value: Double) -> Double { (value * scale).rounded() / scale }
        let left = snap(x)
        let top = snap(y)
        return LayoutRect(x: left, y: top, width: snap(maxX) - left, height: snap(maxY) - top)
    }

    /// The part of the rectangle between x = 0 and x = `width` (an empty rectangle at the nearer
    /// edge when none of it is): a row narrower than its insets or spacing keeps its children
    /// inside it.
    func clamped(toWidth width: Double) -> LayoutRect {
        let left = min(max(x, 0), width)
        let right = min(max(maxX, left), width)
        return LayoutRect(x: left, y: y, width: right - left, height: height)
    }

    /// The rectangle reflected across the vertical centre line of a row `width` wide.
    func mirrored(inWidth width: Double) -> LayoutRect {
        LayoutRect(x: width - maxX, y: y, width: self.width, height: height)
    }

    /// `[x, y, width, height]`, as the `galley layout` command prints frames.
    public var components: [Double] { [x, y, width, height] }

    /// How the value reads in messages.
    public var description: String { "(\(x), \(y), \(width), \(height))" }
}

/// Distances inward from a rectangle's edges.
struct EdgeInsets: Sendable, Hashable {
    /// Inset from the top edge.
    public var top: Double
    /// Inset from the left edge.
    public var left: Double
    /// Inset from the bottom edge.
    public var bottom: Double
    /// Inset from the right edge.
    public var right: Double

    /// Insets from their four edges.
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset on every edge.
    public init(all value: Double) { self.init(top: value, left: value, bottom: value, right: value) }

    /// The left and right insets together.
    public var horizontal: Double { left + right }
    /// The top and bottom insets together.
    public var vertical: Double { top + bottom }
}
