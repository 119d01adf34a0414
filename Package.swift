// swift-tools-version:6.1
//
// MPin Workbench: record, replay and vector tooling for the Milagro (M-Pin) MFA protocol.
// Layers depend only downward; see README.md ("Architecture").
import PackageDescription

let package = Package(
    name: "mpin-workbench",
    platforms: [.macOS(.v15)],
    products: [
        // What a user of the package imports (README, "Using the package from your own package"):
        // the client SDK with its libcurl transport,
        .library(name: "MPinSDK", targets: ["MPinSDK", "SDKSeams", "CurlTransport"]),
        // cassettes, recording and replay, and scenario scripts,
        .library(name: "FlowRecording", targets: ["FlowRecording"]),
        .library(name: "Scenarios", targets: ["Scenarios"]),
        // the M-Pin binding of recording and replay (observer, redaction names, audit, seeded seams),
        // and the importer of another harness's recordings,
        .library(name: "MilagroRecording", targets: ["MilagroRecording"]),
        .library(name: "LegacyImport", targets: ["LegacyImport"]),
        // the pairing crypto core,
        .library(name: "MPinCrypto", targets: ["MPinCrypto"]),
        // the MVID DeviceSecurity connector,
        .library(name: "DeviceSecurity", targets: ["DeviceSecurity"]),
        // the reference backend, to start inside a test,
        .library(name: "ReferenceBackend", targets: ["ReferenceBackend"]),
        // the conformance suite that grades any M-Pin backend over HTTP (`mpin-workbench conform`),
        .library(name: "Conformance", targets: ["Conformance"]),
        // a cassette test trait (Swift Testing) and helper (XCTest), which replay with neither
        // SwiftNIO nor Hummingbird, and what records their cassettes against the embedded
        // reference backend (it links the backend),
        .library(name: "WorkbenchTesting", targets: ["WorkbenchTesting"]),
        .library(name: "WorkbenchTestingEmbedded", targets: ["WorkbenchTestingEmbedded"]),
        // the vector readers, checkers and generator, and the JSON that keeps member order (the
        // fuzz package, Fuzz/, links these too).
        .library(name: "TestVectors", targets: ["TestVectors"]),
        .library(name: "OrderedJSON", targets: ["OrderedJSON"]),
        .executable(name: "mpin-workbench", targets: ["mpin-workbench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // No traits: the default two (ConfigurationSupport, FullFoundation) compile swift-configuration,
        // which nothing here uses, and SwiftPM passes their two -D flags in a different order from
        // one run to the next, which compiled Hummingbird and HummingbirdCore again on every build.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // `make docs`: the DocC catalogs of MPinSDK, FlowRecording, WorkbenchTesting and Conformance (a
        // command plugin; nothing links it).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // `serve --bench`: latency percentiles.
        .package(url: "https://github.com/HdrHistogram/hdrhistogram-swift", from: "0.2.0"),
    ],
    targets: [
        // Pairing crypto core: Swift, no Foundation. No unsafe flags (a package used as a dependency
        // may not have them): its speed comes from the code (wrapping operators, fixed tuples,
        // specialised generics) and, on x86-64 processors with BMI2 and ADX, from CFieldKernel.
        .target(name: "MPinCrypto", dependencies: ["CFieldKernel"]),
        // The x86-64 Montgomery kernel (MULX/ADCX/ADOX inline assembly, static inline so that Swift
        // inlines it), chosen at load time; MPinCrypto keeps its portable Swift path beside it.
        .target(name: "CFieldKernel"),
        // JSON that keeps member order and number literals: value, strict parser, canonical writer; pure Swift.
        .target(name: "OrderedJSON"),
        // Files written atomically through one helper, and inputs read bounded (pipes too); no dependencies.
        .target(name: "FileAccess"),
        // The text formats every layer above reads and writes: civil dates and times, URLs split
        // without decoding, query strings, hex, header whitespace, cookies; no dependencies.
        .target(name: "CommonFormats"),
        // libgmp, an independent oracle for the field and curve arithmetic.
        .systemLibrary(name: "CGMP", pkgConfig: nil, providers: [.apt(["libgmp-dev"])]),
        .target(name: "GMPOracle", dependencies: ["CGMP"]),
        // libjansson, an independent oracle for OrderedJSON's parser: the differential tests, which also
        // hold `cassette lint --portable`'s rules to what jansson reads.
        .systemLibrary(name: "CJansson", pkgConfig: "jansson", providers: [.apt(["libjansson-dev"])]),
        .target(name: "JSONOracle", dependencies: ["CJansson"]),
        // Known-answer vectors: readers for AMCL's formats, checks and verdicts.
        .target(name: "TestVectors", dependencies: ["MPinCrypto", "GMPOracle", "OrderedJSON", "FileAccess"]),
        // The command line, thin over the libraries.
        .target(name: "WorkbenchCLI", dependencies: [
            "MPinCrypto", "OrderedJSON", "TestVectors", "FlowRecording", "ReferenceBackend", "Scenarios", "CurlTransport", "MPinSDK",
            "SDKSeams", "FileAccess", "ProtocolChecks", "MilagroRecording", "LegacyImport", "EmbeddedBackend", "CommonFormats",
            "Conformance", "HTTPServing", "MilagroProtocol", "ProxyServing", "Benchmarks", "ClientConformance",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "ProxyServing", dependencies: [
            "FlowRecording", "HTTPServing", "CurlTransport", "ProtocolChecks", "Scenarios", "CommonFormats", "MilagroProtocol",
            .product(name: "Logging", package: "swift-log"),
        ]),
        .target(name: "Benchmarks", dependencies: [
            "MPinCrypto", "MPinSDK", "ReferenceBackend", "CurlTransport", "SDKSeams", "MilagroRecording", "MilagroProtocol",
            .product(name: "Histogram", package: "hdrhistogram-swift"),
        ]),
        .executableTarget(name: "mpin-workbench", dependencies: ["WorkbenchCLI"]),
        // M-Pin's protocol knowledge, in one place: endpoint paths, client-settings keys and layouts
        // per profile, the cSum rule, the status codes of PROTOCOL §4, the parties, the flavours.
        .target(name: "MilagroProtocol", dependencies: ["OrderedJSON"]),
        // M-Pin client SDK: seams (HTTP, randomness, clock), the SDK actor, libcurl transport.
        .target(name: "SDKSeams", dependencies: ["CommonFormats"]),
        .target(name: "MPinSDK", dependencies: ["MPinCrypto", "SDKSeams", "OrderedJSON", "FileAccess", "MilagroProtocol", "CommonFormats"]),
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "CurlTransport", dependencies: ["CCurl", "SDKSeams", "CommonFormats"]),
        // Cassettes, recorder, replayer and cassette tools: knows HTTP, randomness, clocks, not M-Pin.
        .target(name: "FlowRecording", dependencies: ["SDKSeams", "OrderedJSON", "FileAccess", "CommonFormats"]),
        // M-Pin checks of HTTP exchanges (statuses, hex, points, access numbers, permit dates, flow order): `proxy`.
        .target(name: "ProtocolChecks", dependencies: ["MPinCrypto", "OrderedJSON", "FlowRecording", "SDKSeams", "CommonFormats", "MilagroProtocol"]),
        // The servers' plumbing: HummingbirdCore's HTTP/1.1 server with the workbench's connection
        // handler (whole requests, 100-continue, body deadlines, idle closes, the request log), and
        // `PlainHTTPServer`, one closure per request: what the reference backend, `proxy` and
        // `cassette serve` run on. Knows HTTP, not M-Pin.
        .target(name: "HTTPServing", dependencies: [
            "CommonFormats", "SDKSeams",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "HummingbirdCore", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),
        // Reference Milagro backend (RPS, two D-TAs, demo RPA, MFA-platform endpoints) on HTTPServing.
        .target(name: "ReferenceBackend", dependencies: [
            "MPinCrypto", "OrderedJSON", "CommonFormats", "MilagroProtocol", "HTTPServing", "SDKSeams",
            .product(name: "Hummingbird", package: "hummingbird"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        ]),

        // The M-Pin binding of recording and replay: the SDK observer that writes a cassette's events,
        // the redaction names and stand-ins, the audit of what a cassette gives away, the diagram's
        // participants, the seeded randomness and frozen clock, and the workbench's name and version.
        .target(name: "MilagroRecording", dependencies: [
            "MPinSDK", "MPinCrypto", "FlowRecording", "OrderedJSON", "SDKSeams", "CommonFormats", "MilagroProtocol",
        ]),
        // The server conformance suite (`conform`): cases graded over HTTP against any backend, each
        // recorded as a cassette, and the report's writers. Not on ReferenceBackend.
        .target(name: "Conformance", dependencies: [
            "SDKSeams", "MPinSDK", "MPinCrypto", "MilagroProtocol", "FlowRecording", "OrderedJSON", "FileAccess", "CommonFormats",
        ]),
        // The client conformance suite (`conform --client`): drivers for the client under test (the
        // SDK's own, or a command by the driver contract), the reference backend with a fault per
        // case, the cases and their grading, on the backend suite's verdicts and reports.
        .target(name: "ClientConformance", dependencies: [
            "Conformance", "ReferenceBackend", "MPinSDK", "MPinCrypto", "CurlTransport", "SDKSeams", "FlowRecording",
            "MilagroProtocol", "MilagroRecording", "OrderedJSON", "FileAccess",
            .product(name: "Logging", package: "swift-log"),
        ]),
        // Scenario scripts (YAML/JSON, read on libyaml) and the runner that runs, records and replays them
        // through the SDK.
        .target(name: "Scenarios", dependencies: [
            "MPinSDK", "MPinCrypto", "FlowRecording", "MilagroRecording", "OrderedJSON", "SDKSeams", "DeviceSecurity",
            "FileAccess", "CLibYAML", "MilagroProtocol", "CommonFormats",
        ]),
        // Recordings of another harness (the Milagro SDK core's) turned into cassettes, one per test.
        .target(name: "LegacyImport", dependencies: [
            "Scenarios", "MilagroRecording", "FlowRecording", "OrderedJSON", "SDKSeams", "FileAccess", "CommonFormats", "MilagroProtocol",
        ]),
        // The reference backend started in-process on a free loopback port, reached through libcurl:
        // what `record`, `run` and the testing trait's embedded mode use. Only the CLI and
        // WorkbenchTestingEmbedded link it.
        .target(name: "EmbeddedBackend", dependencies: [
            "MilagroRecording", "ReferenceBackend", "CurlTransport", "SDKSeams", "MPinSDK", "FlowRecording", "CommonFormats",
        ]),
        // libyaml's event parser (Debian's libyaml-dev): the package's one YAML reader, which measures a
        // script (YAMLShape) and composes it (YAMLReader). Yams, which compiles its own libyaml, is not used.
        .systemLibrary(name: "CLibYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        // Cassette tests in a user's own test suite: a Swift Testing trait and an XCTest helper that
        // replay a cassette next to the test file, or record it against a backend. No server in it:
        // recording against the embedded backend starts it through WorkbenchTestingEmbedded.
        .target(name: "WorkbenchTesting", dependencies: [
            "Scenarios", "MilagroRecording", "FlowRecording", "MPinSDK", "SDKSeams", "CurlTransport", "FileAccess", "MilagroProtocol",
        ]),
        // The embedded reference backend for WorkbenchTesting's recordings, found by WorkbenchTesting
        // when the test target links it; `CassetteBackend.embedded(_:startTime:)` with a configuration.
        .target(name: "WorkbenchTestingEmbedded", dependencies: [
            "WorkbenchTesting", "EmbeddedBackend", "ReferenceBackend", "Scenarios",
        ]),
        // The MVID DeviceSecurity connector: device registration, application login, offline borrow time.
        .target(name: "DeviceSecurity", dependencies: ["SDKSeams", "OrderedJSON", "FileAccess", "CommonFormats"]),
        // The constant-time check (make ct-check): memcheck's client requests, and the executable
        // that runs the M-Pin functions with their secrets marked undefined. Not a product.
        .target(name: "CValgrindShim"),
        .executableTarget(name: "mpin-ct-check", dependencies: ["MPinCrypto", "CValgrindShim"]),
        // The instruction counts of `make bench` (Scripts/instruction_counts.py): the pairing, its
        // two halves, the GT power and the scalar multiplications under callgrind, between its
        // client requests (CValgrindShim). Not a product.
        .executableTarget(name: "mpin-instruction-count", dependencies: ["MPinCrypto", "CFieldKernel", "CValgrindShim"]),
        // The peer server of `Scripts/http_floor.py --peer`: a bare SwiftNIO HTTP/1.1 server, the
        // least a server on NIO's HTTP/1.1 codec spends per request. Not a product.
        .executableTarget(name: "nio-peer", dependencies: [
            "CommonFormats",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
        ]),

        // Helpers the test targets share: the seeded generator, repository paths, scratch folders,
        // fixed seams and a raw TCP connection to a server under test. Not a product.
        .target(name: "TestSupport", dependencies: ["SDKSeams", "MPinCrypto", "CommonFormats"], path: "Tests/TestSupport"),
        .testTarget(name: "MPinCryptoTests", dependencies: ["MPinCrypto", "CFieldKernel", "TestSupport"]),
        .testTarget(name: "OrderedJSONTests", dependencies: ["OrderedJSON"]),
        .testTarget(name: "MilagroProtocolTests", dependencies: ["MilagroProtocol", "OrderedJSON"]),
        .testTarget(name: "FileAccessTests", dependencies: ["FileAccess"]),
        .testTarget(name: "GMPOracleTests", dependencies: ["GMPOracle", "MPinCrypto", "TestSupport"]),
        .testTarget(name: "JSONOracleTests", dependencies: ["JSONOracle", "OrderedJSON", "FlowRecording", "MPinCrypto", "TestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "TestVectorsTests", dependencies: ["TestVectors", "MPinCrypto", "OrderedJSON", "GMPOracle", "FileAccess", "TestSupport"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "SDKSeamsTests", dependencies: ["SDKSeams"]),
        .testTarget(name: "CommonFormatsTests", dependencies: ["CommonFormats"]),
        .testTarget(name: "MPinSDKTests", dependencies: ["MPinSDK", "MPinCrypto", "OrderedJSON", "TestSupport"]),
        .testTarget(name: "CurlTransportTests", dependencies: ["CurlTransport", "SDKSeams", "MPinSDK", "CommonFormats"]),
        .testTarget(name: "HTTPServingTests", dependencies: [
            "HTTPServing", "CurlTransport", "SDKSeams", "TestSupport",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "ReferenceBackendTests", dependencies: [
            "ReferenceBackend", "HTTPServing", "TestSupport", "MPinCrypto", "MPinSDK", "SDKSeams", "CurlTransport", "OrderedJSON", "CommonFormats", "MilagroProtocol",
            // The endpoint table's agreement test: the router and the flow checker serve and know every path.
            "ProtocolChecks", "FlowRecording",
            .product(name: "Logging", package: "swift-log"),
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOEmbedded", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
        .testTarget(name: "ProxyServingTests", dependencies: [
            "ProxyServing", "FlowRecording", "ProtocolChecks", "Scenarios", "MilagroRecording", "TestSupport",
        ]),
        .testTarget(name: "BenchmarksTests", dependencies: ["Benchmarks", "MPinCrypto"]),
        .testTarget(name: "FlowRecordingTests", dependencies: ["FlowRecording", "OrderedJSON", "SDKSeams", "CommonFormats", "TestSupport"]),
        .testTarget(name: "ProtocolChecksTests", dependencies: ["ProtocolChecks", "FlowRecording", "MPinCrypto", "SDKSeams", "CommonFormats", "MilagroProtocol", "TestSupport"]),
        .testTarget(name: "DeviceSecurityTests", dependencies: ["DeviceSecurity", "SDKSeams", "CurlTransport", "TestSupport"]),
        // What the scenario-level test targets share: the library of bundled scenarios, replaying a
        // cassette with expectations, recording against the embedded backend. Not a product.
        .target(name: "ScenarioTestSupport", dependencies: [
            "Scenarios", "MilagroRecording", "EmbeddedBackend", "FlowRecording", "MPinSDK", "ReferenceBackend", "CurlTransport",
            "TestSupport",
        ], path: "Tests/ScenarioTestSupport"),
        .testTarget(name: "ScenariosTests", dependencies: [
            "Scenarios", "MilagroRecording", "FlowRecording", "OrderedJSON", "MPinSDK", "SDKSeams", "ReferenceBackend", "CurlTransport",
            "TestSupport", "ScenarioTestSupport",
        ]),
        .testTarget(name: "MilagroRecordingTests", dependencies: [
            "MilagroRecording", "Scenarios", "FlowRecording", "OrderedJSON", "MPinSDK", "MPinCrypto", "SDKSeams", "TestSupport",
            "ScenarioTestSupport",
        ]),
        .testTarget(name: "LegacyImportTests", dependencies: [
            "LegacyImport", "Scenarios", "MilagroRecording", "FlowRecording", "OrderedJSON", "MPinSDK", "MPinCrypto", "SDKSeams",
            "TestSupport", "ScenarioTestSupport",
        ], exclude: ["Fixtures"]),
        // The command line: its parts in process, and the built executable end to end.
        .testTarget(name: "WorkbenchCLITests", dependencies: [
            "WorkbenchCLI", "TestSupport", "FlowRecording", "ProtocolChecks", "Scenarios", "MilagroRecording", "ReferenceBackend", "CurlTransport", "SDKSeams", "OrderedJSON",
            "CommonFormats", "ProxyServing",
            // Walks the command tree (every help's example, which commands are async).
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .testTarget(name: "ConformanceTests", dependencies: [
            "Conformance", "ReferenceBackend", "CurlTransport", "SDKSeams", "FlowRecording", "OrderedJSON", "MPinSDK", "TestSupport",
        ], exclude: ["Expected"]),
        .testTarget(name: "ClientConformanceTests", dependencies: [
            "ClientConformance", "Conformance", "ReferenceBackend", "MPinSDK", "MPinCrypto", "SDKSeams", "OrderedJSON",
            "MilagroProtocol", "TestSupport",
        ]),
        .testTarget(name: "WorkbenchTestingTests", dependencies: ["WorkbenchTesting", "WorkbenchTestingEmbedded", "MPinSDK", "FlowRecording", "ReferenceBackend", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The test code compiles without optimisation (`-Onone`), the code it tests with the build's own
// (`make test`'s release): optimising the test targets took 335 s of a fresh clone's 533 s `make
// test` on 2 cores and gained the run nothing (the suite took 161 s optimised, 165 s not; the
// crypto it exercises is in the optimised libraries), docs/testing.md, "Build times".
// An unsafe flag on a test target is allowed to a package used as a dependency: a consumer never
// builds its test targets, nor these two helpers, which no product holds.
for target in package.targets where target.type == .test || ["TestSupport", "ScenarioTestSupport"].contains(target.name) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"])]
}
