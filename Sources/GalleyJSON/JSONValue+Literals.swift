// Literal syntax for JSON values, so items and fixtures read naturally in Swift.

/// `["title": "Sunset", "duration": 312, "tags": ["a", "b"], "hd": true]` builds a ``JSONValue``.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An integer.
    public init(integerLiteral value: Int) { self = .integer(value) }
    /// A number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array of the elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object of the members, in order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
}
