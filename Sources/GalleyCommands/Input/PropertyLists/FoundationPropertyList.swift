// XML property lists, read by Foundation.

import Foundation
import GalleyJSON

/// An XML property list as Foundation's `PropertyListSerialization` reads it, made into JSON
/// values once, as ``BinaryPropertyList`` reads a binary one.
struct FoundationPropertyList: PropertyListTree {
    let root: JSONValue

    /// Reads `bytes`; nil when they expand past `limit` values or nest deeper than
    /// ``PropertyLists/maximumDepth``.
    ///
    /// - Throws: Foundation's reason when the bytes are not a property list.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(RecordError) {
        let object: Any
        do { object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) } catch {
            throw RecordError((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? error.localizedDescription)
        }
        var budget = limit
        guard let root = Self.value(object, depth: 0, budget: &budget) else { return nil }
        self.root = root
    }

    func elements(of node: JSONValue) -> [JSONValue]? {
        if case .array(let elements) = node { elements } else { nil }
    }

    func members(of node: JSONValue) -> [(key: String, value: JSONValue)]? {
        if case .object(let object) = node { object.map { ($0.key, $0.value) } } else { nil }
    }

    func isDictionary(_ node: JSONValue) -> Bool {
        if case .object = node { true } else { false }
    }

    func kindName(_ node: JSONValue) -> String { node.kindName }

    /// A record's size is 0: an XML list names nothing twice (it has no references, and
    /// Foundation refuses entities), so its records hold no more than the file.
    func record(_ node: JSONValue, depth: Int, path: String) -> (content: InputRecord.Content, children: [JSONValue], size: Int)? {
        guard case .object(var object) = node else { return nil }
        var children: [JSONValue] = []
        for (key, value) in object {
            // Foundation's values are read already: nothing here can fail.
            guard let elements = (try? records(in: value)) ?? nil else { continue }
            children += elements
            object.removeValue(forKey: key)
        }
        PropertyListPlace(depth: depth, path: path, childCount: children.count).add(to: &object)
        return (.object(object), children, 0)
    }

    /// A value Foundation read, as JSON: dictionaries' members sorted by key, dates as ISO 8601
    /// text, data as Base64. Nil past `budget` values or ``PropertyLists/maximumDepth`` levels.
    private static func value(_ value: Any, depth: Int, budget: inout Int) -> JSONValue? {
        budget -= 1
        guard budget >= 0, depth < PropertyLists.maximumDepth else { return nil }
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
            for element in array {
                guard let converted = Self.value(element, depth: depth + 1, budget: &budget) else { return nil }
                elements.append(converted)
            }
            return .array(elements)
        case let dictionary as [String: Any]:
            var object = JSONObject(minimumCapacity: dictionary.count)
            for key in dictionary.keys.sorted() {
                guard let member = dictionary[key], let converted = Self.value(member, depth: depth + 1, budget: &budget) else { return nil }
                object[key] = converted
            }
            return .object(object)
        default: return .string("\(value)")
        }
    }
}
