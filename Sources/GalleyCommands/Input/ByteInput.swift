// The bytes of one input file (or standard input), read in large blocks.

import Foundation

/// An open input: a file or standard input, read through its descriptor. The first bytes can be
/// looked at before reading (to tell the format) and are then read again like the rest.
final class ByteInput {
    /// The path, or `<stdin>`.
    let name: String
    private var descriptor: Int32
    /// Whether ``descriptor`` was opened here, to be closed here (not standard input).
    private var ownsDescriptor = false
    /// Bytes looked at by ``peek(_:)`` and not yet read.
    private var peeked: [UInt8] = []
    private var peekedPosition = 0
    /// The file's size in bytes when it is a regular file.
    let size: Int?
    /// Why reading failed (an I/O error), once it has. Reading then ends as at the end of the
    /// input, so that readers hand out every whole record before it; a reader drops the record
    /// it was in, which the failure cut short, and its source reports the failure after them.
    private(set) var failure: InputError?
    private let progress: ReadProgress?

    /// Opens `path` ("-" for `standardInput`, by default the running command's).
    ///
    /// - Throws: ``InputError`` naming the file and the reason (missing, unreadable, a folder).
    init(path: String, standardInput: Int32 = StandardStreams.current.input, progress: ReadProgress? = nil) throws {
        self.progress = progress
        if path == "-" {
            name = "<stdin>"
            descriptor = standardInput
        } else {
            name = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw InputError(file: path, reason: String(cString: strerror(errno))) }
            ownsDescriptor = true
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            if ownsDescriptor { Glibc.close(descriptor) }
            throw InputError(file: name, reason: "it is a folder")
        }
        size = (status.st_mode & S_IFMT) == S_IFREG ? Int(status.st_size) : nil
    }

    /// An input read through `source`, which fills a buffer as `read(2)` does (the bytes read,
    /// 0 at the end, or −1 with `errno` set): for inputs that are not files, and for testing
    /// what a failed read does.
    init(name: String, source: @escaping (UnsafeMutableRawPointer, Int) -> Int) {
        self.name = name
        descriptor = -1
        self.source = source
        size = nil
        progress = nil
    }

    /// Where ``init(name:source:)``'s bytes come from.
    private var source: ((UnsafeMutableRawPointer, Int) -> Int)?

    deinit { close() }

    /// Stops reading; the descriptor is closed unless it is standard input.
    func close() {
        if ownsDescriptor { Glibc.close(descriptor) }
        ownsDescriptor = false
        descriptor = -1
        source = nil
    }

    /// Whether `path` can be opened for reading, and if not why: checked for every input before
    /// any work starts, so that a typo stops the run at once.
    static func problem(opening path: String) -> String? {
        guard path != "-" else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return String(cString: strerror(errno)) }
        if (status.st_mode & S_IFMT) == S_IFDIR { return "it is a folder" }
        guard access(path, R_OK) == 0 else { return String(cString: strerror(errno)) }
        return nil
    }

    /// Goes back (or on) to `offset` in a regular file, to read it again from there.
    ///
    /// - Returns: false for anything else (standard input or a pipe), or when the file cannot
    ///   seek.
    func seek(to offset: Int) -> Bool {
        guard size != nil, descriptor >= 0, failure == nil, lseek(descriptor, off_t(offset), SEEK_SET) == off_t(offset) else { return false }
        peeked = []
        peekedPosition = 0
        return true
    }

    /// Up to `count` of the next bytes, without consuming them: the following reads return them again.
    func peek(_ count: Int) -> [UInt8] {
        if peeked.count - peekedPosition < count {
            var more = [UInt8](repeating: 0, count: count - (peeked.count - peekedPosition))
            var filled = 0
            while filled < more.count {
                let read = more.withUnsafeMutableBufferPointer { self.readDescriptor(into: $0.baseAddress! + filled, count: $0.count - filled) }
                if read == 0 { break }
                filled += read
            }
            peeked = Array(peeked[peekedPosition...]) + more[..<filled]
            peekedPosition = 0
        }
        return Array(peeked[peekedPosition..<min(peeked.count, peekedPosition + count)])
    }

    /// Reads up to `count` bytes into `buffer`: as many as are there (fewer only at the end of
    /// the input, or where reading failed: see ``failure``), 0 at its end.
    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        var filled = 0
        if peekedPosition < peeked.count {
            let taken = min(count, peeked.count - peekedPosition)
            peeked.withUnsafeBufferPointer { buffer.initialize(from: $0.baseAddress! + peekedPosition, count: taken) }
            peekedPosition += taken
            filled = taken
            if peekedPosition == peeked.count {
                peeked = []
                peekedPosition = 0
            }
        }
        while filled < count {
            let read = readDescriptor(into: buffer + filled, count: count - filled)
            if read == 0 { break }
            filled += read
        }
        return filled
    }

    /// Everything left, up to `limit` bytes, in memory of its own (a regular file's read in
    /// place, at its size: no copies as it grows, and no second copy for its reader).
    ///
    /// - Throws: ``InputError`` when reading fails or the rest is longer than `limit`.
    func readAll(limit: Int) throws -> WholeInput {
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, min(size ?? 1 << 20, limit)))
        var count = 0
        do {
            while true {
                if count == buffer.count {
                    // Full: at the end, or the file grew, or its size was not known.
                    var byte: UInt8 = 0
                    if read(into: &byte, count: 1) == 0 { break }
                    guard count < limit else {
                        throw InputError(file: name, reason: "it is more than \(limit) bytes long, the limit for a file read whole (--max-document-size)")
                    }
                    let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: min(buffer.count * 2, limit))
                    _ = larger.initialize(fromContentsOf: buffer)
                    buffer.deallocate()
                    buffer = larger
                    buffer[count] = byte
                    count += 1
                    continue
                }
                let read = self.read(into: buffer.baseAddress! + count, count: buffer.count - count)
                if read == 0 { break }
                count += read
            }
            // Part of a document is none of it.
            if let failure { throw failure }
        } catch {
            buffer.deallocate()
            throw error
        }
        return WholeInput(buffer, count: count)
    }

    private func readDescriptor(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard descriptor >= 0 || source != nil, failure == nil else { return 0 }
        while true {
            let read = source?(buffer, count) ?? Glibc.read(descriptor, buffer, count)
            if read >= 0 {
                progress?.add(read)
                return read
            }
            if errno != EINTR {
                failure = InputError(file: name, reason: String(cString: strerror(errno)))
                return 0
            }
        }
    }
}

/// An input read whole, in memory it owns: shared, never written, by the readers of formats
/// that cannot be streamed and the workers that read their records.
final class WholeInput: Sendable {
    nonisolated(unsafe) private let allocation: UnsafeMutableBufferPointer<UInt8>
    /// The input's bytes (never written after reading, so safe to share).
    nonisolated(unsafe) let bytes: UnsafeBufferPointer<UInt8>

    init(_ allocation: UnsafeMutableBufferPointer<UInt8>, count: Int) {
        self.allocation = allocation
        bytes = UnsafeBufferPointer(rebasing: allocation[..<count])
    }

    deinit { allocation.deallocate() }
}
