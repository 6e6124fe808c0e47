// Measuring from many threads at once gives exactly the serial results.

import Dispatch
import GalleyLocks
import GalleyText
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Concurrent measuring equals serial measuring")
    func concurrentEqualsSerial() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts)
        let entries = CorpusEntry.all
        let widths = [100.0, 180, 320]
        let serial = try entries.flatMap { entry in
            try widths.map { width in
                try engine.layout(entry.text, style: Shared.style(15), width: width, paragraph: ParagraphStyle(language: entry.lang))
            }
        }
        engine.removeCachedShapes()
        let results = Locked([Int: TextLayout]())
        let failures = Locked(0)
        // Every job measured by several threads at once, caches cold and then contended.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for (index, entry) in entries.enumerated() {
                for (widthIndex, width) in widths.enumerated() {
                    let job = index * widths.count + widthIndex
                    guard (job + worker) % 2 == 0 else { continue }
                    do {
                        let layout = try engine.layout(entry.text, style: Shared.style(15), width: width, paragraph: ParagraphStyle(language: entry.lang))
                        let same = results.withLock { results in
                            if let previous = results[job] { return previous == layout }
                            results[job] = layout
                            return true
                        }
                        if !same { failures.withLock { $0 += 1 } }
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        let concurrent = results.withLock { $0 }
        #expect(concurrent.count == serial.count)
        for (job, layout) in concurrent { #expect(layout == serial[job]) }
    }
}
