// JSON values print as JSON.

extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON, object members sorted by name, as ``JSONWriter`` writes it:
    /// `print(template.json)` shows the template as a templates file holds it.
    public var description: String {
        var bytes: [UInt8] = []
        JSONWriter.write(self, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension JSONObject: CustomStringConvertible {
    /// The object as compact JSON (see ``JSONValue/description``).
    public var description: String { JSONValue.object(self).description }
}
