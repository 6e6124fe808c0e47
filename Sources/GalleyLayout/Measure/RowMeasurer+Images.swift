// The measure pass for images: a fixed size or the item's, within bounds, keeping the aspect ratio.

import GalleyText

extension RowMeasurer {
    @inline(never)
    func measureImage(_ node: CompiledNode, _ image: CompiledImage, width: Double) throws(LayoutError) -> MeasuredNode {
        if let source = image.source, item.value(at: source) == nil { return .collapsed(node.id) }
        var size: LayoutSize
        switch image.size {
        case .fixed(let fixed): size = fixed
        case .fields(let widthField, let heightField, let fallback):
            let width = item.value(at: widthField)
            let height = item.value(at: heightField)
            if let width, let height {
                guard let w = width.doubleValue, ValueRanges.length.contains(w) else {
                    throw .fieldType(path: node.path, field: widthField.description, expected: Self.lengthExpected, found: width.describedForErrors)
                }
                guard let h = height.doubleValue, ValueRanges.length.contains(h) else {
                    throw .fieldType(path: node.path, field: heightField.description, expected: Self.lengthExpected, found: height.describedForErrors)
                }
                size = LayoutSize(width: w, height: h)
            } else if let fallback {
                size = fallback
            } else {
                return .collapsed(node.id)
            }
        }
        // Bounds keep the aspect ratio: scale down to the maximum (and the width offered), up to the minimum.
        var scale = 1.0
        if let maximum = image.maximum {
            if size.width > maximum.width && size.width > 0 { scale = min(scale, maximum.width / size.width) }
            if size.height > maximum.height && size.height > 0 { scale = min(scale, maximum.height / size.height) }
        }
        if width.isFinite && size.width * scale > width && size.width > 0 { scale = min(scale, width / size.width) }
        if scale == 1, let minimum = image.minimum {
            if size.width < minimum.width && size.width > 0 { scale = max(scale, minimum.width / size.width) }
            if size.height < minimum.height && size.height > 0 { scale = max(scale, minimum.height / size.height) }
        }
        size = LayoutSize(width: size.width * scale, height: size.height * scale)
        return MeasuredNode(id: node.id, size: size)
    }

    /// What an image's width or height field must hold.
    static let lengthExpected = "a number ≥ 0 and ≤ \(Int(ValueRanges.length.upperBound))"
}
