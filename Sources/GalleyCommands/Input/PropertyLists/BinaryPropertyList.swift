// Binary property lists ("bplist00") read straight into JSON values.

import Foundation
import GalleyJSON

/// A binary property list: a header, typed objects, a table of their offsets and a trailer that
/// names the top object. Read here rather than with `PropertyListSerialization`, which builds
/// Foundation objects and bridges each to Swift, which costs far more than reading the
/// same rows as JSON Lines does (Docs/Batch.md has the measurement).
///
/// Objects name each other by index, so a small file can name one array many times over (2⁴⁰
/// values from a kilobyte), or one long string from every record: the graph is checked once,
/// before any value is read, counting the values and the bytes of strings and data each object
/// expands to (see ``expandedSize(of:)``), and nothing is read outside the object table.
/// Immutable once read, it is shared by the workers, which turn records into objects
/// (``PropertyListRecord``).
final class BinaryPropertyList: Sendable {
    /// The file, kept for ``bytes``.
    private let file: WholeInput
    /// The file's bytes, read through a pointer (the workers' reads through an array would retain
    /// and release its storage at every byte); never written, so safe to share.
    nonisolated(unsafe) private let bytes: UnsafeBufferPointer<UInt8>
    private let offsetSize: Int, referenceSize: Int, objectCount: Int, table: Int
    /// The top object.
    let top: Int
    /// The bytes of strings and data each object reachable from the top expands to: set once, by
    /// the initializer (which works them out with the methods that read objects), and only read
    /// after, so safe to share.
    nonisolated(unsafe) private var sizes: [Int] = []
    /// More bytes than any list expands to that is read: sums stop here rather than overflow.
    private static let sizeCap = 1 << 60

    /// Why a list cannot be read: malformed, or more values or levels than allowed.
    enum Failure: Error {
        case malformed(String)
        case tooLarge
    }

    /// A container object's kind and references.
    enum Object {
        case array([Int])
        /// Keys and values, in the file's order.
        case dictionary(keys: [Int], values: [Int])
        case other
    }

