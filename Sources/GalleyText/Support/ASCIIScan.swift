// Whole-text checks that skip ASCII four UTF-16 units at a time.

extension UnsafeBufferPointer<UInt16> {
    /// Whether every unit satisfies `test`, which every ASCII unit must satisfy: runs of ASCII
    /// are skipped four units (one 64-bit word) at a time, and only the rest is tested.
    ///
    /// Every new paragraph is checked this way before analysis (simple clusters, no right-to-left
    /// text); unit by unit through a switch of ranges, those checks cost 20 instructions a unit.
    @inline(__always)
    func allSatisfyPastASCII(_ test: (UInt16) -> Bool) -> Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index < count {
            if index + 4 <= count && raw.loadUnaligned(fromByteOffset: index * 2, as: UInt64.self) & 0xFF80_FF80_FF80_FF80 == 0 {
                index += 4
                continue
            }
            if !test(self[index]) { return false }
            index += 1
        }
        return true
    }
}
