// A section's rows in chunks: the items stay in the caller's array until a chunk changes, and
// an insert or delete moves one chunk's rows, not the section's.

import GalleyLayout

extension TableModel {
    /// A section's rows, in chunks of chunkSize.
    ///
    /// Each chunk holds a slice of an item array (at first the array the table was given,
    /// shared, not copied) and the rows' state beside it; a change copies or moves only the
    /// rows of its chunk. A row's chunk is found in the chunks' running counts (`ChunkCounts`).
    struct RowStore: Sendable, RandomAccessCollection {
        /// A row's state but its item and key.
        struct Meta: Sendable {
            var height: Double
            /// The template's place in ``TableModel/templates``; -1 for none.
            var template: Int32
            var isMeasured: Bool
            var failure: Failure?

            /// See ``TableModel/ElementState/holdsMeasuredHeight``.
            var holdsMeasuredHeight: Bool { isMeasured && template >= 0 && failure == nil }
        }

        struct Chunk: Sendable {
            var items: ArraySlice<ItemDescriptor>
            var meta: [Meta]
            /// Each row's key, once one row of the chunk has one worked out; empty before.
            var keys: [RowKey]

            func state(at offset: Int) -> ElementState {
                ElementState(item: items[items.startIndex + offset], key: keys.isEmpty ? .unset : keys[offset], meta: meta[offset])
            }

            mutating func set(_ state: ElementState, at offset: Int) {
                items[items.startIndex + offset] = state.item!
                meta[offset] = Meta(state)
                setKey(state.key, at: offset)
            }

            mutating func setKey(_ key: RowKey, at offset: Int) {
                if keys.isEmpty {
                    guard key != .unset else { return }
                    keys = Array(repeating: .unset, count: meta.count)
                }
                keys[offset] = key
            }

            mutating func insert(_ state: ElementState, at offset: Int) {
                items.insert(state.item!, at: items.startIndex + offset)
                meta.insert(Meta(state), at: offset)
                if !keys.isEmpty { keys.insert(.unset, at: offset) }
                setKey(state.key, at: offset)
            }

            mutating func remove(at offset: Int) -> ElementState {
                let state = state(at: offset)
                items.remove(at: items.startIndex + offset)
                meta.remove(at: offset)
                if !keys.isEmpty { keys.remove(at: offset) }
                return state
            }

            /// The rows from `offset` on, taken out into a chunk of their own.
            mutating func split(at offset: Int) -> Chunk {
                let cut = items.startIndex + offset
                let tail = Chunk(items: items[cut...], meta: Array(meta[offset...]), keys: keys.isEmpty ? [] : Array(keys[offset...]))
                items = items[..<cut]
                meta.removeSubrange(offset...)
                if !keys.isEmpty { keys.removeSubrange(offset...) }
                return tail
            }
        }

        /// Rows a chunk is built with; one grown to twice this is split.
        static let chunkSize = 16

        private(set) var chunks: [Chunk] = []
        /// Each chunk's row count, and where each starts.
        private(set) var counts = ChunkCounts()
        /// Chunks whose rows were all removed, kept until they are many.
        private var emptyChunks = 0

        init() {}

        /// `items`' rows (the array shared, not copied), each row's state and key made by `state`.
        init(_ items: [ItemDescriptor], state: (UnsafePointer<ItemDescriptor>) -> (Meta, RowKey)) {
            chunks.reserveCapacity((items.count + Self.chunkSize - 1) / Self.chunkSize)
            // By address: a copy of each item would retain its fields, in memory a build need not touch.
            items.withUnsafeBufferPointer { addresses in
                var start = 0
                while start < items.count {
                    let end = Swift.min(start + Self.chunkSize, items.count)
                    var keys: [RowKey] = []
                    let meta = [Meta](unsafeUninitializedCapacity: end - start) { meta, initialized in
                        for place in start..<end {
                            let (row, key) = state(addresses.baseAddress! + place)
                            meta.initializeElement(at: place - start, to: row)
                            if key != .unset {
                                if keys.isEmpty { keys = Array(repeating: RowKey.unset, count: end - start) }
                                keys[place - start] = key
                            }
                        }
                        initialized = end - start
                    }
                    chunks.append(Chunk(items: items[start..<end], meta: meta, keys: keys))
                    counts.append(Int32(end - start))
                    start = end
                }
            }
        }

