// What an item's stored rows were made for, as one number: the key a resumed run looks items up by.

/// The settings, scale and widths of a run, mixed with an item's content fingerprint into one
/// 64-bit key. A database keeps each item's key beside its place (`galley_places.rows_key`),
/// written with its rows, so a rerun finds the items whose rows it would make again by reading
/// one small row per item, not every row. Settings name the command too, so a `heights` run's
/// rows (without frames) never stand for a `layout` run's.
struct RowsKey: Sendable {
    /// The run's part, mixed into every item's key.
    private let run: UInt64

    /// The key of a run with `settings` (``LayoutArguments/settingsFingerprint(command:files:fields:)``)
    /// at `scale` and `widths` (in any order, each counted once).
    init(settings: Int64, scale: Double, widths: [Double]) {
        var fingerprint = Fingerprint()
        for value in [UInt64(bitPattern: settings), scale.bitPattern] + Set(widths).sorted().map(\.bitPattern) {
            withUnsafeBytes(of: value.littleEndian) { fingerprint.add($0) }
        }
        run = UInt64(bitPattern: fingerprint.value)
    }

    /// The key of an item whose content has `fingerprint`: its bits spread over all 64, so that
    /// the low ones can pick a bucket. Never 0, which stands for rows made for no key known.
    func key(for fingerprint: Int64) -> Int64 {
        let key = Self.spread(Int64(bitPattern: run ^ (UInt64(bitPattern: fingerprint) &* 0x9E37_79B9_7F4A_7C15)))
        return key == 0 ? 1 : key
    }

    /// `value`'s bits mixed so that every bit of it moves the low ones.
    static func spread(_ value: Int64) -> Int64 {
        var mixed = UInt64(bitPattern: value)
        mixed = (mixed ^ (mixed >> 32)) &* 0xD6E8_FEB8_6659_FD93
        mixed ^= mixed >> 32
        return Int64(bitPattern: mixed)
    }
}
