// The options that decide how items are laid out (templates, stylesheet, widths, scale,
// language, direction, fonts) and the setup they make, for every command that measures rows.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLayout
import GalleyText

/// How items are laid out, for `galley heights`, `layout` and `render`.
struct LayoutArguments: ParsableArguments {
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
    func setup(keepsTextLayouts: Bool, workers: Int, command: String, fields: FieldArguments) throws -> RowSetup {
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
        var setup = RowSetup(workers: sets, widths: widths, mapping: try fields.mapping, forcedKind: template)
        setup.kindOptions = file?.options ?? [:]
        setup.strict = strict
        setup.settings = settingsFingerprint(command: command, files: [file?.bytes, stylesheetBytes], fields: fields)
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

    private func makeWorker(stylesheet sheet: Stylesheet, file: TemplateFile?, environment: LayoutEnvironment) throws -> RowWorker {
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
        return RowWorker(registry: registry, forced: forced, environment: environment, memory: RowWorkerMemory())
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
    /// What, besides an item's content and template name, decides its rows: the templates and
    /// stylesheet files' bytes, the options that change a layout, and Galley's version. A stored
    /// row made under other settings is measured again.
    func settingsFingerprint(command: String, files: [Data?], fields: FieldArguments) -> Int64 {
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
        // Only when on, so that the fingerprint of runs without it stays what it was.
        if strict { fingerprint.add("--strict") }
        return fingerprint.value
    }
}

extension LayoutEnvironment.Direction: ExpressibleByArgument {}
