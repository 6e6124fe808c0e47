// What each batch worker measures with.

@testable import GalleyCommands
import GalleyText
import Testing

@Suite("Batch workers")
struct BatchRunnerTests {
    @Test("Each worker's engine has a font collection of its own, not the process's shared one; beyond eight workers they share round-robin")
    func fontsPerWorker() throws {
        let shared = try FontCollection.bundled()
        for count in [1, 2, 3, 8, 11] {
            let engines = try BatchRunner.textEngines(count: count) { try BatchRunner.fonts(paths: []) }
            #expect(engines.count == count)
            let collections = engines.map { ObjectIdentifier($0.fonts) }
            #expect(!collections.contains(ObjectIdentifier(shared)))
            #expect(Set(collections).count == min(count, 8))
            for worker in engines.indices where worker >= 8 { #expect(collections[worker] == collections[worker - 8]) }
            // Fresh collections measure as the shared one does.
            let style = TextStyle(font: .family("Noto Sans"), size: 15)
            let reference = try TextEngine(fonts: shared).measure("Workers measure alike", style: style, width: 100)
            for engine in engines { #expect(try engine.measure("Workers measure alike", style: style, width: 100) == reference) }
        }
    }
}
