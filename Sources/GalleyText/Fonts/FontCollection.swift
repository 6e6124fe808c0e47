// The set of fonts a text engine can use: the bundled set, the caller's files, system fonts.

internal import CHarfBuzz
import Foundation
import GalleyLocks

/// The fonts available for measuring, and the fallback order between them.
///
/// A collection loads the bundled fonts (see `Fonts/manifest.json`) by default, plus any font
/// file or folder the caller names, plus optionally the system's fonts. Faces are loaded once,
/// when the collection is made. A face named by a path that was not registered is loaded on
/// first use, if ``access`` allows it, and kept while it is used lately: those faces, the
/// fallback chains and the memory of font files loaded for requests are bounded however many
/// distinct paths and styles requests name. Collections are long-lived and safe to share
/// between threads.
public final class FontCollection: Sendable {
    /// Every registered face: bundled faces first (in manifest order), then the caller's files
    /// (folders in path order), then system fonts.
    public let faces: [FontFace]
    /// What text styles may load by path (see ``FontAccess``).
    public let access: FontAccess

    /// Families tried, in order, after the requested font and the caller's fallbacks.
    private let fallbackFamilies: [FallbackFamily]
    /// The registered font folders (the bundled folder and the folders given), as given and
    /// as their real paths, each as bytes ending in "/".
    private let registeredFolders: [[UInt8]]
    /// Faces loaded on first use, by the file they are in and their index: however many paths
    /// name one file, it loads one face, and a file changed on disk is another file.
    private let requested = Locked(RequestedFaces())
    private let chains = Locked(ChainTable())
    /// Bytes of font files loaded for text styles that faces still hold.
    private let requestedBytes = FontMemory()

    private struct RequestedFace: Hashable {
        var file: FontFile.Identity
        var index: Int
    }

    /// The faces loaded for text styles: those used lately, kept; and every one still alive
    /// (held by a paragraph, a chain, a caller), found without being kept, so that a face is
    /// never loaded twice while one copy lives.
    private struct RequestedFaces {
        var recent = RecentlyUsed<RequestedFace, FontFace>(capacity: 16)
        private var alive: [RequestedFace: WeakFace] = [:]
        /// How many entries `alive` may reach before the dead are dropped.
        private var pruneAt = 64

        struct WeakFace { weak var face: FontFace? }

        mutating func face(for key: RequestedFace) -> FontFace? {
            if let face = recent.value(for: key) { return face }
            guard let face = alive[key]?.face else { return nil }
            recent.insert(face, for: key)
            return face
        }

        mutating func insert(_ face: FontFace, for key: RequestedFace) {
            recent.insert(face, for: key)
            alive[key] = WeakFace(face: face)
            if alive.count >= pruneAt {
                alive = alive.filter { $0.value.face != nil }
                pruneAt = max(64, 2 * alive.count)
            }
        }
    }

    /// The bytes of font files loaded for text styles that this collection's faces hold now.
    public var loadedFontBytes: Int { requestedBytes.count }

    /// Fallback chains made lately, and the one handed out last, compared before the table is
    /// searched: paragraphs in turn mostly share a style (a batch's rows, a list's cells), and
    /// hashing the key would be most of the lookup.
    private struct ChainTable {
        var byKey = RecentlyUsed<FallbackChain.Key, FallbackChain>(capacity: 256)
        /// The last chain handed out and what it was for, field by field: compared in place,
        /// where a key made (or a stored one copied) for the comparison would retain its strings.
        var lastChain: FallbackChain?
        var lastDescriptor = FontDescriptor.family("")
        var lastFallbacks: [FontDescriptor] = []
        var lastLanguage = ""

        func lastChain(for descriptor: FontDescriptor, fallbacks: [FontDescriptor], language: String) -> FallbackChain? {
            guard let lastChain, lastDescriptor == descriptor, lastFallbacks == fallbacks, lastLanguage == language else { return nil }
            return lastChain
        }

        mutating func remember(_ chain: FallbackChain, descriptor: FontDescriptor, fallbacks: [FontDescriptor], language: String) {
            (lastChain, lastDescriptor, lastFallbacks, lastLanguage) = (chain, descriptor, fallbacks, language)
        }

        mutating func removeAll() {
            byKey.removeAll()
            lastChain = nil
        }
    }

