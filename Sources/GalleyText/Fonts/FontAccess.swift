// Which font files requests may name, and how large a font file may be.

/// What a ``FontCollection`` lets text styles load by path, beyond the fonts it was made with.
///
/// A service that measures text from requests it did not write decides here what a request's
/// `font` or fallback naming a file may reach: any file the process can read (the `galley`
/// command's default, for people running it on their own files), only files inside the
/// collection's registered font folders, or none (fonts are named by family). Whatever the
/// policy, only regular files of at most ``maximumFileSize`` bytes are read (never a device, a
/// pipe or a folder; a WOFF or WOFF2 file, decoded to the font it holds, must also declare at
/// most that many decoded bytes, checked from its header before anything is inflated), and a
/// failure is reported the same way whatever its reason, so that errors do not tell a request
/// which files exist.
public struct FontAccess: Sendable, Hashable {
    /// Where font files named by path may be.
    public enum Paths: Sendable, Hashable {
        /// Anywhere the process can read.
        case anywhere
        /// Inside a folder given to the collection as a font path (or the bundled fonts'
        /// folder), symbolic links resolved.
        case registeredFolders
        /// Nowhere: text styles name fonts by family.
        case none
    }

    /// Where font files named by path may be.
    public var paths: Paths
    /// The largest font file read, in bytes (the bundled CJK collection, the largest bundled
    /// file, is about 19 MB), and the most a WOFF or WOFF2 file may decode to.
    public var maximumFileSize: Int

    /// The most bytes of fonts loaded for text styles that the collection holds at once (a
    /// WOFF or WOFF2 file counted at its decoded size): a style that would load more fails.
    public var maximumLoadedBytes: Int

    /// The default ``maximumFileSize``: 32 MiB.
    public static let defaultMaximumFileSize = 32 << 20
    /// The default ``maximumLoadedBytes``: 256 MiB.
    public static let defaultMaximumLoadedBytes = 256 << 20

    /// A policy from its parts (a file size above what HarfBuzz holds, 2 GiB, is taken as that).
    public init(paths: Paths, maximumFileSize: Int = defaultMaximumFileSize, maximumLoadedBytes: Int = defaultMaximumLoadedBytes) {
        self.paths = paths
        self.maximumFileSize = min(max(maximumFileSize, 0), FontFile.largestFile)
        self.maximumLoadedBytes = max(maximumLoadedBytes, 0)
    }

    /// Font files anywhere (the `galley` command's default).
    public static let anywhere = FontAccess(paths: .anywhere)
    /// Font files inside the registered font folders only.
    public static let registeredFolders = FontAccess(paths: .registeredFolders)
    /// No font files by path: families only.
    public static let familiesOnly = FontAccess(paths: .none)
}
