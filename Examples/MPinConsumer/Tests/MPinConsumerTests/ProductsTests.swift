import DeviceSecurity
import FlowRecording
import Foundation
import MPinCrypto
import MPinSDK
import OrderedJSON
import Scenarios
import TestVectors
import Testing
import WorkbenchTesting

#if Recording
    import ReferenceBackend
#endif
#if Recording
    import WorkbenchTestingEmbedded
#endif

/// Every library product of the workbench builds, links and works from a package that depends on
/// it, through its public API only (this package cannot see `package` declarations); the backend's
/// and the recording's with the trait `Recording` (`swift test --traits Recording`).
@Suite struct ProductsTests {
    @Test func theCryptoCoreHashesAsSHA256() {
        // SHA-256("abc"), FIPS 180-2 appendix B.1; M-Pin's HASH_ID.
        #expect(
            Hex.encode(MPin().hashID(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func orderedJSONKeepsMemberOrderAndNumberLiterals() throws {
        let value = try JSONParser.parse(#"{"b": 1.50, "a": 2}"#)
        #expect(JSONWriter.compact(value) == #"{"b": 1.50, "a": 2}"#)
    }

    @Test func recordingRefusesAnEmptyObjectAsACassette() {
        #expect(throws: CassetteError.self) { try CassetteFile.decode(Array("{}".utf8)) }
    }

    @Test func scenariosParseAScript() throws {
        let script = try ScriptParser.parse("name: t\nsteps: []\n", file: "t.yaml")
        #expect(script.name == "t")
    }

    @Test func vectorsRefuseAFileWithNothingToCheck() {
        #expect(throws: VectorFileError.self) { try SuiteFileVerifier.verify(text: "{}", file: "v.json") }
    }

    @Test func theConnectorsStoreKeepsTheDeviceState() throws {
        let store = MemoryDeviceStateStore()
        #expect(try store.load() == nil)
    }

    #if Recording
        @Test func theBackendIsConfiguredOnLoopback() {
            let configuration = BackendConfiguration(seed: "consumer")
            #expect(configuration.host == "127.0.0.1" && configuration.seed == "consumer")
        }

        /// With WorkbenchTestingEmbedded linked, a recording runs against the embedded backend.
        @Test func aCassetteIsRecordedAgainstTheEmbeddedBackend() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mpin-consumer-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            try await withCassette(
                "settings", record: .all, backend: .embedded(BackendConfiguration(seed: "consumer")),
                directory: folder
            ) { session in
                try await session.makeClient().initialize(configuration: ["backend": session.backendURL])
            }
            let cassette = try CassetteFile.read(folder + "/settings.json")
            #expect(cassette.backend.embedded && cassette.scenario.seed == "workbench")
        }
    #else
        /// Without WorkbenchTestingEmbedded, replaying works and recording against the embedded
        /// backend fails with an error that names the product to add.
        @Test func recordingWithoutTheEmbeddedProductNamesIt() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "mpin-consumer-\(UUID().uuidString)"
            ).path
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let error = await #expect(throws: CassetteTestError.self) {
                try await withCassette("settings", record: .all, directory: folder) { _ in }
            }
            #expect(
                error?.message.contains(#".product(name: "WorkbenchTestingEmbedded", package: "mpin-workbench")"#)
                    == true)
        }
    #endif
}
