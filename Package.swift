// swift-tools-version: 6.1
// Galley: text measurement and row layout on HarfBuzz, FreeType and ICU.

import PackageDescription

let package = Package(
    name: "Galley",
    products: [
        .library(name: "GalleyText", targets: ["GalleyText"]),
        .library(name: "GalleyJSON", targets: ["GalleyJSON"]),
        .library(name: "GalleyLayout", targets: ["GalleyLayout"]),
        .library(name: "GalleyTable", targets: ["GalleyTable"]),
        .library(name: "GalleyRender", targets: ["GalleyRender"]),
        // The commands' work on one input line, for services that run it themselves (and Fuzz/).
        .library(name: "GalleyCommands", targets: ["GalleyCommands"]),
        .executable(name: "galley", targets: ["GalleyCLI"]),
        // Pango with the same fonts, for the benchmark suite's side-by-side runs: a product only
        // because Benchmarks/ is a package of its own; the underscore marks it as no API for users.
        .library(name: "_PangoComparison", targets: ["PangoComparison"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // SQLite output (on the system's libsqlite3): the maintained Swift library, with cached
        // statements, WAL and a pool of readers for resuming.
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // `swift package generate-documentation` for the DocC catalogs (a plugin: nothing is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // MARK: - C libraries, found with pkg-config

        .systemLibrary(
            name: "CFreeType", pkgConfig: "freetype2",
            providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CICU", pkgConfig: "icu-uc",
            providers: [.apt(["libicu-dev"])]),
        .systemLibrary(
            name: "CFontconfig", pkgConfig: "fontconfig",
            providers: [.apt(["libfontconfig-dev"])]),
        .systemLibrary(
            name: "CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CLibPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        // The engine's C code: forwarders for ICU's version-suffixed entry points.
        .target(name: "CGalleyShims", dependencies: ["CICU"]),
        // libpng called within bounds, in C because libpng reports errors with longjmp.
        .target(name: "CGalleyPNG", dependencies: ["CLibPNG"]),

        // MARK: - Libraries

        // The lock shared state is kept behind (a pthread mutex, which ThreadSanitizer sees).
        .target(name: "GalleyLocks"),
        .target(
            name: "GalleyText",
            dependencies: ["CFreeType", "CHarfBuzz", "CGalleyShims", "CFontconfig", "GalleyLocks"]),
        // JSON values, a strict parser with located errors, and a deterministic writer.
        .target(name: "GalleyJSON"),
        // Cell templates, stylesheets and the two-pass measure → arrange API.
        .target(name: "GalleyLayout", dependencies: ["GalleyText", "GalleyJSON"]),
        // The table model: sections of rows, heights measured on demand and kept, offsets in O(log n).
        .target(name: "GalleyTable", dependencies: ["GalleyLayout", "GalleyText", "GalleyJSON", "GalleyLocks"]),
        // Drawing arranged rows with cairo, from the glyph runs and frames measuring found.
        .target(name: "GalleyRender", dependencies: ["GalleyLayout", "GalleyText", "GalleyLocks", "CCairo", "CFreeType", "CGalleyPNG"]),

        // MARK: - The `galley` command

        // Its subcommands, a library so that the tests link them without the executable's allocator.
        .target(
            name: "GalleyCommands",
            dependencies: [
                "GalleyText",
                "GalleyJSON",
                "GalleyLayout",
                "GalleyLocks",
                "GalleyRender",
                "CLibXML2",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ]),
        .executableTarget(
            name: "GalleyCLI",
            dependencies: ["GalleyCommands"],
            // jemalloc (Debian's libjemalloc-dev) in place of glibc's malloc: a row allocates
            // and frees about forty blocks, and batches ran about 8% faster on it (200,000 rows
            // on two workers: 2.59 s against 2.83 s, eight runs each in ABBA order). The
            // libraries leave the allocator to the program that links them, and the test
            // binary has none of it: the sanitizers bring allocators of their own.
            linkerSettings: [.linkedLibrary("jemalloc")]),

        // MARK: - Tests

        // Pango (pangoft2), the reference the differential tests and benchmarks compare against.
        // It is loaded with dlopen at run time, so building never needs Pango's headers.
        .target(name: "PangoReference", linkerSettings: [.linkedLibrary("dl")]),
        // Its Swift face, shared by the differential tests and the benchmarks.
        .target(name: "PangoComparison", dependencies: ["PangoReference", "GalleyText", "GalleyLocks"]),
        // What every test target would otherwise write again: the package's paths, temporary
        // folders, one engine over the bundled fonts, and the `galley` executable's runner.
        .target(name: "GalleyTestSupport", dependencies: ["GalleyText"], path: "Tests/GalleyTestSupport"),
        .testTarget(
            name: "GalleyTextTests",
            dependencies: ["GalleyText", "PangoComparison", "CHarfBuzz", "CGalleyShims", "GalleyLocks", "GalleyTestSupport"],
            exclude: ["Fixtures"]),
        .testTarget(
            name: "GalleyLayoutTests",
            dependencies: ["GalleyLayout", "GalleyText", "GalleyJSON", "GalleyLocks", "GalleyTable", "GalleyTestSupport"]),
        .testTarget(
            name: "GalleyTableTests",
            dependencies: ["GalleyTable", "GalleyLayout", "GalleyText", "GalleyJSON", "GalleyLocks", "GalleyCommands", "GalleyTestSupport"]),
        .testTarget(
            name: "GalleyRenderTests",
            dependencies: [
                "GalleyRender", "GalleyLayout", "GalleyLocks", "GalleyText", "GalleyJSON", "CFreeType", "CCairo", "PangoComparison", "GalleyTestSupport",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "GalleyJSONTests",
            dependencies: ["GalleyJSON"]),
        .testTarget(
            name: "GalleyCLITests",
            dependencies: ["GalleyCommands", "CCairo", "CLibXML2", "GalleyTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
