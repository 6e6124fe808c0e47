// Typed, strict access to a JSON object's members, with errors that name the path.

import GalleyJSON

/// Reads one JSON object's members, rejecting unknown keys, with errors naming `path`.
struct JSONReader {
    let object: JSONObject
    let path: String
    private var used: Set<String> = []

    init(_ value: JSONValue, path: String) throws(LayoutError) {
        guard case .object(let object) = value else { throw .invalidTemplate(path: path, reason: "expected an object, got \(value.kindName)") }
        self.object = object
        self.path = path
    }

    func error(_ reason: String, key: String? = nil) -> LayoutError {
        .invalidTemplate(path: key.map { "\(path).\($0)" } ?? path, reason: reason)
    }

    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(LayoutError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw error("must be a string, got \(value.kindName)", key: key) }
        return string
    }

    mutating func requiredString(_ key: String) throws(LayoutError) -> String {
        guard let string = try string(key) else { throw error("is missing", key: key) }
        return string
    }

    mutating func number(_ key: String) throws(LayoutError) -> Double? {
        guard let value = value(key) else { return nil }
        guard let number = value.doubleValue else { throw error("must be a number, got \(value.kindName)", key: key) }
        guard number.isFinite else { throw error("must be finite", key: key) }
        return number
    }

    mutating func integer(_ key: String) throws(LayoutError) -> Int? {
        guard let value = value(key) else { return nil }
        guard case .integer(let integer) = value else { throw error("must be an integer, got \(value.kindName)", key: key) }
        return integer
    }

    mutating func bool(_ key: String) throws(LayoutError) -> Bool? {
        guard let value = value(key) else { return nil }
        guard case .bool(let bool) = value else { throw error("must be true or false, got \(value.kindName)", key: key) }
        return bool
    }

    mutating func enumeration<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type) throws(LayoutError) -> Value?
    where Value.RawValue == String {
        guard let string = try string(key) else { return nil }
        guard let parsed = Value(rawValue: string) else {
            throw error("must be one of \(Value.allCases.map(\.rawValue).joined(separator: ", ")), got '\(string)'", key: key)
        }
        return parsed
    }

    /// A length: a number of points, or a metric's name.
    mutating func length(_ key: String) throws(LayoutError) -> Length? {
        guard let value = value(key) else { return nil }
        return try Self.length(value, path: "\(path).\(key)")
    }

    static func length(_ value: JSONValue, path: String) throws(LayoutError) -> Length {
        switch value {
        case .integer(let integer): return .points(Double(integer))
        case .number(let number): return .points(number)
        case .numeral: return .points(value.doubleValue ?? .nan)
        case .string(let name): return .metric(name)
        default: throw .invalidTemplate(path: path, reason: "a length must be a number or a metric name, got \(value.kindName)")
        }
    }

    /// Fails on keys nobody asked for: they are typos or unsupported options.
    func finish() throws(LayoutError) {
        if let unknown = object.keys.filter({ !used.contains($0) }).sorted().first {
            throw error("unknown key '\(unknown)'")
        }
    }
}
