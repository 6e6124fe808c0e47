// The files a sheet of rows can be written as.

/// An output format: a PNG image, or SVG or PDF vector drawings.
public enum RenderFormat: String, Sendable, CaseIterable {
    case png, svg, pdf

    /// The format a file's extension names (`.png`, `.svg`, `.pdf`, in any case); nil for others.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }
}
