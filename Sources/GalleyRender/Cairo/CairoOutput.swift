// Drawing onto cairo's image, SVG and PDF surfaces, and taking the bytes they write.

import CCairo

/// Runs drawings on cairo surfaces of each format.
enum CairoOutput {
    /// Draws on an image surface `width` × `height` points at `scale`, and returns its pixels.
    static func image(
        width: Double, height: Double, scale: Double, images: DrawingImages = DrawingImages(), draw: (Canvas) throws(RenderError) -> Void
    ) throws(RenderError) -> RenderedImage {
        let surface = try imageSurface(width: width, height: height, scale: scale)
        defer { cairo_surface_destroy(surface) }
        try drawAndCheck(on: surface, scale: scale, images: images, draw: draw)
        return RenderedImage(surface: surface)
    }

    /// The bytes of a file of `format` holding a drawing `width` × `height` points; a PNG has
    /// `scale` pixels a point, SVG and PDF are in points.
    static func file(
        _ format: RenderFormat, width: Double, height: Double, scale: Double, images: DrawingImages = DrawingImages(),
        draw: (Canvas) throws(RenderError) -> Void
    ) throws(RenderError) -> [UInt8] {
        let sink = ByteSink()
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        try withExtendedLifetime(sink) { () throws(RenderError) in
            let surface: OpaquePointer
            switch format {
            case .png: surface = try imageSurface(width: width, height: height, scale: scale)
            case .svg, .pdf:
                try checkSize(width: width, height: height, scale: scale, pixelsAPoint: 1)
                surface =
                    format == .svg
                    ? cairo_svg_surface_create_for_stream(writeToSink, closure, width, height)
                    : cairo_pdf_surface_create_for_stream(writeToSink, closure, width, height)
                if format == .pdf {
                    // A fixed date: the same drawing makes the same bytes.
                    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, "2000-01-01T00:00:00")
                    cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Galley")
                }
            }
            // Destroyed while the sink lives: a stream surface writes its last bytes as it goes.
            defer { cairo_surface_destroy(surface) }
            try drawAndCheck(on: surface, scale: format == .png ? scale : 1, images: images, draw: draw)
            if format == .png {
                try check(cairo_surface_write_to_png_stream(surface, writeToSink, closure))
            } else {
                cairo_surface_finish(surface)
                try check(cairo_surface_status(surface))
            }
        }
        return format == .svg ? renumberingSurfaces(sink.bytes) : sink.bytes
    }

    /// `svg` with cairo's surface ids (`surface260`, numbered across the process) numbered from
    /// 1 in order of appearance, references alike: the same drawing makes the same bytes.
    static func renumberingSurfaces(_ svg: [UInt8]) -> [UInt8] {
        let word = Array("surface".utf8)
        var numbers: [ArraySlice<UInt8>: Int] = [:]
        var result: [UInt8] = []
        result.reserveCapacity(svg.count)
        var place = 0
        while place < svg.count {
            guard svg[place...].starts(with: word) else {
                result.append(svg[place])
                place += 1
                continue
            }
            var end = place + word.count
            while end < svg.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(svg[end]) { end += 1 }
            result.append(contentsOf: word)
            if end > place + word.count {
                let digits = svg[(place + word.count)..<end]
                let number = numbers[digits] ?? numbers.count + 1
                numbers[digits] = number
                result.append(contentsOf: "\(number)".utf8)
            }
            place = end
        }
        return result
    }

    /// The most pixels an image may have (a gigabyte of them is four), and the largest side a
    /// drawing may have in device units (cairo's bound for images; its fixed-point coordinates
    /// lose precision past it in SVG and PDF too).
    static let maximumPixels = 64 << 20

    /// Throws when a drawing `width` × `height` points at `pixelsAPoint` is too large.
    static func checkSize(width: Double, height: Double, scale: Double, pixelsAPoint: Double) throws(RenderError) {
        let (pixelWidth, pixelHeight) = ((width * pixelsAPoint).rounded(.up), (height * pixelsAPoint).rounded(.up))
        guard pixelWidth.isFinite, pixelHeight.isFinite, pixelWidth <= Double(RenderedImage.maximumSide),
            pixelHeight <= Double(RenderedImage.maximumSide), pixelWidth * pixelHeight <= Double(maximumPixels)
        else { throw .tooLarge(width: width, height: height, scale: scale) }
    }

    private static func imageSurface(width: Double, height: Double, scale: Double) throws(RenderError) -> OpaquePointer {
        guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
        try checkSize(width: width, height: height, scale: scale, pixelsAPoint: scale)
        let surface = cairo_image_surface_create(
            CAIRO_FORMAT_ARGB32, Int32(max(1, (width * scale).rounded(.up))), Int32(max(1, (height * scale).rounded(.up))))!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw .cairo(String(cString: cairo_status_to_string(status)))
        }
        return surface
    }

    private static func drawAndCheck(
        on surface: OpaquePointer, scale: Double, images: DrawingImages, draw: (Canvas) throws(RenderError) -> Void
    ) throws(RenderError) {
        try check(cairo_surface_status(surface))
        let canvas = Canvas(surface: surface, scale: scale, images: images)
        try draw(canvas)
        try check(canvas.status)
    }

    private static func check(_ status: cairo_status_t) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else { throw .cairo(String(cString: cairo_status_to_string(status))) }
    }
}

/// The bytes a stream surface writes.
private final class ByteSink {
    var bytes: [UInt8] = []
}

private let writeToSink: cairo_write_func_t = { closure, data, length in
    let sink = Unmanaged<ByteSink>.fromOpaque(closure!).takeUnretainedValue()
    if let data { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
    return CAIRO_STATUS_SUCCESS
}
