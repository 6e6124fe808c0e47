// swift-tools-version: 6.1
// Galley's libFuzzer targets: a package of its own, built with `-sanitize=fuzzer,address` by
// Fuzz/run.sh (see Fuzz/README.md), never by users of the library.

import PackageDescription

// Each target links only the libraries it fuzzes: linking is much of a sanitized build's time.
func galley(_ libraries: String...) -> [Target.Dependency] {
    ["FuzzDriver"] + libraries.map { .product(name: $0, package: "Galley") }
}

let package = Package(
    name: "GalleyFuzz",
    dependencies: [.package(name: "Galley", path: "../")],
    targets: [
        // Starts libFuzzer from a target's main, and what the targets share.
        .target(name: "FuzzDriver"),
        // The JSON parser: parse, and write then parse back the same value.
        .executableTarget(name: "FuzzJSON", dependencies: galley("GalleyJSON")),
        // A `galley measure` request end to end: decode, measure, encode.
        .executableTarget(name: "FuzzMeasureRequest", dependencies: galley("GalleyCommands", "GalleyJSON", "GalleyText")),
        // A templates file end to end: compile, measure an item, arrange.
        .executableTarget(name: "FuzzTemplates", dependencies: galley("GalleyJSON", "GalleyLayout", "GalleyText")),
        // A font file: load it by path, measure and lay out text in it.
        .executableTarget(name: "FuzzFonts", dependencies: galley("GalleyText")),
        // The input readers (JSON Lines, JSON arrays, CSV, TSV, XML, property lists) and HTML reduction.
        .executableTarget(name: "FuzzInputs", dependencies: galley("GalleyCommands", "GalleyJSON")),
        // A PNG file: decoded with libpng within bounds, drawn, written again, read from a folder
        // (the drawing library's internals reached with @testable in this debug build).
        .executableTarget(name: "FuzzImages", dependencies: galley("GalleyRender", "GalleyLayout")),
    ],
    swiftLanguageModes: [.v6]
)
