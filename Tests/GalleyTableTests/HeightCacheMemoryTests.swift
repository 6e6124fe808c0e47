// What a kept height costs, measured on the heap rather than worked out: the size glibc gave
// each of the cache's allocations.

import Foundation
import GalleyLayout
import Testing

@testable import GalleyTable

@Suite("Height cache memory")
struct HeightCacheMemoryTests {
    /// glibc's `malloc_usable_size`, which Swift's Glibc module does not declare.
    static let usableSize: @convention(c) (UnsafeRawPointer?) -> Int = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_usable_size") else { fatalError("no malloc_usable_size") }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeRawPointer?) -> Int).self)
    }()

    /// The bytes glibc allocated for an array's storage (its header and elements).
    static func heapBytes<Element>(_ array: [Element]) -> Int {
        array.withUnsafeBufferPointer { buffer in
            // A native array's elements follow its storage object's 32-byte header.
            Self.usableSize(UnsafeRawPointer(buffer.baseAddress!) - 32)
        }
    }

    @Test(
        "A height kept for another width costs at most 48 bytes of heap a row, and the cache reports what it holds",
        .disabled(if: ProcessInfo.processInfo.environment["GALLEY_SANITIZER"] != nil, "a sanitizer's allocator is not glibc's"))
    func bytesPerKeptHeight() throws {
        let rows = 200_000
        let items = (0..<rows).map { ItemDescriptor(id: "\($0)", kind: "text", fields: ["text": .string("Row \($0)")]) }
        var table = try TableModel(
            sections: [TableSection(id: "all", items: items)], registry: TableModelTests.registry, width: 375,
            environment: TableModelTests.environment)
        // Every row as if measured: the cache keeps what measuring leaves, whatever the heights.
        table.sections[0].rows.mutateEach(readingItems: false) { _, _, _, meta in
            meta.isMeasured = true
            meta.height = 44
        }
        try table.setWidth(320)
        let snapshot = try #require(table.cache.snapshots.first?.snapshot)
        #expect(snapshot.keys.count == rows && snapshot.places == nil)
        let bytes = Self.heapBytes(snapshot.keys) + Self.heapBytes(snapshot.heights)
        #expect(bytes >= rows * 24)  // the sizes are real: at least the elements' own
        let perRow = Double(bytes) / Double(rows)
        #expect(perRow <= 48, "\(perRow) bytes a kept height")
        let statistics = table.heightCacheStatistics
        #expect(statistics.layouts == 1 && statistics.entries == rows)
        #expect(abs(Double(statistics.bytes) / Double(rows) - perRow) < 1, "reported \(statistics.bytes / rows), measured \(perRow)")
        // Back at the first width, the kept heights are the rows' again: nothing is measured.
        try table.setWidth(375)
        #expect(table.counters.rowsMeasured == 0 && table.counters.heightsReused == rows && table.heightJob().count == 0)
    }
}
