// The bundled fonts' manifest (Fonts/manifest.json) and where to find that folder.

import Foundation

/// The list of bundled faces, in fallback order.
struct FontManifest: Decodable, Sendable {
    struct Entry: Decodable, Sendable {
        var file: String
        var index: Int
        var family: String
        var weight: Int
        var style: String
        var scripts: [String]
        var languages: [String]?
        var licence: String
        var licenceFile: String
    }

    var fonts: [Entry]

    /// Reads `manifest.json` in `directory`.
    static func load(from directory: String) throws(FontError) -> FontManifest {
        let path = directory + "/manifest.json"
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .bundledFontsMissing(reason: "cannot read \(path)")
        }
        do {
            return try JSONDecoder().decode(FontManifest.self, from: data)
        } catch {
            throw .bundledFontsMissing(reason: "\(path) is malformed: \(error)")
        }
    }

    /// The folder holding the bundled fonts.
    ///
    /// Looks at `GALLEY_FONTS`, then beside the running executable (`Fonts/`,
    /// `../share/galley/Fonts/`), then in every folder above it (a source checkout's
    /// `.build/debug/galley` finds the checkout's `Fonts/`), then beside these sources.
    static func bundledDirectory() throws(FontError) -> String {
        let fileManager = FileManager.default
        func hasManifest(_ directory: String) -> Bool {
            fileManager.fileExists(atPath: directory + "/manifest.json")
        }
        if let configured = ProcessInfo.processInfo.environment["GALLEY_FONTS"] {
            guard hasManifest(configured) else {
                throw .bundledFontsMissing(reason: "GALLEY_FONTS=\(configured) has no manifest.json")
            }
            return configured
        }
        var candidates: [String] = []
        if let executable = try? fileManager.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var directory = URL(fileURLWithPath: executable).deletingLastPathComponent()
            candidates.append(directory.appendingPathComponent("share/galley/Fonts").path)
            candidates.append(directory.deletingLastPathComponent().appendingPathComponent("share/galley/Fonts").path)
            while directory.path != "/" {
                candidates.append(directory.appendingPathComponent("Fonts").path)
                directory.deleteLastPathComponent()
            }
        }
        // Sources/GalleyText/Fonts/FontManifest.swift -> the package root.
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent("Fonts").path)
        if let found = candidates.first(where: hasManifest) { return found }
        throw .bundledFontsMissing(reason: "looked in \(candidates.joined(separator: ", ")); set GALLEY_FONTS")
    }
}
