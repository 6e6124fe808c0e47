// What each batch worker measures with.

import GalleyText
import Testing

@testable import GalleyCommands

@Suite("Batch workers")
struct BatchRunnerTests {
    @Test("Each worker's engine has a font collection of its own, not the process's shared one; beyond eight workers they share round-robin")
    func fontsPerWorker() throws {
        let shared = try FontCollection.bundled()
        for count in [1, 2, 3, 8, 11] {
            let engines = try EngineOptions.parse([]).engines(count: count)
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

    @Test("The options reach every worker's engine and fonts: font access and text limits")
    func optionsReachEngines() throws {
        let options = try EngineOptions.parse(["--font-files", "none", "--max-font-file-size", "1000", "--max-text-length", "12", "--max-runs", "3"])
        for engine in try options.engines(count: 3) {
            #expect(engine.fonts.access == FontAccess(paths: .none, maximumFileSize: 1000))
            #expect(engine.limits == TextLimits(maximumTextLength: 12, maximumRuns: 3))
        }
        #expect(throws: (any Error).self) { try EngineOptions.parse(["--jobs", "9223372036854775807"]) }
        #expect(throws: (any Error).self) { try EngineOptions.parse(["--max-text-length", "0"]) }
    }
}