    struct FallbackFamily: Sendable {
        var name: String
        /// BCP 47 prefixes ("ja", "zh-hant"), lowercase, whose text prefers this family over its peers.
        var languages: [String]
    }

    /// Loads the bundled fonts, the fonts at `fontPaths` (files or folders, searched
    /// recursively for `.ttf`, `.otf`, `.ttc` and `.otc`), and, when `includeSystemFonts` is
    /// set, every font fontconfig lists. System families join the fallback order after the
    /// bundled ones, in name order. These are the process's own fonts: their errors say what
    /// went wrong, and their files are mapped, not read.
    ///
    /// - Parameters:
    ///   - includeBundled: Whether to load the bundled Noto fonts.
    ///   - fontPaths: Font files and folders to load besides.
    ///   - includeSystemFonts: Whether to load every font fontconfig lists too.
    ///   - access: What text styles may load by path besides (see ``FontAccess``; its size
    ///     limit is for those files: these are mapped, not read, and may be larger).
    /// - Throws: ``FontError`` naming the file that could not be loaded.
    public init(
        includeBundled: Bool = true, fontPaths: [String] = [], includeSystemFonts: Bool = false, access: FontAccess = .anywhere
    ) throws(FontError) {
        var faces: [FontFace] = []
        var families: [FallbackFamily] = []
        var folders: [[UInt8]] = []
        let limit = Int.max
        if includeBundled {
            let directory = try FontManifest.bundledDirectory()
            let manifest = try FontManifest.load(from: directory)
            var files = OpenFiles(limit: limit)
            for entry in manifest.fonts {
                let face = try files.face(path: directory + "/" + entry.file, index: entry.index)
                faces.append(face)
                if !families.contains(where: { $0.name == face.familyName }) {
                    families.append(FallbackFamily(name: face.familyName, languages: (entry.languages ?? []).map { $0.lowercased() }))
                }
            }
            folders += Self.folderForms(directory)
        }
        for path in fontPaths {
            faces += try Self.loadFaces(atPath: path, limit: limit)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                folders += Self.folderForms(path)
            }
        }
        if includeSystemFonts {
            var files = OpenFiles(limit: limit)
            // Faces FreeType cannot describe as OpenType (Type 1, bitmap formats) are left out.
            let systemFaces = SystemFonts.list().compactMap { (path, index) in try? files.face(path: path, index: index) }
            faces += systemFaces
            let names = Set(systemFaces.map(\.familyName)).subtracting(families.map(\.name)).sorted()
            families += names.map { FallbackFamily(name: $0, languages: []) }
        }
        self.faces = faces
        self.access = access
        fallbackFamilies = families
        registeredFolders = folders
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

    /// How many fallback chains are held, for the tests of the bound.
    var chainCount: Int { chains.withLock { $0.byKey.count } }

    /// The registered family names, in registration order.
    public var familyNames: [String] {
        var seen = Set<String>()
        return faces.map(\.familyName).filter { seen.insert($0).inserted }
    }

    // MARK: - Lookup

    /// The face that best matches `descriptor`: for a family, the face of that family closest
    /// in slant and then weight; for a file, that file's face (loaded now if it was not
    /// registered, as ``access`` allows).
    ///
    /// - Throws: ``FontError/unknownFamily(_:)``, or for a file ``FontError/filesNotAllowed(path:)``
    ///   or ``FontError/unusableFile(path:)``.
    public func face(for descriptor: FontDescriptor) throws(FontError) -> FontFace {
        switch descriptor.source {
        case .family(let name):
            let wanted = name.lowercased()
            let candidates = faces.filter { $0.familyName.lowercased() == wanted }
            guard let best = Self.bestMatch(in: candidates, weight: descriptor.weight, italic: descriptor.isItalic)
            else { throw .unknownFamily(name) }
            return best
        case .file(let path, let index):
            return try requestedFace(path: path, index: index)
        }
    }

