// Errors from measuring text.

/// Why text could not be measured.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A font could not be found or loaded.
    case font(FontError)
    /// The width is negative or not finite.
    case invalidWidth(Double)
    /// A style's size or spacing is unusable.
    case invalidStyle(String)
    /// ICU could not parse the language tag.
    case invalidLanguage(String)
    /// ICU failed; the message says where.
    case icu(String)

    public var description: String {
        switch self {
        case .font(let error): error.description
        case .invalidWidth(let width): "width must be a finite number ≥ 0, not \(width)"
        case .invalidStyle(let reason): "invalid style: \(reason)"
        case .invalidLanguage(let tag): "'\(tag)' is not a valid BCP 47 language tag"
        case .icu(let message): "ICU: \(message)"
        }
    }
}
