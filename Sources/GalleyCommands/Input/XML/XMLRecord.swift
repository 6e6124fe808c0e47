// An XML record as the reader saw it, made into an object on the worker that lays it out.

import GalleyJSON

/// A record as read from XML: the parser's events for its elements, written one after another
/// into bytes (a *tape*) by the reader, and made into an object on the worker that lays the
/// record out. Building elements and objects on the reader, which runs alone, would take longer
/// than libxml2's parsing.
///
/// On the tape, an element's start is `1`, its name, its attribute count and each
/// attribute's name and value; text is `2` and the text; an element's end is `3`. Names and
/// texts are a length and the bytes; lengths and counts are four bytes, little-endian.
struct XMLRecord: Sendable {
    var tape: [UInt8]
    /// Elements read as lists whether they occur zero, one or many times.
    var listNames: ListNames
    /// The longest record read (`--max-record-length`): what its attributes may expand to, at
    /// four bytes a value (`null`).
    var maximumLength: Int

    /// Names read as lists, as a set and in order (every record lists the missing ones, sorted).
    struct ListNames: Sendable {
        let names: Set<String>
        let sorted: [String]

        init(_ names: Set<String>) { (self.names, sorted) = (names, names.sorted()) }

        func contains(_ name: String) -> Bool { !names.isEmpty && names.contains(name) }
    }

    /// Writing a record's tape, event by event.
    struct Writer {
        private(set) var tape: [UInt8] = []

        mutating func start(name: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>?, attributeCount: Int) {
            tape.append(1)
            appendName(name, prefix: prefix)
            appendLength(attributeCount)
        }

        mutating func attribute(name: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>?, value: UnsafeBufferPointer<UInt8>) {
            appendName(name, prefix: prefix)
            appendLength(value.count)
            tape.append(contentsOf: value)
        }

        mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
            tape.append(2)
            appendLength(bytes.count)
            tape.append(contentsOf: bytes)
        }

        mutating func end() { tape.append(3) }

        /// Hands the tape over and starts an empty one, with room for as much (records of a file
        /// are much alike: growing each from nothing would reallocate it many times).
        mutating func take() -> [UInt8] {
            let taken = tape
            tape = []
            tape.reserveCapacity(taken.count)
            return taken
        }

        private mutating func appendName(_ name: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>?) {
            appendLength(name.count + (prefix.map { $0.count + 1 } ?? 0))
            if let prefix {
                tape.append(contentsOf: prefix)
                tape.append(UInt8(ascii: ":"))
            }
            tape.append(contentsOf: name)
        }

