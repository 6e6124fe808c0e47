// Font files named by text styles: only regular files of bounded size, where the access policy
// allows, with errors that say nothing of which files exist, and bounded memory.

import Foundation
import GalleyLocks
import GalleyTestSupport
import GalleyText
import Testing

@Suite("Font files named by path")
struct FontAccessTests {
    static let hebrew = PackagePaths.font("NotoSansHebrew-Regular.ttf")

    static func folder(_ name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    static func measure(_ fonts: FontCollection, font path: String) throws -> TextMeasurement {
        try TextEngine(fonts: fonts).measure("שלום", style: TextStyle(font: .file(path), size: 17), width: 320)
    }

    @Test("Devices, standard input, folders, missing files and files that are no fonts are refused alike, none read")
    func notFonts() throws {
        let fonts = try FontCollection()
        let folder = try Self.folder("not-fonts")
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = folder.appendingPathComponent("notes.ttf")
        try Data("not a font".utf8).write(to: text)
        let empty = folder.appendingPathComponent("empty.otf")
        try Data().write(to: empty)
        let truncated = folder.appendingPathComponent("truncated.ttf")
        try Data(try Data(contentsOf: URL(fileURLWithPath: Self.hebrew)).prefix(100)).write(to: truncated)
        for path in [
            "/dev/zero", "/dev/stdin", "/dev/null", "/dev/urandom", "/proc/self/mem", folder.path, "/nonexistent/font.ttf",
            text.path, empty.path, truncated.path, "/etc/passwd", "",
        ] {
            #expect(throws: FontError.unusableFile(path: path), "\(path)") { try fonts.face(for: .file(path)) }
            #expect(throws: TextError.font(.unusableFile(path: path))) { try Self.measure(fonts, font: path) }
        }
        // The message is one, whatever the reason: nothing tells a missing file from one that is no font.
        let messages = Set(
            ["/nonexistent/font.ttf", folder.path, text.path, "/dev/zero"].map { path in
                let error = Result { () throws(FontError) in try fonts.face(for: .file(path)) }
                guard case .failure(let failure) = error else { return "loaded \(path)" }
                return failure.description.replacingOccurrences(of: path, with: "")
            })
        #expect(messages.count == 1)
    }

    @Test("A FIFO is refused at once rather than waited on")
    func fifo() throws {
        let folder = try Self.folder("fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("font.ttf").path
        #expect(mkfifo(fifo, 0o600) == 0)
        // Opening a FIFO to read waits for a writer; checked on a thread of its own so that a
        // wait fails the test rather than hanging the run.
        let done = DispatchSemaphore(value: 0)
        let result = Locked<Result<FontFace, FontError>?>(nil)
        let fonts = try FontCollection()
        Thread {
            let outcome = Result { () throws(FontError) in try fonts.face(for: .file(fifo)) }
            result.withLock { $0 = outcome }
            done.signal()
        }.start()
        #expect(done.wait(timeout: .now() + 20) == .success)
        let outcome = result.withLock { $0 }
        #expect(outcome.map { if case .failure(.unusableFile(fifo)) = $0 { true } else { false } } == true)
    }

    @Test("Files over the size limit are refused; at the limit they load")
    func sizeLimit() throws {
        let folder = try Self.folder("size")
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("hebrew.ttf").path
        try FileManager.default.copyItem(atPath: Self.hebrew, toPath: copy)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int)
        let under = try FontCollection(access: FontAccess(paths: .anywhere, maximumFileSize: size - 1))
        #expect(throws: FontError.unusableFile(path: copy)) { try under.face(for: .file(copy)) }
        let at = try FontCollection(access: FontAccess(paths: .anywhere, maximumFileSize: size))
        #expect(try at.face(for: .file(copy)).familyName == "Noto Sans Hebrew")
        // Registered fonts are mapped, not read: the limit is for files named by text styles.
        #expect(try under.face(for: .file(Self.hebrew)).familyName == "Noto Sans Hebrew")
        // The default takes the largest bundled file, the CJK collection.
        let cjk = PackagePaths.font("NotoSansCJK-Regular.ttc")
        let requested = try FontCollection(includeBundled: false)
        #expect(try requested.face(for: .file(cjk, index: 3)).familyName == "Noto Sans CJK TC")
    }

    @Test("Registered folders only: files inside them load; files outside, reached by a link or '..' out of them or into them, do not")
    func registeredFolders() throws {
        let inside = try Self.folder("registered")
        let outside = try Self.folder("outside")
        defer {
            try? FileManager.default.removeItem(at: inside)
            try? FileManager.default.removeItem(at: outside)
        }
        try FileManager.default.createDirectory(at: inside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.hebrew, toPath: inside.appendingPathComponent("sub/hebrew.ttf").path)
        try FileManager.default.copyItem(atPath: Self.hebrew, toPath: outside.appendingPathComponent("hebrew.ttf").path)
        try FileManager.default.createSymbolicLink(
            atPath: outside.appendingPathComponent("in.ttf").path, withDestinationPath: inside.appendingPathComponent("sub/hebrew.ttf").path)
        let fonts = try FontCollection(fontPaths: [inside.path], access: .registeredFolders)
        // A link put in the folder later, to a file outside (links there at the start are the
        // folder's own, and registered).
        try FileManager.default.createSymbolicLink(
            atPath: inside.appendingPathComponent("escape.ttf").path, withDestinationPath: outside.appendingPathComponent("hebrew.ttf").path)
        // Registered at start, and named again by other paths to the same file.
        let registered = try fonts.face(for: .file(inside.appendingPathComponent("sub/hebrew.ttf").path))
        #expect(fonts.faces.contains(registered))
        #expect(try fonts.face(for: .file(inside.path + "/sub/../sub/hebrew.ttf")) === registered)
        // The bundled fonts' folder is registered too.
        #expect(try fonts.face(for: .file(PackagePaths.font("NotoSansThai-Regular.ttf"))).familyName == "Noto Sans Thai")
        // Outside, even by a link into the folder: a path outside is not opened at all.
        for path in [
            outside.appendingPathComponent("hebrew.ttf").path, inside.appendingPathComponent("escape.ttf").path,
            inside.path + "/../" + outside.lastPathComponent + "/hebrew.ttf", "/etc/passwd", "/dev/zero",
            outside.appendingPathComponent("in.ttf").path, inside.path + "/sub/hebrew.ttf\u{0}.png",
        ] {
            #expect(throws: FontError.unusableFile(path: path), "\(path)") { try fonts.face(for: .file(path)) }
        }
        // Anywhere, the same files load.
        let anywhere = try FontCollection(fontPaths: [inside.path])
        #expect(try anywhere.face(for: .file(outside.appendingPathComponent("hebrew.ttf").path)).familyName == "Noto Sans Hebrew")
    }

    @Test("Families only: a path is refused without touching the file; families still measure")
    func familiesOnly() throws {
        let fonts = try FontCollection(access: .familiesOnly)
        for path in [Self.hebrew, "/dev/zero", "/nonexistent.ttf"] {
            #expect(throws: FontError.filesNotAllowed(path: path)) { try fonts.face(for: .file(path)) }
        }
        #expect(try fonts.face(for: .family("Noto Sans Hebrew")).familyName == "Noto Sans Hebrew")
        let fallback = TextStyle(font: .family("Noto Sans"), size: 17, fallbacks: [.file(Self.hebrew)])
        #expect(throws: TextError.font(.filesNotAllowed(path: Self.hebrew))) { try TextEngine(fonts: fonts).measure("x", style: fallback, width: 9) }
    }

    @Test("Thousands of paths to one file load one face; thousands of files stay within the memory bound and are freed")
    func boundedFaces() throws {
        let folder = try Self.folder("many")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fonts = try FontCollection(includeBundled: false)
        var links: [String] = []
        for index in 0..<3000 {
            let link = folder.appendingPathComponent("link\(index).ttf").path
            try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: Self.hebrew)
            links.append(link)
        }
        let first = try fonts.face(for: .file(links[0]))
        let faces = try links.map { try fonts.face(for: .file($0)) }
        #expect(faces.allSatisfy { $0 === first })

        // A thousand distinct files, each measured in turn: faces are freed as they fall out of use.
        final class Weak { weak var face: FontFace? }
        var loaded: [Weak] = []
        for index in 0..<1000 {
            let copy = folder.appendingPathComponent("copy\(index).ttf").path
            try FileManager.default.copyItem(atPath: Self.hebrew, toPath: copy)
            let reference = Weak()
            reference.face = try fonts.face(for: .file(copy))
            loaded.append(reference)
            _ = try Self.measure(fonts, font: copy)
        }
        let alive = loaded.filter { $0.face != nil }.count
        #expect(alive < 700, "\(alive) faces of 1000 files still held")
        #expect(fonts.loadedFontBytes <= fonts.access.maximumLoadedBytes)
    }

