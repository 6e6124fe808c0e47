// Points and sizes in points (1 pt = 1 px at scale 1), and UIKit-style pixel rounding.

/// A size in points.
public struct LayoutSize: Sendable, Hashable, CustomStringConvertible {
    /// Horizontal extent.
    public var width: Double
    /// Vertical extent.
    public var height: Double

    /// A size from its sides.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// No width and no height.
    public static let zero = LayoutSize(width: 0, height: 0)

    /// Each side rounded up to whole device pixels at `scale` (1, 2 or 3), as UIKit rounds
    /// sizes: `ceil(value × scale) / scale`. Floating-point noise under a billionth of a pixel
    /// is ignored, so 20.000000000001 stays 20.
    public func roundedUp(toScale scale: Double) -> LayoutSize {
        LayoutSize(width: Self.roundUp(width, scale: scale), height: Self.roundUp(height, scale: scale))
    }

    /// `value` rounded up to whole device pixels at `scale`; see ``roundedUp(toScale:)``.
    public static func roundUp(_ value: Double, scale: Double) -> Double {
        (value * scale - 1e-9).rounded(.up) / scale
    }

    /// How the value reads in messages.
    public var description: String { "\(width) × \(height)" }
}

/// A point in a layout's coordinates: x to the right, y down from the top.
public struct LayoutPoint: Sendable, Hashable {
    /// Distance from the left edge.
    public var x: Double
    /// Distance down from the top edge.
    public var y: Double

    /// A point from its coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
