// `galley templates`: the templates a run can use and the fields each reads.

import ArgumentParser
import Foundation
import GalleyJSON
import GalleyLayout

extension Galley {
    struct Templates: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the built-in and loaded templates with the item fields each reads.",
            discussion: """
                With a NAME, only that template; with --json, the template as JSON, to start a \
                template of your own from (a templates file is {"kind": template, …}).
                """)

        @Argument(help: "A built-in template's name, or a kind in --templates.")
        var name: String?

        @Option(help: "A JSON file of templates keyed by item kind.")
        var templates: String?

        @Flag(help: "Print the template as JSON.")
        var json = false

        func validate() throws {
            if json && name == nil { throw ValidationError("--json prints one template: give its NAME") }
        }

        func run() throws {
            var all = BuiltInTemplates.all.sorted { $0.key < $1.key }.map { (name: $0.key, template: $0.value, origin: "built-in") }
            if let templates {
                let file = try TemplateFile(path: templates)
                all = try file.parsed(path: templates).map { (name: $0.kind, template: $0.template, origin: templates) } + all
            }
            if let name {
                // Built-ins answer to short names too (`message` for three20.message).
                let builtIn = BuiltInTemplates.named(name).map { (name: name, template: $0, origin: "built-in") }
                guard let found = all.first(where: { $0.name == name }) ?? builtIn else {
                    throw setupFailure("no template '\(name)'; templates: \(all.map(\.name).joined(separator: ", "))")
                }
                all = [found]
            }
            if json {
                let bytes = try JSONSerialization.data(withJSONObject: Self.foundationValue(all[0].template.json), options: [.prettyPrinted, .sortedKeys])
                try StandardOutput.write(Array(bytes) + [UInt8(ascii: "\n")], command: "templates")
                return
            }
            var listing = ""
            for (name, template, origin) in all {
                let fields = Self.fields(of: template.json)
                listing += "\(name)  (\(origin))\n    fields: \(fields.isEmpty ? "none" : fields.joined(separator: ", "))\n"
            }
            try StandardOutput.write(Array(listing.utf8), command: "templates")
        }

        /// The item fields a template's JSON names: in labels, formats, styled runs, images,
        /// conditions and accessories, in the order they first appear. With `displayedOnly`, only
        /// those whose absence changes what is shown by mistake: not the fields a condition tests,
        /// an image's source or an accessory's kind, which are there to be absent at times.
        static func fields(of json: JSONValue, displayedOnly: Bool = false) -> [String] {
            var found: [String] = []
            func add(_ field: String) { if !found.contains(field) { found.append(field) } }
            func visit(_ value: JSONValue) {
                switch value {
                case .object(let members):
                    let type = members["type"]
                    let optional = displayedOnly && (type == .string("conditional") || type == .string("accessory"))
                    for (key, member) in members {
                        switch (key, member) {
                        case ("field", .string) where optional, ("source", .string) where displayedOnly:
                            break
                        case ("field", .string(let field)), ("styledField", .string(let field)), ("source", .string(let field)),
                            ("widthField", .string(let field)), ("heightField", .string(let field)):
                            add(field)
                        case ("format", .string(let format)):
                            // Placeholders: {field} or {field|formatter}.
                            for part in format.split(separator: "{", omittingEmptySubsequences: false).dropFirst() {
                                guard let end = part.firstIndex(of: "}") else { continue }
                                guard let name = part[..<end].split(separator: "|").first else { continue }
                                add(String(name).trimmingCharacters(in: .whitespaces))
                            }
                        default:
                            visit(member)
                        }
                    }
                case .array(let elements):
                    elements.forEach(visit)
                default:
                    break
                }
            }
            visit(json)
            return found
        }

        /// A JSON value as Foundation's objects, for pretty printing.
        static func foundationValue(_ value: JSONValue) -> Any {
            switch value {
            case .null: NSNull()
            case .bool(let bool): bool
            case .integer(let integer): integer
            case .number(let number): number
            case .numeral(let text): Double(text) ?? 0
            case .string(let string): string
            case .array(let elements): elements.map(foundationValue)
            case .object(let members): Dictionary(members.map { ($0.key, foundationValue($0.value)) }, uniquingKeysWith: { $1 })
            }
        }
    }
}
