// swift-tools-version: 6.1
// Galley's benchmark suite: a package of its own, so that users of the library never build it.

import PackageDescription

let package = Package(
    name: "GalleyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Galley", path: "../"),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // Sample texts and items shared by the benchmarks, and the Pango peer's Swift face.
        .target(
            name: "BenchmarkFixtures",
            dependencies: [
                .product(name: "GalleyText", package: "Galley"),
                .product(name: "GalleyLayout", package: "Galley"),
                .product(name: "_PangoComparison", package: "Galley"),
                .product(name: "GalleyJSON", package: "Galley"),
            ]),
        .executableTarget(
            name: "GalleyTextBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "GalleyText", package: "Galley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GalleyTextBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "GalleyLayoutBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "GalleyLayout", package: "Galley"),
                .product(name: "GalleyText", package: "Galley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GalleyLayoutBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "GalleyJSONBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "GalleyJSON", package: "Galley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GalleyJSONBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "GalleyTableBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "GalleyTable", package: "Galley"),
                .product(name: "GalleyLayout", package: "Galley"),
                .product(name: "GalleyText", package: "Galley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GalleyTableBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        .executableTarget(
            name: "GalleyRenderBenchmarks",
            dependencies: [
                "BenchmarkFixtures",
                .product(name: "GalleyRender", package: "Galley"),
                .product(name: "GalleyLayout", package: "Galley"),
                .product(name: "GalleyText", package: "Galley"),
                .product(name: "GalleyJSON", package: "Galley"),
                .product(name: "_PangoComparison", package: "Galley"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/GalleyRenderBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // Runs one hot path in a loop, for valgrind's callgrind and other profilers.
        .executableTarget(
            name: "Profile",
            dependencies: [
                "BenchmarkFixtures", .product(name: "GalleyText", package: "Galley"), .product(name: "GalleyTable", package: "Galley"),
                .product(name: "GalleyLayout", package: "Galley"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
