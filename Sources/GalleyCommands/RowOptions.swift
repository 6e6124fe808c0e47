// Options shared by `galley heights` and `galley layout`, and the per-line work they share.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLayout
import GalleyText

/// Where rows come from and how they are measured.
struct RowOptions: ParsableArguments {
    @OptionGroup var input: InputArguments

    @OptionGroup var fields: FieldArguments

    @Flag(
        help:
            "A field the item's template shows that the item lacks fails the row (by default its label collapses); fields a condition tests, image sources and accessories stay optional."
    )
    var strict = false

    @Option(help: "Lay out every item with this template (a --templates kind, or a built-in such as message or uikit.subtitle), whatever its kind.")
    var template: String?

    @Option(help: "A JSON file of templates keyed by item kind; they join (and override) the built-ins.")
    var templates: String?

    @Option(help: "Widths to measure every item at, comma-separated (e.g. 320,375,414).")
    var width: String = "320"

    @Option(help: "Device pixels per point (1, 2 or 3): heights round up and frames snap to them.")
    var scale: Double = 1

    @Option(help: "A JSON stylesheet extending the standard one.")
    var stylesheet: String?

    @Option(help: "Language of the items' text (BCP 47), for line breaking and CJK fonts.")
    var lang: String?

    @Option(help: "Layout direction: leftToRight, rightToLeft or auto (from the text).")
    var direction: LayoutEnvironment.Direction = .auto

    @Option(help: ArgumentHelp("The deepest a template's nodes may be nested.", valueName: "levels"))
    var maxTemplateDepth = TemplateLimits().maximumDepth

    @Option(help: ArgumentHelp("The most nodes in one template.", valueName: "count"))
    var maxTemplateNodes = TemplateLimits().maximumNodes

    @OptionGroup var engine: EngineOptions

    @OptionGroup var output: OutputArguments

    @OptionGroup var report: ReportArguments

    var widths: [Double] { width.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        let parts = width.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count == widths.count, widths.allSatisfy(ValueRanges.length.contains) else {
            throw ValidationError("--width must be numbers from 0 to \(Int(ValueRanges.length.upperBound)) separated by commas, got '\(width)'")
        }
        guard ValueRanges.scale.contains(scale) else { throw ValidationError("--scale \(ValueRanges.problem(scale, outside: ValueRanges.scale))") }
        guard maxTemplateDepth > 0 && maxTemplateNodes > 0 else { throw ValidationError("--max-template-depth and --max-template-nodes must be more than 0") }
        if let template, templates == nil, BuiltInTemplates.named(template) == nil {
            throw ValidationError("no built-in template '\(template)'; built-ins: \(BuiltInTemplates.all.keys.sorted().joined(separator: ", "))")
        }
    }

    /// What every worker is given, built once.
    struct Setup: Sendable {
        /// One per worker.
        var workers: [Worker]
        var widths: [Double]
        var mapping: FieldMapping
        /// The `--template` name, the kind of items that have none.
        var forcedKind: String?
        /// The rows a database output already holds, to skip items whose rows are current.
        var resume: ResumeIndex?
        /// Whether items' content fingerprints are worked out (a database keeps them).
        var fingerprints = false
        /// Each kind's mapping and required fields, from the templates file.
        var kindOptions: [String: TemplateFile.KindOptions] = [:]
        /// The fields each kind's template shows, for `--strict` and the missing-field report.
        var templateFields: [String: [FieldPath]] = [:]
        var strict = false
        /// The fingerprint of what, besides an item, decides its rows (see ``settingsFingerprint(command:files:)``).
        var settings: Int64 = 0
    }

    /// What one worker measures with, kept to itself: two cores touching the same objects
    /// fight over their cache lines (see also ``BatchRunner/textEngines(count:limits:fonts:)``).
    /// A class: every row is handed its worker, and copying a struct of these would retain each part.
    final class Worker: Sendable {
        let registry: TemplateRegistry
        /// The `--template` given, for every item.
        let forced: CompiledTemplate?
        let environment: LayoutEnvironment
        /// The measure pass's working memory, reused from row to row.
        let memory: WorkerMemory

        init(registry: TemplateRegistry, forced: CompiledTemplate?, environment: LayoutEnvironment, memory: WorkerMemory) {
            (self.registry, self.forced, self.environment, self.memory) = (registry, forced, environment, memory)
        }
    }

