// Options every command shares: fonts, what requests may load, limits on one input, workers.

import ArgumentParser
import Foundation
import GalleyText

/// The fonts, the font access, the limits on one text, and the worker count.
struct EngineOptions: ParsableArguments {
    @OptionGroup var fonts: FontArguments

    @Option(
        help: ArgumentHelp(
            "Which font files inputs may name by path: anywhere, registered (inside --fonts folders and the bundled fonts' folder) or none.",
            valueName: "policy"))
    var fontFiles: FontFilePolicy = .anywhere

    @Option(help: ArgumentHelp("The largest font file read, in bytes.", valueName: "bytes"))
    var maxFontFileSize = FontAccess.defaultMaximumFileSize

    @Option(help: ArgumentHelp("The longest text measured, in UTF-16 units: a longer one is an error for its line.", valueName: "units"))
    var maxTextLength = TextLimits().maximumTextLength

    @Option(help: ArgumentHelp("The most styled runs in one text.", valueName: "count"))
    var maxRuns = TextLimits().maximumRuns

    @OptionGroup var workers: WorkerArguments

    enum FontFilePolicy: String, ExpressibleByArgument, CaseIterable {
        case anywhere, registered, none
    }

    func validate() throws {
        guard maxFontFileSize > 0 else { throw ValidationError("--max-font-file-size must be more than 0, got \(maxFontFileSize)") }
        guard (1...TextLimits.largestTextLength).contains(maxTextLength) else {
            throw ValidationError("--max-text-length must be 1 to \(TextLimits.largestTextLength), got \(maxTextLength)")
        }
        guard maxRuns > 0 else { throw ValidationError("--max-runs must be more than 0, got \(maxRuns)") }
    }

    /// What inputs may load by path.
    var access: FontAccess {
        let paths: FontAccess.Paths =
            switch fontFiles {
            case .anywhere: .anywhere
            case .registered: .registeredFolders
            case .none: .none
            }
        return FontAccess(paths: paths, maximumFileSize: maxFontFileSize)
    }

    /// The batch runner, with its worker count.
    var runner: BatchRunner { workers.runner }

    /// One text engine for each of `count` workers (see ``BatchRunner/textEngines(count:limits:fonts:)``).
    func engines(count: Int) throws -> [TextEngine] {
        try BatchRunner.textEngines(count: count, limits: TextLimits(maximumTextLength: maxTextLength, maximumRuns: maxRuns)) {
            do {
                return try FontCollection(fontPaths: fonts.fontPaths, includeSystemFonts: fonts.systemFonts, access: access)
            } catch {
                throw setupFailure("cannot load fonts: \(error)")
            }
        }
    }
}