        var startIndex: Int { 0 }
        var endIndex: Int { counts.total }

        /// The chunk holding row `row` (`count` for a place past the end: the last chunk) and
        /// the row's place in it.
        @inline(__always)
        func locate(_ row: Int) -> (chunk: Int, offset: Int) {
            if row >= counts.total { return (chunks.count - 1, counts[chunks.count - 1] + row - counts.total) }
            return counts.locate(row)
        }

        subscript(row: Int) -> ElementState {
            get {
                precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
                let (chunk, offset) = locate(row)
                return chunks[chunk].state(at: offset)
            }
            set {
                precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
                let (chunk, offset) = locate(row)
                chunks[chunk].set(newValue, at: offset)
            }
        }

        /// Row `row`'s height and whether it is measured, read without copying its item.
        func height(at row: Int) -> (height: Double, isMeasured: Bool) {
            let (chunk, offset) = locate(row)
            let meta = chunks[chunk].meta[offset]
            return (meta.height, meta.isMeasured)
        }

        /// Row `row`'s item id.
        func id(at row: Int) -> String {
            let (chunk, offset) = locate(row)
            let items = chunks[chunk].items
            return items[items.startIndex + offset].id
        }

        /// Whether a row's item has the id `id` (a search of every row).
        func containsID(_ id: String) -> Bool {
            chunks.contains { chunk in chunk.items.contains { $0.id == id } }
        }

        /// The place of the row whose item has the id `id`, if any (a search of every row).
        func firstIndex(ofID id: String) -> Int? {
            for (chunk, rows) in chunks.enumerated() {
                if let place = rows.items.firstIndex(where: { $0.id == id }) { return counts.start(ofChunk: chunk) + place - rows.items.startIndex }
            }
            return nil
        }

        mutating func setKey(_ key: RowKey, at row: Int) {
            let (chunk, offset) = locate(row)
            chunks[chunk].setKey(key, at: offset)
        }

        mutating func insert(_ state: ElementState, at row: Int) {
            precondition(row >= 0 && row <= count, "row \(row) out of 0...\(count)")
            guard !chunks.isEmpty else { return append(state) }
            let (chunk, offset) = locate(row)
            if chunks[chunk].meta.isEmpty { emptyChunks -= 1 }
            chunks[chunk].insert(state, at: offset)
            counts.add(1, toChunk: chunk)
            if chunks[chunk].meta.count >= 2 * Self.chunkSize {
                let tail = chunks[chunk].split(at: Self.chunkSize)
                chunks.insert(tail, at: chunk + 1)
                counts.add(-Int32(tail.meta.count), toChunk: chunk)
                counts.insert(Int32(tail.meta.count), at: chunk + 1)
            }
        }

        mutating func append(_ state: ElementState) {
            if let last = chunks.indices.last, chunks[last].meta.count < Self.chunkSize {
                if chunks[last].meta.isEmpty { emptyChunks -= 1 }
                chunks[last].insert(state, at: chunks[last].meta.count)
                counts.add(1, toChunk: last)
            } else {
                chunks.append(Chunk(items: [state.item!], meta: [Meta(state)], keys: state.key == .unset ? [] : [state.key]))
                counts.append(1)
            }
        }

        mutating func remove(at row: Int) -> ElementState {
            precondition(row >= 0 && row < count, "row \(row) out of 0..<\(count)")
            let (chunk, offset) = locate(row)
            let state = chunks[chunk].remove(at: offset)
            counts.add(-1, toChunk: chunk)
            // An emptied chunk stays (taking it out would move every later chunk and count);
            // when empty ones are half of all, they go at once.
            if chunks[chunk].meta.isEmpty {
                emptyChunks += 1
                if emptyChunks * 2 > chunks.count { removeEmptyChunks() }
            }
            return state
        }

