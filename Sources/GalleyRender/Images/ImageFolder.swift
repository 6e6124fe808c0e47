// The one folder a drawing may read images from: a row's image source is a file name or path
// in it, or it is not read at all.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A folder of PNG images that rows' image sources may name: `"avatar.png"`, `"people/ada.png"`,
/// an absolute path or a `file://` URL inside it. A source outside it (`../x.png`, a link that
/// leads out, `https://…`), a file that is not a PNG, larger than ``maximumFileSize`` or more
/// than ``maximumSide`` pixels a side is not read: the image is drawn as a placeholder, and
/// ``RowSheet/drawing(as:)`` says why.
///
/// What lies outside the folder is never told: a path that leaves it, a link that leads out and
/// a file that does not exist are all ``ImageProblem/notInFolder``, so that the messages say
/// nothing of which files exist elsewhere. `..` is taken as a step back in the path as written,
/// and may not step above the folder.
///
/// A drawing decodes each file once, however many paths name it, and the images it decodes have
/// at most ``maximumDecodedPixels`` pixels in all.
public struct ImageFolder: Sendable, Hashable {
    /// The folder's real path (links resolved).
    public let path: String
    /// The folder as it was named, made absolute: an absolute source may name it either way.
    private let namedPath: String
    /// The most pixels the images one drawing decodes from the folder may have in all, each file
    /// counted once; an image past it is drawn as a placeholder
    /// (``ImageProblem/tooManyPixelsInDrawing(limit:)``).
    public var maximumDecodedPixels: Int

    /// The largest image file read, in bytes.
    public static let maximumFileSize = 32 << 20
    /// The most pixels a side of an image read.
    public static let maximumSide = 8_192
    /// The default ``maximumDecodedPixels``: as many as the largest sheet (and the largest
    /// image) has, 64 Mi.
    public static let defaultMaximumDecodedPixels = 64 << 20

    /// The folder at `path`, which must exist, whose images a drawing decodes at most
    /// `maximumDecodedPixels` pixels of.
    ///
    /// - Throws: ``RenderError/imageFolder(_:)`` when it is not a folder that can be read.
    public init(path: String, maximumDecodedPixels: Int = defaultMaximumDecodedPixels) throws(RenderError) {
        guard let resolved = Self.realPath(path) else { throw .imageFolder("\(path): no such folder") }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw .imageFolder("\(path) is not a folder") }
        self.path = resolved
        let absolute = path.hasPrefix("/") ? path : Self.currentDirectory() + "/" + path
        let named = "/" + (Self.components(of: Substring(absolute)) ?? []).joined(separator: "/")
        // Only a name that leads to the folder itself (`..` after a link may lead elsewhere).
        namedPath = Self.realPath(named) == resolved ? named : resolved
        self.maximumDecodedPixels = maximumDecodedPixels
    }

    /// The real path of the file `source` names inside the folder.
    func file(for source: String) -> Result<String, ImageProblem> {
        var name = source
        if name.hasPrefix("file://") {
            // A file URL: its host empty or localhost, its path percent-encoded.
            name.removeFirst("file://".count)
            if name.hasPrefix("localhost/") { name.removeFirst("localhost".count) }
            guard name.hasPrefix("/"), let decoded = Self.percentDecoded(name) else { return .failure(.notAPath) }
            name = decoded
        }
        guard !name.isEmpty, !name.contains("\0"), !name.contains("://") else { return .failure(.notAPath) }
        // The path taken apart as written, before the file system is asked anything: a path
        // that leaves the folder is refused without a look at what it names.
        var relative = Substring(name)
        if name.hasPrefix("/") {
            guard let inside = [path, namedPath].lazy.compactMap({ Self.remainder(of: name, below: $0) }).first else {
                return .failure(.notInFolder)
            }
            relative = inside
        }
        guard let parts = Self.components(of: relative) else { return .failure(.notInFolder) }
        // Then links resolved: one that leads out is refused as a missing file is.
        let candidate = parts.isEmpty ? path : (path == "/" ? "" : path) + "/" + parts.joined(separator: "/")
        guard let resolved = Self.realPath(candidate) else { return .failure(.notInFolder) }
        if resolved == path { return .failure(.notAFile) }
        guard resolved.hasPrefix(path.hasSuffix("/") ? path : path + "/") else { return .failure(.notInFolder) }
        return .success(resolved)
    }

    /// The file `source` names in the folder, opened (not read).
    func open(_ source: String) -> Result<ImageFile, ImageProblem> {
        file(for: source).flatMap { ImageFile.open($0, inside: path) }
    }

    /// What follows `folder` in the absolute path `name`; nil when `name` is not inside it.
    private static func remainder(of name: String, below folder: String) -> Substring? {
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        if name == folder { return "" }
        return name.hasPrefix(prefix) ? name.dropFirst(prefix.count) : nil
    }

    /// The parts of `path`, `.` dropped and each `..` taking back the part before it; nil when a
    /// `..` would step above the first.
    private static func components(of path: Substring) -> [Substring]? {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": guard parts.popLast() != nil else { return nil }
            default: parts.append(part)
            }
        }
        return parts
    }

    private static func currentDirectory() -> String {
        guard let directory = getcwd(nil, 0) else { return "/" }
        defer { free(directory) }
        return String(cString: directory)
    }

    /// `text` with each `%XX` made the byte it stands for; nil for a malformed escape or bytes
    /// that are not UTF-8.
    private static func percentDecoded(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `path` with links resolved; nil when it names nothing that can be reached.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