        private mutating func appendLength(_ count: Int) {
            withUnsafeBytes(of: UInt32(truncatingIfNeeded: count).littleEndian) { tape.append(contentsOf: $0) }
        }
    }

    /// An element: its name, attributes, child elements and text.
    private struct Element {
        var name: String
        var attributes: [(String, String)]
        var children: [Element] = []
        /// Its text: a slice of the tape when it came in one piece (most do), else a copy.
        var text: ArraySlice<UInt8> = []
    }

    /// The record as an object.
    ///
    /// - Throws: ``RecordError`` when the attributes of its elements of one name, each of which
    ///   gets a value (or null) for every attribute any of them has, expand to more than
    ///   ``maximumLength`` bytes.
    func object() throws(RecordError) -> JSONObject {
        guard let element = root() else { return JSONObject() }
        var budget = max(maximumLength / 4, 1)
        return try object(for: element, isRecord: true, budget: &budget)
    }

    /// The tape read back into elements.
    private func root() -> Element? {
        do {
            var stack: [Element] = []
            var position = 0
            func length() -> Int {
                var value = 0
                for index in 0..<4 { value |= Int(tape[position + index]) << (8 * index) }
                position += 4
                return value
            }
            func bytes() -> ArraySlice<UInt8> {
                let count = length()
                defer { position += count }
                return tape[position..<(position + count)]
            }
            func string() -> String { String(decoding: bytes(), as: UTF8.self) }
            while position < tape.count {
                let event = tape[position]
                position += 1
                switch event {
                case 1:
                    let name = string()
                    let count = length()
                    var attributes: [(String, String)] = []
                    attributes.reserveCapacity(count)
                    for _ in 0..<count { attributes.append((string(), string())) }
                    stack.append(Element(name: name, attributes: attributes))
                case 2:
                    let text = bytes()
                    if !stack.isEmpty {
                        if stack[stack.count - 1].text.isEmpty {
                            stack[stack.count - 1].text = text
                        } else {
                            stack[stack.count - 1].text.append(contentsOf: text)
                        }
                    }
                default:
                    guard let element = stack.popLast() else { return nil }
                    if stack.isEmpty { return element }
                    stack[stack.count - 1].children.append(element)
                }
            }
            return nil
        }
    }

    /// `element` as an object; `budget` is how many more attribute values (nulls included) the
    /// record may take.
    private func object(for element: Element, isRecord: Bool, budget: inout Int) throws(RecordError) -> JSONObject {
        var object = JSONObject(minimumCapacity: element.children.count + element.attributes.count)
        for (name, value) in element.attributes { object["@" + name] = .string(value) }
        let children = element.children
        // Most records' children have a name each: each is a member, without grouping.
        if children.count <= 16, !children.indices.contains(where: { index in children[..<index].contains { $0.name == children[index].name } }) {
            for index in children.indices {
                try addMember(children[index].name, places: CollectionOfOne(index), of: children, to: &object, budget: &budget)
            }
            return finish(object, for: element, isRecord: isRecord)
        }
        // Children grouped by name, in the order each name first occurs.
        var groups: [(name: String, places: [Int])] = []
        do {
            var places: [String: Int] = [:]
            for (index, child) in children.enumerated() {
                if let place = places[child.name] {
                    groups[place].places.append(index)
                } else {
                    places[child.name] = groups.count
                    groups.append((child.name, [index]))
                }
            }
        }
        for (name, places) in groups { try addMember(name, places: places, of: children, to: &object, budget: &budget) }
        return finish(object, for: element, isRecord: isRecord)
    }

    /// Adds member `name` for the children at `places` (one, or every child of a repeated name):
    /// their values, a list when repeated or named by `--list`, and each attribute beside them as
    /// `name@attribute` (null for a child without it).
    private func addMember(
        _ name: String, places: some Collection<Int>, of children: [Element], to object: inout JSONObject, budget: inout Int
    ) throws(RecordError) {
        let isList = places.count > 1 || listNames.contains(name)
        if isList {
            var values: [JSONValue] = []
            values.reserveCapacity(places.count)
            for place in places { values.append(try value(of: children[place], budget: &budget)) }
            object[name] = .array(values)
        } else {
            object[name] = try value(of: children[places.first!], budget: &budget)
        }
        guard places.contains(where: { !children[$0].attributes.isEmpty }) else { return }
        // One column of values per attribute name, in the order the names first occur: each
        // child's value (of a name repeated in one element, the first), null where it has none.
        var names: [String] = []
        var columns: [[JSONValue]] = []
        // Names are looked up in a table once there are more than a few: an element may have
        // very many attributes.
        var index: [String: Int]?
        for (slot, place) in places.enumerated() {
            for (attribute, value) in children[place].attributes {
                let known = index != nil ? index?[attribute] : names.firstIndex(of: attribute)
                if let column = known {
                    if case .null = columns[column][slot] { columns[column][slot] = .string(value) }
                    continue
                }
                if index != nil {
                    index?[attribute] = names.count
                } else if names.count == 8 {
                    index = Dictionary(uniqueKeysWithValues: (names + [attribute]).enumerated().map { ($1, $0) })
                }
                budget -= places.count
                guard budget >= 0 else {
                    throw RecordError(
                        "the attributes of its <\(name)> elements expand past the record length limit of \(maximumLength) bytes (each gets a value, or null, for every attribute any of them has)"
                    )
                }
                names.append(attribute)
                var column = [JSONValue](repeating: .null, count: places.count)
                column[slot] = .string(value)
                columns.append(column)
            }
        }
        for (attribute, values) in zip(names, columns) { object[name + "@" + attribute] = isList ? .array(values) : values[0] }
    }

    /// `object` with, for a record, its missing lists empty, and otherwise the element's own text
    /// beside its children.
    private func finish(_ object: JSONObject, for element: Element, isRecord: Bool) -> JSONObject {
        var object = object
        if isRecord {
            for name in listNames.sorted where object[name] == nil { object[name] = .array([]) }
        } else if !element.children.isEmpty, case let text = Self.trimmed(element.text), !text.isEmpty {
            object["#text"] = .string(text)
        }
        return object
    }

    private func value(of element: Element, budget: inout Int) throws(RecordError) -> JSONValue {
        if element.children.isEmpty { return TextValues.value(Self.trimmed(element.text)) }
        return .object(try object(for: element, isRecord: false, budget: &budget))
    }

    /// The text without the white space XML allows around it (spaces, tabs, line breaks).
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> String {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }
        guard let start = bytes.firstIndex(where: { !isSpace($0) }), let end = bytes.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(decoding: bytes[start...end], as: UTF8.self)
    }
}
