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
        flatten(list, file: file, depth: 0, path: [], ordinal: &ordinal)
    }

    func next(_ count: Int) throws -> [InputRecord] {
        let end = min(records.count, position + count)
        defer { position = end }
        return Array(records[position..<end])
    }

    private func flatten(_ list: [Any], file: String, depth: Int, path: [Int], ordinal: inout Int) {
        for (index, element) in list.enumerated() {
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
                if let nested = Self.dictionaries(dictionary[key]) { children += nested } else { object[key] = Self.value(dictionary[key]!) }
            }
            object["depth"] = .integer(depth)
            object["path"] = .string(place.map(String.init).joined(separator: "."))
            object["childCount"] = .integer(children.count)
            records.append(InputRecord(file: file, number: ordinal, unit: .record, ordinal: ordinal, content: .object(object)))
            flatten(children, file: file, depth: depth + 1, path: place, ordinal: &ordinal)
        }
    }

    /// `value` when it is a non-empty array of dictionaries (children), nil otherwise.
    private static func dictionaries(_ value: Any?) -> [Any]? {
        guard let array = value as? [Any], !array.isEmpty, array.allSatisfy({ $0 is [String: Any] }) else { return nil }
        return array
    }

    /// A property-list value as JSON: dates as ISO 8601 text, data as Base64.
    private static func value(_ value: Any) -> JSONValue {
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
        case let array as [Any]: return .array(array.map(Self.value))
        case let dictionary as [String: Any]:
            return .object(JSONObject(dictionary.keys.sorted().map { ($0, Self.value(dictionary[$0]!)) }))
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
