// swift-tools-version:6.1
//
// Coverage-guided fuzz targets for the workbench's parsers and decoders (`make fuzz`; docs/security.md,
// "Fuzzing"). A package of its own so that `make test` never builds it: its targets are built
// with `-sanitize=fuzzer,address` into their own scratch folder and link libFuzzer, which brings
// the program's `main`. Each target reaches the libraries' internals with `@testable import`
// (`-enable-testing`).
import PackageDescription

/// A fuzz target: `Targets/<name>/main.swift` hands its `LLVMFuzzerTestOneInput` to libFuzzer's driver.
func fuzzTarget(_ name: String, _ dependencies: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + dependencies, path: "Targets/\(name)")
}

func workbench(_ library: String) -> Target.Dependency {
    .product(name: library, package: "mpin-workbench")
}

let package = Package(
    name: "mpin-workbench-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "mpin-workbench", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
    ],
    targets: [
        // libFuzzer's driver entry (`LLVMFuzzerRunDriver`), called from each target's main.swift.
        .target(name: "CFuzzDriver", path: "Support/CFuzzDriver"),
        // What the targets share: input splitting, running async code to the end, the repository's paths.
        .target(name: "FuzzSupport", dependencies: ["CFuzzDriver"], path: "Support/FuzzSupport"),

        fuzzTarget("FuzzOrderedJSON", [workbench("OrderedJSON")]),
        fuzzTarget(
            "FuzzCassette", [workbench("FlowRecording"), workbench("MilagroRecording"), workbench("OrderedJSON")]),
        fuzzTarget("FuzzScenarioScript", [workbench("Scenarios"), workbench("LegacyImport")]),
        fuzzTarget("FuzzAMCLVectors", [workbench("TestVectors"), workbench("MPinCrypto")]),
        fuzzTarget("FuzzSuiteVectors", [workbench("TestVectors"), workbench("MPinCrypto")]),
        fuzzTarget(
            "FuzzLegacyImport",
            [workbench("FlowRecording"), workbench("LegacyImport"), workbench("Scenarios"), workbench("OrderedJSON")]),
        fuzzTarget("FuzzCrypto", [workbench("MPinCrypto")]),
        fuzzTarget("FuzzSDKResponses", [workbench("MPinSDK"), workbench("MPinCrypto")]),
        fuzzTarget("FuzzSDKStorage", [workbench("MPinSDK"), workbench("OrderedJSON")]),
        // The servers' plumbing (HTTPServing, whose `ServerAnswer` the target reads) comes with the
        // ReferenceBackend product, which is built on it.
        fuzzTarget(
            "FuzzBackend",
            [
                workbench("ReferenceBackend"), workbench("MPinCrypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
