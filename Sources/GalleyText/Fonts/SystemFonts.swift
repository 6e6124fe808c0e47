// The system's fonts, as fontconfig lists them.

internal import CFontconfig

/// Font files and face indices that fontconfig knows on this system.
enum SystemFonts {
    /// Every outline or colour font face fontconfig lists, sorted by path and index so that the
    /// order (and so fallback) does not depend on fontconfig's cache.
    static func list() -> [(path: String, index: Int)] {
        guard let config = FcInitLoadConfigAndFonts() else { return [] }
        defer { FcConfigDestroy(config) }
        guard let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() else { return [] }
        defer {
            FcPatternDestroy(pattern)
            FcObjectSetDestroy(objects)
        }
        _ = FcObjectSetAdd(objects, FC_FILE)
        _ = FcObjectSetAdd(objects, FC_INDEX)
        guard let set = FcFontList(config, pattern, objects) else { return [] }
        defer { FcFontSetDestroy(set) }
        var faces: [(path: String, index: Int)] = []
        for position in 0..<Int(set.pointee.nfont) {
            guard let font = set.pointee.fonts[position] else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(font, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            _ = FcPatternGetInteger(font, FC_INDEX, 0, &index)
            faces.append((String(cString: file), Int(index)))
        }
        return faces.sorted { ($0.path, $0.index) < ($1.path, $1.index) }
    }
}
