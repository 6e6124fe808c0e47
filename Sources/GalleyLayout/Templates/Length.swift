// A length in a template: points, or the name of a stylesheet metric.

/// A distance in a template: a number of points, or a metric the stylesheet defines
/// (`"tableCellHPadding"`), so that templates follow the stylesheet.
public enum Length: Sendable, Hashable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// A length in points.
    case points(Double)
    /// A stylesheet metric by name, resolved when the template compiles.
    case metric(String)

    /// A length in points: `12.5`.
    public init(floatLiteral value: Double) { self = .points(value) }
    /// A length in points: `12`.
    public init(integerLiteral value: Int) { self = .points(Double(value)) }
    /// A stylesheet metric: `"tableCellMargin"`.
    public init(stringLiteral value: String) { self = .metric(value) }

    /// No length.
    public static let zero = Length.points(0)

    /// The points, or the metric's name.
    public var description: String {
        switch self {
        case .points(let value): "\(value)"
        case .metric(let name): name
        }
    }
}

/// Insets in a template, each a ``Length``. Left and right are mirrored in right-to-left rows.
public struct Insets: Sendable, Hashable {
    /// Inset from the top edge.
    public var top: Length
    /// Inset from the leading edge (the right, in right-to-left rows).
    public var left: Length
    /// Inset from the bottom edge.
    public var bottom: Length
    /// Inset from the trailing edge.
    public var right: Length

    /// Insets from their four edges.
    public init(top: Length = .zero, left: Length = .zero, bottom: Length = .zero, right: Length = .zero) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same length on every edge.
    public init(all length: Length) { self.init(top: length, left: length, bottom: length, right: length) }

    /// One length for left and right, another for top and bottom.
    public init(horizontal: Length, vertical: Length) {
        self.init(top: vertical, left: horizontal, bottom: vertical, right: horizontal)
    }
}
