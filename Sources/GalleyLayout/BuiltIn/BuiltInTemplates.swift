// The catalog of built-in templates and the registry of their kinds.

/// Templates for the classic cell kinds: UIKit's four standard styles and Three20's table
/// item catalog, following the originals' layout constants (see each template's notes).
public enum BuiltInTemplates {
    /// Every built-in template, by name.
    public static let all: [String: Template] = Dictionary(
        uniqueKeysWithValues: [
            cellDefault, cellValue1, cellValue2, cellSubtitle,
            text, caption, rightCaption, subtext, subtitle, message, longText, image, rightImage,
            activity, button, moreButton, link, summary, styledText,
        ].map { ($0.name, $0) })

    /// The built-in template named `name` ("three20.message", or just "message").
    public static func named(_ name: String) -> Template? {
        all[name] ?? all["three20." + name] ?? all["uikit." + name]
    }

    /// A registry with every built-in under its full name and its short name (Three20's kinds
    /// win: "subtitle" is Three20's, "uikit.subtitle" UIKit's).
    ///
    /// - Throws: ``LayoutError`` if `stylesheet` lacks a style or metric the built-ins use.
    public static func registry(stylesheet: Stylesheet = .standard) throws(LayoutError) -> TemplateRegistry {
        var registry = TemplateRegistry()
        for (name, template) in all.sorted(by: { $0.key < $1.key }) {
            let compiled = try CompiledTemplate(template, stylesheet: stylesheet)
            registry.register(compiled, for: name)
            if name.hasPrefix("three20.") { registry.register(compiled, for: String(name.dropFirst("three20.".count))) }
        }
        return registry
    }
}
