// Colours as stylesheets write them, for cairo's sources.

/// A colour to draw with: red, green, blue and alpha from 0 to 1.
public struct RenderColor: Sendable, Hashable {
    /// The red component, 0 to 1.
    public var red: Double
    /// The green component, 0 to 1.
    public var green: Double
    /// The blue component, 0 to 1.
    public var blue: Double
    /// The opacity, 0 (transparent) to 1.
    public var alpha: Double

    /// A colour of the components given, each from 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    /// The colour `#RRGGBB` or `#RRGGBBAA` names (as a stylesheet resolves its colours); nil for
    /// anything else.
    public init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.first == UInt8(ascii: "#"), digits.count == 7 || digits.count == 9 else { return nil }
        var components: [Double] = []
        var place = 1
        while place < digits.count {
            guard let high = Self.value(ofHexDigit: digits[place]), let low = Self.value(ofHexDigit: digits[place + 1]) else { return nil }
            components.append(Double(high * 16 + low) / 255)
            place += 2
        }
        self.init(red: components[0], green: components[1], blue: components[2], alpha: components.count == 4 ? components[3] : 1)
    }

    private static func value(ofHexDigit digit: UInt8) -> Int? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(digit - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(digit - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(digit - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    /// Text without a colour of its own.
    public static let black = RenderColor(red: 0, green: 0, blue: 0)
    /// The sheet behind the rows.
    public static let white = RenderColor(red: 1, green: 1, blue: 1)
    /// UIKit's separator grey (#C8C7CC).
    public static let separator = RenderColor(hex: "#C8C7CC")!
    /// An image not drawn from a file (#E5E5EA).
    public static let placeholder = RenderColor(hex: "#E5E5EA")!
    /// Frame outlines, for debugging a template (pink, partly transparent).
    public static let frameOutline = RenderColor(red: 1, green: 0.18, blue: 0.33, alpha: 0.7)
    /// Line box outlines, for debugging a template (blue, half transparent).
    public static let lineOutline = RenderColor(red: 0, green: 0.48, blue: 1, alpha: 0.5)
}
