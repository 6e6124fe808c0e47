// Whole-text checks that skip ASCII four UTF-16 units at a time.

extension UnsafeBufferPointer<UInt16> {
    /// Whether every unit satisfies `test`, which every ASCII unit must satisfy: runs of ASCII
    /// are skipped four units (one 64-bit word) at a time, and only the rest is tested.
    ///
    /// Every new paragraph is checked this way before analysis (simple clusters, no right-to-left
    /// text); unit by unit through a switch of ranges, those checks would cost more than the
    /// analysis they spare.
    @inline(__always)
    func allSatisfyPastASCII(_ test: (UInt16) -> Bool) -> Bool {
        allSatisfy(skipping: { $0 & 0xFF80_FF80_FF80_FF80 == 0 }, test)
    }

    /// ``allSatisfyPastASCII(_:)`` for a `test` that every unit below `bound` (at most 0x8000)
    /// must satisfy: runs of such units are skipped (Greek and Cyrillic ones too, below 0x0590).
    @inline(__always)
    func allSatisfy(pastUnitsBelow bound: UInt16, _ test: (UInt16) -> Bool) -> Bool {
        let ones: UInt64 = 0x0001_0001_0001_0001
        let highBits: UInt64 = 0x8000_8000_8000_8000
        // With no lane's high bit set, adding 0x8000 - bound to each lane carries into its high
        // bit exactly when the lane is at or above the bound, and never into the next lane.
        let offset = ones &* UInt64(0x8000 - bound)
        return allSatisfy(skipping: { word in word & highBits == 0 && (word &+ offset) & highBits == 0 }, test)
    }

    /// ``allSatisfyPastASCII(_:)`` for a `test` that printable ASCII (U+0020 to U+007E) must
    /// satisfy: runs of it are skipped, and control characters are tested.
    @inline(__always)
    func allSatisfyPastPrintableASCII(_ test: (UInt16) -> Bool) -> Bool {
        allSatisfy(
            skipping: { word in
                // No unit at or above 0x80, none below 0x20, none equal to 0x7F (the "has less"
                // test per 16-bit lane, the last on the word with 0x7F lanes turned to zero).
                let ones: UInt64 = 0x0001_0001_0001_0001
                let highBits: UInt64 = 0x8000_8000_8000_8000
                let deleted = word ^ (ones &* 0x7F)
                return word & 0xFF80_FF80_FF80_FF80 == 0 && (word &- ones &* 0x20) & ~word & highBits == 0
                    && (deleted &- ones) & ~deleted & highBits == 0
            }, test)
    }

    /// Whether every unit satisfies `test`, skipping words of four units that `skips` says all do.
    @inline(__always)
    private func allSatisfy(skipping skips: (UInt64) -> Bool, _ test: (UInt16) -> Bool) -> Bool {
        guard let base = baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 4 <= count {
            // A word not skipped has its four units tested (those `skips` would pass, pass
            // `test` too): text outside ASCII (Greek, Cyrillic) is then read a word at a time.
            if !skips(raw.loadUnaligned(fromByteOffset: index * 2, as: UInt64.self)) {
                guard test(self[index]), test(self[index + 1]), test(self[index + 2]), test(self[index + 3]) else { return false }
            }
            index += 4
        }
        while index < count {
            if !test(self[index]) { return false }
            index += 1
        }
        return true
    }
}
