// Turning field values into label text.

import GalleyJSON

/// A formatter a format placeholder names after a `|` (`{duration|duration}`), resolved when the
/// template is compiled.
enum FieldFormatter: String, CaseIterable, Sendable {
    /// Seconds as m:ss, or h:mm:ss from an hour.
    case duration
    /// An array of scalars joined with commas; a scalar as itself.
    case list
    case uppercase
    case lowercase

    /// What a field must hold for ``text(of:)``, as errors say it.
    static let expectedValue = "text or a number"

    /// What a field must hold for this formatter, as errors say it.
    var expectedValue: String {
        switch self {
        case .duration: "a number of seconds"
        case .list: "an array of text or numbers"
        case .uppercase, .lowercase: Self.expectedValue
        }
    }

    /// The text of a scalar value: strings as they are, integers in decimal, other numbers in
    /// their shortest form (numerals as written), booleans as true or false. Nil for arrays and objects.
    static func text(of value: JSONValue) -> String? {
        switch value {
        case .string(let string): string
        case .integer(let integer): String(integer)
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
        case .numeral(let text): text
        case .bool(let bool): bool ? "true" : "false"
        case .null: ""
        case .array, .object: nil
        }
    }

    /// `value` through the formatter; nil when the value does not suit it.
    func apply(to value: JSONValue) -> String? {
        switch self {
        case .duration:
            // Up to a billion years; beyond, no Int holds it and no label shows it.
            guard let seconds = value.doubleValue, seconds >= 0 && seconds < 3e16 else { return nil }
            let total = Int(seconds.rounded())
            let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
            let twoDigits = { (number: Int) in number < 10 ? "0\(number)" : "\(number)" }
            return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
        case .list:
            guard case .array(let elements) = value else { return Self.text(of: value) }
            var parts: [String] = []
            for element in elements {
                guard let part = Self.text(of: element) else { return nil }
                if !part.isEmpty { parts.append(part) }
            }
            return parts.joined(separator: ", ")
        case .uppercase: return Self.text(of: value)?.uppercased()
        case .lowercase: return Self.text(of: value)?.lowercased()
        }
    }
}