    /// Whether `bytes` start as a binary property list does.
    static func isBinary(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool { bytes.starts(with: Array("bplist".utf8)) }

    /// Reads the trailer and walks the object graph from the top: the list is refused when it
    /// expands to more than `limit` values or nests deeper than ``PropertyLists/maximumDepth``
    /// (a cycle does), so that reading any part of it afterwards is bounded.
    init(_ file: WholeInput, limit: Int) throws(Failure) {
        let bytes = file.bytes
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else { throw .malformed("too short, or not version 0") }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6])
        let referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
            let objectCount = Self.integer(bytes, at: trailer + 8, size: 8),
            let top = Self.integer(bytes, at: trailer + 16, size: 8),
            let table = Self.integer(bytes, at: trailer + 24, size: 8),
            objectCount > 0, objectCount <= trailer, top < objectCount, table >= 8,
            table <= trailer, objectCount <= (trailer - table) / offsetSize
        else { throw .malformed("its trailer does not describe an object table inside the file") }
        (self.file, self.bytes) = (file, bytes)
        (self.offsetSize, self.referenceSize, self.objectCount, self.top, self.table) = (offsetSize, referenceSize, objectCount, top, table)
        sizes = try expansion(limit: limit)
    }

    /// Counts the values the top object expands to, and the bytes of strings and data each
    /// object does, each object's worked out once: the sizes, when there are at most `limit` values.
    private func expansion(limit: Int) throws(Failure) -> [Int] {
        // -1 unseen, -2 being counted.
        var counts = [Int](repeating: -1, count: objectCount)
        var sizes = [Int](repeating: 0, count: objectCount)
        let total = try counts.withUnsafeMutableBufferPointer { counts throws(Failure) in
            try sizes.withUnsafeMutableBufferPointer { sizes throws(Failure) in
                try count(top, depth: 0, counts: counts, sizes: sizes, limit: limit)
            }
        }
        if total > limit { throw .tooLarge }
        return sizes
    }

    /// The values `object` expands to (at most `limit + 1`), its containers' counts kept in
    /// `counts`, and the bytes of strings and data it expands to in `sizes` (keys' included).
    private func count(
        _ object: Int, depth: Int, counts: UnsafeMutableBufferPointer<Int>, sizes: UnsafeMutableBufferPointer<Int>, limit: Int
    ) throws(Failure) -> Int {
        guard depth < PropertyLists.maximumDepth else { throw .tooLarge }
        guard object < objectCount else { throw .malformed("a reference to object \(object), past the table") }
        if counts[object] >= 0 { return counts[object] }
        guard counts[object] == -1 else { throw .tooLarge }  // a cycle
        let offset = try offset(of: object)
        let kind = bytes[offset] >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else {
            counts[object] = 1
            sizes[object] = leafSize(object, at: offset)
            return 1
        }
        counts[object] = -2
        // Read in place: the references of every container are visited once.
        let (length, start) = try self.length(at: offset, object: object)
        try check(start, length * (kind == 0xD ? 2 : 1) * referenceSize, object: object)
        // A dictionary's values follow its keys, which are strings (read as such later: a key
        // that is not one counts for nothing here).
        let first = kind == 0xD ? length : 0
        let end = kind == 0xD ? 2 * length : length
        var total = 1
        var size = 0
        for index in 0..<first {
            let key = reference(at: start + index * referenceSize)
            if let keyOffset = try? self.offset(of: key) { size = min(size + leafSize(key, at: keyOffset), Self.sizeCap) }
        }
        for index in first..<end {
            let element = reference(at: start + index * referenceSize)
            total = min(total + (try count(element, depth: depth + 1, counts: counts, sizes: sizes, limit: limit)), limit + 1)
            size = min(size + sizes[element], Self.sizeCap)
        }
        counts[object] = total
        sizes[object] = size
        return total
    }

    /// The bytes a string or data object expands to as JSON text (at most three a UTF-16 unit;
    /// data as Base64); 0 for other objects, and for one whose length is malformed (an error
    /// when its record is read).
    private func leafSize(_ object: Int, at offset: Int) -> Int {
        let kind = bytes[offset] >> 4
        guard (0x4...0x7).contains(kind), let (count, _) = try? length(at: offset, object: object) else { return 0 }
        return switch kind {
        case 0x4: (count + 2) / 3 * 4
        case 0x6: count * 3
        default: count
        }
    }

    /// The bytes of strings and data `object` expands to (its keys', elements' and values' for
    /// a container), as counted when the list was read; 0 for an object the top does not reach.
    func expandedSize(of object: Int) -> Int { object < sizes.count ? sizes[object] : 0 }

    /// An object's kind, and its references when it is a container.
    func container(_ object: Int) throws(Failure) -> Object {
        let offset = try offset(of: object)
        let kind = bytes[offset] >> 4
        guard kind == 0xA || kind == 0xC || kind == 0xD else { return .other }
        let (count, start) = try length(at: offset, object: object)
        try check(start, count * (kind == 0xD ? 2 : 1) * referenceSize, object: object)
        let references = (0..<(kind == 0xD ? 2 * count : count)).map { reference(at: start + $0 * referenceSize) }
        return kind == 0xD ? .dictionary(keys: Array(references[..<count]), values: Array(references[count...])) : .array(references)
    }

    /// A dictionary key's text.
    func key(_ object: Int) throws(Failure) -> String {
        let offset = try offset(of: object)
        guard (0x5...0x7).contains(bytes[offset] >> 4) else { throw .malformed("a dictionary key (object \(object)) is not a string") }
        return try string(object, at: offset)
    }

    /// `object` as JSON: dictionaries' members sorted by key, dates as ISO 8601 text, data as
    /// Base64, sets as arrays, keyed-archive references as integers.
    func value(_ object: Int) throws(Failure) -> JSONValue {
        try value(object, depth: 0)
    }

    private func value(_ object: Int, depth: Int) throws(Failure) -> JSONValue {
        guard depth < PropertyLists.maximumDepth else { throw .tooLarge }
        let offset = try offset(of: object)
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x00: return .null
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw .malformed("object \(object) has the unknown marker \(marker)")
            }
        case 0x1:
            return try integerValue(at: offset + 1, size: 1 << low, object: object)
        case 0x2:
            if low == 2, let bits = Self.integer(bytes, at: offset + 1, size: 4, within: table) {
                return .number(Double(Float(bitPattern: UInt32(bits))))
            }
            if low == 3, let bits = Self.unsigned(bytes, at: offset + 1, size: 8, within: table) {
                return .number(Double(bitPattern: bits))
            }
            throw .malformed("object \(object) is a real of \(1 << low) bytes")
        case 0x3:
            guard marker == 0x33, let bits = Self.unsigned(bytes, at: offset + 1, size: 8, within: table) else {
                throw .malformed("object \(object) is a malformed date")
            }
            return .string(Date(timeIntervalSinceReferenceDate: Double(bitPattern: bits)).formatted(.iso8601))
        case 0x4:
            let (count, start) = try length(at: offset, object: object)
            try check(start, count, object: object)
            return .string(Data(UnsafeBufferPointer(rebasing: bytes[start..<(start + count)])).base64EncodedString())
        case 0x5, 0x6, 0x7:
            return .string(try string(object, at: offset))
        case 0x8:
            return try integerValue(at: offset + 1, size: low + 1, object: object)
        case 0xA, 0xC:
            let (count, start) = try length(at: offset, object: object)
            try check(start, count * referenceSize, object: object)
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count { elements.append(try value(reference(at: start + index * referenceSize), depth: depth + 1)) }
            return .array(elements)
        case 0xD:
            return .object(try self.object(object, depth: depth))
        default:
            throw .malformed("object \(object) has the unknown marker \(marker)")
        }
    }

    /// Dictionary `dictionary` as an object, its members sorted by key (as XML property lists'
    /// dictionaries are read; of a repeated key, the last), but those `skipping` names by place.
    func object(_ dictionary: Int, depth: Int = 0, skipping: [Int] = [], extraCapacity: Int = 0) throws(Failure) -> JSONObject {
        let offset = try offset(of: dictionary)
        guard bytes[offset] >> 4 == 0xD else { throw .malformed("object \(dictionary) is not a dictionary") }
        let (count, start) = try length(at: offset, object: dictionary)
        try check(start, count * 2 * referenceSize, object: dictionary)
        var members: [(key: String, value: JSONValue)] = []
        members.reserveCapacity(count)
        var skippedKeys: [String] = []
        for index in 0..<count {
            let key = try self.key(reference(at: start + index * referenceSize))
            if skipping.contains(index) {
                skippedKeys.append(key)
                continue
            }
            members.append((key, try value(reference(at: start + (count + index) * referenceSize), depth: depth + 1)))
        }
        members = Self.sortedByKey(members)
        // An earlier member under a skipped list's key is repeated by that list, so it is gone too.
        if !skippedKeys.isEmpty { members.removeAll { skippedKeys.contains($0.key) } }
        var object = JSONObject(minimumCapacity: members.count + extraCapacity)
        for (key, member) in members { object[key] = member }
        return object
    }

    /// `members` sorted by key, of a repeated key only the last kept: the order and the choice
    /// every reading of a dictionary makes (its object, its members, its lists of children), as
    /// XML property lists' dictionaries are read.
    static func sortedByKey<Value>(_ members: [(key: String, value: Value)]) -> [(key: String, value: Value)] {
        // Most dictionaries come sorted with no repeats: nothing to do.
        if zip(members, members.dropFirst()).allSatisfy({ $0.key < $1.key }) { return members }
        let sorted = members.indices.sorted { (members[$0].key, $0) < (members[$1].key, $1) }
        var result: [(key: String, value: Value)] = []
        result.reserveCapacity(sorted.count)
        for (position, index) in sorted.enumerated() where position + 1 == sorted.count || members[sorted[position + 1]].key != members[index].key {
            result.append(members[index])
        }
        return result
    }

    /// A string object: ASCII, UTF-16 (big-endian) or UTF-8.
    private func string(_ object: Int, at offset: Int) throws(Failure) -> String {
        let kind = bytes[offset] >> 4
        let (count, start) = try length(at: offset, object: object)
        let size = kind == 0x6 ? count * 2 : count
        try check(start, size, object: object)
        if kind == 0x6 { return Self.utf16BigEndian(bytes, start: start, count: count) }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<(start + size)]), as: UTF8.self)
    }

    /// `count` big-endian UTF-16 units from `start`, transcoded here: the standard library's
    /// generic decoding of UTF-16 would take most of a list's reading. A lone surrogate becomes U+FFFD.
    private static func utf16BigEndian(_ source: UnsafeBufferPointer<UInt8>, start: Int, count: Int) -> String {
        // At most three UTF-8 bytes a unit (a surrogate pair's four bytes are two units).
        String(unsafeUninitializedCapacity: count * 3) { target in
            var written = 0
            var index = 0
            while index < count {
                let unit = UInt32(source[start + index * 2]) << 8 | UInt32(source[start + index * 2 + 1])
                index += 1
                var scalar = unit
                switch unit {
                case ..<0x80:
                    // Most text is ASCII: one byte, nothing else to look at.
                    target[written] = UInt8(unit)
                    written += 1
                    continue
                case 0xD800..<0xDC00 where index < count:
                    let next = UInt32(source[start + index * 2]) << 8 | UInt32(source[start + index * 2 + 1])
                    if (0xDC00..<0xE000).contains(next) {
                        scalar = 0x10000 + (unit - 0xD800) << 10 + (next - 0xDC00)
                        index += 1
                    } else {
                        scalar = 0xFFFD
                    }
                case 0xD800..<0xE000:
                    scalar = 0xFFFD
                default:
                    break
                }
                // The scalar's UTF-8 bytes, most significant first.
                let count = scalar < 0x800 ? 2 : scalar < 0x10000 ? 3 : 4
                let lead: UInt32 = count == 2 ? 0xC0 : count == 3 ? 0xE0 : 0xF0
                target[written] = UInt8(lead | scalar >> (6 * UInt32(count - 1)))
                for place in 1..<count {
                    target[written + place] = UInt8(0x80 | scalar >> (6 * UInt32(count - 1 - place)) & 0x3F)
                }
                written += count
            }
            return written
        }
    }

    /// An integer object's value: one, two and four bytes are unsigned, eight signed, sixteen a
    /// signed 128-bit value (kept when it fits 64 bits).
    private func integerValue(at offset: Int, size: Int, object: Int) throws(Failure) -> JSONValue {
        if size == 16, let high = Self.unsigned(bytes, at: offset, size: 8, within: table),
            let low = Self.unsigned(bytes, at: offset + 8, size: 8, within: table)
        {
            if high == 0 { return low <= UInt64(Int.max) ? .integer(Int(low)) : .numeral(String(low)) }
            if high == UInt64.max, low > UInt64(Int.max) { return .integer(Int(bitPattern: UInt(low))) }
            throw .malformed("object \(object) is an integer past 64 bits")
        }
        guard size <= 8, let value = Self.unsigned(bytes, at: offset, size: size, within: table) else {
            throw .malformed("object \(object) is an integer of \(size) bytes")
        }
        return size == 8 ? .integer(Int(bitPattern: UInt(value))) : .integer(Int(value))
    }

    /// Where `object` starts.
    private func offset(of object: Int) throws(Failure) -> Int {
        guard object < objectCount, let offset = Self.integer(bytes, at: table + object * offsetSize, size: offsetSize),
            offset >= 8, offset < table
        else { throw .malformed("object \(object) is outside the object table") }
        return offset
    }

    /// The object index at `position` in a container's references (checked to be in the table).
    private func reference(at position: Int) -> Int {
        Self.integer(bytes, at: position, size: referenceSize) ?? objectCount
    }

    /// A container's or string's length and where its contents start.
    private func length(at offset: Int, object: Int) throws(Failure) -> (Int, Int) {
        let low = Int(bytes[offset] & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        guard offset + 1 < table, bytes[offset + 1] >> 4 == 0x1 else { throw .malformed("object \(object) has a malformed length") }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, let length = Self.integer(bytes, at: offset + 2, size: size, within: table) else {
            throw .malformed("object \(object) has a malformed length")
        }
        // No longer than the objects: products of it cannot overflow.
        guard length <= table else { throw .malformed("object \(object) runs past the object table") }
        return (length, offset + 2 + size)
    }

    /// Checks that `count` bytes from `start` lie inside the objects.
    private func check(_ start: Int, _ count: Int, object: Int) throws(Failure) {
        guard count >= 0, start <= table, count <= table - start else { throw .malformed("object \(object) runs past the object table") }
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`, ending at or before `end`.
    private static func unsigned(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int, within end: Int) -> UInt64? {
        guard offset >= 0, size <= 8, offset <= end - size, end <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value
    }

    /// As ``unsigned(_:at:size:within:)``, nil past `Int.max`.
    private static func integer(_ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, size: Int, within end: Int? = nil) -> Int? {
        guard let value = unsigned(bytes, at: offset, size: size, within: end ?? bytes.count), value <= UInt64(Int.max) else { return nil }
        return Int(value)
    }
}

extension BinaryPropertyList.Failure: CustomStringConvertible {
    var description: String {
        switch self {
        case .malformed(let reason): reason
        case .tooLarge: "it expands to too many values, or nests too deep"
        }
    }
}

extension BinaryPropertyList: PropertyListTree {
    var root: Int { top }

    func elements(of node: Int) throws(RecordError) -> [Int]? {
        do { if case .array(let elements) = try container(node) { return elements } } catch { throw RecordError("not a property list: \(error)") }
        return nil
    }

    func members(of node: Int) throws(RecordError) -> [(key: String, value: Int)]? {
        do {
            guard case .dictionary(let keys, let values) = try container(node) else { return nil }
            var members: [(key: String, value: Int)] = []
            for (key, value) in zip(keys, values) { members.append((try self.key(key), value)) }
            return Self.sortedByKey(members)
        } catch {
            throw RecordError("not a property list: \(error)")
        }
    }

    func isDictionary(_ node: Int) -> Bool {
        guard let offset = try? offset(of: node) else { return false }
        return bytes[offset] >> 4 == 0xD
    }

    func kindName(_ node: Int) -> String {
        guard let offset = try? offset(of: node) else { return "nothing" }
        return switch bytes[offset] >> 4 {
        case 0x0: bytes[offset] == 0 ? "null" : "a boolean"
        case 0x1, 0x2, 0x8: "a number"
        case 0x3: "a date"
        case 0x4: "data"
        case 0x5, 0x6, 0x7: "a string"
        case 0xA, 0xC: "an array"
        default: "a dictionary"
        }
    }

    /// Looks at the dictionary's values' markers only (and at keys only to order several lists of
    /// children); the members are read on the worker, by ``PropertyListRecord``.
    func record(_ node: Int, depth: Int, path: String) throws(RecordError) -> (content: InputRecord.Content, children: [Int], size: Int)? {
        do {
            let offset = try offset(of: node)
            guard bytes[offset] >> 4 == 0xD else { return nil }
            let (count, start) = try length(at: offset, object: node)
            try check(start, count * 2 * referenceSize, object: node)
            var lists: [(key: Int, member: Int, value: Int)] = []
            for index in 0..<count {
                let value = reference(at: start + (count + index) * referenceSize)
                if try isListOfDictionaries(value) { lists.append((reference(at: start + index * referenceSize), index, value)) }
            }
            if !lists.isEmpty {
                // A list counts only where its key is not repeated later (by anything): the keys
                // are read for dictionaries with lists of children only.
                var keyed: [(key: String, value: Int)] = []
                for index in 0..<count { keyed.append((try key(reference(at: start + index * referenceSize)), index)) }
                let listsByMember = Dictionary(uniqueKeysWithValues: lists.map { ($0.member, $0) })
                lists = Self.sortedByKey(keyed).compactMap { listsByMember[$0.value] }
            }
            var children: [Int] = []
            for list in lists { if case .array(let elements) = try container(list.value) { children += elements } }
            let place = PropertyListPlace(depth: depth, path: path, childCount: children.count)
            // Its lists of children are records of their own: their bytes are theirs.
            let size = max(0, lists.reduce(expandedSize(of: node)) { $0 - expandedSize(of: $1.value) })
            return (.propertyList(PropertyListRecord(list: self, dictionary: node, children: lists.map(\.member), place: place)), children, size)
        } catch {
            throw RecordError("not a property list: \(error)")
        }
    }

    /// Whether `object` is a non-empty array of dictionaries, read from markers alone.
    private func isListOfDictionaries(_ object: Int) throws(Failure) -> Bool {
        let offset = try offset(of: object)
        let kind = bytes[offset] >> 4
        guard kind == 0xA || kind == 0xC else { return false }
        let (count, start) = try length(at: offset, object: object)
        guard count > 0 else { return false }
        try check(start, count * referenceSize, object: object)
        for index in 0..<count {
            guard let element = try? self.offset(of: reference(at: start + index * referenceSize)), bytes[element] >> 4 == 0xD else { return false }
        }
        return true
    }
}
