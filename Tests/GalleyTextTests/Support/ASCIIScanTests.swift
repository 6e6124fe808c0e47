// The whole-text checks that skip ASCII a word at a time answer as a check of every unit would.

import Testing

@testable import GalleyText

@Suite("ASCII scan")
struct ASCIIScanTests {
    /// Units on both sides of every edge the word tests draw: controls, the space, the last
    /// printable, DEL, the first non-ASCII units, and units whose low byte looks like ASCII.
    static let edges: [UInt16] = [0x00, 0x09, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0xA0, 0xFF, 0x100, 0x17F, 0x2020, 0xFF7F]
    /// The same, with the edges of the right-to-left check's skip (U+0590) and of the lanes'
    /// high bits.
    static let rightToLeftEdges: [UInt16] = [0x41, 0x3B1, 0x58F, 0x590, 0x591, 0x7FFF, 0x8000, 0x8590, 0xFB1D, 0xFFFF]

    /// Every four units drawn from `edges`, after zero to three units `filler` (so that the
    /// words the scans read straddle them every way), then an `A`.
    static func forEachStraddlingText(edges: [UInt16], filler: UInt16, _ body: ([UInt16]) -> Void) {
        for a in edges {
            for b in edges {
                for c in edges {
                    for d in edges {
                        for prefix in 0...3 { body([UInt16](repeating: filler, count: prefix) + [a, b, c, d, 0x41]) }
                    }
                }
            }
        }
    }

    @Test("Skipping words of printable or any ASCII tests exactly the units a unit-by-unit check would")
    func skipsOnlyWhatTheTestAccepts() {
        // Tests that reject control characters and DEL, everything but printable ASCII, and
        // everything but ASCII. A skipped word must be one the test accepts throughout.
        let printableOrBeyond: (UInt16) -> Bool = { $0 >= 0x20 && $0 != 0x7F }
        let printable: (UInt16) -> Bool = { $0 >= 0x20 && $0 < 0x7F }
        let ascii: (UInt16) -> Bool = { $0 < 0x80 }
        Self.forEachStraddlingText(edges: Self.edges, filler: 0x41) { string in
            string.withUnsafeBufferPointer { units in
                #expect(units.allSatisfyPastPrintableASCII(printableOrBeyond) == string.allSatisfy(printableOrBeyond))
                #expect(units.allSatisfyPastPrintableASCII(printable) == string.allSatisfy(printable))
                #expect(units.allSatisfyPastASCII(ascii) == string.allSatisfy(ascii))
            }
        }
    }

    @Test("Skipping words of units below a bound tests exactly the units a unit-by-unit check would")
    func skipsUnitsBelowABound() {
        // As above, for the right-to-left check (nothing below U+0590 can make text right to
        // left) and for a test of exactly the units below the bound, at three bounds.
        let edges = Self.rightToLeftEdges + [0x00, 0x7F, 0x80, 0xFF7F]
        for bound: UInt16 in [0x0590, 0x80, 0x8000] {
            let below: (UInt16) -> Bool = { $0 < bound }
            Self.forEachStraddlingText(edges: edges, filler: 0x3B1) { string in
                string.withUnsafeBufferPointer { units in
                    #expect(units.allSatisfy(pastUnitsBelow: bound, below) == string.allSatisfy(below))
                    if bound == 0x0590 {
                        #expect(
                            TextAnalysis.isLeftToRightThroughout(units, direction: .auto)
                                == !string.contains(where: TextAnalysis.isPossiblyRightToLeft))
                    }
                }
            }
        }
    }
}
