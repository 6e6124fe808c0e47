// The UTF-8 → UTF-16 transcoding the engine does itself agrees with Swift's own UTF-16 view.

import Testing

@testable import GalleyText

@Suite("UTF-16 from UTF-8")
struct UTF16LengthTests {
    @Test("Lengths and units equal String.utf16's for every corpus string and scalars of every width, and give the same one-style text")
    func matchesSwift() {
        // One-, two-, three- and four-byte scalars, at the edges of each width, mixed.
        let edges: [UInt32] = [0, 0x41, 0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x1F600, 0x10FFFF]
        var texts = CorpusEntry.all.map(\.text) + ["", "é", "\u{1F468}\u{200D}\u{1F469}", "a\r\nb"]
        texts.append(String(String.UnicodeScalarView(edges.compactMap(Unicode.Scalar.init))))
        // Every pairing of edge scalars, by a fixed walk through them (reproducible, no seed).
        for length in 1..<60 {
            let scalars = (0..<length).compactMap { index in
                Unicode.Scalar(edges[(index * 7 + length * 5) % edges.count] &+ UInt32((index + length) % 3))
            }
            texts.append(String(String.UnicodeScalarView(scalars)))
        }
        // ASCII runs of every length around the eight-byte fast paths, broken by a two- or
        // four-byte scalar at every position.
        let ascii = Array("The quick brown fox jumps")
        for length in 0..<ascii.count {
            for position in 0...length {
                for other in ["é", "😀"] {
                    texts.append(String(ascii[..<position]) + other + String(ascii[position..<length]))
                }
            }
        }
        for text in texts {
            #expect(text.utf16Length == text.utf16.count, "\(text.debugDescription)")
            #expect(text.utf16Units == Array(text.utf16), "\(text.debugDescription)")
            // The engine's one-style text, its length taken from the units, is the public one.
            let style = Shared.style(17)
            #expect(AttributedText(text, style: style, utf16Count: text.utf16Units.count) == AttributedText(text, style: style))
        }
    }
}
