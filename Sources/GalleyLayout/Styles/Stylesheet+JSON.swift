// Stylesheets in JSON: {"extends", "name", "textStyles", "metrics", "colors", "contentSizeMultiplier"}.

import GalleyJSON
import GalleyText

extension Stylesheet {
    /// A stylesheet from JSON. `"extends": "standard"` (the default) starts from
    /// ``standard`` and overrides its entries; `"extends": null` starts empty.
    ///
    /// - Throws: ``LayoutError/invalidStylesheet(_:)`` naming the entry at fault.
    public init(json text: String) throws(LayoutError) {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch { throw .invalidStylesheet("invalid JSON at \(error)") }
        do throws(LayoutError) {
            var reader = try JSONReader(value, path: "stylesheet")
            var base = Stylesheet(name: "empty")
            if reader.object["extends"] == nil || reader.object["extends"] == .string("standard") {
                base = .standard
            } else if reader.object["extends"] != .null {
                throw reader.error("the only stylesheet to extend is \"standard\"", key: "extends")
            }
            _ = reader.value("extends")
            var own = Stylesheet(name: try reader.string("name") ?? "custom", contentSizeMultiplier: try reader.number("contentSizeMultiplier") ?? 1)
            if let styles = reader.value("textStyles") {
                guard case .object(let members) = styles else { throw reader.error("must be an object", key: "textStyles") }
                for (name, style) in members { own.textStyles[name] = try TextStyleSpec(json: style, path: "stylesheet.textStyles.\(name)") }
            }
            if let metrics = reader.value("metrics") {
                guard case .object(let members) = metrics else { throw reader.error("must be an object", key: "metrics") }
                for (name, metric) in members {
                    guard let number = metric.doubleValue else { throw reader.error("must be a number, got \(metric.kindName)", key: "metrics.\(name)") }
                    guard ValueRanges.length.contains(number) else {
                        throw reader.error(ValueRanges.problem(number, outside: ValueRanges.length), key: "metrics.\(name)")
                    }
                    own.metrics[name] = number
                }
            }
            if let colors = reader.value("colors") {
                guard case .object(let members) = colors else { throw reader.error("must be an object", key: "colors") }
                for (name, color) in members {
                    guard case .string(let string) = color else { throw reader.error("must be a string", key: "colors.\(name)") }
                    own.colors[name] = string
                }
            }
            try reader.finish()
            guard own.contentSizeMultiplier > 0 else { throw reader.error("must be > 0", key: "contentSizeMultiplier") }
            self = base.overriding(with: own)
        } catch {
            if case .invalidTemplate(let path, let reason) = error { throw .invalidStylesheet("\(path): \(reason)") }
            throw error
        }
    }
}

extension TextStyleSpec {
    /// A text style from `{"family", "size", "weight", "italic", "lineHeightMultiple", "letterSpacing", "color"}`.
    init(json value: JSONValue, path: String) throws(LayoutError) {
        var reader = try JSONReader(value, path: path)
        guard let size = try reader.number("size") else { throw reader.error("is missing", key: "size") }
        self.init(
            family: try reader.string("family") ?? "Noto Sans", size: size, weight: try reader.integer("weight") ?? 400,
            italic: try reader.bool("italic") ?? false, lineHeightMultiple: try reader.number("lineHeightMultiple") ?? 0,
            letterSpacing: try reader.number("letterSpacing") ?? 0, color: try reader.string("color"))
        try reader.finish()
        if let problem { throw reader.error(problem) }
    }

    var json: JSONValue {
        var members: JSONObject = ["family": .string(family), "size": .number(size), "weight": .integer(weight)]
        if italic { members["italic"] = .bool(true) }
        if lineHeightMultiple != 0 { members["lineHeightMultiple"] = .number(lineHeightMultiple) }
        if letterSpacing != 0 { members["letterSpacing"] = .number(letterSpacing) }
        if let color { members["color"] = .string(color) }
        return .object(members)
    }
}
