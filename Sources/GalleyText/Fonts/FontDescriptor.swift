// How callers name a font: a family with weight and slant, or a file.

/// Names a font face: by family name plus weight and italic, or by file path.
public struct FontDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// Where the face comes from.
    public enum Source: Sendable, Hashable {
        /// A family loaded in the collection, matched case-insensitively.
        case family(String)
        /// A font file; `index` picks a face in a collection file (`.ttc`).
        case file(path: String, index: Int)
    }

    /// The family or file.
    public var source: Source
    /// Requested weight, 100–900 (400 regular, 700 bold). The closest loaded face is used.
    public var weight: Int
    /// Whether an italic face is wanted.
    public var isItalic: Bool

    /// A descriptor from its parts.
    public init(source: Source, weight: Int = 400, isItalic: Bool = false) {
        self.source = source
        self.weight = weight
        self.isItalic = isItalic
    }

    /// A family name with a weight and slant.
    public static func family(_ name: String, weight: Int = 400, italic: Bool = false) -> FontDescriptor {
        FontDescriptor(source: .family(name), weight: weight, isItalic: italic)
    }

    /// A font file (face `index` of a collection file).
    public static func file(_ path: String, index: Int = 0) -> FontDescriptor {
        FontDescriptor(source: .file(path: path, index: index))
    }

    /// Reads a name as the `galley` command does: a path when it contains a slash or ends in a
    /// font file extension, otherwise a family name.
    public static func named(_ name: String, weight: Int = 400, italic: Bool = false) -> FontDescriptor {
        let lower = name.lowercased()
        let isPath =
            name.contains("/")
            || [".ttf", ".otf", ".ttc", ".otc"].contains { lower.hasSuffix($0) }
        return FontDescriptor(
            source: isPath ? .file(path: name, index: 0) : .family(name), weight: weight, isItalic: italic)
    }

    /// How the value reads in messages.
    public var description: String {
        switch source {
        case .family(let name): "\(name) \(weight)\(isItalic ? " italic" : "")"
        case .file(let path, let index): index == 0 ? path : "\(path)#\(index)"
        }
    }
}
