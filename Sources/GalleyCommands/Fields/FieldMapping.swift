// Input names to template names: `--map title=headline,subtitle=author.name`.

import GalleyJSON
import GalleyLayout

/// Which input value each template field takes, and which fields hold HTML to reduce to text.
struct FieldMapping: Sendable {
    /// A template field (dotted: it may be nested) and the input path it is read from.
    var pairs: [(target: [String], source: FieldPath)] = []
    /// Fields (after mapping) whose HTML is reduced to its text.
    var htmlFields: [FieldPath] = []
    /// Whether every top-level string is reduced from HTML to text, whatever its name.
    var everyStringIsHTML = false

    var isEmpty: Bool { pairs.isEmpty && htmlFields.isEmpty && !everyStringIsHTML }

    /// No mapping: every field keeps its name and text.
    init() {}

    /// Parses `--map` values, each `field=path[,field=path…]`.
    ///
    /// - Throws: a message naming the pair that is not `field=path`.
    init(maps: [String], htmlFields: [String]) throws(RecordError) {
        for map in maps {
            for pair in map.split(separator: ",", omittingEmptySubsequences: true) {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                    throw RecordError("--map takes field=path pairs separated by commas (title=headline,subtitle=author.name), got '\(pair)'")
                }
                let target = parts[0].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard target.count <= CSVReader.maximumNesting else {
                    throw RecordError("--map: '\(parts[0])' nests more than \(CSVReader.maximumNesting) levels deep")
                }
                pairs.append((target, FieldPath(parts[1])))
            }
        }
        self.htmlFields = htmlFields.flatMap { $0.split(separator: ",") }.map { FieldPath($0.trimmingCharacters(in: .whitespaces)) }
    }

    /// `object` with the mapped fields set (from the input as it came, so that `a=b,b=a`
    /// swaps) and the HTML fields reduced to text.
    func apply(to object: inout JSONObject) {
        if !pairs.isEmpty {
            let original = object
            for (target, source) in pairs {
                if let value = source.value(in: original) { object.setValue(value, at: target) }
            }
        }
        for field in htmlFields {
            guard case .string(let html)? = field.value(in: object) else { continue }
            object.setValue(.string(HTMLText.text(of: html)), at: field.components)
        }
        if everyStringIsHTML {
            for (name, value) in object { if case .string(let html) = value { object[name] = .string(HTMLText.text(of: html)) } }
        }
    }
}
