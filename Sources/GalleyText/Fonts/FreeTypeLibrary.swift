// The process's FreeType library handle, used only to read font files' names and tables.

internal import CFreeType
import GalleyLocks

/// Reads the facts about a face that FreeType knows: names, style, and its metric tables.
///
/// FreeType's library object is not thread-safe, so every use goes through one lock. It is
/// used only while loading fonts, never while measuring.
final class FreeTypeLibrary: Sendable {
    static let shared = FreeTypeLibrary()

    /// The `FT_Library`, only touched under `lock`.
    private struct Handle: @unchecked Sendable { let library: FT_Library? }
    private let lock: Locked<Handle>

    private init() {
        var library: FT_Library?
        FT_Init_FreeType(&library)
        lock = Locked(Handle(library: library))
    }

    /// What one face says about itself.
    struct FaceDescription: Sendable {
        var familyName: String
        var styleName: String
        var weight: Int
        var isItalic: Bool
        var metrics: FontMetrics
    }

    /// Reads the description of face `index` of a font file's `bytes` (read from `path`).
    func describeFace(bytes: UnsafeRawBufferPointer, path: String, index: Int) throws(FontError) -> FaceDescription {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self), index >= 0 && index <= Int(Int32.max) else {
            throw .noSuchFace(path: path, index: index)
        }
        let result: Result<FaceDescription, FontError> = lock.withLock { handle in
            var face: FT_Face?
            let error = FT_New_Memory_Face(handle.library, base, FT_Long(bytes.count), FT_Long(index), &face)
            guard error == 0, let face else {
                // FT_Err_Invalid_Argument (6) for a bad index.
                if error == 6 { return .failure(.noSuchFace(path: path, index: index)) }
                return .failure(.invalidFont(path: path, reason: "FreeType error \(error)"))
            }
            defer { FT_Done_Face(face) }
            return Self.describe(face, path: path)
        }
        return try result.get()
    }

    /// Why FreeType could not decode a WOFF or WOFF2 file.
    struct DecodeFailure: Error {
        var reason: String
    }

    /// A decoded font's memory, handed from the lock to the caller, who owns it.
    /// `@unchecked Sendable`: nothing else holds the memory.
    private struct Decoded: @unchecked Sendable { let bytes: UnsafeMutableRawBufferPointer }

    /// The OpenType font a WOFF or WOFF2 file's `bytes` hold, decoded by FreeType into memory of
    /// its own (to be freed with `free`): FreeType decodes the file when it opens it, and keeps
    /// the font it decoded as the face's stream. At most `limit` bytes (what the file's header
    /// declared, checked before).
    func decodeWOFF(_ bytes: UnsafeRawBufferPointer, limit: Int) throws(DecodeFailure) -> UnsafeMutableRawBufferPointer {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: FT_Byte.self) else { throw DecodeFailure(reason: "the file is empty") }
        let result: Result<Decoded, DecodeFailure> = lock.withLock { handle in
            var face: FT_Face?
            let error = FT_New_Memory_Face(handle.library, base, FT_Long(bytes.count), 0, &face)
            guard error == 0, let face else { return .failure(DecodeFailure(reason: "FreeType error \(error)")) }
            defer { FT_Done_Face(face) }
            guard let stream = face.pointee.stream, let decoded = stream.pointee.base, stream.pointee.size > 0 else {
                return .failure(DecodeFailure(reason: "FreeType kept no decoded font"))
            }
            let size = Int(stream.pointee.size)
            guard size <= limit else { return .failure(DecodeFailure(reason: "it decoded to \(size) bytes, more than its header declared")) }
            guard let copy = malloc(size) else { return .failure(DecodeFailure(reason: "out of memory")) }
            copy.copyMemory(from: decoded, byteCount: size)
            return .success(Decoded(bytes: UnsafeMutableRawBufferPointer(start: copy, count: size)))
        }
        return try result.get().bytes
    }

    private static func describe(_ face: FT_Face, path: String) -> Result<FaceDescription, FontError> {
        let record = face.pointee
        guard let hhea = FT_Get_Sfnt_Table(face, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self)
        else { return .failure(.invalidFont(path: path, reason: "no hhea table")) }
        let os2 = FT_Get_Sfnt_Table(face, FT_SFNT_OS2)?.assumingMemoryBound(to: TT_OS2.self)

        // Read head directly: FreeType reports 0 units per em for bitmap-only faces (colour emoji).
        let head = FT_Get_Sfnt_Table(face, FT_SFNT_HEAD)?.assumingMemoryBound(to: TT_Header.self)
        let unitsPerEm = Int(head?.pointee.Units_Per_EM ?? record.units_per_EM)
        guard unitsPerEm > 0 else { return .failure(.invalidFont(path: path, reason: "unitsPerEm is 0")) }
        var ascender = Int(hhea.pointee.Ascender)
        var descender = -Int(hhea.pointee.Descender)
        var lineGap = Int(hhea.pointee.Line_Gap)
        var capHeight = 0
        var xHeight = 0
        var weight = 400
        var isItalic = record.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        var usesTypo = false
        if let os2, os2.pointee.version != 0xFFFF {
            let table = os2.pointee
            usesTypo = table.fsSelection & (1 << 7) != 0
            if usesTypo {
                ascender = Int(table.sTypoAscender)
                descender = -Int(table.sTypoDescender)
                lineGap = Int(table.sTypoLineGap)
            }
            if table.version >= 2 {
                capHeight = Int(table.sCapHeight)
                xHeight = Int(table.sxHeight)
            }
            weight = Int(table.usWeightClass)
            isItalic = isItalic || table.fsSelection & 1 != 0
        }
        let metrics = FontMetrics(
            unitsPerEm: unitsPerEm, ascender: ascender, descender: descender, lineGap: lineGap,
            capHeight: capHeight, xHeight: xHeight, usesTypographicMetrics: usesTypo)
        return .success(
            FaceDescription(
                familyName: record.family_name.map { String(cString: $0) } ?? "",
                styleName: record.style_name.map { String(cString: $0) } ?? "",
                weight: weight, isItalic: isItalic, metrics: metrics))
    }
}
