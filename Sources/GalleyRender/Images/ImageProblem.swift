// Why an image a row names was drawn as a placeholder rather than read.

/// Why an image node's source was not drawn from the ``ImageFolder``.
public enum ImageProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// A URL or other source that is not a file name or path (nothing is fetched).
    case notAPath
    /// No such file in the folder: a file that does not exist, a path that leaves the folder
    /// (through `..`, an absolute path or a link) and one that cannot be followed are told
    /// alike, so that nothing is said of the files outside it.
    case notInFolder
    /// Not a regular file (a folder, a device…).
    case notAFile
    /// The file could not be opened or read, with the system's reason.
    case unreadable(String)
    /// A file larger than ``ImageFolder/maximumFileSize`` bytes.
    case tooLarge(bytes: Int)
    /// Not a PNG file.
    case notPNG
    /// A PNG more than ``ImageFolder/maximumSide`` pixels a side (or with a side of none).
    case tooManyPixels(width: Int, height: Int)
    /// A PNG that could not be decoded.
    case undecodable
    /// An image that would take the pixels of the images one drawing decodes past
    /// ``ImageFolder/maximumDecodedPixels``.
    case tooManyPixelsInDrawing(limit: Int)

    /// What went wrong, for messages.
    public var description: String {
        switch self {
        case .notAPath: "not a file name or path in the folder (URLs are not fetched)"
        case .notInFolder: "no such file in the folder"
        case .notAFile: "not a file"
        case .unreadable(let reason): "cannot be read: \(reason)"
        case .tooLarge(let bytes): "\(bytes) bytes, more than the \(ImageFolder.maximumFileSize) an image may have"
        case .notPNG: "not a PNG file"
        case .tooManyPixels(let width, let height): "\(width) × \(height) pixels, outside 1…\(ImageFolder.maximumSide) a side"
        case .undecodable: "a PNG that cannot be decoded"
        case .tooManyPixelsInDrawing(let limit): "past the \(limit) pixels the images of one drawing may have in all"
        }
    }
}

/// An image a sheet draws as a placeholder although it has an image folder.
public struct ImageNotDrawn: Sendable, Hashable {
    /// The row's item.
    public var itemID: String
    /// The image node's source, as the item gave it.
    public var source: String
    /// Why it was not drawn.
    public var problem: ImageProblem

    /// The image `source` of `itemID`'s row, not drawn for `problem`.
    public init(itemID: String, source: String, problem: ImageProblem) {
        (self.itemID, self.source, self.problem) = (itemID, source, problem)
    }
}
