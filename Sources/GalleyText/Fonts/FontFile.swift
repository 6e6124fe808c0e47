// Opening a font file safely: a regular file, of bounded size, read once through one descriptor.

internal import CHarfBuzz
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The bytes of one font file, as HarfBuzz holds them, and which file they came from.
///
/// The file is opened once, without blocking (a FIFO or a terminal would otherwise wait for a
/// writer), and everything is decided on that descriptor: what it is (a regular file, not a
/// device, a pipe or a folder), how large, where it lives. Nothing is read from a file that
/// fails, so naming `/dev/zero` or standard input costs nothing.
final class FontFile: @unchecked Sendable {
    // `@unchecked Sendable`: the blob is made immutable in `init` and only read afterwards.

    /// The file's bytes, for HarfBuzz (and FreeType, through ``bytes``).
    let blob: OpaquePointer
    /// The path the file was named by.
    let path: String
    /// The file itself, whatever path named it: two paths to one file load one face.
    let identity: Identity

    /// A file as the system knows it: device, inode, size and last change.
    struct Identity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
        var modifiedNanoseconds: Int
    }

    /// Why a font file was not opened. The caller decides what to tell: a request is told the
    /// same thing whatever the reason, so that errors say nothing about files it may not see.
    enum Failure: Error, Sendable {
        case cannotOpen(String)
        case notRegularFile
        case tooLarge(Int)
        case outsideFolders
        case readFailed(String)
    }

    /// Opens and reads (or, for `mapped`, maps) the regular file at `path`.
    ///
    /// - Parameters:
    ///   - limit: The largest file accepted, in bytes.
    ///   - mapped: Whether to map the file rather than read it: for fonts the process was set
    ///     up with, whose pages a collection per worker then shares. Files named by requests
    ///     are read into memory of their own, so that one truncated meanwhile cannot fault.
    ///   - folders: When given, the file (its real path, symbolic links resolved from the open
    ///     descriptor) must lie inside one of these folders (real paths too).
    init(path: String, limit: Int, mapped: Bool, insideFolders folders: [String]? = nil) throws(Failure) {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
        let size = Int(status.st_size)
        guard size <= limit else { throw .tooLarge(size) }
        if let folders {
            guard let real = Self.realPath(of: descriptor), folders.contains(where: { real.hasPrefix($0 + "/") }) else {
                throw .outsideFolders
            }
        }
        identity = Identity(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: size, modified: Int(status.st_mtim.tv_sec),
            modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
        self.path = path
        blob = try mapped ? Self.map(descriptor, size: size) : Self.read(descriptor, size: size)
        hb_blob_make_immutable(blob)
    }

    deinit { hb_blob_destroy(blob) }

    /// Number of faces in the file (more than one in a collection such as `.ttc`).
    var faceCount: Int { Int(hb_face_count(blob)) }

    /// The file's bytes, valid while this object lives.
    var bytes: UnsafeRawBufferPointer {
        var length: UInt32 = 0
        let data = hb_blob_get_data(blob, &length)
        return UnsafeRawBufferPointer(start: data, count: Int(length))
    }

    /// The real path of a folder (symbolic links resolved), to compare files' real paths with.
    static func realFolder(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        let folder = String(cString: resolved)
        return folder.hasSuffix("/") ? String(folder.dropLast()) : folder
    }

    /// Where the open `descriptor`'s file is, as the kernel resolved it.
    private static func realPath(of descriptor: Int32) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/fd/\(descriptor)", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The file's bytes in memory of their own, freed with the blob.
    private static func read(_ descriptor: Int32, size: Int) throws(Failure) -> OpaquePointer {
        guard let memory = malloc(max(size, 1)) else { throw .readFailed("out of memory") }
        var done = 0
        while done < size {
            let count = Glibc.read(descriptor, memory + done, size - done)
            if count > 0 {
                done += count
            } else if count == 0 || errno != EINTR {
                let reason = count == 0 ? "the file ended early" : String(cString: strerror(errno))
                free(memory)
                throw .readFailed(reason)
            }
        }
        guard let blob = hb_blob_create_or_fail(
            memory.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, memory, { free($0) })
        else {
            free(memory)
            throw .readFailed("out of memory")
        }
        return blob
    }

    /// The file mapped read-only, unmapped with the blob.
    private static func map(_ descriptor: Int32, size: Int) throws(Failure) -> OpaquePointer {
        guard size > 0 else { return try read(descriptor, size: 0) }
        let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { throw .readFailed(String(cString: strerror(errno))) }
        let region = MappedRegion(address: mapping, size: size)
        let user = Unmanaged.passRetained(region).toOpaque()
        guard let blob = hb_blob_create_or_fail(
            mapping.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, user,
            { Unmanaged<MappedRegion>.fromOpaque($0!).release() })
        else {
            Unmanaged<MappedRegion>.fromOpaque(user).release()
            throw .readFailed("out of memory")
        }
        return blob
    }

    /// A mapping, unmapped when HarfBuzz lets go of the blob holding it.
    private final class MappedRegion {
        let address: UnsafeMutableRawPointer
        let size: Int
        init(address: UnsafeMutableRawPointer, size: Int) { (self.address, self.size) = (address, size) }
        deinit { munmap(address, size) }
    }
}
