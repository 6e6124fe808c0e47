// Measuring a whole table ahead of time, on every core, while the table stays usable.

import Foundation
import GalleyLayout
import GalleyLocks
import GalleyText

/// The rows a table had left to measure when asked, to measure away from the table (on other
/// threads, in the background) and hand back with ``TableModel/absorb(_:keeping:)``.
public struct HeightJob: Sendable {
    /// One row to measure.
    struct Row: Sendable {
        /// The row's place among the table's elements when the job was made.
        var place: Int
        var key: RowKey
        var item: ItemDescriptor
        var template: CompiledTemplate
    }

    let configuration: LayoutConfiguration
    let width: Double
    let environment: LayoutEnvironment
    let rows: [Row]

    /// How many rows the job measures.
    public var count: Int { rows.count }

    /// The ids of the items of the rows the job measures, in its order.
    public var itemIDs: [String] { rows.map(\.item.id) }

    /// Measures the job's rows on `workers` tasks at once (one for each core, by default), each
    /// taking the next chunk of rows in the job's order, and reports how many are done after each
    /// chunk (in increasing order: `progress` is called one at a time, and should return
    /// quickly). Stops early, keeping what it measured, when the task is cancelled.
    ///
    /// - Parameters:
    ///   - workers: How many rows are measured at once.
    ///   - engines: Text engines for the workers, in turn (each with fonts of its own is best:
    ///     workers sharing one engine wait on its caches' locks). Empty: the table's engine.
    ///     Engines over the same font files measure the same heights.
    ///   - progress: Told the number of rows measured so far, after each chunk.
    public func run(
        workers: Int = ProcessInfo.processInfo.activeProcessorCount, engines: [TextEngine] = [],
        progress: @escaping @Sendable (Int) -> Void = { _ in }
    ) async -> MeasuredHeights {
        let chunk = 64
        let chunkCount = (rows.count + chunk - 1) / chunk
        let counts = Counts()
        var heights = [Measured?](repeating: nil, count: rows.count)
        await withTaskGroup(of: [(Range<Int>, [Measured?])].self) { group in
            for worker in 0..<max(1, min(workers, chunkCount)) {
                var environment = self.environment
                if !engines.isEmpty { environment.textEngine = engines[worker % engines.count] }
                group.addTask { [environment] in
                    let context = LayoutContext()
                    var measured: [(Range<Int>, [Measured?])] = []
                    while !Task.isCancelled {
                        let index = counts.state.withLock { counts in
                            defer { counts.next += 1 }
                            return counts.next
                        }
                        guard index < chunkCount else { break }
                        let range = index * chunk..<min((index + 1) * chunk, rows.count)
                        measured.append((range, measure(range, environment: environment, context: context)))
                        counts.state.withLock { counts in
                            counts.done += range.count
                            progress(counts.done)
                        }
                    }
                    return measured
                }
            }
            for await measured in group {
                for (range, values) in measured {
                    for (offset, height) in zip(range, values) { heights[offset] = height }
                }
            }
        }
        var measured = MeasuredHeights(configuration: configuration)
        measured.places.reserveCapacity(rows.count)
        measured.keys.reserveCapacity(rows.count)
        measured.heights.reserveCapacity(rows.count)
        for (row, height) in zip(rows, heights) {
            guard let height else { continue }
            measured.places.append(row.place)
            measured.keys.append(row.key)
            switch height {
            case .success(let height):
                measured.heights.append(height)
            case .failure(let error):
                // As measuring it on the table leaves it: 0 tall, with its error.
                measured.failures[measured.heights.count] = TableModel.Failure(error)
                measured.heights.append(0)
            }
        }
        return measured
    }

    /// A row's height, or why it could not be measured.
    private typealias Measured = Result<Double, LayoutError>

    /// The heights of the rows in `range`, or their errors (nil past a cancellation).
    private func measure(_ range: Range<Int>, environment: LayoutEnvironment, context: LayoutContext) -> [Measured?] {
        var heights: [Measured?] = []
        heights.reserveCapacity(range.count)
        for index in range {
            if Task.isCancelled {
                heights.append(nil)
                continue
            }
            let row = rows[index]
            heights.append(
                Result { () throws(LayoutError) in try row.template.heights(row.item, widths: [width], environment: environment, context: context)[0] })
        }
        return heights
    }
}

/// The next chunk to measure and the rows measured so far, shared by a job's workers.
private final class Counts: Sendable {
    let state = Locked((next: 0, done: 0))
}

/// Heights a ``HeightJob`` measured, for ``TableModel/absorb(_:keeping:)``.
public struct MeasuredHeights: Sendable {
    let configuration: LayoutConfiguration
    /// Each measured row's place when the job was made, its key and its height (0 for a row
    /// that could not be measured).
    var places: [Int] = []
    var keys: [RowKey] = []
    var heights: [Double] = []
    /// Why rows could not be measured, by their place among ``heights``.
    var failures: [Int: TableModel.Failure] = [:]

