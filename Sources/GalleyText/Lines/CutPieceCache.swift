// The reshaped pieces of one paragraph's cut words.

import GalleyLocks

/// The cut pieces of one paragraph's words, reshaped, by UTF-16 range.
///
/// Kept with the paragraph rather than in the engine's shape cache: a piece belongs to one text
/// at one width (measuring a row, then laying out its glyphs, asks for it twice), and a batch of
/// new texts would otherwise fill the shared cache with pieces that never come back, evicting
/// words all the time.
///
/// Stored in its paragraph, not allocated apart (every new paragraph would have one more object
/// to make and free): noncopyable, as its mutex is.
struct CutPieceCache: ~Copyable, Sendable {
    private let pieces = Locked<[Range<Int>: ShapedSegment]>([:])
    /// Distinct pieces kept per paragraph; a paragraph laid out at many widths starts over.
    private static let limit = 64

    func segment(for range: Range<Int>, shape: () -> ShapedSegment) -> ShapedSegment {
        if let found = pieces.withLock({ $0[range] }) { return found }
        let made = shape()
        pieces.withLock { pieces in
            if pieces.count >= Self.limit { pieces.removeAll(keepingCapacity: true) }
            pieces[range] = made
        }
        return made
    }
}
