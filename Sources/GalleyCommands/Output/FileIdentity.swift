// Which file a path or a descriptor is, whatever it is called: for refusing to write over an input.

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A regular file as the system knows it (its device and inode), or one not made yet (the
/// folder it would be made in, and its name there). Two spellings of one file (`f.jsonl`,
/// `./f.jsonl`, a symbolic or a hard link) have the same identity; devices, pipes and terminals
/// have none, since writing to one cannot empty a file.
enum FileIdentity: Hashable, Sendable {
    case existing(device: UInt64, inode: UInt64)
    case new(folderDevice: UInt64, folderInode: UInt64, name: [UInt8])

    /// The identity of the file `path` names, links followed (a dangling link names the file it
    /// would make); nil when it is not a regular file and could not be made one.
    init?(path: String) {
        var path = Array(path.utf8)
        // As the kernel does, at most 40 links are followed.
        for _ in 0..<40 {
            var status = stat()
            if Self.status(of: path, &status, following: true) {
                guard status.st_mode & S_IFMT == S_IFREG else { return nil }
                self = .existing(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
                return
            }
            guard errno == ENOENT else { return nil }
            if Self.status(of: path, &status, following: false), status.st_mode & S_IFMT == S_IFLNK {
                guard let target = Self.linkTarget(path) else { return nil }
                path = target.first == UInt8(ascii: "/") ? target : Self.folder(of: path) + [UInt8(ascii: "/")] + target
                continue
            }
            let name = Array(path.split(separator: UInt8(ascii: "/")).last ?? [])
            guard !name.isEmpty, Self.status(of: Self.folder(of: path), &status, following: true) else { return nil }
            self = .new(folderDevice: UInt64(status.st_dev), folderInode: UInt64(status.st_ino), name: name)
            return
        }
        return nil
    }

    /// The identity of the regular file open as `descriptor` (standard input, say); nil for
    /// anything else.
    init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        self = .existing(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    private static func status(of path: [UInt8], _ status: inout stat, following: Bool) -> Bool {
        let terminated = path + [0]
        return terminated.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                following ? stat($0, &status) == 0 : lstat($0, &status) == 0
            }
        }
    }

    private static func linkTarget(_ path: [UInt8]) -> [UInt8]? {
        var target = [UInt8](repeating: 0, count: Int(PATH_MAX))
        let terminated = path + [0]
        let count = terminated.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) { name in
                target.withUnsafeMutableBufferPointer { buffer in
                    buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { readlink(name, $0, buffer.count) }
                }
            }
        }
        guard count > 0, count < target.count else { return nil }
        return Array(target[..<count])
    }

    /// The folder part of `path` ("." when it has none).
    private static func folder(of path: [UInt8]) -> [UInt8] {
        var path = path[...]
        while path.count > 1, path.last == UInt8(ascii: "/") { path = path.dropLast() }
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return Array(".".utf8) }
        return slash == path.startIndex ? [UInt8(ascii: "/")] : Array(path[..<slash])
    }
}
