// The offset index against a plain array of heights under random inserts, deletes, moves and
// edits, with its invariants checked after every change.

import GalleyTable
import Testing

@Suite("Offset index")
struct OffsetIndexTests {
    /// The model: heights in an array, offsets by summing.
    struct Model {
        var heights: [Double]
        func offset(_ row: Int) -> Double { heights.prefix(row).reduce(0, +) }
        func row(at offset: Double) -> Int? {
            var top = 0.0
            for (row, height) in heights.enumerated() {
                if offset >= top && offset < top + height { return row }
                top += height
            }
            return nil
        }
    }

    @Test("Offsets, row lookups and totals match the model")
    func basics() {
        let heights: [Double] = [44, 90, 0, 44.5, 120]
        let index = OffsetIndex(heights: heights)
        let model = Model(heights: heights)
        #expect(index.count == 5)
        #expect(index.totalHeight == 298.5)
        for row in 0...5 { #expect(index.offset(ofRow: row) == model.offset(row)) }
        for offset in stride(from: -10.0, through: 310, by: 0.5) { #expect(index.row(atOffset: offset) == model.row(at: offset), "\(offset)") }
        #expect(index.row(atOffset: 134) == 3)  // the zero-height row 2 is never returned
        #expect(index.heights == heights)
        #expect(index.checkInvariants())
    }

    @Test("Random inserts, deletes, moves and edits keep the index equal to the model", arguments: [1, 2, 3])
    func randomOperations(_ seed: UInt64) {
        var generator = SeededGenerator(seed: seed)
        var index = OffsetIndex()
        var model = Model(heights: [])
        for step in 0..<3000 {
            let choice = Int.random(in: 0..<10, using: &generator)
            let height = Double(Int.random(in: 0...200, using: &generator)) / 2
            if model.heights.isEmpty || choice < 4 {
                let row = Int.random(in: 0...model.heights.count, using: &generator)
                index.insert(height, at: row)
                model.heights.insert(height, at: row)
            } else if choice < 6 {
                let row = Int.random(in: 0..<model.heights.count, using: &generator)
                #expect(index.remove(at: row) == model.heights.remove(at: row))
            } else if choice < 8 {
                let from = Int.random(in: 0..<model.heights.count, using: &generator)
                let to = Int.random(in: 0..<model.heights.count, using: &generator)
                index.move(from: from, to: to)
                model.heights.insert(model.heights.remove(at: from), at: to)
            } else {
                let row = Int.random(in: 0..<model.heights.count, using: &generator)
                index.setHeight(height, ofRow: row)
                model.heights[row] = height
            }
            #expect(index.checkInvariants(), "step \(step)")
            if step % 97 == 0 {
                #expect(index.heights == model.heights)
                for row in stride(from: 0, through: model.heights.count, by: max(1, model.heights.count / 20)) {
                    #expect(abs(index.offset(ofRow: row) - model.offset(row)) < 1e-9)
                }
                let total = model.heights.reduce(0, +)
                for offset in stride(from: 0.0, to: total, by: max(1, total / 25)) { #expect(index.row(atOffset: offset) == model.row(at: offset)) }
            }
        }
        #expect(index.count == model.heights.count)
    }

    @Test("Pages append; the same operations always build the same index")
    func pagesAndDeterminism() {
        var first = OffsetIndex(heights: (0..<500).map { Double($0 % 7 + 40) })
        var second = OffsetIndex(heights: (0..<500).map { Double($0 % 7 + 40) })
        first.append(contentsOf: [44, 44, 90])
        second.append(contentsOf: [44, 44, 90])
        #expect(first == second)
        #expect(first.count == 503)
        #expect(first.offset(ofRow: 503) == first.totalHeight)
        first.removeAll()
        #expect(first.count == 0 && first.totalHeight == 0 && first.row(atOffset: 0) == nil)
    }

    @Test("A million rows build, and answer queries from the middle", .timeLimit(.minutes(1)))
    func millionRows() {
        var index = OffsetIndex(heights: (0..<1_000_000).map { Double($0 % 3) * 22 + 44 })
        #expect(index.count == 1_000_000)
        // Rows cycle 44, 66, 88: each three rows add 198 points.
        #expect(index.offset(ofRow: 300_000) == 198 * 100_000)
        #expect(index.row(atOffset: 198 * 100_000 + 50) == 300_001)
        index.insert(10, at: 0)
        #expect(index.offset(ofRow: 300_001) == 198 * 100_000 + 10)
        #expect(index.checkInvariants())
    }
}

/// SplitMix64 for reproducible random tests.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
