// Why rows could not be drawn.

/// Why a drawing could not be made.
public enum RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A scale that is not a finite number > 0.
    case invalidScale(Double)
    /// A drawing larger than the bounds (in points, at the scale): more than
    /// ``RenderedImage/maximumSide`` pixels a side (points in SVG and PDF), or 64 Mi pixels.
    case tooLarge(width: Double, height: Double, scale: Double)
    /// A drawing of more glyphs than ``RowSheet/maximumGlyphs``.
    case tooManyGlyphs(limit: Int)
    /// A row measured without its text layouts (`LayoutEnvironment` with
    /// `keepsTextLayouts` false): its labels cannot be drawn.
    case missingTextLayout(itemID: String, label: String)
    /// An image folder that does not exist or is not a folder.
    case imageFolder(String)
    /// cairo failed, with its message.
    case cairo(String)

    /// What went wrong, for messages.
    public var description: String {
        switch self {
        case .invalidScale(let scale): "scale \(scale) is not a finite number > 0"
        case .tooLarge(let width, let height, let scale):
            "a drawing of \(width) × \(height) points at scale \(scale) is larger than \(RenderedImage.maximumSide) pixels a side or \(CairoOutput.maximumPixels) pixels in all"
        case .tooManyGlyphs(let limit): "a drawing of more than \(limit) glyphs"
        case .missingTextLayout(let itemID, let label):
            "row '\(itemID)', label '\(label)': measured without text layouts (keepsTextLayouts is false), so it cannot be drawn"
        case .imageFolder(let problem): "image folder: \(problem)"
        case .cairo(let message): "cairo: \(message)"
        }
    }
}
