// Turning field values into label text.

import GalleyJSON

/// How field values become text in labels and formats.
enum FieldFormatter {
    /// Formatters a format placeholder may name after a `|`.
    static let names: Set<String> = ["duration", "uppercase", "lowercase", "list"]

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

    /// `value` through the named formatter; nil when the value does not suit it.
    static func apply(_ formatter: String, to value: JSONValue) -> String? {
        switch formatter {
        case "duration":
            // Up to a billion years; beyond, no Int holds it and no label shows it.
            guard let seconds = value.doubleValue, seconds >= 0 && seconds < 3e16 else { return nil }
            let total = Int(seconds.rounded())
            let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
            let twoDigits = { (number: Int) in number < 10 ? "0\(number)" : "\(number)" }
            return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(rest))" : "\(minutes):\(twoDigits(rest))"
        case "list":
            // An array of scalars joined with commas ("iOS, Three20, Tables"); a scalar as itself.
            guard case .array(let elements) = value else { return text(of: value) }
            var parts: [String] = []
            for element in elements {
                guard let part = text(of: element) else { return nil }
                if !part.isEmpty { parts.append(part) }
            }
            return parts.joined(separator: ", ")
        case "uppercase": return text(of: value)?.uppercased()
        case "lowercase": return text(of: value)?.lowercased()
        default: return nil
        }
    }
}
