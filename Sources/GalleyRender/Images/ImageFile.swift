// An image file in the folder, opened: which file it is, whatever path named it, and its bytes.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A file opened in an ``ImageFolder``, not yet read; the descriptor is closed with it.
final class ImageFile {
    /// A file as the system knows it (device, inode, size, last change): two paths to one file
    /// are one image, and a file changed on disk is another.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int
    }

    let identity: Identity
    private let descriptor: Int32

    private init(descriptor: Int32, identity: Identity) {
        self.descriptor = descriptor
        self.identity = identity
    }

    deinit { close(descriptor) }

    /// Opens `path` (a real path inside `folder`) without blocking: a FIFO named as an image
    /// would wait for a writer forever. Only a regular file of at most
    /// ``ImageFolder/maximumFileSize`` bytes, still inside the folder once opened.
    static func open(_ path: String, inside folder: String) -> Result<ImageFile, ImageProblem> {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW)
        guard descriptor >= 0 else { return .failure(.unreadable(reason())) }
        var status = stat()
        let problem: ImageProblem?
        if fstat(descriptor, &status) != 0 {
            problem = .unreadable(reason())
        } else if let real = ImageFolder.realPath("/proc/self/fd/\(descriptor)"),
            !real.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
        {
            // The path was swapped for a link that leads out after it was resolved.
            problem = .notInFolder
        } else if status.st_mode & S_IFMT != S_IFREG {
            problem = .notAFile
        } else if status.st_size > ImageFolder.maximumFileSize {
            problem = .tooLarge(bytes: Int(status.st_size))
        } else {
            problem = nil
        }
        if let problem {
            close(descriptor)
            return .failure(problem)
        }
        let identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int(status.st_size), modified: Int(status.st_mtim.tv_sec),
            modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
        return .success(ImageFile(descriptor: descriptor, identity: identity))
    }

    /// The file's bytes, when they are a PNG whose header gives a size within
    /// ``ImageFolder/maximumSide`` a side, and that size.
    func png() -> Result<(bytes: [UInt8], width: Int, height: Int), ImageProblem> {
        var bytes = [UInt8](repeating: 0, count: identity.size)
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
        guard (1...ImageFolder.maximumSide).contains(width), (1...ImageFolder.maximumSide).contains(height) else {
            return .failure(.tooManyPixels(width: width, height: height))
        }
        return .success((bytes, width, height))
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
}