    /// A worker's ``LayoutContext``. `@unchecked Sendable`: the setup hands each worker its
    /// own, and only that worker's thread measures with it, one row at a time.
    final class WorkerMemory: @unchecked Sendable {
        let memory = LayoutContext()
        /// The items' member names, which every line repeats.
        var names = JSONNameCache()
        /// For each kind, the items laid out and how many lacked each of its template's fields.
        var missing: [String: (items: Int, counts: [Int])] = [:]
    }

    func setup(keepsTextLayouts: Bool, workers: Int, command: String) throws -> Setup {
        var sheet = Stylesheet.standard
        var stylesheetBytes: Data?
        if let stylesheet {
            guard let data = FileManager.default.contents(atPath: stylesheet) else {
                throw setupFailure("cannot read the stylesheet \(stylesheet): \(ByteInput.problem(opening: stylesheet) ?? "unreadable")")
            }
            do { sheet = try Stylesheet(json: TemplateFile.withoutByteOrderMark(String(decoding: data, as: UTF8.self))) } catch {
                throw setupFailure("\(stylesheet): \(error)")
            }
            stylesheetBytes = data
        }
        let file = try templates.map { path throws in try TemplateFile(path: path) }
        let sets = try engine.engines(count: workers).map { engine throws in
            let environment = LayoutEnvironment(
                textEngine: engine, scale: scale, direction: direction, language: lang, keepsTextLayouts: keepsTextLayouts)
            return try makeWorker(stylesheet: sheet, file: file, environment: environment)
        }
        var setup = Setup(workers: sets, widths: widths, mapping: try fields.mapping, forcedKind: template)
        setup.kindOptions = file?.options ?? [:]
        setup.strict = strict
        setup.settings = settingsFingerprint(command: command, files: [file?.bytes, stylesheetBytes])
        // The templates by kind, as JSON: the file's, then the built-ins under their names.
        var sources: [String: JSONValue] = [:]
        for (name, builtIn) in BuiltInTemplates.all {
            sources[name] = builtIn.json
            if name.hasPrefix("three20.") { sources[String(name.dropFirst("three20.".count))] = builtIn.json }
        }
        if let file {
            for (kind, template) in file.templates { sources[kind] = template.json }
            // Fonts are checked where they can be: a family no registered font has would measure
            // in a fallback face, silently.
            if let fonts = sets.first?.environment.textEngine.fonts {
                let known = Set(fonts.familyNames)
                for (kind, template) in file.templates {
                    for family in Self.families(in: template.json, stylesheet: sheet) where !known.contains(family) && !family.contains("/") {
                        throw setupFailure(
                            "\(templates ?? ""): template '\(kind)' uses the font family '\(family)', which no registered font has; families: \(fonts.familyNames.joined(separator: ", ")) (add fonts with --fonts or --system-fonts)"
                        )
                    }
                }
            }
        }
        if let template, let forced = sources[template] ?? BuiltInTemplates.named(template)?.json { sources[template] = forced }
        setup.templateFields = sources.mapValues { Galley.Templates.fields(of: $0, displayedOnly: true).map { FieldPath($0) } }
        return setup
    }

    private func makeWorker(stylesheet sheet: Stylesheet, file: TemplateFile?, environment: LayoutEnvironment) throws -> Worker {
        var registry: TemplateRegistry
        do { registry = try BuiltInTemplates.registry(stylesheet: sheet) } catch {
            throw setupFailure("the stylesheet does not suit the built-in templates: \(error)")
        }
        if let file, let templates {
            let limits = TemplateLimits(maximumDepth: maxTemplateDepth, maximumNodes: maxTemplateNodes)
            for (kind, compiled) in try file.compiled(stylesheet: sheet, limits: limits, path: templates) { registry.register(compiled, for: kind) }
        }
        var forced: CompiledTemplate?
        if let template {
            if templates != nil, let loaded = registry.template(forKind: template) {
                forced = loaded
            } else if let builtIn = BuiltInTemplates.named(template) {
                do { forced = try CompiledTemplate(builtIn, stylesheet: sheet) } catch { throw setupFailure("\(error)") }
            } else {
                throw setupFailure(
                    "no template '\(template)' in \(templates ?? "the built-ins") or the built-ins; built-ins: \(BuiltInTemplates.all.keys.sorted().joined(separator: ", "))"
                )
            }
        }
        return Worker(registry: registry, forced: forced, environment: environment, memory: WorkerMemory())
    }

