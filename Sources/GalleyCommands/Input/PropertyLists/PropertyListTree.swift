// What flattening a property list into records needs to know of its objects.

import GalleyJSON

/// A property list read whole, as ``PropertyListReader`` walks it: its containers, and each
/// record's content. Binary lists are ``BinaryPropertyList``s, whose records are made into
/// objects on the workers; XML lists are read by Foundation into ``FoundationPropertyList``.
protocol PropertyListTree: Sendable {
    associatedtype Node: Sendable

    /// The top object.
    var root: Node { get }

    /// The elements of `node` when it is an array (or a set), nil otherwise.
    func elements(of node: Node) throws(RecordError) -> [Node]?

    /// The members of `node` when it is a dictionary, sorted by key (the last of a repeated key
    /// kept), nil otherwise.
    func members(of node: Node) throws(RecordError) -> [(key: String, value: Node)]?

    /// Whether `node` is a dictionary.
    func isDictionary(_ node: Node) -> Bool

    /// What `node` is, for messages: "a string", "an array"…
    func kindName(_ node: Node) -> String

    /// The record that `node` is when it is a dictionary (its members but its children, with its
    /// place at `depth` and `path`), its children (the elements of its members that are
    /// non-empty arrays of dictionaries, in the order of their keys), and the bytes of strings
    /// and data the record expands to where the list can name an object more than once (0 where
    /// the file's own bytes bound them). Nil when `node` is not a dictionary.
    func record(_ node: Node, depth: Int, path: String) throws(RecordError) -> (content: InputRecord.Content, children: [Node], size: Int)?
}
extension PropertyListTree {
    /// `node`'s elements when it is a non-empty array of dictionaries (records, or a record's
    /// children), nil otherwise.
    func records(in node: Node) throws(RecordError) -> [Node]? {
        guard let elements = try elements(of: node), !elements.isEmpty, elements.allSatisfy(isDictionary) else { return nil }
        return elements
    }
}

/// Where a record sits among a property list's nested records.
struct PropertyListPlace: Sendable {
    /// 0 at the top.
    var depth: Int
    /// Its place at each level, from 1: "2.1".
    var path: String
    /// How many records are nested directly under it.
    var childCount: Int

    /// Adds `depth`, `path` and `childCount` to `object`.
    func add(to object: inout JSONObject) {
        object["depth"] = .integer(depth)
        object["path"] = .string(path)
        object["childCount"] = .integer(childCount)
    }
}