    /// How many rows were measured (those that could not be, with their errors, too).
    public var count: Int { heights.count }
}

extension TableModel {
    /// The rows still estimated, to measure away from the table: those meeting `viewport` first
    /// (when given), then outward from it, below and above in turn; without a viewport, in order.
    /// (Mutating only to note each row's cache key, which taking the heights back in compares.)
    public mutating func heightJob(around viewport: Range<Double>? = nil) -> HeightJob {
        // Each element's position, at its place in `offsets`.
        var order: [Position] = []
        var position = Position(section: 0, element: 0)
        if !sections.isEmpty, sections[0].elementCount == 0 { advance(&position) }
        for _ in 0..<offsets.count {
            order.append(position)
            advance(&position)
        }
        var places = Array(order.indices)
        if let viewport, !order.isEmpty {
            let first = viewport.lowerBound <= 0 ? 0 : offsets.row(atOffset: viewport.lowerBound) ?? order.count - 1
            var below = first
            while below < order.count, offsets.offset(ofRow: below) < viewport.upperBound { below += 1 }
            var outward = Array(first..<max(below, first + 1))
            below = max(below, first + 1)
            var above = first - 1
            outward.reserveCapacity(order.count)
            while below < order.count || above >= 0 {
                if below < order.count {
                    outward.append(below)
                    below += 1
                }
                if above >= 0 {
                    outward.append(above)
                    above -= 1
                }
            }
            places = outward
        }
        var rows: [HeightJob.Row] = []
        for place in places {
            let state = state(at: order[place])
            guard !state.isMeasured, let item = state.item, state.template >= 0 else { continue }
            let key = key(of: state)
            if state.key == .unset { setKey(key, of: element(at: order[place])) }
            rows.append(HeightJob.Row(place: place, key: key, item: item, template: templates[Int(state.template)]))
        }
        return HeightJob(configuration: configuration, width: width, environment: environment, rows: rows)
    }

    /// Takes in heights measured by a ``HeightJob``: each row still estimated whose item,
    /// template and layout are the ones measured gets its height, or, when it could not be
    /// measured, is 0 tall with the error (``error(at:)``), as ``measure(_:)`` leaves it; heights
    /// for rows changed, removed or laid out otherwise since are left out. Returns the offset
    /// that keeps `anchor` in place.
    @discardableResult
    public mutating func absorb(_ measured: MeasuredHeights, keeping anchor: ScrollAnchor? = nil) -> Double? {
        guard measured.configuration == configuration, measured.count > 0 else { return anchor.flatMap { contentOffset(keeping: $0) } }
        var totals = averages
        var absorbed = 0
        // Each measured row is looked for first at its place when the job was made, where it
        // still is unless the table changed since: found with no hashing.
        var entries = [Int32](repeating: -1, count: offsets.count)
        for (entry, place) in measured.places.enumerated() where place < entries.count { entries[place] = Int32(entry) }
        var found = [Bool](repeating: false, count: measured.count)
        var foundCount = 0
        // A job notes the key of every row it measures, so a row without one was not in it;
        // the rows' items need not be read.
        mutateEachElement(readingItems: false) { place, _, key, meta in
            let entry = Int(entries[place])
            guard entry >= 0, key == measured.keys[entry] else { return }
            found[entry] = true
            foundCount += 1
            guard !meta.isMeasured, meta.template >= 0 else { return }
            Self.take(measured.heights[entry], failure: measured.failures[entry], into: &meta, totals: &totals)
            absorbed += 1
        }
        if foundCount < measured.count {
            // Rows moved since: the rest by key.
            var rest: [RowKey: Int] = [:]
            for entry in found.indices where !found[entry] { rest[measured.keys[entry]] = entry }
            mutateEachElement(readingItems: false) { _, _, key, meta in
                guard !meta.isMeasured, meta.template >= 0, key != .unset, let entry = rest[key] else { return }
                Self.take(measured.heights[entry], failure: measured.failures[entry], into: &meta, totals: &totals)
                absorbed += 1
            }
        }
        averages = totals
        counters.rowsMeasured += absorbed
        cache.misses += absorbed
        if absorbed > 0 { rebuildOffsets() }
        return anchor.flatMap { contentOffset(keeping: $0) }
    }

    /// Puts a height a job measured, or its failure, in a row's state; a height counts in its
    /// template's average, a failure's 0 does not.
    private static func take(_ height: Double, failure: Failure?, into meta: inout RowStore.Meta, totals: inout TemplateAverages) {
        meta.height = height
        meta.isMeasured = true
        meta.failure = failure
        if failure == nil { totals.add(height, template: meta.template) }
    }
}
