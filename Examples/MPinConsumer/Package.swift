// swift-tools-version:6.1
//
// A small app-side package that uses the workbench as a dependency: a login service over the
// M-Pin SDK and libcurl, tested against cassettes recorded from the embedded reference backend
// (docs/testing.md, "Cassette tests in your own suite"). `make examples` builds and tests it, with
// and without its trait `Recording`.
import PackageDescription

let package = Package(
    name: "MPinConsumer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MPinConsumer", targets: ["MPinConsumer"])
    ],
    traits: [
        // `swift test --traits Recording`: the tests also link WorkbenchTestingEmbedded, so that a
        // missing cassette is recorded against the reference backend started in the test, and the
        // ReferenceBackend product (ProductsTests). Without it they replay their cassettes and link
        // neither SwiftNIO nor Hummingbird.
        .trait(name: "Recording")
    ],
    dependencies: [
        // A package elsewhere would write .package(url: "<the workbench's repository URL>", from: "0.1.0").
        .package(name: "mpin-workbench", path: "../..")
    ],
    targets: [
        .target(
            name: "MPinConsumer",
            dependencies: [
                .product(name: "MPinSDK", package: "mpin-workbench")
            ]),
        .testTarget(
            name: "MPinConsumerTests",
            dependencies: [
                "MPinConsumer",
                .product(name: "WorkbenchTesting", package: "mpin-workbench"),
                .product(
                    name: "WorkbenchTestingEmbedded", package: "mpin-workbench", condition: .when(traits: ["Recording"])
                ),
                // The other products, so that every one is built and used as a dependency (ProductsTests).
                .product(name: "MPinCrypto", package: "mpin-workbench"),
                .product(name: "FlowRecording", package: "mpin-workbench"),
                .product(name: "Scenarios", package: "mpin-workbench"),
                .product(name: "DeviceSecurity", package: "mpin-workbench"),
                .product(name: "ReferenceBackend", package: "mpin-workbench", condition: .when(traits: ["Recording"])),
                .product(name: "TestVectors", package: "mpin-workbench"),
                .product(name: "OrderedJSON", package: "mpin-workbench"),
            ], exclude: ["__Cassettes__"]),
    ],
    swiftLanguageModes: [.v6]
)
