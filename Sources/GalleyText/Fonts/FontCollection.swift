// The set of fonts a text engine can use: the bundled set, the caller's files, system fonts.

internal import CHarfBuzz
import Foundation
import GalleyLocks

/// The fonts available for measuring, and the fallback order between them.
///
/// A collection loads the bundled fonts (see `Fonts/manifest.json`) by default, plus any font
/// file or folder the caller names, plus optionally the system's fonts. Faces are loaded once,
/// when the collection is made; a face named by a path that was not registered is loaded on
/// first use and kept. Collections are long-lived and safe to share between threads.
public final class FontCollection: Sendable {
    /// Every registered face: bundled faces first (in manifest order), then the caller's files
    /// (folders in path order), then system fonts.
    public let faces: [FontFace]

    /// Families tried, in order, after the requested font and the caller's fallbacks.
    private let fallbackFamilies: [FallbackFamily]
    private let loadedOnDemand = Locked<[String: FontFace]>([:])
    private let chains = Locked(ChainTable())

    /// Fallback chains made so far, and the one handed out last, compared before the table is
    /// searched: paragraphs in turn mostly share a style (a batch's rows, a list's cells), and
    /// hashing the key was most of the lookup.
    private struct ChainTable {
        var byKey: [FallbackChain.Key: FallbackChain] = [:]
        /// The last chain handed out and what it was for, field by field: compared in place,
        /// where a key made (or a stored one copied) for the comparison retained its strings.
        var lastChain: FallbackChain?
        var lastDescriptor = FontDescriptor.family("")
        var lastFallbacks: [FontDescriptor] = []
        var lastLanguage: String?

        func lastChain(for descriptor: FontDescriptor, fallbacks: [FontDescriptor], language: String?) -> FallbackChain? {
            guard let lastChain, lastDescriptor == descriptor, lastFallbacks == fallbacks, lastLanguage == language else { return nil }
            return lastChain
        }

        mutating func chain(for key: FallbackChain.Key) -> FallbackChain? {
            guard let chain = byKey[key] else { return nil }
            (lastChain, lastDescriptor, lastFallbacks, lastLanguage) = (chain, key.descriptor, key.fallbacks, key.language)
            return chain
        }
    }

    struct FallbackFamily: Sendable {
        var name: String
        /// BCP 47 prefixes ("ja", "zh-Hant") whose text prefers this family over its peers.
        var languages: [String]
    }

    /// Loads the bundled fonts, the fonts at `fontPaths` (files or folders, searched
    /// recursively for `.ttf`, `.otf`, `.ttc` and `.otc`), and, when `includeSystemFonts` is
    /// set, every font fontconfig lists. System families join the fallback order after the
    /// bundled ones, in name order.
    ///
    /// - Throws: ``FontError`` naming the file that could not be loaded.
    public init(
        includeBundled: Bool = true, fontPaths: [String] = [], includeSystemFonts: Bool = false
    ) throws(FontError) {
        var faces: [FontFace] = []
        var families: [FallbackFamily] = []
        if includeBundled {
            let directory = try FontManifest.bundledDirectory()
            let manifest = try FontManifest.load(from: directory)
            var files = OpenFiles()
            for entry in manifest.fonts {
                let face = try files.face(path: directory + "/" + entry.file, index: entry.index)
                faces.append(face)
                if !families.contains(where: { $0.name == face.familyName }) {
                    families.append(FallbackFamily(name: face.familyName, languages: entry.languages ?? []))
                }
            }
        }
        for path in fontPaths {
            faces += try Self.loadFaces(atPath: path)
        }
        if includeSystemFonts {
            var files = OpenFiles()
            // Faces FreeType cannot describe as OpenType (Type 1, bitmap formats) are left out.
            let systemFaces = SystemFonts.list().compactMap { (path, index) in try? files.face(path: path, index: index) }
            faces += systemFaces
            let names = Set(systemFaces.map(\.familyName)).subtracting(families.map(\.name)).sorted()
            families += names.map { FallbackFamily(name: $0, languages: []) }
        }
        self.faces = faces
        fallbackFamilies = families
    }

