// swift-tools-version: 6.1
// A package that uses Galley as the README says to, built by scripts/test.sh with Galley beside it.

import PackageDescription

let package = Package(
    name: "Feed",
    dependencies: [
        .package(path: "../galley")
    ],
    targets: [
        .executableTarget(
            name: "Feed",
            dependencies: [
                // and in your target's dependencies:
                .product(name: "GalleyLayout", package: "galley"), .product(name: "GalleyText", package: "galley"),
                .product(name: "GalleyTable", package: "galley"), .product(name: "GalleyRender", package: "galley"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
