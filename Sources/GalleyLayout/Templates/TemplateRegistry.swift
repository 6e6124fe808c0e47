// Maps item kinds to templates, as Three20's cellClassForObject: did.

import Foundation

/// Which template lays out which kind of item, with an optional fallback.
public struct TemplateRegistry: Sendable {
    private var templates: [String: CompiledTemplate]
    /// Used for kinds with no template of their own.
    public var fallback: CompiledTemplate?

    /// A registry of `templates` keyed by item kind.
    public init(_ templates: [String: CompiledTemplate] = [:], fallback: CompiledTemplate? = nil) {
        self.templates = templates
        self.fallback = fallback
    }

    /// A registry of the templates in the templates file at `path` (`{"kind": template, …}`),
    /// each compiled against `stylesheet`.
    ///
    ///     let registry = try TemplateRegistry(contentsOfFile: "templates.json")
    ///
    /// - Throws: ``LayoutError/unreadableFile(path:reason:)`` when the file cannot be read as
    ///   UTF-8, and what ``register(templatesJSON:stylesheet:limits:)`` throws for its contents.
    public init(
        contentsOfFile path: String, stylesheet: Stylesheet = .standard, limits: TemplateLimits = TemplateLimits(),
        fallback: CompiledTemplate? = nil
    ) throws(LayoutError) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw .unreadableFile(path: path, reason: (error as NSError).localizedDescription)
        }
        self.init(fallback: fallback)
        try register(templatesJSON: text, stylesheet: stylesheet, limits: limits)
    }

    /// Registers `template` for items of `kind`.
    public mutating func register(_ template: CompiledTemplate, for kind: String) {
        templates[kind] = template
    }

    /// Registers every template of a templates file (`{"kind": template, …}`, see
    /// ``Template/templatesByKind(json:)``), each compiled against `stylesheet`; a kind already
    /// registered takes the file's template. Nothing is registered when any template is bad.
    /// (A templates file is JSON, so nested at most `JSONParser.maximumDepth` deep in any case.)
    ///
    /// - Throws: ``LayoutError/invalidTemplates(_:)`` listing every template that is malformed
    ///   or does not compile, in the file's order.
    public mutating func register(
        templatesJSON text: String, stylesheet: Stylesheet = .standard, limits: TemplateLimits = TemplateLimits()
    ) throws(LayoutError) {
        var compiled: [(String, CompiledTemplate)] = []
        var errors: [LayoutError] = []
        for (kind, parsed) in try Template.eachTemplate(json: text) {
            do { compiled.append((kind, try CompiledTemplate(parsed.get(), stylesheet: stylesheet, limits: limits))) } catch { errors.append(error) }
        }
        if !errors.isEmpty { throw .invalidTemplates(errors) }
        for (kind, template) in compiled { register(template, for: kind) }
    }

    /// The kinds with a template of their own, sorted.
    public var kinds: [String] { templates.keys.sorted() }

    /// The template registered for `kind` (not the fallback), if any.
    public func template(forKind kind: String) -> CompiledTemplate? { templates[kind] }

    /// The template for `item`'s kind, or the fallback.
    ///
    /// - Throws: ``LayoutError/noTemplate(kind:)`` when there is neither.
    public func template(for item: ItemDescriptor) throws(LayoutError) -> CompiledTemplate {
        if let template = templates[item.kind] ?? fallback { return template }
        throw .noTemplate(kind: item.kind)
    }
}
