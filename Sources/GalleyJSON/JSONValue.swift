// A parsed JSON value that keeps booleans, integers and other numbers apart.

/// Any JSON value, kept with its kind: booleans, integers and other numbers stay apart.
public enum JSONValue: Codable, Hashable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int`.
    case integer(Int)
    /// Any other number a `Double` holds exactly as written.
    case number(Double)
    /// A number kept as it was written, because neither `Int` nor `Double` holds it exactly:
    /// an integer beyond `Int`'s range, or a number of more significant digits than a `Double`
    /// keeps (more than 15). Written back exactly (an id of 30 digits comes back as it came).
    case numeral(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its members in order.
    case object(JSONObject)

    /// Decodes any JSON value from a `Decoder` (for use inside `Codable` types).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(JSONObject(try container.decode([String: JSONValue].self)))
        }
    }

    /// Encodes the value with any `Encoder` (a ``numeral(_:)`` as the nearest `Double`, which
    /// an encoder refuses when it is infinite; ``JSONWriter`` writes numerals exactly).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        // To the nearest Double: Codable has no number of any length (JSONWriter writes it as it came).
        case .numeral(let text): try container.encode(Double(text) ?? .nan)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value.dictionary)
        }
    }

    /// The value as a number, if it is one (a ``numeral(_:)`` to the nearest `Double`, which may
    /// be infinite).
    public var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        case .numeral(let text): Double(text)
        default: nil
        }
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .number, .numeral: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
