// Reusable ICU break iterators, one idle list per kind and locale.

internal import CGalleyShims
import GalleyLocks

/// Hands out ICU break iterators without opening one per call.
///
/// Opening an ICU iterator loads and compiles rules; cloning a prototype is cheap, and reusing
/// an idle one is nearly free. Iterators are not thread-safe, so each is used by one caller at
/// a time and returned to the idle list afterwards.
final class BreakIteratorPool: Sendable {
    enum Kind: Int32, Sendable {
        case character = 0
        case line = 2
    }

    /// An ICU `UBreakIterator`. `@unchecked Sendable`: it moves between threads only through
    /// the pool's lock, and one caller at a time uses it.
    struct Iterator: @unchecked Sendable {
        let pointer: OpaquePointer

        /// Points the iterator at `text`, which must outlive the iteration.
        func setText(_ text: UnsafeBufferPointer<UInt16>) {
            _ = CGalley_breakIteratorSetText(pointer, text.baseAddress, Int32(text.count))
        }

        /// The next boundary, or nil at the end.
        @inline(__always)
        func next() -> Int? {
            let boundary = CGalley_breakIteratorNext(pointer)
            return boundary < 0 ? nil : Int(boundary)
        }

        /// Whether the boundary last returned is a mandatory line break.
        var isMandatoryBreak: Bool {
            let status = CGalley_breakIteratorRuleStatus(pointer)
            return status >= CGalley_LineHard && status < CGalley_LineHardLimit
        }
    }

    private struct Key: Hashable {
        var kind: Kind
        var locale: String
    }
    private struct Entry {
        var prototype: Iterator
        var idle: [Iterator]
    }
    private let entries = Locked<[Key: Entry]>([:])

    /// Runs `body` with an iterator of `kind` for the ICU locale ID `locale`.
    func withIterator<Result>(
        _ kind: Kind, locale: String, _ body: (Iterator) throws(TextError) -> Result
    ) throws(TextError) -> Result {
        let iterator = try checkOut(kind, locale: locale)
        defer { entries.withLock { $0[Key(kind: kind, locale: locale)]?.idle.append(iterator) } }
        return try body(iterator)
    }

    private func checkOut(_ kind: Kind, locale: String) throws(TextError) -> Iterator {
        let key = Key(kind: kind, locale: locale)
        let found: Iterator?? = entries.withLock { entries in
            // Found once and changed in place: a copy of the entry makes its idle list shared, so
            // that taking one out copies the list, and storing the entry back hashes again.
            guard let index = entries.index(forKey: key) else { return .none }
            if let idle = entries.values[index].idle.popLast() { return .some(idle) }
            return .some(CGalley_breakIteratorClone(entries.values[index].prototype.pointer).map(Iterator.init))
        }
        if let found {
            guard let found else { throw .icu("cannot clone a break iterator for '\(locale)'") }
            return found
        }
        var error: UnsafePointer<CChar>?
        guard let opened = CGalley_breakIteratorOpen(kind.rawValue, locale, &error) else {
            throw .icu("cannot open a break iterator for '\(locale)': \(error.map { String(cString: $0) } ?? "?")")
        }
        let prototype = Iterator(pointer: opened)
        let copy = CGalley_breakIteratorClone(opened).map(Iterator.init)
        entries.withLock { entries in
            if entries[key] == nil { entries[key] = Entry(prototype: prototype, idle: []) } else { CGalley_breakIteratorClose(opened) }
        }
        guard let copy else { throw .icu("cannot clone a break iterator for '\(locale)'") }
        return copy
    }

    /// How many locales the pool holds iterators for.
    var localeCount: Int { entries.withLock { Set($0.keys.map(\.locale)).count } }

    deinit {
        entries.withLock { entries in
            for entry in entries.values {
                CGalley_breakIteratorClose(entry.prototype.pointer)
                for iterator in entry.idle { CGalley_breakIteratorClose(iterator.pointer) }
            }
        }
    }
}
