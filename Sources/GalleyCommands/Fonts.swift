// `galley fonts`: the fonts a run can use.

import ArgumentParser
import Foundation
import GalleyText

extension Galley {
    struct Fonts: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the bundled and registered fonts: family, weight, style, file and the scripts each covers.")

        @OptionGroup var fonts: FontArguments

        /// A letter of each script, to see which a face covers (from its character map).
        static let samples: [(script: String, scalar: Unicode.Scalar)] = [
            ("Latin", "A"), ("Greek", "Ω"), ("Cyrillic", "Ж"), ("Arabic", "ب"), ("Hebrew", "א"), ("Devanagari", "क"),
            ("Thai", "ก"), ("Han", "中"), ("Hiragana", "あ"), ("Katakana", "ア"), ("Hangul", "한"), ("Emoji", "😀"),
        ]

        func run() throws {
            let collection: FontCollection
            do { collection = try FontCollection(fontPaths: fonts.fontPaths, includeSystemFonts: fonts.systemFonts) } catch {
                throw setupFailure("cannot load fonts: \(error)")
            }
            var listing = ""
            for face in collection.faces {
                let scripts = Self.samples.filter { face.glyph(for: $0.scalar) != nil }.map(\.script)
                let style = face.isItalic ? "italic" : "normal"
                listing +=
                    "\(face.familyName)\t\(face.weight)\t\(style)\t\(face.path)#\(face.faceIndex)\t\(scripts.isEmpty ? "-" : scripts.joined(separator: " "))\n"
            }
            try StandardOutput.write(Array(listing.utf8), command: "fonts")
        }
    }
}
