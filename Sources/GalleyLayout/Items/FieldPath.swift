// Dotted paths into an item's fields: "title", "author.name", "thumb.width", "tags.0".

import GalleyJSON

/// A path to a value inside an item: object keys separated by dots, array indices as numbers.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's components, in order.
    public let components: [String]
    /// Each component's ``JSONObject`` tag, worked out once: rows look the same paths up.
    private let tags: [UInt64]
    /// Whether the path is "id" or "kind", which an ``ItemDescriptor`` keeps apart from its fields
    /// (decided once: comparing the component with both names on every lookup would cost more
    /// than the lookup).
    let itemMember: ItemMember?

    enum ItemMember { case id, kind }

    /// A path from its dotted form.
    public init(_ dotted: String) {
        components = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        tags = components.map(JSONObject.tag(of:))
        itemMember = components == ["id"] ? .id : components == ["kind"] ? .kind : nil
    }

    /// The path written with dots: `"author.name"`.
    public init(stringLiteral value: String) { self.init(value) }

    /// The value the path leads to inside `fields`, or nil when any step is missing.
    public func value(in fields: JSONObject) -> JSONValue? {
        guard let first = components.first, var current = fields.value(named: first, tag: tags[0]) else { return nil }
        // By index: a zipped pair of slices would be a generic iterator made and destroyed per lookup.
        for step in 1..<components.count {
            let component = components[step]
            switch current {
            case .object(let members):
                guard let next = members.value(named: component, tag: tags[step]) else { return nil }
                current = next
            case .array(let elements):
                guard let index = Int(component), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        // A pattern and a plain `return nil`: `current == .null ? nil : current` makes its `nil` a
        // JSON null (the value is ExpressibleByNilLiteral): null fields would seem present.
        if case .null = current { return nil }
        return current
    }

    /// The path written with dots.
    public var description: String { components.joined(separator: ".") }
}
