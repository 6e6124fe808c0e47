// Images decoded for one drawing: each file once, however many sources name it, and within a
// bound on the pixels they hold in all.

/// Decodes the images rows name from their folder for one drawing, and notes those it cannot
/// give.
final class ImageLoader {
    let folder: ImageFolder
    /// Where the images decoded go, with the drawing's others.
    private let images: DrawingImages
    private var bySource: [String: Result<CairoImage, ImageProblem>] = [:]
    /// Files already decoded or refused, by identity: one file named ten ways is decoded once.
    private var byFile: [ImageFile.Identity: Result<CairoImage, ImageProblem>] = [:]
    /// Pixels of the images decoded so far, or tried (a file that failed cost the work too).
    private(set) var decodedPixels = 0
    /// Files decoded, or tried.
    private(set) var decodeCount = 0
    /// The images asked for and not given, each row's once.
    private(set) var notDrawn: [ImageNotDrawn] = []
    private var reported = Set<[String]>()

    init(folder: ImageFolder, images: DrawingImages) {
        self.folder = folder
        self.images = images
    }

    /// The image `source` names for `itemID`'s row, decoded, or nil when it cannot be (see
    /// ``ImageFolder``), which is noted in ``notDrawn``.
    func image(for source: String, itemID: String) -> CairoImage? {
        let image = bySource[source] ?? load(source)
        bySource[source] = image
        switch image {
        case .success(let image): return image
        case .failure(let problem):
            // A row drawn at several widths is noted once.
            if reported.insert([itemID, source]).inserted { notDrawn.append(ImageNotDrawn(itemID: itemID, source: source, problem: problem)) }
            return nil
        }
    }

    private func load(_ source: String) -> Result<CairoImage, ImageProblem> {
        let file: ImageFile
        switch folder.open(source) {
        case .success(let opened): file = opened
        case .failure(let problem): return .failure(problem)
        }
        if let known = byFile[file.identity] { return known }
        let image = decode(file)
        byFile[file.identity] = image
        return image
    }

    private func decode(_ file: ImageFile) -> Result<CairoImage, ImageProblem> {
        let png: (bytes: [UInt8], width: Int, height: Int)
        switch file.png() {
        case .success(let read): png = read
        case .failure(let problem): return .failure(problem)
        }
        let pixels = png.width * png.height
        guard pixels <= folder.maximumDecodedPixels - decodedPixels else { return .failure(.tooManyPixelsInDrawing(limit: folder.maximumDecodedPixels)) }
        decodedPixels += pixels
        decodeCount += 1
        guard let image = PNGDecoder.decode(png.bytes).image else { return .failure(.undecodable) }
        images.add(image)
        return .success(image)
    }
}