    /// The bundled fonts, loaded once per process.
    ///
    /// - Throws: ``FontError/bundledFontsMissing(reason:)`` when the `Fonts/` folder cannot be
    ///   found (set `GALLEY_FONTS` to its path).
    public static func bundled() throws(FontError) -> FontCollection {
        try sharedBundled.get()
    }

    private static let sharedBundled: Result<FontCollection, FontError> = {
        do throws(FontError) { return .success(try FontCollection()) } catch { return .failure(error) }
    }()

    /// The registered family names, in registration order.
    public var familyNames: [String] {
        var seen = Set<String>()
        return faces.map(\.familyName).filter { seen.insert($0).inserted }
    }

    // MARK: - Lookup

    /// The face that best matches `descriptor`: for a family, the face of that family closest
    /// in slant and then weight; for a file, that file's face (loaded now if it was not registered).
    ///
    /// - Throws: ``FontError/unknownFamily(_:)`` or the error from loading the file.
    public func face(for descriptor: FontDescriptor) throws(FontError) -> FontFace {
        switch descriptor.source {
        case .family(let name):
            let wanted = name.lowercased()
            let candidates = faces.filter { $0.familyName.lowercased() == wanted }
            guard let best = Self.bestMatch(in: candidates, weight: descriptor.weight, italic: descriptor.isItalic)
            else { throw .unknownFamily(name) }
            return best
        case .file(let path, let index):
            let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
            if let registered = faces.first(where: { $0.path == standardized && $0.faceIndex == index }) {
                return registered
            }
            let key = "\(standardized)#\(index)"
            if let loaded = loadedOnDemand.withLock({ $0[key] }) { return loaded }
            let face = try Blob(path: standardized).face(at: index)
            return loadedOnDemand.withLock { loaded in
                if let existing = loaded[key] { return existing }
                loaded[key] = face
                return face
            }
        }
    }

    /// The faces to try for text in `descriptor`'s font: the requested face, the caller's
    /// fallbacks, then the collection's fallback families, each at the closest weight and slant.
    /// Families that name `language` move ahead of their peers (Japanese text prefers the
    /// Japanese CJK face). Chains are cached.
    func fallbackChain(
        for descriptor: FontDescriptor, fallbacks: [FontDescriptor], language: String?
    ) throws(FontError) -> FallbackChain {
        if let chain = chains.withLock({ $0.lastChain(for: descriptor, fallbacks: fallbacks, language: language) }) { return chain }
        let key = FallbackChain.Key(descriptor: descriptor, fallbacks: fallbacks, language: language)
        if let chain = chains.withLock({ $0.chain(for: key) }) { return chain }
        var ordered: [FontFace] = [try face(for: descriptor)]
        for fallback in fallbacks {
            var styled = fallback
            if case .family = fallback.source {
                styled.weight = descriptor.weight
                styled.isItalic = descriptor.isItalic
            }
            ordered.append(try face(for: styled))
        }
        for family in orderedFallbackFamilies(language: language) {
            let candidates = faces.filter { $0.familyName == family.name }
            if let best = Self.bestMatch(in: candidates, weight: descriptor.weight, italic: descriptor.isItalic) {
                ordered.append(best)
            }
        }
        var seen = Set<ObjectIdentifier>()
        let chain = FallbackChain(faces: ordered.filter { seen.insert(ObjectIdentifier($0)).inserted })
        return chains.withLock { chains in
            if let existing = chains.byKey[key] { return existing }
            chains.byKey[key] = chain
            return chain
        }
    }

    // MARK: - Private helpers

