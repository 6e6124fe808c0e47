// An item descriptor: the data for one row of a list.

import GalleyJSON

/// The data for one row: an id, a kind (which picks its template) and fields.
///
///     let item = try Item(json: #"{"id": "v42", "kind": "video", "title": "Sunset", "thumb": {"width": 120, "height": 90}}"#)
///     item.value(at: "thumb.width")  // .integer(120)
///
/// Fields are any JSON values: strings, numbers, booleans, nested objects and arrays.
public struct ItemDescriptor: Sendable, Hashable {
    /// Identifies the row (an integer in the input becomes its decimal string, as written).
    public var id: String
    /// Picks the row's template in a ``TemplateRegistry``.
    public var kind: String
    /// Every other member of the item's object.
    public var fields: JSONObject

    /// An item from its parts.
    public init(id: String, kind: String, fields: JSONObject = [:]) {
        self.id = id
        self.kind = kind
        self.fields = fields
    }

    /// An item from a decoded JSON object: `id` (string or integer) and `kind` (string) are
    /// required; every other member is a field.
    ///
    /// - Throws: ``LayoutError/invalidItem(_:)`` naming what is missing or mistyped.
    public init(object: consuming JSONObject) throws(LayoutError) {
        // Taken over, not copied, when the caller hands its only reference: the two members are
        // then removed in place, each found once (the removal hands back the value).
        var fields = consume object
        switch fields.removeValue(forKey: "id") {
        case .string(let string)?: id = string
        case .integer(let integer)?: id = String(integer)
        case .numeral(let digits)? where !digits.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }): id = digits
        case nil, .null?: throw .invalidItem("field 'id' is missing")
        case let other?: throw .invalidItem("field 'id' must be a string or an integer, got \(other.kindName)")
        }
        switch fields.removeValue(forKey: "kind") {
        case .string(let string)?: kind = string
        case nil, .null?: throw .invalidItem("field 'kind' is missing")
        case let other?: throw .invalidItem("field 'kind' must be a string, got \(other.kindName)")
        }
        self.fields = fields
    }

    /// An item parsed from one JSON object's text.
    ///
    /// - Throws: ``LayoutError/invalidItem(_:)`` for invalid JSON or a missing id or kind.
    public init(json: String) throws(LayoutError) {
        let value: JSONValue
        do { value = try JSONParser.parse(json) } catch { throw .invalidItem("invalid JSON at \(error)") }
        guard case .object(let object) = value else { throw .invalidItem("expected a JSON object, got \(value.kindName)") }
        try self.init(object: object)
    }

    /// The value at `path`, or nil when it is missing or null.
    public func value(at path: FieldPath) -> JSONValue? {
        switch path.itemMember {
        case .id?: .string(id)
        case .kind?: .string(kind)
        case nil: path.value(in: fields)
        }
    }
}
