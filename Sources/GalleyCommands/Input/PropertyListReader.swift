// Property lists (XML or binary): records, and their children flattened after them.

import Foundation
import GalleyJSON

/// The records of a property list, read whole with Foundation's `PropertyListSerialization`
/// (neither form can be streamed: a binary list's offsets table is at its end). The records are
/// the root array's dictionaries, or those of the array the root dictionary holds (`--record`
/// names its key when it holds several). A record's members that are arrays of dictionaries are
/// its children (the rows of a drill-down): they follow it as records of their own, depth first,
/// each with `depth` (0 at the top), `path` (its place at each level, from 1: "2.1") and
/// `childCount`.
final class PropertyListReader: RecordSource {
    private var records: [InputRecord] = []
    private var position = 0

    /// Reads and flattens the whole list.
    ///
    /// - Throws: ``InputError`` when the file cannot be read or is longer than `maximumSize`.
    init(_ input: ByteInput, recordKey: String?, maximumSize: Int) throws {
        let bytes = try input.readAll(limit: maximumSize)
        input.close()
        let file = input.name
        let root: Any
        let limit = max(bytes.count, 1024) * 4
        if let count = BinaryPropertyListGraph.expandedCount(bytes, limit: limit), count > limit {
            records = [Self.invalid(file, "it expands to more values than its \(bytes.count) bytes hold (objects it names more than once)")]
            return
        }
        do {
            root = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil)
        } catch {
            records = [Self.invalid(file, "not a property list: \(Self.reason(error))")]
            return
        }
        let list: [Any]
        switch root {
        case let array as [Any]:
            list = array
        case let dictionary as [String: Any]:
            let candidates = dictionary.keys.sorted().filter { Self.dictionaries(dictionary[$0]) != nil }
            if let recordKey {
                guard let array = dictionary[recordKey] as? [Any] else {
                    records = [Self.invalid(file, "the root dictionary has no array '\(recordKey)'; its arrays of dictionaries: \(candidates.joined(separator: ", "))")]
                    return
                }
                list = array
            } else if candidates.count == 1, let array = dictionary[candidates[0]] as? [Any] {
                list = array
            } else {
                let found = candidates.isEmpty ? "it holds none" : "it holds \(candidates.joined(separator: ", "))"
                records = [Self.invalid(file, "say with --record KEY which array of the root dictionary holds the records (\(found))")]
                return
            }
        default:
            records = [Self.invalid(file, "the root is neither an array nor a dictionary")]
            return
        }
        var ordinal = 0
        // A binary list can name one object many times over: what flattening and converting may
        // produce is bounded by the file's size, and its nesting by the JSON parser's depth.
        var budget = Budget(values: limit)
        do {
            try flatten(list, file: file, depth: 0, path: [], ordinal: &ordinal, budget: &budget)
        } catch {
            records = [Self.invalid(file, "it expands to more values than its \(bytes.count) bytes hold, or nests deeper than \(Self.maximumDepth) levels (objects it names more than once)")]
        }
    }

    /// The values and depth left to a list's flattening.
    private struct Budget {
        var values: Int
        struct Exceeded: Error {}
        mutating func spend(_ count: Int = 1) throws(Exceeded) {
            values -= count
            if values < 0 { throw Exceeded() }
        }
    }

    /// The deepest a property list is followed.
    static let maximumDepth = 128

    func next(_ count: Int) throws -> [InputRecord] {
        let end = min(records.count, position + count)
        defer { position = end }
        return Array(records[position..<end])
    }

    private func flatten(_ list: [Any], file: String, depth: Int, path: [Int], ordinal: inout Int, budget: inout Budget) throws(Budget.Exceeded) {
        guard depth < Self.maximumDepth else { throw Budget.Exceeded() }
        for (index, element) in list.enumerated() {
            try budget.spend()
            ordinal += 1
            let place = path + [index + 1]
            guard let dictionary = element as? [String: Any] else {
                records.append(InputRecord(file: file, number: ordinal, unit: .record, ordinal: ordinal,
                                           content: .invalid("expected a dictionary, got \(Self.kindName(element))")))
                continue
            }
            var object = JSONObject()
            var children: [Any] = []
            for key in dictionary.keys.sorted() {
                if let nested = Self.dictionaries(dictionary[key]) {
                    children += nested
                } else {
                    object[key] = try Self.value(dictionary[key]!, depth: depth, budget: &budget)
                }
            }
            object["depth"] = .integer(depth)
            object["path"] = .string(place.map(String.init).joined(separator: "."))
            object["childCount"] = .integer(children.count)
            records.append(InputRecord(file: file, number: ordinal, unit: .record, ordinal: ordinal, content: .object(object)))
            try flatten(children, file: file, depth: depth + 1, path: place, ordinal: &ordinal, budget: &budget)
        }
    }

    /// `value` when it is a non-empty array of dictionaries (children), nil otherwise.
    private static func dictionaries(_ value: Any?) -> [Any]? {
        guard let array = value as? [Any], !array.isEmpty, array.allSatisfy({ $0 is [String: Any] }) else { return nil }
        return array
    }

    /// A property-list value as JSON: dates as ISO 8601 text, data as Base64.
    private static func value(_ value: Any, depth: Int, budget: inout Budget) throws(Budget.Exceeded) -> JSONValue {
        try budget.spend()
        guard depth < maximumDepth else { throw Budget.Exceeded() }
        switch value {
        case let string as String: return .string(string)
        case let bool as Bool where !(value is NSNumber): return .bool(bool)
        case let number as NSNumber:
            // Its type as the list wrote it: an integer of some size, a real, or a boolean.
            switch String(cString: number.objCType) {
            case "d", "f": return .number(number.doubleValue)
            case "c", "B": return .bool(number.boolValue)
            default: return .integer(number.intValue)
            }
        case let date as Date: return .string(date.formatted(.iso8601))
        case let data as Data: return .string(data.base64EncodedString())
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array { elements.append(try Self.value(element, depth: depth + 1, budget: &budget)) }
            return .array(elements)
        case let dictionary as [String: Any]:
            var members: [(String, JSONValue)] = []
            for key in dictionary.keys.sorted() { members.append((key, try Self.value(dictionary[key]!, depth: depth + 1, budget: &budget))) }
            return .object(JSONObject(members))
        default: return .string("\(value)")
        }
    }

    private static func kindName(_ value: Any) -> String {
        switch value {
        case is String: "a string"
        case is [Any]: "an array"
        case is Date: "a date"
        case is Data: "data"
        default: "a number"
        }
    }

    private static func invalid(_ file: String, _ reason: String) -> InputRecord {
        InputRecord(file: file, number: 1, unit: .record, ordinal: 1, content: .invalid("\(file): \(reason)"))
    }

    private static func reason(_ error: any Error) -> String {
        (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription
    }
}
