// JSON Lines: one record per line, read a chunk at a time with line numbers.

import Foundation

/// The lines of one input, read in large blocks so that memory stays bounded whatever the input's
/// size: a line longer than the limit is skipped, not read whole, and handed out as such (an
/// error for that line alone). Handwritten rather than through `FileHandle`: it is the batch's
/// serial share (it runs while the workers wait for a chunk), and each of its lines is a slice of
/// one buffer instead of an allocation.
final class LineReader: RecordSource {
    private let input: ByteInput
    /// The longest line handed out whole, in bytes (without its line ending).
    let maximumLineLength: Int
    /// How much of the unread part of `buffer` is known to hold no line feed.
    private var scanned = 0
    /// Never changed in place once lines are sliced from it: a new chunk makes a new buffer.
    private var buffer: [UInt8] = []
    /// Where the unread part of `buffer` starts.
    private var position = 0
    private var lineNumber = 0
    private var atEnd = false

    /// Bytes read at a time.
    static let chunkSize = 1 << 20

    init(_ input: ByteInput, maximumLineLength: Int) {
        self.input = input
        self.maximumLineLength = max(maximumLineLength, 1)
    }

    func next(_ count: Int) throws -> [InputRecord] {
        var lines: [InputRecord] = []
        while lines.count < count && !atEnd {
            if let newline = nextNewline() {
                // The line's length without its ending (a CR before the line feed is part of it).
                let length = newline - position - (newline > position && buffer[newline - 1] == 0x0D ? 1 : 0)
                lines.append(length > maximumLineLength ? skip(upTo: newline, next: newline + 1) : take(upTo: newline, next: newline + 1))
                continue
            }
            if buffer.count - position > maximumLineLength {
                // Too long already: the rest of the line is read past, not kept.
                lines.append(skipRestOfLine())
                continue
            }
            // The unread rest and the next read in a new buffer (the lines handed out hold the old one).
            let rest = buffer.count - position
            let refilled = refill()
            if refilled.count == rest {
                // A last line without its line feed is whole only at the end of the input, not
                // where reading failed.
                if position < buffer.count && input.failure == nil {
                    lines.append(rest > maximumLineLength ? skip(upTo: buffer.count, next: buffer.count) : take(upTo: buffer.count, next: buffer.count))
                }
                atEnd = true
                input.close()
            } else {
                buffer = refilled
                position = 0
                scanned = rest
                if lineNumber == 0 && rest == 0 { skipByteOrderMark() }
            }
        }
        return lines
    }

    /// Skips a UTF-8 byte order mark at the start of the input (files saved on Windows have one).
    private func skipByteOrderMark() {
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The line that starts at `position`, already longer than the limit and not yet ended in
    /// `buffer`: read past up to its line feed (or the input's end), a chunk at a time.
    private func skipRestOfLine() -> InputRecord {
        var length = buffer.count - position
        buffer = []
        position = 0
        scanned = 0
        while true {
            let chunk = refill()
            guard !chunk.isEmpty else {
                atEnd = true
                input.close()
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
    /// buffer: at least ``chunkSize`` bytes, and as many as the unread part, so that a long line
    /// is copied a few times in all rather than once per chunk.
    private func refill() -> [UInt8] {
        let rest = buffer.count - position
        return [UInt8](unsafeUninitializedCapacity: rest + max(Self.chunkSize, rest)) { storage, count in
            guard let base = storage.baseAddress else { return }
            buffer.withUnsafeBufferPointer { unread in
                if rest > 0, let start = unread.baseAddress { base.initialize(from: start + position, count: rest) }
            }
            count = rest
            count += input.read(into: base + rest, count: storage.count - rest)
        }
    }

    /// The offset of the next line feed in the unread part of `buffer`, found with `memchr`,
    /// past what earlier searches found none in.
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

    /// The line from `position` to `end`, too long to hand out: its length only.
    private func skip(upTo end: Int, next: Int) -> InputRecord {
        let length = end - position - (end > position && buffer[end - 1] == 0x0D ? 1 : 0)
        position = next
        return skippedLine(length: length)
    }

    private func skippedLine(length: Int) -> InputRecord {
        lineNumber += 1
        return InputRecord(file: input.name, number: lineNumber, ordinal: lineNumber, content: .tooLong(length, limit: maximumLineLength))
    }

    private func take(upTo end: Int, next: Int) -> InputRecord {
        var bytes = buffer[position..<end]
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        lineNumber += 1
        position = next
        scanned = 0
        return InputRecord(file: input.name, number: lineNumber, ordinal: lineNumber, content: .json(bytes))
    }
}
