// One line of `galley measure` input, checked field by field.

import GalleyJSON
import GalleyText

/// A text to measure, read from one JSON object.
struct MeasureRequest {
    var id: JSONValue
    var text: String
    var style: TextStyle
    var paragraph: ParagraphStyle
    var width: Double

    /// A field that is missing, of the wrong kind, or out of range.
    struct FieldError: Error, CustomStringConvertible {
        var field: String
        var problem: String
        var description: String { "field '\(field)': \(problem)" }
    }

    /// Reads a request from a decoded JSON object.
    ///
    /// - Throws: ``FieldError`` naming the first bad field.
    init(_ object: JSONObject) throws(FieldError) {
        let fields = Fields(object: object)
        id = object["id"] ?? .null
        text = try fields.string("text")
        let weight = try fields.optionalInteger("weight", in: 1...1000) ?? 400
        let italic = try fields.optionalBool("italic") ?? false
        let font = FontDescriptor.named(try fields.string("font"), weight: weight, italic: italic)
        let size = try fields.number("size", in: ValueRanges.fontSize)
        width = try fields.number("width", in: ValueRanges.length)
        let letterSpacing = try fields.optionalNumber("letterSpacing", in: ValueRanges.letterSpacing) ?? 0
        let fallbacks = try fields.optionalStrings("fallback", most: TextStyle.mostFallbacks)?.map { FontDescriptor.named($0) } ?? []
        style = TextStyle(font: font, size: size, letterSpacing: letterSpacing, fallbacks: fallbacks)

        paragraph = ParagraphStyle()
        paragraph.maximumLines = try fields.optionalInteger("maxLines", in: 0...Int.max) ?? 0
        if let mode = try fields.optionalString("lineBreakMode") {
            guard let parsed = LineBreakMode(rawValue: mode) else {
                throw FieldError(
                    field: "lineBreakMode", problem: "must be one of \(LineBreakMode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(mode)'")
            }
            paragraph.lineBreakMode = parsed
        }
        paragraph.language = try fields.optionalString("lang")
        paragraph.lineHeightMultiple = try fields.optionalNumber("lineHeightMultiple", in: ValueRanges.lineHeightMultiple) ?? 0
    }
}

/// Typed access to an object's fields, with errors that name the field.
private struct Fields {
    let object: JSONObject

    func string(_ name: String) throws(MeasureRequest.FieldError) -> String {
        guard let value = try optionalString(name) else { throw missing(name) }
        return value
    }

    func number(_ name: String, in range: ClosedRange<Double>) throws(MeasureRequest.FieldError) -> Double {
        guard let value = try optionalNumber(name, in: range) else { throw missing(name) }
        return value
    }

    func optionalString(_ name: String) throws(MeasureRequest.FieldError) -> String? {
        guard let value = present(name) else { return nil }
        guard case .string(let string) = value else { throw wrongKind(name, value, "a string") }
        return string
    }

    func optionalNumber(_ name: String, in range: ClosedRange<Double>) throws(MeasureRequest.FieldError) -> Double? {
        guard let value = present(name) else { return nil }
        guard let number = value.doubleValue else { throw wrongKind(name, value, "a number") }
        guard range.contains(number) else { throw MeasureRequest.FieldError(field: name, problem: ValueRanges.problem(number, outside: range)) }
        return number
    }

    func optionalInteger(_ name: String, in range: ClosedRange<Int>) throws(MeasureRequest.FieldError) -> Int? {
        guard let value = present(name) else { return nil }
        guard case .integer(let integer) = value else { throw wrongKind(name, value, "an integer") }
        guard range.contains(integer) else {
            throw MeasureRequest.FieldError(
                field: name, problem: "must be in \(range.lowerBound)...\(range.upperBound == Int.max ? "" : String(range.upperBound)), got \(integer)")
        }
        return integer
    }

    func optionalBool(_ name: String) throws(MeasureRequest.FieldError) -> Bool? {
        guard let value = present(name) else { return nil }
        guard case .bool(let bool) = value else { throw wrongKind(name, value, "a boolean") }
        return bool
    }

    func optionalStrings(_ name: String, most: Int) throws(MeasureRequest.FieldError) -> [String]? {
        guard let value = present(name) else { return nil }
        guard case .array(let elements) = value else { throw wrongKind(name, value, "an array of strings") }
        guard elements.count <= most else {
            throw MeasureRequest.FieldError(field: name, problem: "must have at most \(most) elements, not \(elements.count)")
        }
        var strings: [String] = []
        for element in elements {
            guard case .string(let string) = element else { throw wrongKind(name, element, "an array of strings") }
            strings.append(string)
        }
        return strings
    }

    /// The field's value; an explicit null counts as absent.
    private func present(_ name: String) -> JSONValue? {
        guard let value = object[name], value != .null else { return nil }
        return value
    }

    private func missing(_ name: String) -> MeasureRequest.FieldError {
        MeasureRequest.FieldError(field: name, problem: "is missing")
    }

    private func wrongKind(_ name: String, _ value: JSONValue, _ expected: String) -> MeasureRequest.FieldError {
        MeasureRequest.FieldError(field: name, problem: "must be \(expected), got \(value.kindName)")
    }
}
