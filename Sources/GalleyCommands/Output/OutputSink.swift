// Where a run's results are written: a stream of bytes, or a database.

import Foundation

/// Receives blocks of results in input order, on one thread at a time (the batch's writing
/// queue): implementations may keep state unguarded on that promise.
protocol OutputSink: AnyObject, Sendable {
    /// Writes the blocks' results and errors.
    func write(_ blocks: [ResultBlock]) throws
    /// Writes what is still buffered; the run is over.
    func finish() throws
}

/// The reader of the output went away (`| head`): the run ends quietly.
struct OutputClosed: Error {}

/// Output that could not be written (a full disk, an unwritable file).
struct OutputError: Error, CustomStringConvertible {
    var file: String
    var reason: String
    var description: String { "cannot write \(file): \(reason)" }
}

/// A file descriptor written whole blocks at a time. On a failure to write, a regular file is cut
/// back to the end of the last block written whole, so that it never ends in part of a line.
/// `@unchecked Sendable`: written from one queue at a time (see ``OutputSink``).
final class ByteStream: @unchecked Sendable {
    let name: String
    private let descriptor: Int32
    private let owned: Bool
    /// Where the last whole block ended, for cutting back a regular file.
    private var written: off_t = 0
    private let isRegularFile: Bool

    /// Standard output or standard error.
    init(standard descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
        owned = false
        var status = stat()
        isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
        written = isRegularFile ? lseek(descriptor, 0, SEEK_CUR) : 0
    }

    /// A file, made or emptied.
    init(path: String) throws {
        name = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(file: path, reason: String(cString: strerror(errno))) }
        owned = true
        isRegularFile = true
    }

    deinit { if owned { close(descriptor) } }

    /// Writes all of `bytes`.
    ///
    /// - Throws: ``OutputClosed`` when the reader has gone, ``OutputError`` otherwise.
    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count > 0 {
                offset += count
                continue
            }
            if count < 0 && errno == EINTR { continue }
            let code = count < 0 ? errno : ENOSPC
            if code == EPIPE { throw OutputClosed() }
            if isRegularFile { _ = ftruncate(descriptor, written) }
            throw OutputError(file: name, reason: String(cString: strerror(code)))
        }
        written += off_t(bytes.count)
    }
}

/// JSON Lines or CSV to a stream, errors to another.
final class StreamSink: OutputSink, @unchecked Sendable {
    private let output: ByteStream
    private let errors: ByteStream
    /// Written before the first block (a CSV header).
    private var header: [UInt8]?

    init(output: ByteStream, errors: ByteStream, header: [UInt8]? = nil) {
        self.output = output
        self.errors = errors
        self.header = header
    }

    func write(_ blocks: [ResultBlock]) throws {
        var bytes = header ?? []
        header = nil
        var errorBytes: [UInt8] = []
        bytes.reserveCapacity(bytes.count + blocks.reduce(0) { $0 + $1.bytes.count })
        for block in blocks {
            bytes += block.bytes
            errorBytes += block.errors
        }
        if !bytes.isEmpty { try output.write(bytes) }
        if !errorBytes.isEmpty { try errors.write(errorBytes) }
    }

    func finish() throws {
        if let header {
            self.header = nil
            try output.write(header)
        }
    }
}