    /// The face at `index` of the font file at `path`, named by a text style.
    private func requestedFace(path: String, index: Int) throws(FontError) -> FontFace {
        guard access.paths != .none else { throw .filesNotAllowed(path: path) }
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        if let registered = faces.first(where: { $0.path == standardized && $0.faceIndex == index }) { return registered }
        // Every failure below is told alike (see FontError.unusableFile).
        let opened: FontFile.Opened
        do {
            opened = try FontFile.Opened(
                path: standardized, limit: access.maximumFileSize,
                insideFolders: access.paths == .registeredFolders ? registeredFolders : nil)
        } catch { throw .unusableFile(path: path) }
        // Looked up before the file is read: a face of it already loaded needs none of it.
        let key = RequestedFace(file: opened.identity, index: index)
        if let loaded = requested.withLock({ $0.face(for: key) }) { return loaded }
        // What the font takes in memory: a WOFF file's decoded size, not the file's.
        let size = opened.loadedSize
        if !requestedBytes.reserve(size, limit: access.maximumLoadedBytes) {
            // Let go of what this collection holds of earlier requests' faces, then try again.
            requested.withLock { $0.recent.removeAll() }
            chains.withLock { $0.removeAll() }
            guard requestedBytes.reserve(size, limit: access.maximumLoadedBytes) else { throw .unusableFile(path: path) }
        }
        let file: FontFile
        do { file = try FontFile(opened, mapped: false) } catch {
            requestedBytes.release(size)
            throw .unusableFile(path: path)
        }
        // A WOFF2 file may decode to less than it declared: the rest goes back.
        requestedBytes.release(size - file.loadedSize)
        let face: FontFace
        do { face = try FontFace(file: file, index: index, memory: requestedBytes) } catch {
            requestedBytes.release(file.loadedSize)
            throw .unusableFile(path: path)
        }
        return requested.withLock { requested in
            if let existing = requested.face(for: key) { return existing }
            requested.insert(face, for: key)
            return face
        }
    }

    /// The faces to try for text in `descriptor`'s font: the requested face, the caller's
    /// fallbacks, then the collection's fallback families, each at the closest weight and slant.
    /// A family whose languages `language` (a lowercase BCP 47 tag) falls under moves ahead of
    /// its peers (Japanese text prefers the Japanese CJK face). Chains are cached, by the
    /// family the language prefers rather than the language.
    func fallbackChain(
        for descriptor: FontDescriptor, fallbacks: [FontDescriptor], language: String
    ) throws(FontError) -> FallbackChain {
        if let chain = chains.withLock({ $0.lastChain(for: descriptor, fallbacks: fallbacks, language: language) }) { return chain }
        let preferred = preferredFamily(language: language)
        let key = FallbackChain.Key(descriptor: descriptor, fallbacks: fallbacks, preferredFamily: preferred)
        if let chain = chains.withLock({ chains in
            let chain = chains.byKey.value(for: key)
            if let chain { chains.remember(chain, descriptor: descriptor, fallbacks: fallbacks, language: language) }
            return chain
        }) {
            return chain
        }
        var ordered: [FontFace] = [try face(for: descriptor)]
        for fallback in fallbacks {
            var styled = fallback
            if case .family = fallback.source {
                styled.weight = descriptor.weight
                styled.isItalic = descriptor.isItalic
            }
            ordered.append(try face(for: styled))
        }
        for family in orderedFallbackFamilies(preferring: preferred) {
            let candidates = faces.filter { $0.familyName == family.name }
            if let best = Self.bestMatch(in: candidates, weight: descriptor.weight, italic: descriptor.isItalic) {
                ordered.append(best)
            }
        }
        var seen = Set<ObjectIdentifier>()
        let chain = FallbackChain(faces: ordered.filter { seen.insert(ObjectIdentifier($0)).inserted })
        return chains.withLock { chains in
            let kept = chains.byKey.value(for: key) ?? chain
            chains.byKey.insert(kept, for: key)
            chains.remember(kept, descriptor: descriptor, fallbacks: fallbacks, language: language)
            return kept
        }
    }

    // MARK: - Private helpers

    /// The fallback family `language` (a lowercase BCP 47 tag) prefers, as its index: the one
    /// with the longest of its languages that the tag is or starts with ("zh-hant-hk" prefers
    /// the family of "zh-hant" over that of "zh").
    private func preferredFamily(language: String) -> Int? {
        guard !language.isEmpty else { return nil }
        func matchLength(_ family: FallbackFamily) -> Int {
            family.languages.filter { language == $0 || language.hasPrefix($0 + "-") }.map(\.count).max() ?? 0
        }
        guard let best = fallbackFamilies.indices.max(by: { matchLength(fallbackFamilies[$0]) < matchLength(fallbackFamilies[$1]) }),
            matchLength(fallbackFamilies[best]) > 0
        else { return nil }
        return best
    }

