// A binary property list's record, made into an object on the worker that lays it out.

import GalleyJSON

/// A dictionary of a ``BinaryPropertyList`` that is one record: its members are read into an
/// object where the record is used, so that reading a list's values is spread over the workers.
struct PropertyListRecord: Sendable {
    let list: BinaryPropertyList
    let dictionary: Int
    /// The places of the members that hold the record's children (records of their own), left out.
    let children: [Int]
    let place: PropertyListPlace

    /// The record as an object: its members but its children, sorted by key, with its place.
    func object() throws(RecordError) -> JSONObject {
        do {
            var object = try list.object(dictionary, skipping: children, extraCapacity: 3)
            place.add(to: &object)
            return object
        } catch {
            throw RecordError("not a property list: \(error)")
        }
    }
}
