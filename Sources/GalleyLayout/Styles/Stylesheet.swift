// Named text styles, metrics and colours that templates refer to.

import GalleyText

/// The named text styles, metrics and colours templates refer to.
///
/// A stylesheet can derive from another and override entries (``overriding(with:)``); a
/// content-size multiplier scales every text style, as Dynamic Type does. ``standard`` holds
/// Three20's table fonts and metrics and UIKit's cell metrics.
public struct Stylesheet: Sendable, Hashable {
    /// The stylesheet's name, which errors name.
    public var name: String
    /// Text styles by name, as templates name them.
    public var textStyles: [String: TextStyleSpec]
    /// Lengths in points: margins, paddings, image sizes.
    public var metrics: [String: Double]
    /// Colours for renderers, `#RRGGBB` or `#RRGGBBAA`.
    public var colors: [String: String]
    /// Multiplies every text style's size (1: as written).
    public var contentSizeMultiplier: Double

    /// A stylesheet of named text styles, metrics and colours.
    public init(
        name: String, textStyles: [String: TextStyleSpec] = [:], metrics: [String: Double] = [:],
        colors: [String: String] = [:], contentSizeMultiplier: Double = 1
    ) {
        self.name = name
        self.textStyles = textStyles
        self.metrics = metrics
        self.colors = colors
        self.contentSizeMultiplier = contentSizeMultiplier
    }

    /// This stylesheet with `other`'s entries added or replacing these, and its name and
    /// content-size multiplier.
    public func overriding(with other: Stylesheet) -> Stylesheet {
        Stylesheet(
            name: other.name, textStyles: textStyles.merging(other.textStyles) { $1 },
            metrics: metrics.merging(other.metrics) { $1 }, colors: colors.merging(other.colors) { $1 },
            contentSizeMultiplier: other.contentSizeMultiplier)
    }

    /// The metric's value.
    ///
    /// - Throws: ``LayoutError/invalidTemplate(path:reason:)`` for an unknown name.
    func resolve(_ length: Length, at path: String) throws(LayoutError) -> Double {
        let value: Double
        switch length {
        case .points(let points): value = points
        case .metric(let name):
            guard let metric = metrics[name] else {
                throw .invalidTemplate(
                    path: path, reason: "unknown metric '\(name)' in stylesheet '\(self.name)'; its metrics: \(metrics.keys.sorted().joined(separator: ", "))")
            }
            value = metric
        }
        guard ValueRanges.length.contains(value) else {
            throw .invalidTemplate(path: path, reason: "length \(length) \(ValueRanges.problem(value, outside: ValueRanges.length))")
        }
        return value
    }

    /// The named or inline style.
    func resolve(_ style: StyleReference, at path: String) throws(LayoutError) -> TextStyleSpec {
        let spec: TextStyleSpec
        switch style {
        case .named(let name):
            guard let found = textStyles[name] else {
                throw .invalidTemplate(
                    path: path,
                    reason: "unknown text style '\(name)' in stylesheet '\(self.name)'; its text styles: \(textStyles.keys.sorted().joined(separator: ", "))")
            }
            spec = found
        case .inline(let inline): spec = inline
        }
        if let problem = spec.problem { throw .invalidTemplate(path: path, reason: "text style: \(problem)") }
        if let color = spec.color, colors[color] == nil, !Self.isColorValue(color) {
            throw .invalidTemplate(
                path: path,
                reason: "colour '\(color)' is neither #RRGGBB, #RRGGBBAA nor one of the stylesheet's colours: \(colors.keys.sorted().joined(separator: ", "))")
        }
        return spec
    }

    /// Whether `text` is a colour value: `#RRGGBB` or `#RRGGBBAA` in hexadecimal.
    static func isColorValue(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.hasPrefix("#") && (digits.count == 6 || digits.count == 8)
            && digits.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66)
            }
    }

    /// A colour name resolved to its value; values that are not names pass through.
    func resolveColor(_ color: String?) -> String? {
        guard let color else { return nil }
        return colors[color] ?? color
    }
}
