// A JSON object's members: in the order written, found without hashing while there are few.

/// The members of a JSON object, in the order they were written or added.
///
/// Works like a dictionary from names to values (subscript, `count`, `keys`, iteration), but
/// keeps order and suits what items are: objects of a handful of members, made once per row
/// and read a few times. A dictionary hashes every name with SipHash to build and again to
/// look up; here each member carries a cheap tag of its name, and a lookup compares tags
/// before names. Objects of more than a few dozen members also keep a dictionary from names
/// to places, so that a large object never searches.
///
/// Equality and hashing ignore order, as JSON's object semantics (and a dictionary's) do.
/// A name added again keeps its first place and takes the new value, as JSON parsers that
/// keep the last of repeated names do.
public struct JSONObject: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// A member: its name and value.
    public typealias Element = (key: String, value: JSONValue)

    fileprivate struct Member: Sendable {
        var name: String
        var value: JSONValue
        var tag: UInt64
    }

    private var members: [Member] = []
    /// Places by name, for objects of more than ``indexedCount`` members; nil below that.
    private var places: [String: Int]?

    /// Above this many members an object keeps an index by name.
    static let indexedCount = 12

    /// An empty object.
    public init() {}

    /// An object with `capacity` members' room reserved.
    public init(minimumCapacity capacity: Int) {
        members.reserveCapacity(capacity)
    }

    /// The members of `dictionary`, in the order of their names (a dictionary has no order of
    /// its own, and the same members must give the same object every run).
    public init(_ dictionary: [String: JSONValue]) {
        members.reserveCapacity(dictionary.count)
        for name in dictionary.keys.sorted() { self[name] = dictionary[name] }
    }

    /// `members` in their order; a repeated name keeps its first place and its last value.
    public init(_ members: some Collection<(String, JSONValue)>) {
        self.members.reserveCapacity(members.count)
        for (name, value) in members { self[name] = value }
    }

    /// `["title": "Sunset", "duration": 312]`; a repeated name keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The number of members.
    public var count: Int { members.count }

    /// Whether there are no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The member names, in order.
    public var keys: [String] { members.map(\.name) }

    /// The member values, in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The value named `name`, or nil; setting nil removes the member.
    public subscript(name: String) -> JSONValue? {
        get { value(named: name, tag: Self.tag(of: name)) }
        set {
            let tag = Self.tag(of: name)
            if let newValue {
                if let place = place(of: name, tag: tag) {
                    members[place].value = newValue
                } else {
                    append(name, newValue, tag: tag)
                }
            } else {
                _ = removeValue(forKey: name)
            }
        }
    }

    /// The value named `name`, whose tag (``tag(of:)``) is `tag`: for callers that look the same
    /// names up row after row and keep their tags.
    package func value(named name: String, tag: UInt64) -> JSONValue? {
        place(of: name, tag: tag).map { members[$0].value }
    }

    /// Adds `value` under `name`, which no member has yet (callers look first); `tag` is the
    /// name's ``tag(of:)``.
    private mutating func append(_ name: String, _ value: JSONValue, tag: UInt64) {
        if places != nil {
            places?[name] = members.count
        } else if members.count == Self.indexedCount {
            var index = [String: Int](minimumCapacity: 2 * Self.indexedCount)
            for (place, member) in members.enumerated() { index[member.name] = place }
            index[name] = members.count
            places = index
        }
        members.append(Member(name: name, value: value, tag: tag))
    }

    /// Sets the value under `name` (tag `tag`), adding the member if it is new: what a parser
    /// does with each member it reads.
    package mutating func set(_ name: String, _ value: JSONValue, tag: UInt64) {
        if let place = place(of: name, tag: tag) { members[place].value = value } else { append(name, value, tag: tag) }
    }

    /// Removes the member named `name` and returns its value, or nil when there is none.
    @discardableResult
    public mutating func removeValue(forKey name: String) -> JSONValue? {
        guard let place = place(of: name, tag: Self.tag(of: name)) else { return nil }
        let removed = members.remove(at: place).value
        if places != nil {
            places?[name] = nil
            for later in place..<members.count { places?[members[later].name] = later }
        }
        return removed
    }

    /// Adds `other`'s members, `combine`-ing the values of names in both.
    public mutating func merge(_ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) -> JSONValue) {
        for member in other.members {
            if let place = place(of: member.name, tag: member.tag) {
                members[place].value = combine(members[place].value, member.value)
            } else {
                append(member.name, member.value, tag: member.tag)
            }
        }
    }

    /// A copy with `other`'s members added, `combine`-ing the values of names in both.
    public func merging(_ other: JSONObject, uniquingKeysWith combine: (JSONValue, JSONValue) -> JSONValue) -> JSONObject {
        var merged = self
        merged.merge(other, uniquingKeysWith: combine)
        return merged
    }

    /// The members as a dictionary.
    public var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
    }

    /// The members in order. A concrete type: an opaque one would look its type up at run time on
    /// every loop over an object from another module.
    public struct Iterator: IteratorProtocol {
        private let members: [Member]
        private var index = 0

        fileprivate init(_ members: [Member]) { self.members = members }

        /// The next member, in order.
        public mutating func next() -> Element? {
            guard index < members.count else { return nil }
            defer { index += 1 }
            return (members[index].name, members[index].value)
        }
    }

    /// An iterator over the members, in order.
    public func makeIterator() -> Iterator { Iterator(members) }

    private func place(of name: String, tag: UInt64) -> Int? {
        if let places { return places[name] }
        // Tags first: a lookup meets several other names for the one it wants, and comparing
        // two unequal strings costs far more than comparing two tags.
        return members.withUnsafeBufferPointer { members in
            for place in members.indices where members[place].tag == tag && members[place].name == name { return place }
            return nil
        }
    }

    /// A cheap fingerprint of `name`: its length and its first and last eight bytes, mixed
    /// (all of a name up to 16 bytes, which member names nearly always are). Equal names have
    /// equal tags; unequal names seldom do, and are then told apart by comparing them.
    package static func tag(of name: String) -> UInt64 {
        // Through the UTF-8 view, not a mutable copy's `withUTF8`: the copy would retain the name.
        if let tag = name.utf8.withContiguousStorageIfAvailable(tag(ofBytes:)) { return tag }
        var contiguous = name
        contiguous.makeContiguousUTF8()
        return contiguous.utf8.withContiguousStorageIfAvailable(tag(ofBytes:)) ?? 0
    }

    private static func tag(ofBytes bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawBufferPointer(bytes)
        let first: UInt64
        let last: UInt64
        if raw.count >= 8 {
            first = raw.loadUnaligned(as: UInt64.self)
            last = raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self)
        } else {
            var word: UInt64 = 0
            for byte in raw { word = word << 8 | UInt64(byte) }
            (first, last) = (word, 0)
        }
        let mixed = (first ^ UInt64(raw.count) &* 0x9E37_79B9_7F4A_7C15) &* 0xFF51_AFD7_ED55_8CCD ^ last
        return mixed ^ mixed >> 29
    }

    /// Whether the two are equal.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // Copies of one object share their members: equal without a look at them (a table
        // compares every row's item with the item it had).
        let shared = lhs.members.withUnsafeBufferPointer { left in
            rhs.members.withUnsafeBufferPointer { right in left.baseAddress == right.baseAddress }
        }
        return shared || lhs.members.allSatisfy { rhs.value(named: $0.name, tag: $0.tag) == $0.value }
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        // Order-blind: each member hashed alone, the results added.
        var sum = 0
        for member in members {
            var memberHasher = Hasher()
            memberHasher.combine(member.name)
            memberHasher.combine(member.value)
            sum &+= memberHasher.finalize()
        }
        hasher.combine(count)
        hasher.combine(sum)
    }
}
