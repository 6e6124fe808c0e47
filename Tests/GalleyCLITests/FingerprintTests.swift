// Content fingerprints: what tells a resumed run that an item's stored rows are current.

import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("Fingerprints")
struct FingerprintTests {
    private static func fingerprint(_ bytes: [UInt8]) -> Int64 {
        var fingerprint = Fingerprint()
        fingerprint.add(bytes[...])
        return fingerprint.value
    }

    @Test("Every byte counts, wherever it is and whatever the length: one byte changed, words swapped or a byte more give another fingerprint")
    func everyByteCounts() {
        var generator = SeededGenerator(seed: 35)
        var seen: Set<Int64> = []
        for length in 0..<140 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let original = Self.fingerprint(bytes)
            #expect(original == Self.fingerprint(bytes), "the same bytes, the same fingerprint")
            #expect(seen.insert(original).inserted, "length \(length)")
            #expect(original != Self.fingerprint(bytes + [0]), "a zero byte more, length \(length)")
            for position in 0..<length {
                var changed = bytes
                changed[position] ^= 1 << UInt8(position % 8)
                #expect(original != Self.fingerprint(changed), "byte \(position) of \(length)")
            }
            // Bytes swapped within a lane and across lanes.
            for (first, second) in [(0, 32), (0, 8), (8, 24)] where second + 8 <= length {
                var swapped = bytes
                swapped.swapAt(first, second)
                if swapped != bytes { #expect(original != Self.fingerprint(swapped), "bytes \(first) and \(second) of \(length)") }
            }
        }
    }
}
