// The table resumed runs look fingerprints up in, against a dictionary.

import GalleyTestSupport
import Testing

@testable import GalleyCommands

@Suite("Fingerprint table")
struct FingerprintTableTests {
    @Test("Lookups agree with a dictionary: fingerprints whose low bits collide, fingerprints given twice or three times, a table almost half full")
    func agreesWithDictionary() {
        var generator = SeededGenerator(seed: 34)
        // Keys that share their low bits (one bucket) and keys spread out, some given twice or
        // three times; 32,768 buckets for 16,300 keys.
        var keys = (0..<2_000).map { Int64($0) << 32 | 5 } + (0..<14_000).map { _ in Int64(bitPattern: generator.next()) }
        keys += keys.prefix(200) + keys.prefix(100)
        let table = FingerprintTable(slotsOf: keys)
        var model: [Int64: Int32?] = [:]
        for (slot, key) in keys.enumerated() { model[key] = model[key] == nil ? Int32(slot) : .some(nil) }
        for (key, slot) in model { #expect(table[key] == slot) }
        for _ in 0..<10_000 {
            let absent = Int64(bitPattern: generator.next())
            if model[absent] == nil { #expect(table[absent] == nil) }
        }
    }
}
