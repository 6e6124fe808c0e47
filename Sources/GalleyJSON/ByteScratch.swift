// Short pieces of JSON formatted in stack memory, then appended to the output in one call.

/// Bytes written through a pointer into stack memory: ``JSONWriter`` formats a member here
/// (its comma, its quoted key and a number or a short string) and appends it to its output at
/// once, and every number it writes goes through here.
///
/// Appending to an array byte by byte checks its uniqueness and capacity each time, and
/// appending each piece on its own is a generic copy apiece: a `{"id","width","height"}` line
/// of `galley heights` cost about 1,800 instructions that way.
struct ByteScratch {
    /// Room for any member whose key and value are short: an integer needs at most 20 bytes.
    static let capacity = 64

    private let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    private init(base: UnsafeMutablePointer<UInt8>) { self.base = base }

    /// Runs `body` with an empty scratch in stack memory (valid only during `body`).
    static func with<Result>(_ body: (inout ByteScratch) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var scratch = ByteScratch(base: buffer.baseAddress!)
            return body(&scratch)
        }
    }

    /// What has been written.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    private var room: Int { Self.capacity - count }

    /// Appends `byte`, when there is room for it.
    @discardableResult
    mutating func append(_ byte: UInt8) -> Bool {
        guard room >= 1 else { return false }
        base[count] = byte
        count += 1
        return true
    }

    /// Appends `string` in quotes, when it fits and needs no escapes; otherwise writes nothing
    /// and returns false.
    mutating func appendQuoted(_ string: String) -> Bool {
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
    mutating func appendLiteral(_ literal: StaticString) -> Bool {
        guard literal.utf8CodeUnitCount <= room else { return false }
        (base + count).update(from: literal.utf8Start, count: literal.utf8CodeUnitCount)
        count += literal.utf8CodeUnitCount
        return true
    }

    /// Appends `value` in decimal, when there is room for any integer.
    mutating func append(_ value: Int) -> Bool {
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
    mutating func append(_ value: Double) -> Bool {
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
