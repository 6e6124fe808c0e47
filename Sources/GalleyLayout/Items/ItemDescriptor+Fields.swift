// What an item's fields say to a template: a label's text, styled runs, and a condition's test.

import GalleyJSON
import GalleyText

extension ItemDescriptor {
    /// A label's runs, each in its own style (empty runs left out).
    func attributedText(runs: [(CompiledContent, ResolvedTextStyle)], node: Int, of template: CompiledTemplate) throws(LayoutError) -> AttributedText {
        var text = AttributedText()
        try forEachRun(runs, node: node, of: template) { string, style in text.append(string, style: style.style) }
        return text
    }

    /// Calls `body` with each of a label's runs' text and style, in order (empty runs left out).
    func forEachRun(
        _ runs: [(CompiledContent, ResolvedTextStyle)], node: Int, of template: CompiledTemplate, _ body: (String, ResolvedTextStyle) -> Void
    ) throws(LayoutError) {
        for (content, style) in runs {
            if let string = try string(for: content, node: node, of: template) { body(string, style) }
        }
    }

    /// The runs an item's field gives a label: `[{"text", "style"}]`, styles named in the
    /// stylesheet, the label's own style when none is named (empty when the field is missing).
    func attributedText(
        styledField field: FieldPath, label: CompiledLabel, node: Int, of template: CompiledTemplate
    ) throws(LayoutError) -> AttributedText {
        var text = AttributedText()
        try forEachRun(styledField: field, label: label, node: node, of: template) { string, style in text.append(string, style: style.style) }
        return text
    }

    /// Calls `body` with each run of a styled field's text and style, in order.
    func forEachRun(
        styledField field: FieldPath, label: CompiledLabel, node: Int, of template: CompiledTemplate, _ body: (String, ResolvedTextStyle) -> Void
    ) throws(LayoutError) {
        guard let value = value(at: field) else { return }
        guard case .array(let runs) = value else {
            throw .fieldType(
                path: template.nodes[node].path, field: field.description, expected: "an array of {\"text\", \"style\"} runs", found: value.describedForErrors)
        }
        for (index, run) in runs.enumerated() {
            guard case .object(let members) = run, case .string(let string)? = members["text"] else {
                throw .fieldType(
                    path: template.nodes[node].path, field: "\(field).\(index)", expected: "an object with a string \"text\"", found: run.describedForErrors)
            }
            var style = label.style
            if case .string(let name)? = members["style"] {
                guard let spec = template.stylesheet.textStyles[name] else {
                    throw .invalidTemplate(path: template.nodes[node].path, reason: "item \(id) names unknown text style '\(name)' in \(field).\(index)")
                }
                // Checked here, not when the stylesheet was compiled: a template checks only the styles it names.
                let textStyle = spec.textStyle(multiplier: template.stylesheet.contentSizeMultiplier)
                if let problem = spec.problem ?? textStyle.problem {
                    throw .invalidTemplate(path: template.nodes[node].path, reason: "text style '\(name)' named in \(field).\(index): \(problem)")
                }
                style = ResolvedTextStyle(
                    style: textStyle,
                    lineHeightMultiple: spec.lineHeightMultiple, color: template.stylesheet.resolveColor(spec.color))
            }
            body(string, style)
        }
    }

    /// The colours of a label's styled runs by the UTF-16 range of the text each covers; nil for
    /// a label in one style (its colour is the style's).
    func colorRuns(ofLabel label: CompiledLabel, node: Int, of template: CompiledTemplate) -> [ArrangedLabel.ColorRun]? {
        var colors: [ArrangedLabel.ColorRun] = []
        var start = 0
        let add = { (string: String, style: ResolvedTextStyle) in
            let end = start + string.utf16.count
            colors.append(ArrangedLabel.ColorRun(range: start..<end, color: style.color))
            start = end
        }
        // The label was measured, so its runs read without an error.
        switch label.content {
        case .runs(let runs): try? forEachRun(runs, node: node, of: template, add)
        case .styledField(let field): try? forEachRun(styledField: field, label: label, node: node, of: template, add)
        case .field, .literal, .format: return nil
        }
        return colors
    }

    /// The text of a field, literal or format; nil when it is empty or all its fields are.
    func string(for content: CompiledContent, node: Int, of template: CompiledTemplate) throws(LayoutError) -> String? {
        switch content {
        case .literal(let literal): return literal.isEmpty ? nil : literal
        case .field(let field):
            guard let value = value(at: field) else { return nil }
            guard let text = FieldFormatter.text(of: value) else {
                throw .fieldType(
                    path: template.nodes[node].path, field: field.description, expected: FieldFormatter.expectedValue, found: value.describedForErrors)
            }
            return text.isEmpty ? nil : text
        case .format(let pieces):
            var result = ""
            var anyField = false
            for piece in pieces {
                switch piece {
                case .literal(let literal): result += literal
                case .field(let field, let formatter):
                    guard let value = value(at: field) else { continue }
                    let text = formatter.map { $0.apply(to: value) } ?? FieldFormatter.text(of: value)
                    guard let text else {
                        throw .fieldType(
                            path: template.nodes[node].path, field: field.description,
                            expected: formatter?.expectedValue ?? FieldFormatter.expectedValue, found: value.describedForErrors)
                    }
                    if !text.isEmpty { anyField = true }
                    result += text
                }
            }
            let hasFields = pieces.contains { if case .field = $0 { return true } else { return false } }
            return (hasFields && !anyField) || result.isEmpty ? nil : result
        case .runs, .styledField:
            return nil
        }
    }
}

extension Node.Conditional.Test {
    /// Whether a field's value (nil when the item lacks the field) passes the test.
    func passes(_ value: JSONValue?) -> Bool {
        guard let value else { return false }
        switch self {
        case .present: return true
        case .nonEmpty:
            switch value {
            case .string(let string): return !string.isEmpty
            case .array(let array): return !array.isEmpty
            case .object(let object): return !object.isEmpty
            default: return true
            }
        case .isTrue:
            switch value {
            case .bool(let bool): return bool
            case .integer(let integer): return integer != 0
            case .number(let number): return number != 0
            case .numeral(let text): return Double(text) != 0
            case .string(let string): return !string.isEmpty && string != "false"
            default: return false
            }
        }
    }
}

extension JSONValue {
    /// The value as an error names what it found: a string's first characters, a number's value,
    /// else its kind.
    var describedForErrors: String {
        switch self {
        case .string(let string): "a string (\"\(string.prefix(20))\")"
        case .integer, .number, .numeral: doubleValue.map { "\($0)" } ?? kindName
        default: kindName
        }
    }
}
