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
public struct ImageFolder: Sendable, Hashable {
    /// The folder's real path (links resolved).
    public let path: String

    /// The largest image file read, in bytes.
    public static let maximumFileSize = 32 << 20
    /// The most pixels a side of an image read.
    public static let maximumSide = 8_192

    /// The folder at `path`, which must exist.
    ///
    /// - Throws: ``RenderError/imageFolder(_:)`` when it is not a folder that can be read.
    public init(path: String) throws(RenderError) {
        guard let resolved = Self.realPath(path).path else { throw .imageFolder("\(path): no such folder") }
        var status = stat()
        guard stat(resolved, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { throw .imageFolder("\(path) is not a folder") }
        self.path = resolved
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
        let candidate = name.hasPrefix("/") ? name : path + "/" + name
        // Resolved first, so that neither `..` nor a link leads out of the folder.
        let (found, error) = Self.realPath(candidate)
        guard let resolved = found else { return .failure(error == ENOENT || error == ENOTDIR ? .missing : .unreadable(String(cString: strerror(error)))) }
        if resolved == path { return .failure(.notAFile) }
        guard resolved.hasPrefix(path.hasSuffix("/") ? path : path + "/") else { return .failure(.outsideFolder) }
        return .success(resolved)
    }

    /// The bytes of the PNG `source` names in the folder, within the bounds.
    func pngBytes(for source: String) -> Result<[UInt8], ImageProblem> {
        let file: String
        switch self.file(for: source) {
        case .success(let found): file = found
        case .failure(let problem): return .failure(problem)
        }
        // Not blocking: a FIFO named as an image would wait for a writer forever.
        let descriptor = open(file, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(.unreadable(Self.reason())) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(Self.reason())) }
        guard status.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
        guard status.st_size <= Self.maximumFileSize else { return .failure(.tooLarge(bytes: Int(status.st_size))) }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var read = 0
        while read < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + read, $0.count - read) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return .failure(.unreadable(count == 0 ? "it ended early" : Self.reason())) }
            read += count
        }
        // The signature and the header's size, before anything is decoded.
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count > 24, bytes.starts(with: signature), bytes[12..<16] == [0x49, 0x48, 0x44, 0x52] else { return .failure(.notPNG) }
        func bigEndian(_ offset: Int) -> Int { bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let (width, height) = (bigEndian(16), bigEndian(20))
        guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height) else {
            return .failure(.tooManyPixels(width: width, height: height))
        }
        return .success(bytes)
    }

    private static func reason() -> String { String(cString: strerror(errno)) }

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

    /// `path` with links resolved, or nil and the system's error number.
    private static func realPath(_ path: String) -> (path: String?, error: Int32) {
        guard let resolved = realpath(path, nil) else { return (nil, errno) }
        defer { free(resolved) }
        return (String(cString: resolved), 0)
    }
}
