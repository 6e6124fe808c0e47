// Short pieces of JSON formatted in stack memory, then appended to the output in one call.

/// Bytes written through a pointer into stack memory, then appended to an output at once:
/// ``JSONWriter`` formats a member here (its comma, its quoted key and a number or a short
/// string), every number it writes goes through here, and `galley heights` composes its lines
/// here, a row's at once.
///
/// Appending to an array byte by byte checks its uniqueness and capacity each time, and
/// appending each piece on its own is a generic copy apiece: for the short lines of `galley
/// heights` that would cost more than the rest of writing them.
///
/// Every append writes all of its piece or, when it does not fit, nothing, and says which.
package struct ByteScratch {
    /// Room for any member whose key and value are short: an integer needs at most 20 bytes.
    package static let memberCapacity = 64

    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    /// How many bytes have been written.
    package private(set) var count = 0

    @usableFromInline
    init(base: UnsafeMutablePointer<UInt8>, capacity: Int) { (self.base, self.capacity) = (base, capacity) }

    /// Runs `body` with an empty scratch of `capacity` bytes in stack memory (valid only
    /// during `body`: append its ``bytes`` to your output there).
    // Inlinable, so that callers in other modules get it specialized: generic, it would look up
    // the metadata of the standard library's `Result` at every call.
    @inlinable
    package static func with<Result>(capacity: Int = memberCapacity, _ body: (inout ByteScratch) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var scratch = ByteScratch(base: buffer.baseAddress!, capacity: capacity)
            return body(&scratch)
        }
    }

    /// What has been written.
    package var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    private var room: Int { capacity - count }

    /// Appends `bytes`, when they fit.
    package mutating func append(contentsOf bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count <= room else { return false }
        if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
        count += bytes.count
        return true
    }

    /// Appends bytes written earlier, `range` of ``bytes``, when they fit again.
    package mutating func appendAgain(_ range: Range<Int>) -> Bool {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "not written yet")
        guard range.count <= room else { return false }
        (base + count).update(from: base + range.lowerBound, count: range.count)
        count += range.count
        return true
    }

    /// Appends `value` as ``JSONWriter/write(_:to:)-(JSONValue,_)`` writes it, when it fits and
    /// is written that way here: `null`, a boolean, an integer, a number that
    /// ``append(_:)-(Double)`` takes, or a string that needs no escapes. Not arrays or objects.
    package mutating func append(_ value: JSONValue) -> Bool {
        switch value {
        case .null: appendLiteral("null")
        case .bool(let value): appendLiteral(value ? "true" : "false")
        case .integer(let value): append(value)
        case .number(let value): append(value)
        case .numeral(let text): appendVerbatim(text)
        case .string(let value): appendQuoted(value)
        case .array, .object: false
        }
    }

    /// Appends `byte`, when there is room for it.
    @discardableResult
    package mutating func append(_ byte: UInt8) -> Bool {
        guard room >= 1 else { return false }
        base[count] = byte
        count += 1
        return true
    }

    /// Appends `string` in quotes, when it fits and needs no escapes; otherwise writes nothing
    /// and returns false.
    package mutating func appendQuoted(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.count + 2 <= room else { return false }
            for byte in utf8 where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            base[count] = UInt8(ascii: "\"")
            // An empty string's buffer may have no address.
            if let source = utf8.baseAddress { (base + count + 1).update(from: source, count: utf8.count) }
            base[count + 1 + utf8.count] = UInt8(ascii: "\"")
            count += utf8.count + 2
            return true
        } ?? false
    }

    /// Appends `literal` (ASCII), when it fits.
    package mutating func appendLiteral(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount <= room else { return false }
        (base + count).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
        return true
    }

    /// Appends `text`'s UTF-8 as it is (a numeral's digits), when it fits.
    mutating func appendVerbatim(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, when there is room for any integer.
    package mutating func append(_ value: Int) -> Bool {
        guard room >= 20 else { return false }
        if value < 0 { append(UInt8(ascii: "-")) }
        // The magnitude as unsigned (`Int.min` has none as an `Int`), its digits written from
        // the last once their number is known.
        var magnitude = value.magnitude
        var digits = 1
        var rest = magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        var index = count + digits
        count = index
        repeat {
            index -= 1
            base[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        } while magnitude > 0
        return true
    }

    /// Appends `value` as JSON numbers are written: integral values as integers, quarters as
    /// decimals, non-finite values as `null`. Returns false, having written nothing, for any
    /// other value (Swift's shortest round-trip form, its `description`, is written instead:
    /// see ``JSONWriter/format(_:)``), or when there is no room.
    package mutating func append(_ value: Double) -> Bool {
        // Integral tests by conversion (`rounded()` is a call into the C library), each only
        // where the value fits an `Int`.
        let magnitude = abs(value)
        if magnitude < 1e15 && Double(Int(value)) == value { return append(Int(value)) }
        if magnitude < 1e12 && Double(Int(value * 4)) == value * 4 {
            // Quarters (heights and frames snapped to 2× pixels), exact in binary: below 1e12 the
            // spacing of doubles is far finer than 0.05, so no shorter decimal names the same
            // double and the shortest form is the decimal expansion (above, it may not be).
            guard room >= 24 else { return false }
            if value < 0 { append(UInt8(ascii: "-")) }
            let quarters = Int(abs(value) * 4)
            _ = append(quarters / 4)
            return switch quarters % 4 {
            case 1: appendLiteral(".25")
            case 2: appendLiteral(".5")
            default: appendLiteral(".75")
            }
        }
        return value.isFinite ? false : appendLiteral("null")
    }
}
