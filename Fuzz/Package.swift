// swift-tools-version: 6.1
// Galley's libFuzzer targets: a package of its own, built with `-sanitize=fuzzer,address` by
// Fuzz/run.sh (see Fuzz/README.md), never by users of the library.

import PackageDescription

let galley: [Target.Dependency] = [
    "FuzzDriver",
    .product(name: "GalleyJSON", package: "Galley"),
    .product(name: "GalleyText", package: "Galley"),
    .product(name: "GalleyLayout", package: "Galley"),
    .product(name: "GalleyCommands", package: "Galley"),
]

let package = Package(
    name: "GalleyFuzz",
    dependencies: [.package(name: "Galley", path: "../")],
    targets: [
        // Starts libFuzzer from a target's main, and what the targets share.
        .target(name: "FuzzDriver"),
        // The JSON parser: parse, and write then parse back the same value.
        .executableTarget(name: "FuzzJSON", dependencies: galley),
        // A `galley measure` request end to end: decode, measure, encode.
        .executableTarget(name: "FuzzMeasureRequest", dependencies: galley),
        // A templates file end to end: compile, measure an item, arrange.
        .executableTarget(name: "FuzzTemplates", dependencies: galley),
        // A font file: load it by path, measure and lay out text in it.
        .executableTarget(name: "FuzzFonts", dependencies: galley),
        // The input readers (JSON Lines, JSON arrays, CSV, TSV, XML, property lists) and HTML reduction.
        .executableTarget(name: "FuzzInputs", dependencies: galley),
        // A PNG file: decoded with libpng within bounds, drawn, written again, read from a folder.
        // Only the drawing library is linked (its internals reached with @testable in this debug build).
        .executableTarget(
            name: "FuzzImages",
            dependencies: [
                "FuzzDriver", .product(name: "GalleyRender", package: "Galley"), .product(name: "GalleyLayout", package: "Galley"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
