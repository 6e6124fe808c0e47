// A templates file as `galley` reads it: templates keyed by kind, each with optional input
// options beside it.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLayout

/// A templates file (`{"kind": template, …}`, with or without a UTF-8 byte order mark), read and
/// parsed once. Beside a template's `root`, `galley` reads three members of its own, for that
/// kind's items: `"fields": {"title": "headline"}` (as `--map`), `"stripHTML": ["summary"]` (as
/// `--strip-html`) and `"required": ["title"]` (a missing field fails the row).
struct TemplateFile: Sendable {
    /// The file's templates, or why each is malformed, in its order.
    var entries: [(kind: String, parsed: Result<Template, LayoutError>)] = []
    /// Each kind's input options.
    var options: [String: KindOptions] = [:]
    /// The file's bytes, for the settings' fingerprint.
    var bytes = Data()

    /// What a kind's items get before they are laid out.
    struct KindOptions: Sendable {
        var mapping: FieldMapping
        var required: [FieldPath]
    }

    /// Reads the file at `path`; a file that cannot be read or is not a templates file is a setup
    /// failure naming it (and, for bad templates, each by kind, in the file's order).
    init(path: String) throws(ExitCode) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw setupFailure("cannot read the templates \(path): \(ByteInput.problem(opening: path) ?? "unreadable")")
        }
        do { try self.init(text: String(decoding: data, as: UTF8.self)) } catch { throw setupFailure(Self.located(error, in: path)) }
        bytes = data
    }

    /// Parses `text`; the errors name the kind and member at fault.
    init(text: String) throws {
        let text = Self.withoutByteOrderMark(text)
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch { throw RecordError("invalid JSON at \(error)") }
        // Not an object of templates: the layer's own parser says so in its words.
        guard case .object(let kinds) = value else {
            entries = try Template.templatesByKind(json: text).map { ($0.kind, .success($0.template)) }
            return
        }
        for (kind, template) in kinds {
            guard case .object(var members) = template else {
                entries.append((kind, .failure(.invalidTemplate(path: kind, reason: "expected an object, got \(template.kindName)"))))
                continue
            }
            var maps: [String] = []
            var html: [String] = []
            var required: [FieldPath] = []
            if let fields = members.removeValue(forKey: "fields") {
                guard case .object(let pairs) = fields else { throw RecordError("\(kind).fields must be an object of field: input path") }
                for (target, source) in pairs {
                    guard case .string(let path) = source else { throw RecordError("\(kind).fields.\(target) must be a string (an input path)") }
                    maps.append("\(target)=\(path)")
                }
            }
            for key in ["stripHTML", "required"] {
                guard let list = members.removeValue(forKey: key) else { continue }
                let names: [String] =
                    if case .array(let elements) = list { elements.compactMap { if case .string(let name) = $0 { name } else { nil } } } else { [] }
                guard case .array(let elements) = list, names.count == elements.count else {
                    throw RecordError("\(kind).\(key) must be an array of field names")
                }
                if key == "stripHTML" { html = names } else { required = names.map { FieldPath($0) } }
            }
            if !maps.isEmpty || !html.isEmpty || !required.isEmpty {
                options[kind] = KindOptions(mapping: try FieldMapping(maps: maps, htmlFields: html), required: required)
            }
            entries.append((kind, Result { () throws(LayoutError) in try Template(json: .object(members), name: kind) }))
        }
    }

    /// The templates that parse, in the file's order.
    var templates: [(kind: String, template: Template)] {
        entries.compactMap { kind, parsed in (try? parsed.get()).map { (kind, $0) } }
    }

    /// The templates, or a setup failure listing every malformed one.
    func parsed(path: String) throws(ExitCode) -> [(kind: String, template: Template)] {
        let errors = entries.compactMap { if case .failure(let error) = $0.parsed { error } else { nil } }
        if !errors.isEmpty { throw setupFailure(Self.located(LayoutError.invalidTemplates(errors), in: path)) }
        return templates
    }

    /// Each template compiled against `stylesheet`; every one that is malformed or does not
    /// compile is reported, in the file's order.
    func compiled(stylesheet: Stylesheet, limits: TemplateLimits, path: String) throws(ExitCode) -> [(kind: String, template: CompiledTemplate)] {
        var compiled: [(kind: String, template: CompiledTemplate)] = []
        var errors: [LayoutError] = []
        for (kind, parsed) in entries {
            do { compiled.append((kind, try CompiledTemplate(parsed.get(), stylesheet: stylesheet, limits: limits))) } catch { errors.append(error) }
        }
        if !errors.isEmpty { throw setupFailure(Self.located(LayoutError.invalidTemplates(errors), in: path)) }
        return compiled
    }

    /// `error`'s message with `file` before each of its lines (one per bad template).
    static func located(_ error: any Error, in file: String) -> String {
        "\(error)".split(separator: "\n", omittingEmptySubsequences: false).map { "\(file): \($0)" }.joined(separator: "\n")
    }

    /// `text` without a leading UTF-8 byte order mark (files saved on Windows have one).
    static func withoutByteOrderMark(_ text: String) -> String {
        text.hasPrefix("\u{FEFF}") ? String(text.dropFirst()) : text
    }
}
