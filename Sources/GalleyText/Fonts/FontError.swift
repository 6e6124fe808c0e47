// Errors from loading and looking up fonts.

/// Why a font could not be loaded or found.
public enum FontError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not exist or cannot be read.
    case unreadableFile(path: String)
    /// FreeType or HarfBuzz could not open the file as a font; `reason` is the library's word.
    case invalidFont(path: String, reason: String)
    /// The file holds fewer faces than the index asked for.
    case noSuchFace(path: String, index: Int)
    /// No loaded face has this family name.
    case unknownFamily(String)
    /// The bundled fonts' folder or its manifest could not be found or read.
    case bundledFontsMissing(reason: String)
    /// A font file a text style named by path was not used: missing, unreadable, not a regular
    /// file, too large, outside the folders ``FontAccess`` allows, or not a font. Which one is
    /// not said, so that errors tell a request nothing about the files it may not see.
    case unusableFile(path: String)
    /// A text style named a font file, and the collection's ``FontAccess`` allows none.
    case filesNotAllowed(path: String)

    /// How the value reads in messages.
    public var description: String {
        switch self {
        case .unreadableFile(let path): "cannot read font file '\(path)'"
        case .invalidFont(let path, let reason): "'\(path)' is not a usable font: \(reason)"
        case .noSuchFace(let path, let index): "'\(path)' has no face at index \(index)"
        case .unknownFamily(let family): "no font family named '\(family)'"
        case .bundledFontsMissing(let reason): "bundled fonts not found: \(reason)"
        case .unusableFile(let path):
            "cannot use font file '\(path)' (missing, unreadable, not a regular file, too large, outside the allowed folders, or not a font)"
        case .filesNotAllowed(let path): "font files cannot be named here ('\(path)'): name a font family"
        }
    }
}
