// Font collections: the bundled set, caller fonts, system fonts through fontconfig, lookups.

import Foundation
import GalleyTestSupport
import GalleyText
import Testing

@Suite("Font collection")
struct FontCollectionTests {
    @Test("The bundled collection holds the manifest's faces, in its order")
    func bundled() throws {
        let fonts = try FontCollection.bundled()
        #expect(
            fonts.faces.map { "\(($0.path as NSString).lastPathComponent)#\($0.faceIndex)" }
                == BundledFonts.manifest.map { "\($0.file)#\($0.index)" })
        #expect(fonts === (try FontCollection.bundled()))
    }

    @Test("Families match by weight and slant, closest first")
    func matching() throws {
        let fonts = try FontCollection.bundled()
        #expect(try fonts.face(for: .family("noto sans", weight: 700)).styleName == "Bold")
        #expect(try fonts.face(for: .family("Noto Sans", weight: 600, italic: true)).styleName == "Bold Italic")
        #expect(try fonts.face(for: .family("Noto Sans", weight: 300)).styleName == "Regular")
        #expect(try fonts.face(for: .family("Noto Sans Thai", italic: true)).styleName == "Regular")
        #expect(throws: FontError.unknownFamily("Helvetica")) { try fonts.face(for: .family("Helvetica")) }
    }

    @Test("A caller's folder is loaded besides, or instead of, the bundled fonts")
    func callerFonts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("galley-fonts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(atPath: PackagePaths.font("NotoSansHebrew-Bold.ttf"), toPath: directory.appendingPathComponent("a.ttf").path)
        try Data("not a font".utf8).write(to: directory.appendingPathComponent("readme.txt"))
        let only = try FontCollection(includeBundled: false, fontPaths: [directory.path])
        #expect(only.faces.map(\.familyName) == ["Noto Sans Hebrew"])
        let both = try FontCollection(fontPaths: [directory.path])
        #expect(both.faces.count == BundledFonts.manifest.count + 1)
        #expect(throws: FontError.unreadableFile(path: "/no/such/font.ttf")) {
            try FontCollection(includeBundled: false, fontPaths: ["/no/such/font.ttf"])
        }
        #expect(throws: FontError.self) {
            try FontCollection(includeBundled: false, fontPaths: [directory.appendingPathComponent("readme.txt").path])
        }
    }

    @Test("System fonts are the faces fontconfig lists")
    func systemFonts() throws {
        let system = try FontCollection(includeBundled: false, includeSystemFonts: true)
        let paths = system.faces.map(\.path)
        #expect(paths == paths.sorted())
        for face in system.faces { #expect(FileManager.default.isReadableFile(atPath: face.path)) }
        // fc-list, when installed, is an independent view of the same configuration.
        let fcList = ["/usr/bin/fc-list", "/bin/fc-list"].first { FileManager.default.isExecutableFile(atPath: $0) }
        if let fcList {
            // Through popen, not Foundation's Process (which keeps objects of every process it ran).
            let pipe = try #require(popen("\(fcList) --format '%{file}\\n'", "r"))
            var listedBytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&buffer, 1, buffer.count, pipe)
                if count == 0 { break }
                listedBytes += buffer[..<count]
            }
            #expect(pclose(pipe) == 0)
            let listed = String(decoding: listedBytes, as: UTF8.self)
            let expected = Set(listed.split(separator: "\n").map(String.init))
            #expect(Set(paths).isSubset(of: expected))
            // All that Galley leaves out are fonts without OpenType tables (Type 1, PCF, BDF).
            let sfnt: Set<String> = ["ttf", "otf", "ttc", "otc"]
            #expect(expected.subtracting(paths).allSatisfy { !sfnt.contains(($0 as NSString).pathExtension.lowercased()) })
        }
    }
}
