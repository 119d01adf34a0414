// swift-tools-version:6.1
//
// MPin Workbench: record, replay and vector tooling for the Milagro (M-Pin) MFA protocol.
// Layers depend only downward; see README.md ("Architecture").
import PackageDescription

// The crypto core uses wrapping operators throughout; release builds also drop the remaining
// runtime checks (array bounds in table lookups) from its hot loops.
let optimise: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]

let package = Package(
    name: "mpin-workbench",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "MPinCrypto", targets: ["MPinCrypto"]),
        // The libraries the fuzz package (Fuzz/) links against.
        .library(name: "OrderedJSON", targets: ["OrderedJSON"]),
        .library(name: "SDKSeams", targets: ["SDKSeams"]),
        .library(name: "MPinSDK", targets: ["MPinSDK"]),
        .library(name: "FlowRecording", targets: ["FlowRecording"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        .library(name: "TestVectors", targets: ["TestVectors"]),
        .library(name: "ReferenceBackend", targets: ["ReferenceBackend"]),
        .executable(name: "mpin-workbench", targets: ["mpin-workbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // Pairing crypto core: pure Swift, no Foundation, no dependencies.
        .target(name: "MPinCrypto", swiftSettings: optimise),
        // JSON that keeps member order and number literals: value, strict parser, canonical writer; pure Swift.
        .target(name: "OrderedJSON"),
        // Files written atomically through one helper, and inputs read bounded (pipes too); no dependencies.
        .target(name: "FileAccess"),
        // libgmp, an independent oracle for the field and curve arithmetic.
        .systemLibrary(name: "CGMP", pkgConfig: nil, providers: [.apt(["libgmp-dev"])]),
        .target(name: "GMPOracle", dependencies: ["CGMP"]),
        // Known-answer vectors: readers for AMCL's formats, checks and verdicts.
        .target(name: "TestVectors", dependencies: ["MPinCrypto", "GMPOracle", "OrderedJSON", "FileAccess"]),
        // The command line, thin over the libraries.
        .target(name: "WorkbenchCLI", dependencies: [
            "MPinCrypto", "OrderedJSON", "TestVectors", "FlowRecording", "ReferenceBackend", "Scenarios", "CurlTransport", "MPinSDK", "FileAccess",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "mpin-workbench", dependencies: ["WorkbenchCLI"]),
        // M-Pin client SDK: seams (HTTP, randomness, clock), the SDK actor, libcurl transport.
        .target(name: "SDKSeams"),
        .target(name: "MPinSDK", dependencies: ["MPinCrypto", "SDKSeams", "OrderedJSON", "FileAccess"]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CurlTransport", dependencies: ["CCurl", "SDKSeams"]),
        // Cassettes, recorder, replayer and cassette tools: knows HTTP, randomness, clocks, not M-Pin.
        .target(name: "FlowRecording", dependencies: ["SDKSeams", "OrderedJSON", "FileAccess"]),
        // Reference Milagro backend (RPS, two D-TAs, demo RPA, MFA-platform endpoints) on Hummingbird.
        .target(name: "ReferenceBackend", dependencies: [
            "MPinCrypto",
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),

        // Scenario scripts (YAML/JSON) and the runner that runs, records and replays them through the SDK.
        .target(name: "Scenarios", dependencies: [
            "MPinSDK", "FlowRecording", "OrderedJSON", "SDKSeams", "DeviceSecurity", "FileAccess", .product(name: "Yams", package: "Yams"),
        ]),
        // The MVID DeviceSecurity connector: device registration, application login, offline borrow time.
        .target(name: "DeviceSecurity", dependencies: ["SDKSeams", "OrderedJSON", "FileAccess"]),
        // The constant-time check (make ct-check): memcheck's client requests, and the executable
        // that runs the M-Pin functions with their secrets marked undefined. Not a product.
        .target(name: "CValgrindShim"),
        .executableTarget(name: "mpin-ct-check", dependencies: ["MPinCrypto", "CValgrindShim"]),

        .testTarget(name: "MPinCryptoTests", dependencies: ["MPinCrypto"]),
        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess"]),
        .testTarget(name: "GMPOracleTests", dependencies: ["GMPOracle", "MPinCrypto"]),
        .testTarget(name: "TestVectorsTests", dependencies: ["TestVectors", "MPinCrypto", "OrderedJSON"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "SDKSeamsTests", dependencies: ["SDKSeams"]),
        .testTarget(name: "MPinSDKTests", dependencies: ["MPinSDK", "MPinCrypto", "OrderedJSON"]),
        .testTarget(name: "CurlTransportTests", dependencies: ["CurlTransport", "SDKSeams", "MPinSDK"]),
        .testTarget(name: "ReferenceBackendTests", dependencies: [
            "ReferenceBackend", "MPinCrypto", "MPinSDK", "SDKSeams", "CurlTransport",
        ]),
        .testTarget(name: "FlowRecordingTests", dependencies: ["FlowRecording", "OrderedJSON", "SDKSeams"]),
        .testTarget(name: "DeviceSecurityTests", dependencies: ["DeviceSecurity", "SDKSeams", "CurlTransport"]),
        .testTarget(name: "ScenariosTests", dependencies: [
            "Scenarios", "FlowRecording", "OrderedJSON", "MPinSDK", "SDKSeams", "ReferenceBackend", "CurlTransport",
        ], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