        private mutating func removeEmptyChunks() {
            chunks.removeAll { $0.meta.isEmpty }
            counts = ChunkCounts(chunks.map { Int32($0.meta.count) })
            emptyChunks = 0
        }

        /// Calls `body` with every row's place (`firstPlace` plus its index), key and state but
        /// its item, and the item's address when `readingItems` (nil otherwise: a pass over
        /// heights need not touch the items' memory), in order; keeps what it changes of the key
        /// and state.
        mutating func mutateEach(
            readingItems: Bool, firstPlace: Int = 0, _ body: (Int, UnsafePointer<ItemDescriptor>?, inout RowKey, inout Meta) -> Void
        ) {
            var place = firstPlace
            for chunk in chunks.indices {
                let keys = chunks[chunk].keys
                let items = readingItems ? chunks[chunk].items : []
                // Keys changed are noted and set after the pass over the chunk's states.
                var changed: [(offset: Int, key: RowKey)] = []
                items.withUnsafeBufferPointer { items in
                    chunks[chunk].meta.withUnsafeMutableBufferPointer { meta in
                        for offset in meta.indices {
                            var key = keys.isEmpty ? RowKey.unset : keys[offset]
                            let before = key
                            body(place, readingItems ? items.baseAddress! + offset : nil, &key, &meta[offset])
                            place += 1
                            if key != before { changed.append((offset, key)) }
                        }
                    }
                }
                for (offset, key) in changed { chunks[chunk].setKey(key, at: offset) }
            }
        }

        /// Calls `body` with the key and height of every row holding a measured height, in
        /// order, working out and keeping keys not yet worked out.
        mutating func forEachMeasured(templates: [CompiledTemplate], _ body: (RowKey, Double) -> Void) {
            for chunk in chunks.indices {
                for offset in chunks[chunk].meta.indices where chunks[chunk].meta[offset].holdsMeasuredHeight {
                    var key = chunks[chunk].keys.isEmpty ? RowKey.unset : chunks[chunk].keys[offset]
                    if key == .unset {
                        key = TableModel.key(of: chunks[chunk].state(at: offset), templates: templates)
                        chunks[chunk].setKey(key, at: offset)
                    }
                    body(key, chunks[chunk].meta[offset].height)
                }
            }
        }

        /// Calls `body` with every row's state but its item, in order.
        func forEachMeta(_ body: (Meta) -> Void) {
            for chunk in chunks { chunk.meta.forEach(body) }
        }

        func makeIterator() -> Iterator { Iterator(store: self) }

        /// Walks the rows chunk by chunk, with no search per row.
        struct Iterator: IteratorProtocol {
            let store: RowStore
            var chunk = 0
            var offset = 0

            init(store: RowStore) { self.store = store }

            mutating func next() -> ElementState? {
                while chunk < store.chunks.count, offset >= store.chunks[chunk].meta.count {
                    chunk += 1
                    offset = 0
                }
                guard chunk < store.chunks.count else { return nil }
                defer { offset += 1 }
                return store.chunks[chunk].state(at: offset)
            }
        }
    }
}

extension TableModel.ElementState {
    /// The state of a row showing `item`, with `key` and `meta`'s template, height,
    /// measurement and failure.
    init(item: ItemDescriptor?, key: RowKey, meta: TableModel.RowStore.Meta) {
        self.init(item: item, key: key, template: meta.template, height: meta.height, isMeasured: meta.isMeasured, failure: meta.failure)
    }

    /// Takes `meta`'s template, height, measurement and failure.
    mutating func take(_ meta: TableModel.RowStore.Meta) {
        (template, height, isMeasured, failure) = (meta.template, meta.height, meta.isMeasured, meta.failure)
    }
}

extension TableModel.RowStore.Meta {
    init(_ state: TableModel.ElementState) {
        self.init(height: state.height, template: state.template, isMeasured: state.isMeasured, failure: state.failure)
    }
}
