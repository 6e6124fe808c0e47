// What a row's cached height is keyed by: its item and its template, and the layout around it.

import GalleyJSON
import GalleyLayout
import GalleyText

/// A row's content for its height: the item's id, kind and fields and the template that lays it
/// out, as two independent 64-bit hashes (two different rows share a key with a probability
/// of about n² / 2¹²⁹).
struct RowKey: Sendable, Hashable {
    var high: UInt64
    var low: UInt64

    /// The key of `item` laid out by the template `template` identifies. Fields are hashed in
    /// their order: the same content in another order is only a cache miss.
    init(_ item: ItemDescriptor, template: ObjectIdentifier) {
        var first = Hasher()
        var second = Hasher()
        first.combine(0x9E37_79B9 as UInt32)
        second.combine(0x85EB_CA6B as UInt32)
        Self.combine(item, template, into: &first)
        Self.combine(item, template, into: &second)
        high = UInt64(bitPattern: Int64(first.finalize()))
        low = UInt64(bitPattern: Int64(second.finalize()))
    }

    private static func combine(_ item: ItemDescriptor, _ template: ObjectIdentifier, into hasher: inout Hasher) {
        combine(item.id, into: &hasher)
        combine(item.kind, into: &hasher)
        hasher.combine(template)
        combine(.object(item.fields), into: &hasher)
    }

    /// A string's UTF-8 bytes and their count: Swift's own string hashing normalizes the text
    /// first, which costs more than measuring a short label; equal bytes are what a cache needs.
    private static func combine(_ string: String, into hasher: inout Hasher) {
        var string = string
        string.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(bytes))
        }
    }

    /// A value, kind by kind, its members and elements in order.
    private static func combine(_ value: JSONValue, into hasher: inout Hasher) {
        switch value {
        case .null: hasher.combine(0 as UInt8)
        case .bool(let bool): hasher.combine(bool ? 1 as UInt8 : 2)
        case .integer(let integer):
            hasher.combine(3 as UInt8)
            hasher.combine(integer)
        case .number(let number):
            hasher.combine(4 as UInt8)
            hasher.combine(number.bitPattern)
        case .numeral(let text):
            hasher.combine(5 as UInt8)
            combine(text, into: &hasher)
        case .string(let string):
            hasher.combine(6 as UInt8)
            combine(string, into: &hasher)
        case .array(let elements):
            hasher.combine(7 as UInt8)
            hasher.combine(elements.count)
            for element in elements { combine(element, into: &hasher) }
        case .object(let members):
            hasher.combine(8 as UInt8)
            hasher.combine(members.count)
            for (name, member) in members {
                combine(name, into: &hasher)
                combine(member, into: &hasher)
            }
        }
    }

    /// The key of a fixed-height supplement, which nothing measures.
    static let fixed = RowKey(high: 0, low: 0)
    /// The key of a row not yet worked out (see ``TableModel/key(of:)``).
    static let unset = RowKey(high: 0, low: 1)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}

/// What a height depends on besides the row: the width, the environment (text engine, scale,
/// direction, language) and the registry (whose templates carry the stylesheet; a row's key
/// names its template too).
struct LayoutConfiguration: Sendable, Hashable {
    var width: Double
    var scale: Double
    var direction: LayoutEnvironment.Direction
    var language: String?
    /// Held, not only named: an engine's address is not reused while heights measured with it are kept.
    var engine: TextEngine
    var registry: RegistryIdentity

    init(width: Double, environment: LayoutEnvironment, registry: RegistryIdentity) {
        self.width = width
        scale = environment.scale
        direction = environment.direction
        language = environment.language
        engine = environment.textEngine
        self.registry = registry
    }

    static func == (lhs: LayoutConfiguration, rhs: LayoutConfiguration) -> Bool {
        lhs.width == rhs.width && lhs.scale == rhs.scale && lhs.direction == rhs.direction && lhs.language == rhs.language
            && lhs.engine === rhs.engine && lhs.registry == rhs.registry
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(scale)
        hasher.combine(ObjectIdentifier(engine))
    }
}
