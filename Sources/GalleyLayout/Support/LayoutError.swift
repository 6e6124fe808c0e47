// Errors from templates, stylesheets, items and layout.

import GalleyText

/// Why a row could not be laid out, or a template or stylesheet not used.
public enum LayoutError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The item is malformed (not an object, no id or kind).
    case invalidItem(String)
    /// The template is malformed; `path` names the template and locates the node in it
    /// ("post.root.children[1]").
    case invalidTemplate(path: String, reason: String)
    /// The stylesheet is malformed or refers to something it does not define.
    case invalidStylesheet(String)
    /// Several templates are malformed (a templates file): each one's error, in the file's order.
    case invalidTemplates([LayoutError])
    /// A field the template binds holds a value of the wrong kind.
    case fieldType(path: String, field: String, expected: String, found: String)
    /// No template for the item's kind and no fallback.
    case noTemplate(kind: String)
    /// The width is negative or not finite, or the scale not positive.
    case invalidGeometry(String)
    /// A templates file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The text engine failed (an unknown font, say).
    case text(TextError)

    /// How the value reads in messages.
    public var description: String {
        switch self {
        case .invalidItem(let reason): "invalid item: \(reason)"
        case .invalidTemplate(let path, let reason): "invalid template at \(path): \(reason)"
        case .invalidTemplates(let errors): errors.map(\.description).joined(separator: "\n")
        case .invalidStylesheet(let reason): "invalid stylesheet: \(reason)"
        case .fieldType(let path, let field, let expected, let found):
            "\(path): field '\(field)' must be \(expected), but the item has \(found)"
        case .noTemplate(let kind): "no template for kind '\(kind)' and no fallback template"
        case .invalidGeometry(let reason): reason
        case .unreadableFile(let path, let reason): "cannot read \(path): \(reason)"
        case .text(let error): error.description
        }
    }
}
