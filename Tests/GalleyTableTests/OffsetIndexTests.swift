// The offset index against a plain array of heights under random inserts, deletes, moves and
// edits, with its invariants checked after every change.

import GalleyTable
import GalleyTestSupport
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

    @Test("Grown from empty by inserts alone, the root splits and the index stays exact")
    func rootSplits() {
        var generator = SeededGenerator(seed: 11)
        var index = OffsetIndex()
        var model = Model(heights: [])
        for step in 0..<5_000 {
            let row = Int.random(in: 0...model.heights.count, using: &generator)
            index.insert(Double(step % 13), at: row)
            model.heights.insert(Double(step % 13), at: row)
            if step % 250 == 0 { #expect(index.checkInvariants(), "step \(step)") }
        }
        #expect(index.checkInvariants())
        #expect(index.heights == model.heights)
        for row in stride(from: 0, through: model.heights.count, by: 37) { #expect(index.offset(ofRow: row) == model.offset(row)) }
    }

    @Test("Deep trees: cascading splits, emptied branches and a shrinking root stay exact")
    func deepTrees() {
        var generator = SeededGenerator(seed: 7)
        var model = Model(heights: (0..<10_000).map { Double($0 % 9) * 5 + 40 })
        var index = OffsetIndex(heights: model.heights)
        #expect(index.checkInvariants())
        // Six thousand rows into one spot: leaves split, then branches, then the root.
        for step in 0..<6_000 {
            let height = Double(step % 4) * 11
            index.insert(height, at: 5_000)
            model.heights.insert(height, at: 5_000)
            if step % 500 == 0 { #expect(index.checkInvariants(), "insert \(step)") }
        }
        #expect(index.checkInvariants())
        #expect(index.heights == model.heights)
        // A long run removed from the middle: leaves and whole branches empty out.
        for step in 0..<7_000 {
            #expect(index.remove(at: 3_000) == model.heights.remove(at: 3_000))
            if step % 500 == 0 { #expect(index.checkInvariants(), "remove \(step)") }
        }
        #expect(index.checkInvariants())
        #expect(index.heights == model.heights)
        // Then everything at random, and back down to nothing.
        for step in 0..<4_000 {
            let row = Int.random(in: 0..<model.heights.count, using: &generator)
            switch step % 4 {
            case 0:
                index.insert(3, at: row)
                model.heights.insert(3, at: row)
            case 1: #expect(index.remove(at: row) == model.heights.remove(at: row))
            case 2:
                let to = Int.random(in: 0..<model.heights.count, using: &generator)
                index.move(from: row, to: to)
                model.heights.insert(model.heights.remove(at: row), at: to)
            default:
                index.setHeight(Double(step % 50), ofRow: row)
                model.heights[row] = Double(step % 50)
            }
        }
        #expect(index.checkInvariants())
        #expect(index.heights == model.heights)
        for row in stride(from: 0, through: model.heights.count, by: 97) { #expect(index.offset(ofRow: row) == model.offset(row)) }
        let total = model.heights.reduce(0, +)
        for offset in stride(from: 0.0, to: total, by: total / 200) { #expect(index.row(atOffset: offset) == model.row(at: offset)) }
        while index.count > 0 { index.remove(at: index.count / 2) }
        #expect(index.checkInvariants() && index.totalHeight == 0 && index.heights.isEmpty)
        index.insert(12, at: 0)
        #expect(index.heights == [12] && index.checkInvariants())
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

    @Test("A million rows build, and answer queries from the middle", .timeLimit(.minutes(3)))
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
