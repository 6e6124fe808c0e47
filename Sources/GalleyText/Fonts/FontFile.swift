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
///
/// A WOFF or WOFF2 file is decoded to the OpenType font it holds (by FreeType: HarfBuzz reads
/// neither), once its header has been read and what it declares to decode to is within the
/// limit: a small file could otherwise declare gigabytes, inflated before anything is checked.
final class FontFile: @unchecked Sendable {
    // `@unchecked Sendable`: the blob is made immutable in `init` and only read afterwards.

    /// The font's bytes, for HarfBuzz (and FreeType, through ``bytes``): the file's, or for a
    /// WOFF or WOFF2 file the font decoded from it.
    let blob: OpaquePointer
    /// How many bytes ``blob`` holds: what the font takes in memory.
    let loadedSize: Int
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
    enum Failure: Error, Sendable, Equatable {
        case cannotOpen(String)
        case notRegularFile
        case tooLarge(Int)
        /// A WOFF or WOFF2 file declaring more decoded bytes than the limit.
        case decodedTooLarge(Int)
        /// A WOFF or WOFF2 file whose header does not describe it, or that FreeType cannot decode.
        case malformedWOFF(String)
        case outsideFolders
        case readFailed(String)
    }

    /// The largest file HarfBuzz holds: its blobs' lengths are 32-bit, and it refuses 2 GiB.
    static let largestFile = Int(Int32.max)

    /// A font file opened and identified, not yet read: a collection that has the file's face
    /// already needs no more of it. The descriptor is closed with it.
    final class Opened {
        let path: String
        let identity: Identity
        /// For a WOFF or WOFF2 file, what its header declares it decodes to.
        let woff: WOFFHeader?
        /// The bytes the font will take in memory: the file's size, or what a WOFF file decodes to.
        var loadedSize: Int { woff?.decodedSize ?? identity.size }
        fileprivate let descriptor: Int32

        /// Opens the regular file at `path`, of at most `limit` bytes (and, a WOFF or WOFF2 file,
        /// declaring at most `limit` decoded bytes: only its header and table directory are read).
        ///
        /// - Parameter folders: When given (real paths, each ending in "/"), the file must lie
        ///   inside one of them: `path` as named, before it is opened (so that nothing outside
        ///   is even opened), and as the kernel resolved it, symbolic links followed.
        init(path: String, limit: Int, insideFolders folders: [[UInt8]]? = nil) throws(Failure) {
            guard !path.utf8.contains(0) else { throw .cannotOpen("a NUL in the path") }
            if let folders, !Array(path.utf8).isInside(folders) { throw .outsideFolders }
            let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard descriptor >= 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
            do throws(Failure) {
                var status = stat()
                guard fstat(descriptor, &status) == 0 else { throw .cannotOpen(String(cString: strerror(errno))) }
                guard status.st_mode & S_IFMT == S_IFREG else { throw .notRegularFile }
                let size = Int(status.st_size)
                guard size <= min(limit, FontFile.largestFile) else { throw .tooLarge(size) }
                if let folders {
                    guard let real = FontFile.realPath(of: descriptor), real.isInside(folders) else { throw .outsideFolders }
                }
                woff = try FontFile.woffHeader(descriptor, size: size, limit: min(limit, FontFile.largestFile))
                identity = Identity(
                    device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: size, modified: Int(status.st_mtim.tv_sec),
                    modifiedNanoseconds: Int(status.st_mtim.tv_nsec))
            } catch {
                close(descriptor)
                throw error
            }
            self.path = path
            self.descriptor = descriptor
        }

        deinit { close(descriptor) }
    }

    /// The file `opened`, read (or, for `mapped`, mapped).
    ///
    /// - Parameter mapped: Whether to map the file rather than read it: for fonts the process
    ///   was set up with, whose pages a collection per worker then shares. Files named by
    ///   requests are read into memory of their own, so that one truncated meanwhile cannot fault.
    init(_ opened: Opened, mapped: Bool) throws(Failure) {
        path = opened.path
        identity = opened.identity
        let file = try mapped ? Self.map(opened.descriptor, size: identity.size) : Self.read(opened.descriptor, size: identity.size)
        if let woff = opened.woff {
            defer { hb_blob_destroy(file) }
            var length: UInt32 = 0
            let bytes = UnsafeRawBufferPointer(start: hb_blob_get_data(file, &length), count: Int(length))
            let decoded: UnsafeMutableRawBufferPointer
            do { decoded = try FreeTypeLibrary.shared.decodeWOFF(bytes, limit: woff.decodedSize) } catch { throw .malformedWOFF(error.reason) }
            // On failure HarfBuzz has freed the memory already (it calls the destroy function).
            guard
                let blob = hb_blob_create_or_fail(
                    decoded.baseAddress!.assumingMemoryBound(to: CChar.self), UInt32(decoded.count), HB_MEMORY_MODE_READONLY,
                    decoded.baseAddress, { free($0) })
            else { throw .readFailed("out of memory") }
            self.blob = blob
        } else {
            blob = file
        }
        hb_blob_make_immutable(blob)
        loadedSize = Int(hb_blob_get_length(blob))
    }