    /// The font families a template's styles name, directly or through the stylesheet.
    static func families(in json: JSONValue, stylesheet: Stylesheet) -> Set<String> {
        var families: Set<String> = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    switch (key, member) {
                    case ("style", .string(let name)): if let family = stylesheet.textStyles[name]?.family { families.insert(family) }
                    case ("family", .string(let family)): families.insert(family)
                    default: visit(member)
                    }
                }
            case .array(let elements): elements.forEach(visit)
            default: break
            }
        }
        visit(json)
        return families
    }

    /// Runs `write` for every item, handing its results to the output in input order; a record
    /// that fails gives an error line `{"id", "line" or "record", "file", "error"}` on standard
    /// error (or `--errors`). Exits 1 when any failed. `write` measures the item it is given and
    /// appends its lines or rows to the block, in the output's format.
    func run(
        keepsTextLayouts: Bool, command: String, write: @escaping @Sendable (ItemRow, inout ResultBlock) throws(LayoutError) -> Void
    ) throws {
        let runner = engine.runner
        var prepared = try setup(keepsTextLayouts: keepsTextLayouts, workers: runner.jobs, command: command)
        let sink = try output.sink(command: command, scale: scale, settings: prepared.settings, inputs: input.files)
        prepared.resume = (sink as? SQLiteSink)?.resumeIndex
        prepared.fingerprints = sink is SQLiteSink
        let setup = prepared
        try runner.runCommand(
            input.records(), sink: sink, command: command, quiet: report.quiet,
            warnings: {
                Self.missingFieldWarnings(setup: setup, command: command)
            },
            cacheStatistics: {
                setup.workers.reduce(into: (hits: 0, misses: 0)) { total, worker in
                    let statistics = worker.environment.textEngine.paragraphCacheStatistics
                    total.hits += statistics.hits
                    total.misses += statistics.misses
                }
            },
            transform: { record, worker, block in
                Self.rows(for: record, setup: setup, worker: setup.workers[worker], into: &block, write: write)
            })
    }

    /// A warning for each template field that more than half of its items lacked: a typo in a
    /// field name, or items of another shape, give wrong heights without failing a row.
    static func missingFieldWarnings(setup: Setup, command: String) -> [String] {
        var totals: [String: (items: Int, counts: [Int])] = [:]
        for worker in setup.workers {
            for (kind, tally) in worker.memory.missing {
                var total = totals[kind] ?? (0, Array(repeating: 0, count: tally.counts.count))
                total.items += tally.items
                for index in tally.counts.indices { total.counts[index] += tally.counts[index] }
                totals[kind] = total
            }
        }
        var warnings: [String] = []
        for kind in totals.keys.sorted() {
            guard let total = totals[kind], let fields = setup.templateFields[kind] else { continue }
            for (field, missing) in zip(fields, total.counts) where missing * 2 > total.items {
                let share = Int((Double(missing) * 100 / Double(total.items)).rounded())
                warnings.append(
                    "galley \(command): warning: field '\(field)' of template '\(kind)' is missing in \(share)% of its \(RunReport.count(total.items)) item\(total.items == 1 ? "" : "s") (see --map, --strict)"
                )
            }
        }
        return warnings
    }

    /// What, besides an item's content and template name, decides its rows: the templates and
    /// stylesheet files' bytes, the options that change a layout, and Galley's version. A stored
    /// row made under other settings is measured again.
    func settingsFingerprint(command: String, files: [Data?]) -> Int64 {
        var fingerprint = Fingerprint()
        fingerprint.add(Galley.version)
        fingerprint.add(command)
        for data in files {
            if let data { fingerprint.add(data) } else { fingerprint.add("-") }
        }
        for option in [
            template ?? "", lang ?? "", direction.rawValue, fields.map.joined(separator: ";"), fields.stripHTML.joined(separator: ";"),
            engine.fonts.fontPaths.joined(separator: ";"), "\(engine.fonts.systemFonts)",
        ] {
            fingerprint.add(option)
        }
        return fingerprint.value
    }

    /// An item to write, with what measures it.
    struct ItemRow {
        let item: ItemDescriptor
        /// The item's `id` as the input gave it.
        let id: JSONValue
        let template: CompiledTemplate
        /// The template's name: the item's kind, or `--template`.
        let templateName: String
        let widths: [Double]
        let worker: Worker
        /// The record's place in the input, from 0.
        let position: Int
        /// The item's content fingerprint (0 unless the output keeps it).
        let fingerprint: Int64

        /// The item measured at every width, for arranging.
        func measurements() throws(LayoutError) -> [RowMeasurement] {
            try template.measure(item, widths: widths, environment: worker.environment, context: worker.memory.memory)
        }

        /// The item's height at every width (less work than ``measurements()``).
        func heights() throws(LayoutError) -> [Double] {
            try template.heights(item, widths: widths, environment: worker.environment, context: worker.memory.memory)
        }

        /// A database row of this item at `width`.
        func row(width: Double, height: Double, frames: String? = nil) -> MeasuredRow {
            MeasuredRow(id: id, position: position, template: templateName, fingerprint: fingerprint, width: width, height: height, frames: frames)
        }
    }

    /// Appends the item's results (or its error line alone) to `block`.
    static func rows(
        for record: InputRecord, setup: Setup, worker: Worker, into block: inout ResultBlock,
        write: (ItemRow, inout ResultBlock) throws(LayoutError) -> Void
    ) {
        var id: JSONValue = .null
        let start = (bytes: block.bytes.count, rows: block.rows.count)
        do {
            var object = try record.object(names: &worker.memory.names)
            if !setup.mapping.isEmpty { setup.mapping.apply(to: &object) }
            record.identify(&object)
            if let kind = setup.forcedKind, object["kind"] == nil { object["kind"] = .string(kind) }
            let kind: String? = if let forced = setup.forcedKind { forced } else if case .string(let kind)? = object["kind"] { kind } else { nil }
            let options = kind.flatMap { setup.kindOptions[$0] }
            options?.mapping.apply(to: &object)
            id = object["id"] ?? .null
            let fingerprint = setup.fingerprints ? Self.fingerprint(of: record, object: object) : 0
            // The parsed object is handed over whole: the item takes it without a copy.
            let item = try ItemDescriptor(object: object)
            let template = try worker.forced ?? worker.registry.template(for: item)
            let templateName = setup.forcedKind ?? item.kind
            if let options, let missing = options.required.first(where: { item.value(at: $0) == nil }) {
                throw LayoutError.invalidItem("field '\(missing)' is missing, and template '\(templateName)' requires it")
            }
            if let fields = setup.templateFields[templateName] {
                var tally = worker.memory.missing[templateName] ?? (0, Array(repeating: 0, count: fields.count))
                tally.items += 1
                for (index, field) in fields.enumerated() where item.value(at: field) == nil {
                    if setup.strict { throw LayoutError.invalidItem("field '\(field)' is missing, and template '\(templateName)' reads it (--strict)") }
                    tally.counts[index] += 1
                }
                worker.memory.missing[templateName] = tally
            }
            if let resume = setup.resume, resume.isCurrent(id: id, fingerprint: fingerprint, template: templateName, widths: setup.widths) {
                block.reused += 1
                return
            }
            let row = ItemRow(
                item: item, id: id, template: template, templateName: templateName, widths: setup.widths, worker: worker,
                position: record.position, fingerprint: fingerprint)
            try write(row, &block)
        } catch {
            // Whatever the item wrote before it failed goes: its error line stands for it.
            block.bytes.removeSubrange(start.bytes...)
            block.rows.removeSubrange(start.rows...)
            block.errors += record.errorJSON(id: id, message: "\(error)")
            block.errors.append(UInt8(ascii: "\n"))
            block.failures += 1
        }
    }

    /// The fingerprint of an item's content: the JSON text as it came (what the options then
    /// make of it is in the settings' fingerprint), or for a record another format made, its
    /// members, sorted, as JSON (a JSON Lines item is not written out again to be hashed).
    static func fingerprint(of record: InputRecord, object: JSONObject) -> Int64 {
        var fingerprint = Fingerprint()
        if case .json(let bytes) = record.content {
            fingerprint.add(bytes)
        } else {
            var bytes: [UInt8] = []
            JSONWriter.write(.object(object), to: &bytes)
            fingerprint.add(bytes)
        }
        return fingerprint.value
    }
}

extension LayoutEnvironment.Direction: ExpressibleByArgument {}
