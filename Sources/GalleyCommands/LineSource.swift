// Reads input lines from files or standard input, in chunks, with their line numbers.

import Foundation

/// Lines of text from a list of files (or standard input), read a chunk at a time so that
/// memory stays bounded whatever the input's size.
final class LineSource {
    /// A line and where it came from.
    struct Line: Sendable {
        var file: String
        var number: Int
        /// The line's bytes, without its line ending. Kept as bytes: the JSON parser reads them
        /// in place, and making a string of every line first would check its UTF-8 twice. A
        /// slice of the source's buffer: an array of its own was an allocation and a copy for
        /// every line, made while the workers wait.
        var bytes: ArraySlice<UInt8>

        /// Whether the line holds nothing but whitespace.
        var isBlank: Bool {
            guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return true }
            // Past ASCII whitespace, only a non-ASCII character can still be blank (a no-break space, say).
            return bytes[first] >= 0x80 && String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
        }
    }

    private var pending: [String]
    private var handle: FileHandle?
    private var name = ""
    /// Never changed in place once lines are sliced from it: a new chunk makes a new buffer.
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var position = 0
    private var lineNumber = 0
    private var atEnd = true
    /// What reading the next file threw after some lines of this chunk were read.
    private var deferredError: (any Error)?

    /// Reads `paths` in order; no paths (or "-") means standard input.
    init(paths: [String]) {
        pending = paths.isEmpty ? ["-"] : paths
    }

    /// Up to `count` more lines, or an empty array at the end of all input.
    ///
    /// - Throws: `CocoaError` when a file cannot be opened, ``ReadError`` when one cannot be
    ///   read: once the lines before it have been handed out (the call after theirs).
    func next(_ count: Int) throws -> [Line] {
        if let error = deferredError {
            deferredError = nil
            throw error
        }
        var lines: [Line] = []
        do {
            try read(count, into: &lines)
        } catch where !lines.isEmpty {
            // The lines read before a file that fails go out first: its error comes next call.
            deferredError = error
        }
        return lines
    }

    /// Appends lines to `lines` until it holds `count` or the input ends.
    private func read(_ count: Int, into lines: inout [Line]) throws {
        while lines.count < count {
            if atEnd {
                guard !pending.isEmpty else { break }
                try open(pending.removeFirst())
            }
            if let newline = nextNewline() {
                lines.append(take(upTo: newline, next: newline + 1))
                continue
            }
            // The unread rest and the next read in a new buffer (the lines handed out hold the old one).
            let refilled = try refill()
            if refilled.count == buffer.count - position {
                if position < buffer.count { lines.append(take(upTo: buffer.count, next: buffer.count)) }
                atEnd = true
                if handle !== FileHandle.standardInput { try? handle?.close() }
                handle = nil
            } else {
                buffer = refilled
                position = 0
            }
        }
    }

    /// The unread part of `buffer` followed by up to ``chunkSize`` bytes read straight into the
    /// new buffer (read through `FileHandle`, each chunk came as `Data` and was copied again).
    ///
    /// - Throws: ``ReadError`` naming the file when the read fails (a folder, say).
    private func refill() throws -> [UInt8] {
        let rest = buffer.count - position
        let descriptor = handle?.fileDescriptor
        return try [UInt8](unsafeUninitializedCapacity: rest + Self.chunkSize) { storage, count in
            guard let base = storage.baseAddress else { return }
            buffer.withUnsafeBufferPointer { unread in
                if rest > 0, let start = unread.baseAddress { base.initialize(from: start + position, count: rest) }
            }
            count = rest
            guard let descriptor else { return }
            // Until the chunk is full or the input ends, as `FileHandle.readData(ofLength:)` reads.
            while count < storage.count {
                let read = Glibc.read(descriptor, base + count, storage.count - count)
                if read > 0 {
                    count += read
                } else if read == 0 {
                    return
                } else if errno != EINTR {
                    throw ReadError(file: name, reason: String(cString: strerror(errno)))
                }
            }
        }
    }

    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    /// A file that opened but could not be read.
    struct ReadError: Error, CustomStringConvertible {
        var file: String
        var reason: String
        var description: String { "cannot read \(file): \(reason)" }
    }

    /// The offset of the next line feed in the unread part of `buffer`, found with `memchr`
    /// (the reader runs alone between chunks, so its speed is the batch's serial share).
    private func nextNewline() -> Int? {
        buffer.withUnsafeBufferPointer { bytes in
            guard position < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + position, 0x0A, bytes.count - position)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func open(_ path: String) throws {
        if path == "-" {
            handle = FileHandle.standardInput
            name = "<stdin>"
        } else {
            handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            name = path
        }
        buffer = []
        position = 0
        lineNumber = 0
        atEnd = false
    }

    private func take(upTo end: Int, next: Int) -> Line {
        var bytes = buffer[position..<end]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        lineNumber += 1
        position = next
        return Line(file: name, number: lineNumber, bytes: bytes)
    }
}