    @Test("Font files held past the memory limit refuse the next; let go of, they make room again")
    func memoryLimit() throws {
        let folder = try Self.folder("memory")
        defer { try? FileManager.default.removeItem(at: folder) }
        let size = try #require(try FileManager.default.attributesOfItem(atPath: Self.hebrew)[.size] as? Int)
        let fonts = try FontCollection(includeBundled: false, access: FontAccess(paths: .anywhere, maximumLoadedBytes: 3 * size))
        let copies = try (0..<5).map { index in
            let copy = folder.appendingPathComponent("copy\(index).ttf").path
            try FileManager.default.copyItem(atPath: Self.hebrew, toPath: copy)
            return copy
        }
        var held: [FontFace] = []
        for copy in copies.prefix(3) { held.append(try fonts.face(for: .file(copy))) }
        #expect(fonts.loadedFontBytes == 3 * size)
        // Held here, the three cannot be let go of: a fourth is over the limit.
        #expect(throws: FontError.unusableFile(path: copies[3])) { try fonts.face(for: .file(copies[3])) }
        // One of the three again, by another path to the same file: no more memory.
        #expect(try fonts.face(for: .file(folder.path + "/./copy0.ttf")) === held[0])
        // Let go of here, they go as soon as the collection needs the room.
        held.removeAll()
        for copy in [copies[3], copies[4], copies[1]] {
            #expect(try fonts.face(for: .file(copy)).familyName == "Noto Sans Hebrew")
            #expect(fonts.loadedFontBytes <= 3 * size)
        }
    }
}