    /// Opens and reads the regular file at `path`; see ``Opened`` and ``init(_:mapped:)``.
    convenience init(path: String, limit: Int, mapped: Bool, insideFolders folders: [[UInt8]]? = nil) throws(Failure) {
        try self.init(Opened(path: path, limit: limit, insideFolders: folders), mapped: mapped)
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

    /// The header of the file open at `descriptor` (of `size` bytes) when it is a WOFF or WOFF2
    /// file, read from its first bytes alone; nil for any other file.
    fileprivate static func woffHeader(_ descriptor: Int32, size: Int, limit: Int) throws(Failure) -> WOFFHeader? {
        func prefix(_ count: Int) throws(Failure) -> [UInt8] {
            var bytes = [UInt8](repeating: 0, count: min(count, size))
            var done = 0
            while done < bytes.count {
                let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(done)) }
                if read > 0 {
                    done += read
                } else if read == 0 || errno != EINTR {
                    throw .readFailed(read == 0 ? "the file ended early" : String(cString: strerror(errno)))
                }
            }
            return bytes
        }
        let start = try prefix(14)
        let needed = start.withUnsafeBytes(WOFFHeader.neededBytes)
        guard needed > 0 else { return nil }
        let header = try prefix(needed).withUnsafeBytes { bytes in
            Result { () throws(WOFFHeader.Problem) in try WOFFHeader.read(bytes, fileSize: size, limit: limit) }
        }
        switch header {
        case .success(let header): return header
        case .failure(.tooLarge(let declared)): throw .decodedTooLarge(declared)
        case .failure(.malformed(let reason)): throw .malformedWOFF(reason)
        }
    }

    /// The real path of a folder (symbolic links resolved), as bytes ending in "/", to compare
    /// files' paths with byte for byte.
    static func realFolder(_ path: String) -> [UInt8]? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        var folder = Array(UnsafeRawBufferPointer(start: resolved, count: strlen(resolved)))
        if folder.last != UInt8(ascii: "/") { folder.append(UInt8(ascii: "/")) }
        return folder
    }

    /// Where the open `descriptor`'s file is, as the kernel resolved it, as bytes.
    fileprivate static func realPath(of descriptor: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { readlink("/proc/self/fd/\(descriptor)", $0, buffer.count - 1) }
        }
        guard length > 0 else { return nil }
        return Array(buffer.prefix(length))
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
        // On failure HarfBuzz has freed the memory already (it calls the destroy function).
        guard
            let blob = hb_blob_create_or_fail(
                memory.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, memory, { free($0) })
        else { throw .readFailed("out of memory") }
        return blob
    }

    /// The file mapped read-only, unmapped with the blob.
    private static func map(_ descriptor: Int32, size: Int) throws(Failure) -> OpaquePointer {
        guard size > 0 else { return try read(descriptor, size: 0) }
        let mapping = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0)
        guard let mapping, mapping != MAP_FAILED else { throw .readFailed(String(cString: strerror(errno))) }
        let region = MappedRegion(address: mapping, size: size)
        let user = Unmanaged.passRetained(region).toOpaque()
        // On failure HarfBuzz has released the region already (it calls the destroy function).
        guard
            let blob = hb_blob_create_or_fail(
                mapping.assumingMemoryBound(to: CChar.self), UInt32(size), HB_MEMORY_MODE_READONLY, user,
                { Unmanaged<MappedRegion>.fromOpaque($0!).release() })
        else { throw .readFailed("out of memory") }
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

extension [UInt8] {
    /// Whether this path lies inside one of `folders` (each ending in "/"), byte for byte.
    fileprivate func isInside(_ folders: [[UInt8]]) -> Bool {
        folders.contains { folder in count > folder.count && starts(with: folder) }
    }
}