    /// The fallback families with `preferred` moved to the first slot of the families that
    /// name languages; the others keep their order.
    private func orderedFallbackFamilies(preferring preferred: Int?) -> [FallbackFamily] {
        guard let preferred else { return fallbackFamilies }
        let slots = fallbackFamilies.indices.filter { !fallbackFamilies[$0].languages.isEmpty }
        guard let position = slots.firstIndex(of: preferred) else { return fallbackFamilies }
        var peers = slots.map { fallbackFamilies[$0] }
        peers.insert(peers.remove(at: position), at: 0)
        var result = fallbackFamilies
        for (slot, family) in zip(slots, peers) { result[slot] = family }
        return result
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

    /// A registered folder as given (standardized) and as its real path, as bytes ending in "/".
    private static func folderForms(_ path: String) -> [[UInt8]] {
        var given = Array(URL(fileURLWithPath: path).standardizedFileURL.path.utf8)
        if given.last != UInt8(ascii: "/") { given.append(UInt8(ascii: "/")) }
        guard let real = FontFile.realFolder(path), real != given else { return [given] }
        return [given, real]
    }

    /// Every face of the font file at `path`, or of every font file below the folder at `path`.
    private static func loadFaces(atPath path: String, limit: Int) throws(FontError) -> [FontFace] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .unreadableFile(path: path)
        }
        guard isDirectory.boolValue else { return try loadFaces(ofFile: path, limit: limit) }
        let files = (fileManager.subpaths(atPath: path) ?? [])
            .filter { fontExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted()
        var faces: [FontFace] = []
        for file in files { faces += (try? loadFaces(ofFile: path + "/" + file, limit: limit)) ?? [] }
        return faces
    }

    private static func loadFaces(ofFile path: String, limit: Int) throws(FontError) -> [FontFace] {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        let file = try FontFile.registered(path: standardized, limit: limit)
        var faces: [FontFace] = []
        for index in 0..<max(file.faceCount, 1) { faces.append(try FontFace(file: file, index: index)) }
        return faces
    }
}

/// Font files opened while loading a collection, so that faces of one file share its mapping.
private struct OpenFiles {
    let limit: Int
    private var files: [String: FontFile] = [:]

    init(limit: Int) { self.limit = limit }

    mutating func face(path: String, index: Int) throws(FontError) -> FontFace {
        let file: FontFile
        if let opened = files[path] { file = opened } else { file = try FontFile.registered(path: path, limit: limit) }
        files[path] = file
        return try FontFace(file: file, index: index)
    }
}

extension FontFile {
    /// A font file the process is set up with, mapped, its failures told in full.
    static func registered(path: String, limit: Int) throws(FontError) -> FontFile {
        do {
            return try FontFile(path: path, limit: limit, mapped: true)
        } catch {
            switch error {
            case .cannotOpen, .readFailed: throw .unreadableFile(path: path)
            case .notRegularFile: throw .invalidFont(path: path, reason: "not a regular file")
            case .tooLarge(let size): throw .invalidFont(path: path, reason: "\(size) bytes, more than the limit of \(limit)")
            case .decodedTooLarge(let size):
                throw .invalidFont(path: path, reason: "declared decompressed size \(size) is more than the limit of \(min(limit, FontFile.largestFile))")
            case .malformedWOFF(let reason): throw .invalidFont(path: path, reason: reason)
            case .outsideFolders: throw .unreadableFile(path: path)
            }
        }
    }
}

/// Bytes of font files loaded for requests that faces still hold, counted across threads.
final class FontMemory: Sendable {
    private let bytes = Locked(0)

    /// Counts `count` more bytes, when they stay within `limit`; false, counting nothing, when not.
    func reserve(_ count: Int, limit: Int) -> Bool {
        bytes.withLock { bytes in
            guard bytes + count <= limit else { return false }
            bytes += count
            return true
        }
    }

    /// Counts `count` bytes fewer (a face that held them is gone).
    func release(_ count: Int) { bytes.withLock { $0 -= count } }

    /// Bytes counted now.
    var count: Int { bytes.withLock { $0 } }
}
