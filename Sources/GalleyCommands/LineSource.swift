// Reads input lines from files or standard input, in chunks, with their line numbers.

import Foundation

/// Lines of text from a list of files (or standard input), read a chunk at a time so that
/// memory stays bounded whatever the input's size: a line longer than the limit is skipped,
/// not read whole, and handed out as such (an error for that line alone).
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
        /// For a line longer than the limit, its length (its bytes are then empty: they were
        /// skipped, not kept); nil for the others.
        var skippedLength: Int? = nil

        /// Whether the line holds nothing but whitespace.
        var isBlank: Bool {
            guard skippedLength == nil else { return false }
            guard let first = bytes.firstIndex(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) else { return true }
            // Past ASCII whitespace, only a non-ASCII character can still be blank (a no-break space, say).
            return bytes[first] >= 0x80 && String(decoding: bytes, as: UTF8.self).allSatisfy(\.isWhitespace)
        }
    }

    private var pending: [String]
    /// The longest line handed out whole, in bytes (without its line ending).
    let maximumLineLength: Int
    /// How much of the unread part of `buffer` is known to hold no line feed.
    private var scanned = 0
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

    /// The default ``maximumLineLength``: 64 MiB.
    static let defaultMaximumLineLength = 64 << 20

    /// Reads `paths` in order; no paths (or "-") means standard input.
    init(paths: [String], maximumLineLength: Int = defaultMaximumLineLength) {
        pending = paths.isEmpty ? ["-"] : paths
        self.maximumLineLength = max(maximumLineLength, 1)
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
                // The line's length without its ending (a CR before the line feed is part of it).
                let length = newline - position - (newline > position && buffer[newline - 1] == 0x0D ? 1 : 0)
                lines.append(length > maximumLineLength ? skip(upTo: newline, next: newline + 1) : take(upTo: newline, next: newline + 1))
                continue
            }
            if buffer.count - position > maximumLineLength {
                // Too long already: the rest of the line is read past, not kept.
                lines.append(try skipRestOfLine())
                continue
            }
            // The unread rest and the next read in a new buffer (the lines handed out hold the old one).
            let rest = buffer.count - position
            let refilled = try refill()
            if refilled.count == rest {
                if position < buffer.count {
                    lines.append(rest > maximumLineLength ? skip(upTo: buffer.count, next: buffer.count) : take(upTo: buffer.count, next: buffer.count))
                }
                finishFile()
            } else {
                buffer = refilled
                position = 0
                scanned = rest
            }
        }
    }

    /// The end of the current file: the next read opens the next one.
    private func finishFile() {
        atEnd = true
        if handle !== FileHandle.standardInput { try? handle?.close() }
        handle = nil
    }

    /// The line that starts at `position`, already longer than the limit and not yet ended in
    /// `buffer`: read past up to its line feed (or the file's end), a chunk at a time.
    private func skipRestOfLine() throws -> Line {
        var length = buffer.count - position
        buffer = []
        position = 0
        scanned = 0
        while true {
            let chunk = try refill()
            guard !chunk.isEmpty else {
                finishFile()
                return skippedLine(length: length)
            }
            if let newline = chunk.firstIndex(of: 0x0A) {
                buffer = chunk
                position = newline + 1
                return skippedLine(length: length + newline)
            }
            length += chunk.count
        }
    }

    /// The unread part of `buffer` followed by what one read brings, straight into the new
    /// buffer (read through `FileHandle`, each chunk came as `Data` and was copied again): at
    /// least ``chunkSize`` bytes, and as many as the unread part, so that a long line is copied
    /// a few times in all rather than once per chunk.
    ///
    /// - Throws: ``ReadError`` naming the file when the read fails (a folder, say).
    private func refill() throws -> [UInt8] {
        let rest = buffer.count - position
        let descriptor = handle?.fileDescriptor
        return try [UInt8](unsafeUninitializedCapacity: rest + max(Self.chunkSize, rest)) { storage, count in
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
    /// (the reader runs alone between chunks, so its speed is the batch's serial share), past
    /// what earlier searches found none in.
    private func nextNewline() -> Int? {
        let start = position + scanned
        let found: Int? = buffer.withUnsafeBufferPointer { bytes in
            guard start < bytes.count, let base = bytes.baseAddress,
                  let found = memchr(base + start, 0x0A, bytes.count - start)
            else { return nil }
            return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        }
        scanned = found == nil ? buffer.count - position : 0
        return found
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
        scanned = 0
        lineNumber = 0
        atEnd = false
    }

    /// The line from `position` to `end`, too long to hand out: its length only.
    private func skip(upTo end: Int, next: Int) -> Line {
        let length = end - position - (end > position && buffer[end - 1] == 0x0D ? 1 : 0)
        position = next
        return skippedLine(length: length)
    }

    private func skippedLine(length: Int) -> Line {
        lineNumber += 1
        return Line(file: name, number: lineNumber, bytes: [], skippedLength: length)
    }

    private func take(upTo end: Int, next: Int) -> Line {
        var bytes = buffer[position..<end]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        lineNumber += 1
        position = next
        scanned = 0
        return Line(file: name, number: lineNumber, bytes: bytes)
    }
}
