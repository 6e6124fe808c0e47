// What a row's cached height is keyed by: its item and its template, and the layout around it.

import GalleyLayout
import GalleyText

/// A row's content for its height: the item's id, kind and fields and the template that lays it
/// out, as two independent 64-bit hashes (two different rows share a key with a probability
/// of about n² / 2¹²⁹).
struct RowKey: Sendable, Hashable {
    var high: UInt64
    var low: UInt64

    /// The key of `item` laid out by the template `template` identifies.
    init(_ item: ItemDescriptor, template: ObjectIdentifier) {
        var first = Hasher()
        first.combine(0x9E37_79B9 as UInt32)
        first.combine(item)
        first.combine(template)
        var second = Hasher()
        second.combine(0x85EB_CA6B as UInt32)
        second.combine(item)
        second.combine(template)
        high = UInt64(bitPattern: Int64(first.finalize()))
        low = UInt64(bitPattern: Int64(second.finalize()))
    }

    /// The key of a fixed-height supplement, which nothing measures.
    static let fixed = RowKey(high: 0, low: 0)

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}

/// What a height depends on besides the row: the width and the environment (text engine,
/// scale, direction, language). The stylesheet belongs to the compiled template, in the row's key.
struct LayoutConfiguration: Sendable, Hashable {
    var width: Double
    var scale: Double
    var direction: LayoutEnvironment.Direction
    var language: String?
    /// Held, not only named: an engine's address is not reused while heights measured with it are kept.
    var engine: TextEngine

    init(width: Double, environment: LayoutEnvironment) {
        self.width = width
        scale = environment.scale
        direction = environment.direction
        language = environment.language
        engine = environment.textEngine
    }

    static func == (lhs: LayoutConfiguration, rhs: LayoutConfiguration) -> Bool {
        lhs.width == rhs.width && lhs.scale == rhs.scale && lhs.direction == rhs.direction && lhs.language == rhs.language
            && lhs.engine === rhs.engine
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(scale)
        hasher.combine(ObjectIdentifier(engine))
    }
}
