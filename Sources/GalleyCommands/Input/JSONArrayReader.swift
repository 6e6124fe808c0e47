// A JSON array of records, streamed: each element handed out as its own JSON text.

import Foundation

/// The elements of a top-level JSON array, found by a scan that follows only strings and
/// brackets and handed to the workers as JSON texts, as JSON Lines' lines are: the array is never
/// held whole, and each element is parsed (and its errors located) on the worker that measures it.
/// Foundation's `JSONSerialization` reads a whole document before giving anything back.
final class JSONArrayReader: RecordSource {
    private let input: ByteInput
    private let maximumLength: Int
    private var buffer: [UInt8] = []
    /// Where the current element (or what is left to scan) starts in `buffer`.
    private var start = 0
    /// How far `buffer` has been scanned.
    private var cursor = 0
    private var state = State.beforeArray
    private var depth = 0
    private var inString = false
    private var escaped = false
    /// The line `cursor` is on, and the line the current element starts on.
    private var line = 1
    private var elementLine = 1
    private var ordinal = 0
    /// Bytes of the current element already dropped because it is too long.
    private var skipped = 0
    private var atEnd = false

    private enum State { case beforeArray, beforeElement, inElement, afterElement, afterArray, done }

    init(_ input: ByteInput, maximumLength: Int) {
        self.input = input
        self.maximumLength = max(maximumLength, 1)
    }

    func next(_ count: Int) throws -> [InputRecord] {
        var records: [InputRecord] = []
        while records.count < count && state != .done {
            if cursor == buffer.count {
                if atEnd {
                    finish(into: &records)
                    break
                }
                refill()
                continue
            }
            scan(into: &records, upTo: count)
        }
        return records
    }

    /// Scans `buffer` from `cursor`, appending each element that ends.
    private func scan(into records: inout [InputRecord], upTo count: Int) {
        buffer.withUnsafeBufferPointer { bytes in
            while cursor < bytes.count && records.count < count && state != .done {
                let byte = bytes[cursor]
                if byte == 0x0A { line += 1 }
                switch state {
                case .beforeArray:
                    if byte == UInt8(ascii: "[") {
                        state = .beforeElement
                    } else if !Self.isWhitespace(byte) && !(cursor < 3 && line == 1 && Self.isByteOrderMark(bytes, at: cursor)) {
                        records.append(invalid("expected a JSON array ('['), got '\(Self.describe(byte))'"))
                        state = .done
                    }
                case .beforeElement, .afterElement:
                    if Self.isWhitespace(byte) { break }
                    if byte == UInt8(ascii: "]") {
                        state = .afterArray
                        break
                    }
                    if state == .afterElement {
                        if byte == UInt8(ascii: ",") {
                            state = .beforeElement
                        } else {
                            records.append(invalid("expected ',' or ']' after an element, got '\(Self.describe(byte))'"))
                            state = .done
                        }
                        break
                    }
                    if byte == UInt8(ascii: ",") {
                        records.append(invalid("expected an element, got ','"))
                        state = .done
                        break
                    }
                    state = .inElement
                    start = cursor
                    elementLine = line
                    skipped = 0
                    (depth, inString, escaped) = (0, false, false)
                    continue  // the element's first byte is scanned as part of it
                case .inElement:
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                        }
                    } else if byte == UInt8(ascii: "\"") {
                        inString = true
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if (byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")) && depth > 0 {
                        depth -= 1
                    } else if depth == 0 && (byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]")) {
                        records.append(element(endingAt: cursor))
                        state = byte == UInt8(ascii: ",") ? .beforeElement : .afterArray
                    }
                case .afterArray:
                    if !Self.isWhitespace(byte) {
                        records.append(invalid("unexpected '\(Self.describe(byte))' after the array"))
                        state = .done
                    }
                case .done:
                    break
                }
                cursor += 1
            }
        }
    }

    /// At the end of the input: the element in progress, or what is missing.
    private func finish(into records: inout [InputRecord]) {
        // Where reading failed, the element in progress is cut short and the array's end was
        // never read: the failure is said after the elements before.
        switch input.failure == nil ? state : .done {
        case .beforeArray: break  // an empty input holds no records
        case .inElement:
            // The element as far as it goes (the parser says if it is cut short), then the array's end.
            records.append(element(endingAt: cursor))
            records.append(invalid("the array is not closed with ']'"))
        case .beforeElement, .afterElement: records.append(invalid("the array is not closed with ']'"))
        case .afterArray, .done: break
        }
        state = .done
        input.close()
    }

    /// The element from `start` to `end` (its trailing whitespace dropped).
    private func element(endingAt end: Int) -> InputRecord {
        ordinal += 1
        var last = end
        while last > start && Self.isWhitespace(buffer[last - 1]) { last -= 1 }
        let length = skipped + last - start
        let content: InputRecord.Content = skipped > 0 || length > maximumLength ? .tooLong(length, limit: maximumLength) : .json(buffer[start..<last])
        start = end + 1
        return InputRecord(file: input.name, number: elementLine, ordinal: ordinal, content: content)
    }

    private func invalid(_ reason: String) -> InputRecord {
        ordinal += 1
        return InputRecord(file: input.name, number: line, ordinal: ordinal, content: .invalid("\(input.name): \(reason)"))
    }

    /// Keeps the current element's bytes (unless it is already too long) and reads more.
    private func refill() {
        let keepFrom = state == .inElement ? start : cursor
        var kept = buffer.count - keepFrom
        if state == .inElement && skipped + kept > maximumLength {
            // Too long to hand out: only its length is kept from here on.
            skipped += kept
            kept = 0
        }
        let old = buffer
        // At least as much again as is kept, so that a long element is copied a few times in all.
        let more = max(LineReader.chunkSize, kept)
        buffer = [UInt8](unsafeUninitializedCapacity: kept + more) { storage, count in
            old.withUnsafeBufferPointer { if kept > 0 { storage.baseAddress!.initialize(from: $0.baseAddress! + (old.count - kept), count: kept) } }
            count = kept + input.read(into: storage.baseAddress! + kept, count: more)
        }
        if buffer.count == kept { atEnd = true }
        start = 0
        cursor = kept
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private static func isByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        return index < 3 && bytes.count >= 3 && bytes[0] == mark[0] && bytes[1] == mark[1] && bytes[2] == mark[2]
    }

    private static func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? String(UnicodeScalar(byte)) : "0x" + String(byte, radix: 16, uppercase: true)
    }
}
