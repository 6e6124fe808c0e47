// A templates file as `galley` reads it: templates keyed by kind, each with optional input
// options beside it.

import GalleyJSON
import GalleyLayout

/// A templates file (`{"kind": template, …}`, with or without a UTF-8 byte order mark). Beside a
/// template's `root`, `galley` reads three members of its own, for that kind's items:
/// `"fields": {"title": "headline"}` (as `--map`), `"stripHTML": ["summary"]` (as
/// `--strip-html`) and `"required": ["title"]` (a missing field fails the row).
struct TemplateFile {
    /// The file without the members only `galley` reads, for the template registry.
    var templatesJSON: String
    /// Each kind's input options.
    var options: [String: KindOptions] = [:]

    /// What a kind's items get before they are laid out.
    struct KindOptions: Sendable {
        var mapping: FieldMapping
        var required: [FieldPath]
    }

    /// Reads `text`; the errors name the kind and member at fault.
    init(text: String) throws(RecordError) {
        let value: JSONValue
        do { value = try JSONParser.parse(Self.withoutByteOrderMark(text)) } catch { throw RecordError("invalid JSON at \(error)") }
        guard case .object(var kinds) = value else {
            templatesJSON = text // the registry says what is wrong with it
            return
        }
        for (kind, template) in kinds {
            guard case .object(var members) = template else { continue }
            var maps: [String] = [], html: [String] = [], required: [FieldPath] = []
            if let fields = members.removeValue(forKey: "fields") {
                guard case .object(let pairs) = fields else { throw RecordError("\(kind).fields must be an object of field: input path") }
                for (target, source) in pairs {
                    guard case .string(let path) = source else { throw RecordError("\(kind).fields.\(target) must be a string (an input path)") }
                    maps.append("\(target)=\(path)")
                }
            }
            for (key, into) in [("stripHTML", 0), ("required", 1)] {
                guard let list = members.removeValue(forKey: key) else { continue }
                guard case .array(let elements) = list, let names = Optional(elements.compactMap { if case .string(let name) = $0 { name } else { nil } }),
                      names.count == elements.count else { throw RecordError("\(kind).\(key) must be an array of field names") }
                if into == 0 { html = names } else { required = names.map { FieldPath($0) } }
            }
            if !maps.isEmpty || !html.isEmpty || !required.isEmpty {
                options[kind] = KindOptions(mapping: try FieldMapping(maps: maps, htmlFields: html), required: required)
            }
            kinds[kind] = .object(members)
        }
        // Kind by kind, in the file's order: the registry reports bad templates in that order.
        var writer = JSONWriter()
        for (kind, template) in kinds { writer.add(kind, template) }
        templatesJSON = String(decoding: writer.finish(), as: UTF8.self)
    }

    /// `text` without a leading UTF-8 byte order mark (files saved on Windows have one).
    static func withoutByteOrderMark(_ text: String) -> String {
        text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}