    private func orderedFallbackFamilies(language: String?) -> [FallbackFamily] {
        guard let language = language.map(Self.bareLanguageTag), !language.isEmpty else { return fallbackFamilies }
        func matchLength(_ family: FallbackFamily) -> Int {
            family.languages.filter { language == $0 || language.hasPrefix($0 + "-") }.map(\.count).max() ?? 0
        }
        let slots = fallbackFamilies.indices.filter { !fallbackFamilies[$0].languages.isEmpty }
        guard let best = slots.max(by: { matchLength(fallbackFamilies[$0]) < matchLength(fallbackFamilies[$1]) }),
            matchLength(fallbackFamilies[best]) > 0
        else { return fallbackFamilies }
        // The preferred family takes the first language-specific slot; the others keep their order.
        var peers = slots.map { fallbackFamilies[$0] }
        let preferred = peers.remove(at: slots.firstIndex(of: best)!)
        peers.insert(preferred, at: 0)
        var result = fallbackFamilies
        for (slot, family) in zip(slots, peers) { result[slot] = family }
        return result
    }

    /// "ja_JP@lb=strict" or "ja-JP-u-lb-strict" -> "ja-JP".
    static func bareLanguageTag(_ tag: String) -> String {
        var bare = tag.split(separator: "@", maxSplits: 1).first.map(String.init) ?? ""
        if let range = bare.range(of: "-u-") { bare = String(bare[..<range.lowerBound]) }
        return bare.replacingOccurrences(of: "_", with: "-")
    }

    private static func bestMatch(in candidates: [FontFace], weight: Int, italic: Bool) -> FontFace? {
        // Slant first, then weight distance; ties go to the first registered face. The weight
        // clamped to the classes' range, so that no distance overflows.
        let weight = min(max(weight, 1), 1000)
        return candidates.min { lhs, rhs in
            let lhsScore = (lhs.isItalic == italic ? 0 : 10_000) + abs(lhs.weight - weight)
            let rhsScore = (rhs.isItalic == italic ? 0 : 10_000) + abs(rhs.weight - weight)
            return lhsScore < rhsScore
        }
    }

    private static let fontExtensions: Set<String> = ["ttf", "otf", "ttc", "otc"]

    /// Every face of the font file at `path`, or of every font file below the folder at `path`.
    private static func loadFaces(atPath path: String) throws(FontError) -> [FontFace] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadableFile(path: path)
        }
        guard isDirectory.boolValue else { return try loadFaces(ofFile: path) }
        let files = (fileManager.subpaths(atPath: path) ?? [])
            .filter { fontExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        var faces: [FontFace] = []
        for file in files { faces += (try? loadFaces(ofFile: path + "/" + file)) ?? [] }
        return faces
    }

    private static func loadFaces(ofFile path: String) throws(FontError) -> [FontFace] {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        let blob = try Blob(path: standardized)
        var faces: [FontFace] = []
        for index in 0..<max(blob.faceCount, 1) { faces.append(try blob.face(at: index)) }
        return faces
    }
}

/// A memory-mapped font file shared by the faces made from it.
private final class Blob {
    let path: String
    let pointer: OpaquePointer

    init(path: String) throws(FontError) {
        guard let blob = hb_blob_create_from_file_or_fail(path) else { throw .unreadableFile(path: path) }
        self.path = path
        pointer = blob
    }

    deinit { hb_blob_destroy(pointer) }

    /// Number of faces in the file (more than one in a collection such as `.ttc`).
    var faceCount: Int { Int(hb_face_count(pointer)) }

    /// Face `index` of the file: described by FreeType, shaped by HarfBuzz.
    func face(at index: Int) throws(FontError) -> FontFace {
        let description = try FreeTypeLibrary.shared.describeFace(path: path, index: index)
        return FontFace(path: path, faceIndex: index, blob: pointer, description: description)
    }
}

/// Font files opened while loading a collection, so that faces of one file share its mapping.
private struct OpenFiles {
    private var blobs: [String: Blob] = [:]

    mutating func face(path: String, index: Int) throws(FontError) -> FontFace {
        let blob: Blob
        if let opened = blobs[path] { blob = opened } else { blob = try Blob(path: path) }
        blobs[path] = blob
        return try blob.face(at: index)
    }
}
