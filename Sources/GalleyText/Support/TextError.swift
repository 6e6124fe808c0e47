// Errors from measuring text.

/// Why text could not be measured.
public enum TextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A font could not be found or loaded.
    case font(FontError)
    /// The width is outside ``ValueRanges/length`` (and not `.infinity`).
    case invalidWidth(Double)
    /// A style's size or spacing is unusable.
    case invalidStyle(String)
    /// The text is longer, or has more runs, than the engine's ``TextLimits`` allow.
    case overLimit(String)
    /// The text would measure more than ``ValueRanges/largestResult`` either way.
    case resultTooLarge(LayoutSize)
    /// ICU could not parse the language tag.
    case invalidLanguage(String)
    /// ICU failed; the message says where.
    case icu(String)

    /// How the value reads in messages.
    public var description: String {
        switch self {
        case .font(let error): error.description
        case .invalidWidth(let width): "width \(ValueRanges.problem(width, outside: ValueRanges.length)) (or infinite)"
        case .invalidStyle(let reason): "invalid style: \(reason)"
        case .overLimit(let reason): reason
        case .resultTooLarge(let size): "the text would measure \(size), more than the largest length a result may have (\(ValueRanges.largestResult))"
        case .invalidLanguage(let tag): "'\(tag)' is not a valid BCP 47 language tag"
        case .icu(let message): "ICU: \(message)"
        }
    }
}
